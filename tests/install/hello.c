/* An outside program built against an installed libmbd (tests/install/run.sh):
 * it uses the system interface and the finite-difference checker on a
 * pendulum in Cartesian coordinates, then runs the pipeline as README.md shows
 * it (static penalty with Baumgarte, ode23) and checks that the pendulum
 * stayed on its circle and kept its energy; and it solves a small system
 * with the sparse kind of linsolve.h, so that the link needs SuiteSparse's
 * KLU (mbd.pc must say so for a static link); it prints one line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <mbd/linsolve.h>
#include <mbd/mbd.h>

static int mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set_identity(M);
    return GSL_SUCCESS;
}

static int force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    gsl_vector_set(F, 0, 0.0);
    gsl_vector_set(F, 1, -9.81);
    return GSL_SUCCESS;
}

static int constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s, (void)t;
    double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - 1.0);
    return GSL_SUCCESS;
}

static int jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t;
    gsl_matrix_set(Cq, 0, 0, 2 * gsl_vector_get(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2 * gsl_vector_get(q, 1));
    return GSL_SUCCESS;
}

static int gamma_fn(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                    gsl_vector *g)
{
    (void)s, (void)t, (void)q;
    double u = gsl_vector_get(qd, 0), v = gsl_vector_get(qd, 1);
    gsl_vector_set(g, 0, -2 * (u * u + v * v));
    return GSL_SUCCESS;
}

/* [2 0; 1 3] x = [1; 2] with the sparse solver: x = [0.5; 0.5] */
static int sparse_solve(void)
{
    const size_t rows[] = {0, 1, 1}, cols[] = {0, 1, 0};
    const double values[] = {2, 3, 1};
    double b[2] = {1, 2};
    mbd_linsolve *ls = mbd_linsolve_alloc(MBD_LINSOLVE_SPARSE, 2, 3, rows, cols);
    int st = ls ? mbd_linsolve_factor(ls, values) : GSL_ENOMEM;
    if (st == GSL_SUCCESS)
        st = mbd_linsolve_solve(ls, b);
    mbd_linsolve_free(ls);
    if (st == GSL_SUCCESS && (fabs(b[0] - 0.5) > 1e-15 || fabs(b[1] - 0.5) > 1e-15))
        st = GSL_EFAILED;
    return st;
}

int main(void)
{
    gsl_set_error_handler_off();
    int sst = sparse_solve();
    if (sst != GSL_SUCCESS) {
        printf("the sparse solve failed: %s\n", mbd_strerror(sst));
        return 1;
    }
    mbd_system s = {.n = 2, .m = 1, .mass = mass, .force = force, .constraint = constraint,
                    .jacobian = jacobian, .gamma = gamma_fn};
    double q_[2] = {0.6, -0.8}, qd_[2] = {0.8, 0.6};
    gsl_vector_view q = gsl_vector_view_array(q_, 2), qd = gsl_vector_view_array(qd_, 2);
    mbd_fdcheck r;
    int st = mbd_system_check_derivatives(&s, 0.0, &q.vector, &qd.vector, 0.0, &r);
    if (st != GSL_SUCCESS || r.jacobian_rel > 1e-8 || r.gamma_rel > 1e-6) {
        printf("derivative check failed: %s\n", mbd_strerror(st));
        return 1;
    }

    /* the pipeline, as README.md shows it */
    mbd_system model = s;
    const double q0[2] = {1, 0}, qd0[2] = {0, 0};
    mbd_formulation_params fp = {.mu = 1e5, .alpha = 20, .beta = 20};
    mbd_formulation_method("penalty-baumgarte", &fp);
    mbd_formulation *f = mbd_formulation_alloc(&model, &fp);
    mbd_ode_params ode;
    mbd_ode_preset("ode23", &ode);
    mbd_sim_params sim = {.t0 = 0, .t_end = 5, .dt_out = 1e-3, .max_violation = 1};
    mbd_history h;
    mbd_history_init(&h);
    mbd_failure fail;
    st = f ? mbd_simulate(f, &ode, &sim, q0, qd0, &h, NULL, &fail) : GSL_ENOMEM;
    double worst = 0;
    for (size_t k = 0; k < h.rows; k++)
        worst = fmax(worst, h.C_norm[k]);
    int ok = st == GSL_SUCCESS && h.rows == 5001 && worst < 1e-2;
    mbd_history_free(&h);
    mbd_formulation_free(f);
    if (!ok) {
        printf("the pipeline failed: %s (%s)\n", mbd_strerror(st), fail.cause);
        return 1;
    }
    printf("libmbd %s works: pendulum derivatives check (gamma rel. error %.1e), "
           "5 s simulated (max |C| %.1e), a sparse solve\n",
           MBD_VERSION, r.gamma_rel, worst);
    return 0;
}
