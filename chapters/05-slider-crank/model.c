/* The slider-crank model of document 000, Sec. 2.4.3 (see model.h). */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "model.h"

void ch05_model_document(ch05_model *m)
{
    *m = (ch05_model){
        .g = 9.81, .m1 = 1.0, .m2 = 1.0, .m3 = 1.0, .L1 = 2.0, .L2 = 2.0,
        .theta10 = 3.0 * M_PI / 4.0,
        .mass = CH05_MASS_DOCUMENT,
        .gamma_printed = 0,
        .probe = NULL,
    };
}

void ch05_probe_reset(ch05_probe *p)
{
    *p = (ch05_probe){.min_abs_theta1 = INFINITY, .t = NAN, .cond = NAN, .evaluations = 0};
}

const char *ch05_mass_name(ch05_mass_kind kind)
{
    return kind == CH05_MASS_CONSISTENT ? "consistent" : "document";
}

void ch05_initial(const ch05_model *m, double q0[3], double qd0[3])
{
    const double th1 = m->theta10;
    const double th2 = acos(-cos(th1)) - th1;
    q0[0] = th1;
    q0[1] = th2;
    q0[2] = m->L1 * sin(th1) + m->L2 * sin(th1 + th2);
    qd0[0] = qd0[1] = qd0[2] = 0.0;
}

/* >> constraints */
void ch05_constraint(const ch05_model *m, const double q[3], double C[2])
{
    const double a = q[0], b = q[0] + q[1];
    C[0] = m->L1 * sin(a) + m->L2 * sin(b) - q[2];    /* rod 2's end is at x3 ... */
    C[1] = -m->L1 * cos(a) - m->L2 * cos(b);          /* ... on the x axis */
}

void ch05_jacobian(const ch05_model *m, const double q[3], double Cq[2][3])
{
    const double a = q[0], b = q[0] + q[1];
    Cq[0][0] = m->L1 * cos(a) + m->L2 * cos(b);
    Cq[0][1] = m->L2 * cos(b);
    Cq[0][2] = -1.0;
    Cq[1][0] = m->L1 * sin(a) + m->L2 * sin(b);
    Cq[1][1] = m->L2 * sin(b);
    Cq[1][2] = 0.0;
}

/* C_q q'' = gamma with gamma = -(C_q q')_q q': differentiate C twice. The
 * document prints this with an extra overall minus sign; its listings have
 * it right. gamma_printed reproduces the print. */
void ch05_gamma(const ch05_model *m, const double q[3], const double qd[3], double gamma[2])
{
    const double a = q[0], b = q[0] + q[1];
    const double w1 = qd[0], w12 = qd[0] + qd[1];     /* absolute rates of the rods */
    const double sign = m->gamma_printed ? -1.0 : 1.0;
    gamma[0] = sign * (m->L1 * sin(a) * w1 * w1 + m->L2 * sin(b) * w12 * w12);
    gamma[1] = sign * -(m->L1 * cos(a) * w1 * w1 + m->L2 * cos(b) * w12 * w12);
}
/* << constraints */

/* >> mass */
void ch05_mass_matrix(const ch05_model *m, ch05_mass_kind kind, const double q[3], gsl_matrix *M)
{
    const double I1 = m->m1 * m->L1 * m->L1 / 3.0;    /* rod 1 about its pivot */
    const double I2 = m->m2 * m->L2 * m->L2 / 3.0;    /* rod 2 about its own end */
    gsl_matrix_set_zero(M);
    gsl_matrix_set(M, 2, 2, m->m3);
    if (kind == CH05_MASS_DOCUMENT) {
        /* the document: each rod about its own pivot, nothing else */
        gsl_matrix_set(M, 0, 0, I1);
        gsl_matrix_set(M, 1, 1, I2);
        return;
    }
    /* the two-rod chain: rod 2's centre moves with the crank tip as well */
    const double c = m->m2 * m->L1 * m->L2 * cos(q[1]);
    gsl_matrix_set(M, 0, 0, I1 + m->m2 * m->L1 * m->L1 + I2 + c);
    gsl_matrix_set(M, 0, 1, I2 + 0.5 * c);
    gsl_matrix_set(M, 1, 0, I2 + 0.5 * c);
    gsl_matrix_set(M, 1, 1, I2);
}
/* << mass */

/* >> force */
/* Gravity and the chain's velocity terms, h = (1/2) m2 L1 L2 sin th2: the
 * document's "2 m2 sin th2" is h for L1 = L2 = 2, and its "m2 g (2 sin th1 +
 * sin(th1 + th2))" is m2 g (L1 sin th1 + (L2/2) sin(th1 + th2)). */
void ch05_force(const ch05_model *m, const double q[3], const double qd[3], double F[3])
{
    const double a = q[0], b = q[0] + q[1];
    const double h = 0.5 * m->m2 * m->L1 * m->L2 * sin(q[1]);
    const double w1 = qd[0], w2 = qd[1];
    F[0] = h * (w2 * w2 + 2.0 * w1 * w2)
           - m->m2 * m->g * (m->L1 * sin(a) + 0.5 * m->L2 * sin(b))
           - m->m1 * m->g * 0.5 * m->L1 * sin(a);
    F[1] = -h * w1 * w1 - m->m2 * m->g * 0.5 * m->L2 * sin(b);
    F[2] = 0.0;
}
/* << force */

void ch05_lagrange_velocity_terms(const ch05_model *m, const double q[3], const double qd[3],
                                  double h, double out[3])
{
    /* dM[k] = dM/dq_k by central differences */
    double dM[3][9], store[2][9];
    for (int k = 0; k < 3; k++) {
        double qp[3] = {q[0], q[1], q[2]}, qm[3] = {q[0], q[1], q[2]};
        qp[k] += h;
        qm[k] -= h;
        gsl_matrix_view Mp = gsl_matrix_view_array(store[0], 3, 3);
        gsl_matrix_view Mm = gsl_matrix_view_array(store[1], 3, 3);
        ch05_mass_matrix(m, CH05_MASS_CONSISTENT, qp, &Mp.matrix);
        ch05_mass_matrix(m, CH05_MASS_CONSISTENT, qm, &Mm.matrix);
        for (int e = 0; e < 9; e++)
            dM[k][e] = (store[0][e] - store[1][e]) / (2.0 * h);
    }
    /* c_i = sum_jk (dM_ij/dq_k - (1/2) dM_jk/dq_i) q'_j q'_k */
    for (int i = 0; i < 3; i++) {
        double c = 0.0;
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                c += (dM[k][3 * i + j] - 0.5 * dM[i][3 * j + k]) * qd[j] * qd[k];
        out[i] = -c;
    }
}

/* >> energy */
double ch05_potential(const ch05_model *m, const double q[3])
{
    const double a = q[0], b = q[0] + q[1];
    const double y1 = -0.5 * m->L1 * cos(a);                 /* centre of rod 1 */
    const double y2 = -m->L1 * cos(a) - 0.5 * m->L2 * cos(b); /* centre of rod 2 */
    return m->g * (m->m1 * y1 + m->m2 * y2);                 /* the slider stays at y = 0 */
}

double ch05_kinetic(const ch05_model *m, const double q[3], const double qd[3])
{
    double store[9];
    gsl_matrix_view M = gsl_matrix_view_array(store, 3, 3);
    ch05_mass_matrix(m, CH05_MASS_CONSISTENT, q, &M.matrix);
    double T = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            T += 0.5 * qd[i] * store[3 * i + j] * qd[j];
    return T;
}

double ch05_energy(const ch05_model *m, const double q[3], const double qd[3])
{
    return ch05_kinetic(m, q, qd) + ch05_potential(m, q);
}
/* << energy */

/* ------------------------------------------------------------------------ */
/* The mbd_system callbacks                                                  */

/* the angle a taken into (-pi, pi] */
static double wrap(double a)
{
    a = fmod(a, 2.0 * M_PI);
    if (a > M_PI)
        a -= 2.0 * M_PI;
    else if (a <= -M_PI)
        a += 2.0 * M_PI;
    return a;
}

/* the callbacks get vectors that may be views with a stride: copy them */
static void get3(const gsl_vector *v, double out[3])
{
    for (size_t i = 0; i < 3; i++)
        out[i] = gsl_vector_get(v, i);
}

static int sys_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *F)
{
    (void)t;
    double qq[3], vv[3], f[3];
    get3(q, qq);
    get3(qd, vv);
    ch05_force(s->model, qq, vv, f);
    for (size_t i = 0; i < 3; i++)
        gsl_vector_set(F, i, f[i]);
    return GSL_SUCCESS;
}

static int sys_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)t;
    double qq[3], c[2];
    get3(q, qq);
    ch05_constraint(s->model, qq, c);
    gsl_vector_set(C, 0, c[0]);
    gsl_vector_set(C, 1, c[1]);
    return GSL_SUCCESS;
}

static int sys_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)t;
    double qq[3], J[2][3];
    get3(q, qq);
    ch05_jacobian(s->model, qq, J);
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < 3; j++)
            gsl_matrix_set(Cq, i, j, J[i][j]);
    return GSL_SUCCESS;
}

static int sys_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *gamma)
{
    (void)t;
    double qq[3], vv[3], gm[2];
    get3(q, qq);
    get3(qd, vv);
    ch05_gamma(s->model, qq, vv, gm);
    gsl_vector_set(gamma, 0, gm[0]);
    gsl_vector_set(gamma, 1, gm[1]);
    return GSL_SUCCESS;
}

static int sys_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      double *E)
{
    (void)t;
    double qq[3], vv[3];
    get3(q, qq);
    get3(qd, vv);
    *E = ch05_energy(s->model, qq, vv);
    return GSL_SUCCESS;
}

static int sys_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    const ch05_model *m = s->model;
    double qq[3];
    get3(q, qq);
    ch05_mass_matrix(m, m->mass, qq, M);
    if (m->probe) {
        ch05_probe *p = m->probe;
        p->evaluations++;
        double a = fabs(wrap(qq[0]));
        if (a < p->min_abs_theta1) {
            p->min_abs_theta1 = a;
            p->t = t;
            p->cond = ch05_schur_condition(m, m->mass, qq);
        }
    }
    return GSL_SUCCESS;
}

void ch05_system(ch05_model *m, mbd_system *s)
{
    static const char *const names[] = {"theta1", "theta2", "x3"};
    *s = (mbd_system){
        .n = 3,
        .m = 2,
        .names = names,
        .model = m,
        .mass = sys_mass,
        .force = sys_force,
        .constraint = sys_constraint,
        .jacobian = sys_jacobian,
        .constraint_t = NULL,
        .gamma = sys_gamma,
        .energy = sys_energy,
    };
}

/* ------------------------------------------------------------------------ */
/* The branch and the fold                                                   */

void ch05_branch_state(const ch05_model *m, double th1, double th1d, double q[3], double qd[3])
{
    q[0] = th1;
    q[1] = M_PI - 2.0 * th1;
    q[2] = 2.0 * m->L1 * sin(th1);
    qd[0] = th1d;
    qd[1] = -2.0 * th1d;
    qd[2] = 2.0 * m->L1 * cos(th1) * th1d;
}

double ch05_branch_residual(const ch05_model *m, const double q[3])
{
    return fmax(fabs(wrap(q[1] + 2.0 * q[0] - M_PI)), fabs(q[2] - 2.0 * m->L1 * sin(q[0])));
}

double ch05_folded_residual(const double q[3])
{
    return fmax(fabs(wrap(q[1] - M_PI)), fabs(q[2]));
}

/* >> schur */
void ch05_schur(const ch05_model *m, ch05_mass_kind kind, const double q[3], double S[2][2])
{
    double A[3][3], J[2][3];
    gsl_matrix_view M = gsl_matrix_view_array(&A[0][0], 3, 3);
    ch05_mass_matrix(m, kind, q, &M.matrix);
    ch05_jacobian(m, q, J);
    /* M = L L^T (M is positive definite), then the rows of Y = L^-1 C_q^T:
     * S = Y^T Y, symmetric by construction */
    double L[3][3] = {{0}};
    for (int j = 0; j < 3; j++) {
        double d = A[j][j];
        for (int k = 0; k < j; k++)
            d -= L[j][k] * L[j][k];
        L[j][j] = sqrt(d);
        for (int i = j + 1; i < 3; i++) {
            double s = A[i][j];
            for (int k = 0; k < j; k++)
                s -= L[i][k] * L[j][k];
            L[i][j] = s / L[j][j];
        }
    }
    double Y[2][3];
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 3; i++) {
            double s = J[c][i];
            for (int k = 0; k < i; k++)
                s -= L[i][k] * Y[c][k];
            Y[c][i] = s / L[i][i];
        }
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            S[i][k] = Y[i][0] * Y[k][0] + Y[i][1] * Y[k][1] + Y[i][2] * Y[k][2];
}

/* the eigenvalues of a symmetric 2 x 2 matrix in closed form */
double ch05_schur_condition(const ch05_model *m, ch05_mass_kind kind, const double q[3])
{
    double S[2][2];
    ch05_schur(m, kind, q, S);
    const double mean = 0.5 * (S[0][0] + S[1][1]);
    const double half = 0.5 * (S[0][0] - S[1][1]);
    const double r = hypot(half, S[0][1]);
    const double lmax = mean + r;
    /* lambda_min = det / lambda_max, which keeps its digits when it is tiny */
    const double det = S[0][0] * S[1][1] - S[0][1] * S[0][1];
    const double lmin = det / lmax;
    if (!(lmin > 0.0))
        return INFINITY;
    return lmax / lmin;
}
/* << schur */
