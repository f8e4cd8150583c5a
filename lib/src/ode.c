/* The integrators of ode.h: one explicit Runge-Kutta engine driven by
 * tableaux, the Adams family, implicit Euler, and a bridge to gsl_odeiv2. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>

#include "mbd/ode.h"

/* ------------------------------------------------------------------------ */
/* Tableaux                                                                  */

static const double euler_c[] = {0}, euler_a[] = {0}, euler_b[] = {1};
const mbd_tableau mbd_tableau_euler = {"euler", 1, euler_c, euler_a, euler_b, NULL, 1, 0, 0, 0};

static const double mid_c[] = {0, 0.5}, mid_a[] = {0, 0, 0.5, 0}, mid_b[] = {0, 1};
const mbd_tableau mbd_tableau_midpoint = {"midpoint", 2, mid_c, mid_a, mid_b, NULL, 2, 0, 0, 0};

static const double heun_c[] = {0, 1}, heun_a[] = {0, 0, 1, 0}, heun_b[] = {0.5, 0.5};
const mbd_tableau mbd_tableau_heun = {"heun", 2, heun_c, heun_a, heun_b, NULL, 2, 0, 0, 0};

static const double ral_c[] = {0, 2.0 / 3.0}, ral_a[] = {0, 0, 2.0 / 3.0, 0},
                    ral_b[] = {0.25, 0.75};
const mbd_tableau mbd_tableau_ralston = {"ralston", 2, ral_c, ral_a, ral_b, NULL, 2, 0, 0, 0};

static const double rk4_c[] = {0, 0.5, 0.5, 1};
static const double rk4_a[] = {0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0};
static const double rk4_b[] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
const mbd_tableau mbd_tableau_rk4 = {"rk4", 4, rk4_c, rk4_a, rk4_b, NULL, 4, 0, 0, 0};

/* Bogacki & Shampine (1989): the third-order solution is propagated, and its
 * last stage is f at the new point (first same as last). */
static const double bs_c[] = {0, 0.5, 0.75, 1};
static const double bs_a[] = {0, 0, 0, 0,
                              0.5, 0, 0, 0,
                              0, 0.75, 0, 0,
                              2.0 / 9, 1.0 / 3, 4.0 / 9, 0};
static const double bs_b[] = {2.0 / 9, 1.0 / 3, 4.0 / 9, 0};
static const double bs_bh[] = {7.0 / 24, 0.25, 1.0 / 3, 0.125};
const mbd_tableau mbd_tableau_bs23 = {"bs23", 4, bs_c, bs_a, bs_b, bs_bh, 3, 2, 1, 0};

/* Fehlberg's 2(3) pair as document 001 prints it (Sec. "Runge-Kutta-Fehlberg"):
 * the order-3 weights c-hat are propagated here, the order-2 weights c estimate
 * the error. (Propagating the order-2 solution would make it FSAL.) */
static const double f23_c[] = {0, 0.25, 27.0 / 40, 1};
static const double f23_a[] = {0, 0, 0, 0,
                               0.25, 0, 0, 0,
                               -189.0 / 800, 729.0 / 800, 0, 0,
                               214.0 / 891, 1.0 / 33, 650.0 / 891, 0};
static const double f23_b[] = {533.0 / 2106, 0, 800.0 / 1053, -1.0 / 78};
static const double f23_bh[] = {214.0 / 891, 1.0 / 33, 650.0 / 891, 0};
const mbd_tableau mbd_tableau_rkf23 = {"rkf23", 4, f23_c, f23_a, f23_b, f23_bh, 3, 2, 0, 0};

/* Fehlberg 4(5); the fifth-order solution is propagated, as GSL's rkf45 does. */
static const double f45_c[] = {0, 0.25, 3.0 / 8, 12.0 / 13, 1, 0.5};
static const double f45_a[] = {
    0, 0, 0, 0, 0, 0,
    0.25, 0, 0, 0, 0, 0,
    3.0 / 32, 9.0 / 32, 0, 0, 0, 0,
    1932.0 / 2197, -7200.0 / 2197, 7296.0 / 2197, 0, 0, 0,
    439.0 / 216, -8, 3680.0 / 513, -845.0 / 4104, 0, 0,
    -8.0 / 27, 2, -3544.0 / 2565, 1859.0 / 4104, -11.0 / 40, 0};
static const double f45_b[] = {16.0 / 135, 0, 6656.0 / 12825, 28561.0 / 56430, -9.0 / 50, 2.0 / 55};
static const double f45_bh[] = {25.0 / 216, 0, 1408.0 / 2565, 2197.0 / 4104, -0.2, 0};
const mbd_tableau mbd_tableau_rkf45 = {"rkf45", 6, f45_c, f45_a, f45_b, f45_bh, 5, 4, 0, 0};

/* Cash & Karp (1990), as document 001 prints it; order 5 propagated, order 4
 * embedded. (Its order 1-3 rows are for the chapter's variable-order use.) */
static const double ck_c[] = {0, 0.2, 0.3, 0.6, 1, 7.0 / 8};
static const double ck_a[] = {
    0, 0, 0, 0, 0, 0,
    0.2, 0, 0, 0, 0, 0,
    3.0 / 40, 9.0 / 40, 0, 0, 0, 0,
    0.3, -0.9, 1.2, 0, 0, 0,
    -11.0 / 54, 2.5, -70.0 / 27, 35.0 / 27, 0, 0,
    1631.0 / 55296, 175.0 / 512, 575.0 / 13824, 44275.0 / 110592, 253.0 / 4096, 0};
static const double ck_b[] = {37.0 / 378, 0, 250.0 / 621, 125.0 / 594, 0, 512.0 / 1771};
static const double ck_bh[] = {2825.0 / 27648, 0, 18575.0 / 48384, 13525.0 / 55296,
                               277.0 / 14336, 0.25};
const mbd_tableau mbd_tableau_cash_karp = {"cash-karp", 6, ck_c, ck_a, ck_b, ck_bh, 5, 4, 0, 0};

/* Dormand & Prince (1980) 5(4), FSAL, with Shampine's (1986) continuous
 * extension of order 4. */
static const double dp_c[] = {0, 0.2, 0.3, 0.8, 8.0 / 9, 1, 1};
static const double dp_a[] = {
    0, 0, 0, 0, 0, 0, 0,
    0.2, 0, 0, 0, 0, 0, 0,
    3.0 / 40, 9.0 / 40, 0, 0, 0, 0, 0,
    44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0, 0,
    19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0, 0,
    9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0, 0,
    35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0};
static const double dp_b[] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0};
static const double dp_bh[] = {5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640,
                               -92097.0 / 339200, 187.0 / 2100, 1.0 / 40};
const mbd_tableau mbd_tableau_dopri5 = {"dopri5", 7, dp_c, dp_a, dp_b, dp_bh, 5, 4, 1, 1};
static const double dp_d[7] = {-12715105075.0 / 11282082432.0, 0,
                               87487479700.0 / 32700410799.0, -10690763975.0 / 1880347072.0,
                               701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
                               69997945.0 / 29380423.0};

/* Adams coefficients, newest first. AB_k uses f_n ... f_{n-k+1}; AM_k uses
 * f_{n+1}, f_n, ..., f_{n-k+2}. */
static const double AB[5][4] = {
    {0},
    {1},
    {1.5, -0.5},
    {23.0 / 12, -16.0 / 12, 5.0 / 12},
    {55.0 / 24, -59.0 / 24, 37.0 / 24, -9.0 / 24}};
static const double AM[6][5] = {
    {0},
    {1},
    {0.5, 0.5},
    {5.0 / 12, 8.0 / 12, -1.0 / 12},
    {9.0 / 24, 19.0 / 24, -5.0 / 24, 1.0 / 24},
    {251.0 / 720, 646.0 / 720, -264.0 / 720, 106.0 / 720, -19.0 / 720}};

#define MAX_HIST 5

/* ------------------------------------------------------------------------ */

struct mbd_ode {
    mbd_ode_params p;
    size_t n;
    mbd_rhs f;
    void *params;
    mbd_ode_stats stats;
    mbd_failure fail;

    double t0, t_end;
    double h_next, h_last, err_last;
    int have_f0;              /* k[0] holds f(t, y) at the current point */
    int failed_last;          /* the last step had a rejected attempt (MATLAB growth rule) */

    /* Runge-Kutta work */
    double *k;                /* stages x n */
    double *ytmp, *ynew, *yerr, *yhalf, *khalf;

    /* dense output of the last step */
    double tp, hp;            /* it went from tp to tp + hp */
    double *yp, *fp, *y1, *f1;
    double *rcont;            /* DOPRI5: 5 x n */

    /* multistep history: fh[0] = f_n, fh[1] = f_{n-1}, ... */
    double *fh[MAX_HIST];
    unsigned nhist;

    /* implicit methods */
    gsl_matrix *J, *W;
    gsl_permutation *perm;
    gsl_vector *rhs, *dx;
    double *fbase;

    /* GSL */
    gsl_odeiv2_system sys;
    gsl_odeiv2_driver *gdriver;  /* owns the step, control and evolve objects */
    gsl_odeiv2_step *gstep;
    gsl_odeiv2_control *gcontrol;
    gsl_odeiv2_evolve *gevolve;
};

static int eval(mbd_ode *o, double t, const double *y, double *dydt)
{
    o->stats.fevals++;
    int st = o->f(t, y, dydt, o->params);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&o->fail, st, t, "the right-hand side failed: %s", mbd_strerror(st));
    return GSL_SUCCESS;
}

static int all_finite(const double *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return 0;
    return 1;
}

/* Forward-difference Jacobian for implicit methods and GSL's msbdf. */
static int fd_jacobian(mbd_ode *o, double t, const double *y, const double *f0, gsl_matrix *J)
{
    const size_t n = o->n;
    memcpy(o->ytmp, y, n * sizeof *y);
    for (size_t j = 0; j < n; j++) {
        double h = sqrt(DBL_EPSILON) * fmax(1.0, fabs(y[j]));
        o->ytmp[j] = y[j] + h;
        int st = eval(o, t, o->ytmp, o->fbase);
        o->ytmp[j] = y[j];
        if (st != GSL_SUCCESS)
            return st;
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(J, i, j, (o->fbase[i] - f0[i]) / h);
    }
    o->stats.jevals++;
    return GSL_SUCCESS;
}

static int gsl_rhs(double t, const double y[], double dydt[], void *self)
{
    mbd_ode *o = self;
    o->stats.fevals++;
    return o->f(t, y, dydt, o->params);
}

static int gsl_jac(double t, const double y[], double *dfdy, double dfdt[], void *self)
{
    mbd_ode *o = self;
    const size_t n = o->n;
    double *f0 = o->yerr;   /* scratch not used by the GSL path */
    int st = gsl_rhs(t, y, f0, o);
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_view J = gsl_matrix_view_array(dfdy, n, n);
    st = fd_jacobian(o, t, y, f0, &J.matrix);
    if (st != GSL_SUCCESS)
        return st;
    double ht = sqrt(DBL_EPSILON) * fmax(1.0, fabs(t));
    st = gsl_rhs(t + ht, y, o->fbase, o);
    for (size_t i = 0; i < n; i++)
        dfdt[i] = (o->fbase[i] - f0[i]) / ht;
    return st;
}

/* ------------------------------------------------------------------------ */

static double *vec(size_t n) { return calloc(n ? n : 1, sizeof(double)); }

mbd_ode *mbd_ode_alloc(const mbd_ode_params *p, size_t n, mbd_rhs f, void *params)
{
    if (n == 0 || f == NULL)
        return NULL;
    switch (p->kind) {
    case MBD_ODE_RK:
        if (p->tableau == NULL || (p->adaptive && !p->doubling && p->tableau->bhat == NULL))
            return NULL;
        break;
    case MBD_ODE_AB:
        if (p->order < 1 || p->order > 4)
            return NULL;
        break;
    case MBD_ODE_AM:
        if (p->order < 1 || p->order > 5)
            return NULL;
        break;
    case MBD_ODE_PECE:
        if (p->order < 2 || p->order > 4 || p->corrections < 1)
            return NULL;
        break;
    case MBD_ODE_IMPLICIT_EULER:
        break;
    case MBD_ODE_GSL:
        if (p->gsl_type == NULL)
            return NULL;
        break;
    default:
        return NULL;
    }
    if (!p->adaptive && !(p->h > 0) && p->kind != MBD_ODE_GSL)
        return NULL;

    mbd_ode *o = calloc(1, sizeof *o);
    if (o == NULL)
        return NULL;
    o->p = *p;
    o->n = n;
    o->f = f;
    o->params = params;
    mbd_failure_clear(&o->fail);
    unsigned stages = p->kind == MBD_ODE_RK ? p->tableau->stages : 4;   /* RK4 starter */
    o->k = vec(stages * n);
    o->khalf = vec(n);
    o->ytmp = vec(n);
    o->ynew = vec(n);
    o->yerr = vec(n);
    o->yhalf = vec(n);
    o->yp = vec(n);
    o->fp = vec(n);
    o->y1 = vec(n);
    o->f1 = vec(n);
    o->fbase = vec(n);
    o->rcont = vec(5 * n);
    for (int i = 0; i < MAX_HIST; i++)
        o->fh[i] = vec(n);
    if (p->kind == MBD_ODE_AM || p->kind == MBD_ODE_IMPLICIT_EULER || p->kind == MBD_ODE_GSL) {
        o->J = gsl_matrix_alloc(n, n);
        o->W = gsl_matrix_alloc(n, n);
        o->perm = gsl_permutation_alloc(n);
        o->rhs = gsl_vector_alloc(n);
        o->dx = gsl_vector_alloc(n);
    }
    if (p->kind == MBD_ODE_GSL) {
        /* A driver ties step, control and evolve together; msbdf refuses to
         * step without one. We still call evolve_apply ourselves, one step at
         * a time. */
        o->sys = (gsl_odeiv2_system){gsl_rhs, gsl_jac, n, o};
        o->gdriver = gsl_odeiv2_driver_alloc_standard_new(&o->sys, p->gsl_type,
                                                          p->h > 0 ? p->h : 1e-6, p->atol,
                                                          p->rtol, 1.0, 0.0);
        if (o->gdriver == NULL) {
            mbd_ode_free(o);
            return NULL;
        }
        o->gstep = o->gdriver->s;
        o->gcontrol = o->gdriver->c;
        o->gevolve = o->gdriver->e;
    }
    return o;
}

void mbd_ode_free(mbd_ode *o)
{
    if (o == NULL)
        return;
    free(o->k);
    free(o->khalf);
    free(o->ytmp);
    free(o->ynew);
    free(o->yerr);
    free(o->yhalf);
    free(o->yp);
    free(o->fp);
    free(o->y1);
    free(o->f1);
    free(o->fbase);
    free(o->rcont);
    for (int i = 0; i < MAX_HIST; i++)
        free(o->fh[i]);
    if (o->J) {
        gsl_matrix_free(o->J);
        gsl_matrix_free(o->W);
        gsl_permutation_free(o->perm);
        gsl_vector_free(o->rhs);
        gsl_vector_free(o->dx);
    }
    if (o->gdriver)
        gsl_odeiv2_driver_free(o->gdriver);
    free(o);
}

int mbd_ode_is_explicit(const mbd_ode_params *p)
{
    switch (p->kind) {
    case MBD_ODE_RK:
    case MBD_ODE_AB:
    case MBD_ODE_PECE:
        return 1;
    case MBD_ODE_AM:
    case MBD_ODE_IMPLICIT_EULER:
        return p->fixed_point;
    case MBD_ODE_GSL:
        return p->gsl_type != gsl_odeiv2_step_msbdf && p->gsl_type != gsl_odeiv2_step_bsimp
               && p->gsl_type != gsl_odeiv2_step_rk1imp && p->gsl_type != gsl_odeiv2_step_rk2imp
               && p->gsl_type != gsl_odeiv2_step_rk4imp;
    }
    return 1;
}

int mbd_ode_spectral_radius(mbd_ode *o, double t, const double y[], double *rho)
{
    const size_t n = o->n;
    *rho = NAN;
    double *w = malloc(3 * n * sizeof *w);
    if (w == NULL)
        return GSL_ENOMEM;
    double *f0 = w, *v = w + n, *yp = w + 2 * n;
    int st = o->f(t, y, f0, o->params);
    double ynorm = 0.0;
    for (size_t i = 0; i < n; i++) {
        v[i] = (i % 2 ? -1.0 : 1.0) * (1.0 + 0.1 * (double)i);   /* not special to any mode */
        ynorm = fmax(ynorm, fabs(y[i]));
    }
    const double delta = sqrt(DBL_EPSILON) * fmax(1.0, ynorm);
    double est = 0.0, prev = 0.0;
    for (int it = 0; it < 12 && st == GSL_SUCCESS; it++) {
        double vn = 0.0;
        for (size_t i = 0; i < n; i++)
            vn += v[i] * v[i];
        vn = sqrt(vn);
        if (!(vn > 0.0) || !isfinite(vn))
            break;
        for (size_t i = 0; i < n; i++)
            yp[i] = y[i] + delta * v[i] / vn;
        st = o->f(t, yp, v, o->params);
        if (st != GSL_SUCCESS)
            break;
        double jn = 0.0;   /* |J v| / |v| */
        for (size_t i = 0; i < n; i++) {
            v[i] = (v[i] - f0[i]) / delta;
            jn += v[i] * v[i];
        }
        jn = sqrt(jn);
        /* one ratio can be far from the radius when J is not normal (an
         * oscillator's [0 1; -w^2 0] maps e1 to w^2 e2); the geometric mean of
         * two consecutive ratios, |J^2 v| / |v| to the half, is the modulus of
         * the dominant eigenvalue, real or a complex pair */
        if (it >= 6)
            est = fmax(est, sqrt(prev * jn));
        prev = jn;
    }
    free(w);
    if (st == GSL_SUCCESS)
        *rho = est;
    return st;
}

size_t mbd_ode_dim(const mbd_ode *o) { return o->n; }
const mbd_ode_stats *mbd_ode_get_stats(const mbd_ode *o) { return &o->stats; }
const mbd_failure *mbd_ode_failure(const mbd_ode *o) { return &o->fail; }
const mbd_ode_params *mbd_ode_get_params(const mbd_ode *o) { return &o->p; }
double mbd_ode_last_h(const mbd_ode *o) { return o->h_last; }
double mbd_ode_next_h(const mbd_ode *o) { return o->h_next; }
double mbd_ode_last_error(const mbd_ode *o) { return o->err_last; }

/* order of the error estimate: the lower of the pair's orders */
static unsigned error_order(const mbd_ode *o)
{
    if (o->p.kind != MBD_ODE_RK)
        return 1;
    const mbd_tableau *tb = o->p.tableau;
    if (o->p.doubling)
        return tb->order;
    return tb->order_hat < tb->order ? tb->order_hat : tb->order;
}

static double hmin_at(const mbd_ode *o, double t)
{
    return o->p.hmin > 0 ? o->p.hmin
                         : 16.0 * DBL_EPSILON * fmax(fmax(fabs(t), fabs(o->t_end - o->t0)), DBL_MIN);
}

static double hmax_of(const mbd_ode *o)
{
    if (o->p.hmax > 0)
        return o->p.hmax;
    if (o->p.control == MBD_CONTROL_MATLAB)
        return 0.1 * fabs(o->t_end - o->t0);
    return HUGE_VAL;
}

/* The first step of an adaptive method (k[0] holds f(t0, y0)). */
static int initial_step(mbd_ode *o, double t, const double *y)
{
    const size_t n = o->n;
    const double *f0 = o->k;
    const double span = fabs(o->t_end - t);
    if (o->p.h > 0) {
        if (o->p.h < hmin_at(o, t))
            return mbd_failure_set(&o->fail, MBD_EINPUT, t,
                                   "the initial step %.3g is below the smallest step %.3g that "
                                   "can advance this run", o->p.h, hmin_at(o, t));
        o->h_next = fmin(o->p.h, hmax_of(o));
        return GSL_SUCCESS;
    }
    unsigned q = error_order(o);
    if (o->p.control == MBD_CONTROL_MATLAB) {
        /* MATLAB's ode23/ode45 starting rule */
        double threshold = o->p.atol / o->p.rtol, rh = 0.0;
        for (size_t i = 0; i < n; i++)
            rh = fmax(rh, fabs(f0[i]) / fmax(fabs(y[i]), threshold));
        rh /= 0.8 * pow(o->p.rtol, 1.0 / (q + 1));
        double h = fmin(hmax_of(o), span);
        if (h * rh > 1.0)
            h = 1.0 / rh;
        o->h_next = fmax(h, hmin_at(o, t));
        return GSL_SUCCESS;
    }
    /* Hairer, Norsett & Wanner's rule: an Euler step gives f's rate of change */
    double d0 = 0, d1 = 0, d2 = 0;
    for (size_t i = 0; i < n; i++) {
        double sc = o->p.atol + o->p.rtol * fabs(y[i]);
        d0 += (y[i] / sc) * (y[i] / sc);
        d1 += (f0[i] / sc) * (f0[i] / sc);
    }
    d0 = sqrt(d0 / n);
    d1 = sqrt(d1 / n);
    double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    h0 = fmin(h0, span);
    for (size_t i = 0; i < n; i++)
        o->ytmp[i] = y[i] + h0 * f0[i];
    int st = eval(o, t + h0, o->ytmp, o->fbase);
    if (st != GSL_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++) {
        double sc = o->p.atol + o->p.rtol * fabs(y[i]);
        double d = (o->fbase[i] - f0[i]) / sc;
        d2 += d * d;
    }
    d2 = sqrt(d2 / n) / h0;
    double h1 = fmax(d1, d2) <= 1e-15 ? fmax(1e-6, 1e-3 * h0)
                                      : pow(0.01 / fmax(d1, d2), 1.0 / (q + 1));
    o->h_next = fmin(fmin(100 * h0, h1), fmin(hmax_of(o), span));
    /* a first guess below the floor is raised to it; only the error control
     * rejecting a step down to the floor is a failure */
    o->h_next = fmin(fmax(o->h_next, hmin_at(o, t)), span);
    return GSL_SUCCESS;
}

int mbd_ode_start(mbd_ode *o, double t0, const double y0[], double t_end)
{
    mbd_failure_clear(&o->fail);
    memset(&o->stats, 0, sizeof o->stats);
    o->t0 = t0;
    o->t_end = t_end;
    o->have_f0 = 0;
    o->nhist = 0;
    o->failed_last = 0;
    o->err_last = NAN;
    o->h_last = 0.0;
    if (!all_finite(y0, o->n))
        return mbd_failure_set(&o->fail, MBD_ENONFINITE, t0, "the initial state is not finite");
    if (o->p.kind == MBD_ODE_GSL) {
        gsl_odeiv2_step_reset(o->gstep);
        gsl_odeiv2_evolve_reset(o->gevolve);
        o->h_next = o->p.h > 0 ? o->p.h : 1e-6 * fmax(1.0, fabs(t_end - t0));
        return GSL_SUCCESS;
    }
    int st = eval(o, t0, y0, o->k);
    if (st != GSL_SUCCESS)
        return st;
    o->have_f0 = 1;
    memcpy(o->fh[0], o->k, o->n * sizeof(double));
    o->nhist = 1;
    if (o->p.adaptive)
        return initial_step(o, t0, y0);
    o->h_next = o->p.h;
    return GSL_SUCCESS;
}

int mbd_ode_reset(mbd_ode *o, double t, const double y[])
{
    o->stats.resets++;
    o->have_f0 = 0;
    o->nhist = 0;
    if (o->p.kind == MBD_ODE_GSL) {
        gsl_odeiv2_step_reset(o->gstep);
        gsl_odeiv2_evolve_reset(o->gevolve);
        return GSL_SUCCESS;
    }
    int st = eval(o, t, y, o->k);
    if (st != GSL_SUCCESS)
        return st;
    o->have_f0 = 1;
    memcpy(o->fh[0], o->k, o->n * sizeof(double));
    o->nhist = 1;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Runge-Kutta                                                               */

/* One attempt with tableau tb from (t, y) with step h, k[0] = f(t, y) given.
 * Writes y_{n+1} into ynew and, with an embedded pair, the difference of the
 * two solutions into yerr. */
static int rk_attempt(mbd_ode *o, const mbd_tableau *tb, double t, const double *y, double h,
                      double *k, double *ynew, double *yerr)
{
    const size_t n = o->n;
    const unsigned S = tb->stages;
    for (unsigned s = 1; s < S; s++) {
        for (size_t i = 0; i < n; i++) {
            double acc = 0.0;
            for (unsigned j = 0; j < s; j++)
                acc += tb->a[s * S + j] * k[j * n + i];
            o->ytmp[i] = y[i] + h * acc;
        }
        int st = eval(o, t + tb->c[s] * h, o->ytmp, k + s * n);
        if (st != GSL_SUCCESS)
            return st;
    }
    for (size_t i = 0; i < n; i++) {
        double acc = 0.0, err = 0.0;
        for (unsigned j = 0; j < S; j++) {
            acc += tb->b[j] * k[j * n + i];
            if (tb->bhat)
                err += (tb->b[j] - tb->bhat[j]) * k[j * n + i];
        }
        ynew[i] = y[i] + h * acc;
        if (yerr)
            yerr[i] = h * err;
    }
    return GSL_SUCCESS;
}

/* the error in the control's norm; <= 1 accepts */
static double error_norm(const mbd_ode *o, const double *y, const double *ynew, const double *e)
{
    const size_t n = o->n;
    double acc = 0.0;
    if (o->p.control == MBD_CONTROL_MATLAB) {
        double threshold = o->p.atol / o->p.rtol;
        for (size_t i = 0; i < n; i++)
            acc = fmax(acc, fabs(e[i]) / fmax(fmax(fabs(y[i]), fabs(ynew[i])), threshold));
        return acc / o->p.rtol;
    }
    for (size_t i = 0; i < n; i++) {
        double sc = o->p.atol + o->p.rtol * fmax(fabs(y[i]), fabs(ynew[i]));
        acc += (e[i] / sc) * (e[i] / sc);
    }
    return sqrt(acc / n);
}

/* Saves the step's end points for the interpolant and makes f(t + h, y_{n+1})
 * the first stage of the next step. */
static int finish_step(mbd_ode *o, double t, const double *y, double h, const double *ynew,
                       const double *fnew_or_null)
{
    const size_t n = o->n;
    o->tp = t;
    o->hp = h;
    memcpy(o->yp, y, n * sizeof *y);
    memcpy(o->fp, o->k, n * sizeof *y);
    memcpy(o->y1, ynew, n * sizeof *y);
    if (fnew_or_null) {
        memcpy(o->f1, fnew_or_null, n * sizeof *y);
    } else {
        int st = eval(o, t + h, ynew, o->f1);
        if (st != GSL_SUCCESS)
            return st;
    }
    memcpy(o->k, o->f1, n * sizeof *y);
    o->have_f0 = 1;
    return GSL_SUCCESS;
}

/* The error control shrank the step below its minimum: say why. When the
 * tolerance asks for less than a few hundred units of round-off in every
 * component, no step can meet it; otherwise the solution itself is not smooth
 * at t (a singularity, a discontinuity, a blow-up). */
static int step_collapse(mbd_ode *o, double t, const double *y, double h)
{
    const double hmin = hmin_at(o, t);
    double size = 0.0;
    for (size_t i = 0; i < o->n; i++)
        size = fmax(size, fabs(y[i]));
    if (o->p.rtol < 256.0 * DBL_EPSILON && o->p.atol < 256.0 * DBL_EPSILON * size)
        return mbd_failure_set(&o->fail, MBD_ESTEPSIZE, t,
                               "the tolerance (rtol %.3g, atol %.3g) is below the round-off of "
                               "double precision (about %.1g relative): %s's step fell to %.3g, "
                               "under its minimum %.3g, without meeting it",
                               o->p.rtol, o->p.atol, 256.0 * DBL_EPSILON,
                               o->p.name ? o->p.name : "the integrator", h, hmin);
    return mbd_failure_set(&o->fail, MBD_ESTEPSIZE, t,
                           "the step size fell to %.3g, under its minimum %.3g, without meeting "
                           "the tolerance: the solution is not smooth at t = %.9g (a "
                           "singularity, a discontinuity or a blow-up) (%s)",
                           h, hmin, t, o->p.name ? o->p.name : "the integrator");
}

static int rk_step(mbd_ode *o, double *t, double *y, double t_stop)
{
    const mbd_tableau *tb = o->p.tableau;
    const size_t n = o->n;
    const unsigned S = tb->stages;
    int st;
    if (!o->have_f0) {
        st = eval(o, *t, y, o->k);
        if (st != GSL_SUCCESS)
            return st;
        o->have_f0 = 1;
    }
    const double remaining = t_stop - *t;
    double h = o->h_next;

    if (!o->p.adaptive) {
        /* fixed step: the last step may be shortened to land on t_stop, or
         * stretched by the round-off that t accumulates over many steps
         * (t += h thousands of times lands a few ulp short of t_stop; without
         * this, a sliver of a step of 1e-12 h would follow) */
        if (h > remaining - 1e-6 * h)
            h = remaining;
        st = rk_attempt(o, tb, *t, y, h, o->k, o->ynew, NULL);
        if (st != GSL_SUCCESS)
            return st;
        if (!all_finite(o->ynew, n))
            return mbd_failure_set(&o->fail, MBD_ENONFINITE, *t + h,
                                   "the state became non-finite in a %s step of h = %g", tb->name, h);
        st = finish_step(o, *t, y, h, o->ynew, tb->fsal ? o->k + (S - 1) * n : NULL);
        if (st != GSL_SUCCESS)
            return st;
        *t = (h == remaining) ? t_stop : *t + h;
        memcpy(y, o->ynew, n * sizeof *y);
        o->h_last = h;
        o->stats.steps++;
        return GSL_SUCCESS;
    }

    const unsigned q = error_order(o);
    const double hmax = hmax_of(o);
    int rejected_here = 0;
    for (;;) {
        h = fmin(h, hmax);
        /* stretch or shorten the step to land on t_stop (MATLAB: within 10 %) */
        if (1.1 * h >= remaining)
            h = remaining;
        if (h < hmin_at(o, *t))
            return step_collapse(o, *t, y, h);
        double *yprop;
        if (o->p.doubling) {
            /* one step of h, and two of h/2 from the same k[0] */
            st = rk_attempt(o, tb, *t, y, h, o->k, o->ynew, NULL);
            if (st == GSL_SUCCESS) {
                memcpy(o->khalf, o->k, n * sizeof *y);     /* keep f(t, y) */
                st = rk_attempt(o, tb, *t, y, 0.5 * h, o->k, o->yhalf, NULL);
            }
            if (st == GSL_SUCCESS)
                st = eval(o, *t + 0.5 * h, o->yhalf, o->k);
            if (st == GSL_SUCCESS) {
                double *mid = o->fbase;   /* the half-way state */
                memcpy(mid, o->yhalf, n * sizeof *y);
                st = rk_attempt(o, tb, *t + 0.5 * h, mid, 0.5 * h, o->k, o->yhalf, NULL);
            }
            memcpy(o->k, o->khalf, n * sizeof *y);         /* restore f(t, y) */
            if (st != GSL_SUCCESS)
                return st;
            double scale = pow(2.0, tb->order) - 1.0;
            for (size_t i = 0; i < n; i++)
                o->yerr[i] = (o->yhalf[i] - o->ynew[i]) / scale;
            yprop = o->yhalf;
        } else {
            st = rk_attempt(o, tb, *t, y, h, o->k, o->ynew, o->yerr);
            if (st != GSL_SUCCESS)
                return st;
            yprop = o->ynew;
        }
        double err = all_finite(yprop, n) && all_finite(o->yerr, n)
                         ? error_norm(o, y, yprop, o->yerr) : HUGE_VAL;
        if (err <= 1.0) {
            st = finish_step(o, *t, y, h, yprop,
                             (tb->fsal && !o->p.doubling) ? o->k + (S - 1) * n : NULL);
            if (st != GSL_SUCCESS)
                return st;
            *t = (h == remaining) ? t_stop : *t + h;
            memcpy(y, yprop, n * sizeof *y);
            o->h_last = h;
            o->err_last = err;
            o->stats.steps++;
            /* the next step */
            double fac;
            if (o->p.control == MBD_CONTROL_MATLAB) {
                double temp = 1.25 * pow(err, 1.0 / (q + 1));
                fac = rejected_here ? 1.0 : (temp > 0.2 ? 1.0 / temp : 5.0);
            } else {
                fac = err == 0.0 ? 5.0 : 0.9 * pow(err, -1.0 / (q + 1));
                fac = fmin(rejected_here ? 1.0 : 5.0, fmax(0.2, fac));
            }
            o->h_next = fmin(h * fac, hmax);
            o->failed_last = rejected_here;
            return GSL_SUCCESS;
        }
        /* rejected: shrink and retry */
        o->stats.rejected++;
        double fac;
        if (!isfinite(err))
            fac = 0.25;
        else if (o->p.control == MBD_CONTROL_MATLAB)
            fac = rejected_here ? 0.5 : fmax(0.5, 0.8 * pow(err, -1.0 / (q + 1)));
        else
            fac = fmax(0.2, 0.9 * pow(err, -1.0 / (q + 1)));
        rejected_here = 1;
        h *= fac;
    }
}

/* ------------------------------------------------------------------------ */
/* Implicit solves: Y = base + h beta0 f(t1, Y)                              */

static int implicit_solve(mbd_ode *o, double t1, double h, double beta0, const double *base,
                          double *Y)
{
    const size_t n = o->n;
    int st;
    if (o->p.fixed_point || o->p.kind == MBD_ODE_PECE) {
        double prev = HUGE_VAL;
        for (int it = 0; it < 200; it++) {
            st = eval(o, t1, Y, o->fbase);
            if (st != GSL_SUCCESS)
                return st;
            o->stats.iterations++;
            double dnorm = 0.0, ynorm = 0.0;
            for (size_t i = 0; i < n; i++) {
                double ynew = base[i] + h * beta0 * o->fbase[i];
                dnorm = fmax(dnorm, fabs(ynew - Y[i]));
                ynorm = fmax(ynorm, fabs(ynew));
                Y[i] = ynew;
            }
            if (!isfinite(dnorm) || (it > 2 && dnorm > prev))
                return mbd_failure_set(&o->fail, MBD_ENOCONV, t1,
                                       "fixed-point iteration diverges at h = %g: it needs "
                                       "h * %.3g * |df/dy| < 1", h, beta0);
            if (dnorm <= 1e-14 * fmax(1.0, ynorm))
                return GSL_SUCCESS;
            prev = dnorm;
        }
        return mbd_failure_set(&o->fail, MBD_ENOCONV, t1,
                               "fixed-point iteration did not converge in 200 iterations at h = %g", h);
    }
    /* Newton with a finite-difference Jacobian at the starting guess */
    st = eval(o, t1, Y, o->f1);
    if (st != GSL_SUCCESS)
        return st;
    st = fd_jacobian(o, t1, Y, o->f1, o->J);
    if (st != GSL_SUCCESS)
        return st;
    gsl_matrix_set_identity(o->W);
    gsl_matrix_scale(o->J, -h * beta0);
    gsl_matrix_add(o->W, o->J);
    int signum;
    st = gsl_linalg_LU_decomp(o->W, o->perm, &signum);
    for (size_t i = 0; st == GSL_SUCCESS && i < n; i++)
        if (gsl_matrix_get(o->W, i, i) == 0.0)
            st = MBD_ESINGULAR;
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&o->fail, MBD_ESINGULAR, t1,
                               "the Newton matrix I - h beta0 J is singular at h = %g", h);
    for (int it = 0; it < 50; it++) {
        if (it > 0) {
            st = eval(o, t1, Y, o->f1);
            if (st != GSL_SUCCESS)
                return st;
        }
        o->stats.iterations++;
        double ynorm = 0.0;
        for (size_t i = 0; i < n; i++) {
            gsl_vector_set(o->rhs, i, -(Y[i] - base[i] - h * beta0 * o->f1[i]));
            ynorm = fmax(ynorm, fabs(Y[i]));
        }
        gsl_linalg_LU_solve(o->W, o->perm, o->rhs, o->dx);
        double dnorm = 0.0;
        for (size_t i = 0; i < n; i++) {
            Y[i] += gsl_vector_get(o->dx, i);
            dnorm = fmax(dnorm, fabs(gsl_vector_get(o->dx, i)));
        }
        if (!isfinite(dnorm))
            break;
        if (dnorm <= 1e-13 * fmax(1.0, ynorm))
            return GSL_SUCCESS;
    }
    return mbd_failure_set(&o->fail, MBD_ENOCONV, t1, "Newton's method did not converge at h = %g", h);
}

/* ------------------------------------------------------------------------ */
/* Multistep                                                                 */

static void push_history(mbd_ode *o, const double *fnew)
{
    double *last = o->fh[MAX_HIST - 1];
    for (int i = MAX_HIST - 1; i > 0; i--)
        o->fh[i] = o->fh[i - 1];
    o->fh[0] = last;
    memcpy(o->fh[0], fnew, o->n * sizeof *fnew);
    if (o->nhist < MAX_HIST)
        o->nhist++;
}

static int multistep_step(mbd_ode *o, double *t, double *y, double t_stop)
{
    const size_t n = o->n;
    int st;
    if (!o->have_f0) {
        st = eval(o, *t, y, o->k);
        if (st != GSL_SUCCESS)
            return st;
        o->have_f0 = 1;
        memcpy(o->fh[0], o->k, n * sizeof *y);
        o->nhist = 1;
    }
    double h = o->h_next;
    const double remaining = t_stop - *t;
    int last = 0;
    if (h > remaining * (1 - 1e-12)) {
        /* a shorter last step breaks the equal spacing: restart the history */
        if (h - remaining > 1e-12 * h && o->nhist > 1)
            o->nhist = 1;
        h = remaining;
        last = 1;
    }
    const double t1 = *t + h;
    unsigned order = o->p.kind == MBD_ODE_IMPLICIT_EULER ? 1 : o->p.order;
    /* how many past values the method needs */
    unsigned need = o->p.kind == MBD_ODE_AB || o->p.kind == MBD_ODE_PECE ? order
                                                                            : (order > 1 ? order - 1 : 1);

    if (o->nhist < need) {
        /* starter: one RK4 step */
        st = rk_attempt(o, &mbd_tableau_rk4, *t, y, h, o->k, o->ynew, NULL);
        if (st != GSL_SUCCESS)
            return st;
    } else if (o->p.kind == MBD_ODE_AB) {
        for (size_t i = 0; i < n; i++) {
            double acc = 0.0;
            for (unsigned j = 0; j < order; j++)
                acc += AB[order][j] * o->fh[j][i];
            o->ynew[i] = y[i] + h * acc;
        }
    } else {
        /* the implicit part: ynew = base + h beta0 f(t1, ynew) */
        const double *beta = AM[order];
        for (size_t i = 0; i < n; i++) {
            double acc = 0.0;
            for (unsigned j = 1; j < order; j++)
                acc += beta[j] * o->fh[j - 1][i];
            o->yhalf[i] = y[i] + h * acc;   /* base */
        }
        if (o->p.kind == MBD_ODE_PECE) {
            /* P: Adams-Bashforth of the same order; then (EC)^m */
            for (size_t i = 0; i < n; i++) {
                double acc = 0.0;
                for (unsigned j = 0; j < order; j++)
                    acc += AB[order][j] * o->fh[j][i];
                o->ynew[i] = y[i] + h * acc;
            }
            for (unsigned m = 0; m < o->p.corrections; m++) {
                st = eval(o, t1, o->ynew, o->fbase);
                if (st != GSL_SUCCESS)
                    return st;
                for (size_t i = 0; i < n; i++)
                    o->ynew[i] = o->yhalf[i] + h * beta[0] * o->fbase[i];
            }
        } else {
            /* predictor: explicit Euler, then solve */
            for (size_t i = 0; i < n; i++)
                o->ynew[i] = y[i] + h * o->fh[0][i];
            st = implicit_solve(o, t1, h, beta[0], o->yhalf, o->ynew);
            if (st != GSL_SUCCESS)
                return st;
        }
    }
    if (!all_finite(o->ynew, n))
        return mbd_failure_set(&o->fail, MBD_ENONFINITE, t1,
                               "the state became non-finite in a %s step of h = %g",
                               o->p.name ? o->p.name : "multistep", h);
    st = finish_step(o, *t, y, h, o->ynew, NULL);   /* the final E of P(EC)^m E */
    if (st != GSL_SUCCESS)
        return st;
    push_history(o, o->f1);
    *t = last ? t_stop : t1;
    memcpy(y, o->ynew, n * sizeof *y);
    o->h_last = h;
    o->stats.steps++;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */

static int gsl_step(mbd_ode *o, double *t, double *y, double t_stop)
{
    const size_t n = o->n;
    double t0 = *t, h = o->h_next;
    memcpy(o->yp, y, n * sizeof *y);
    size_t failed0 = o->gevolve->failed_steps;
    int st = gsl_odeiv2_evolve_apply(o->gevolve, o->gcontrol, o->gstep, &o->sys, t, t_stop, &h, y);
    o->stats.rejected += (long)(o->gevolve->failed_steps - failed0);
    if (st != GSL_SUCCESS) {
        memcpy(y, o->yp, n * sizeof *y);
        *t = t0;
        if (st == GSL_ENOPROG || st == GSL_EFAILED)
            return mbd_failure_set(&o->fail, MBD_ESTEPSIZE, t0,
                                   "GSL %s made no progress (step size too small)",
                                   gsl_odeiv2_step_name(o->gstep));
        return mbd_failure_set(&o->fail, st, t0, "GSL %s failed: %s",
                               gsl_odeiv2_step_name(o->gstep), gsl_strerror(st));
    }
    if (!all_finite(y, n))
        return mbd_failure_set(&o->fail, MBD_ENONFINITE, *t, "the state became non-finite (GSL %s)",
                               gsl_odeiv2_step_name(o->gstep));
    o->stats.steps++;
    o->h_last = *t - t0;
    o->h_next = h;
    /* no interpolant: the run loop steps GSL's steppers onto output times */
    o->tp = t0;
    o->hp = 0.0;
    return GSL_SUCCESS;
}

int mbd_ode_step(mbd_ode *o, double *t, double y[], double t_stop)
{
    if (!(t_stop > *t))
        return mbd_failure_set(&o->fail, GSL_EINVAL, *t, "nothing to integrate: t_stop %g <= t %g",
                               t_stop, *t);
    int st;
    switch (o->p.kind) {
    case MBD_ODE_RK:
        st = rk_step(o, t, y, t_stop);
        break;
    case MBD_ODE_GSL:
        st = gsl_step(o, t, y, t_stop);
        break;
    default:
        st = multistep_step(o, t, y, t_stop);
        break;
    }
    if (st == GSL_SUCCESS && o->p.kind == MBD_ODE_RK && o->p.tableau->dense == 1
        && !o->p.doubling) {
        /* DOPRI5's continuous extension (Shampine 1986, as in Hairer's dopri5):
         * stages 1..5 are still in k[1..5]; stage 0 was saved as fp and the
         * last stage is f at the new point, f1. */
        const size_t n = o->n;
        const double h = o->hp;
        const double *k = o->k;
        for (size_t i = 0; i < n; i++) {
            double dy = o->y1[i] - o->yp[i];
            double r3 = h * o->fp[i] - dy;
            o->rcont[i] = o->yp[i];
            o->rcont[n + i] = dy;
            o->rcont[2 * n + i] = r3;
            o->rcont[3 * n + i] = dy - h * o->f1[i] - r3;
            o->rcont[4 * n + i] = h * (dp_d[0] * o->fp[i] + dp_d[2] * k[2 * n + i]
                                       + dp_d[3] * k[3 * n + i] + dp_d[4] * k[4 * n + i]
                                       + dp_d[5] * k[5 * n + i] + dp_d[6] * o->f1[i]);
        }
    }
    return st;
}

int mbd_ode_interpolate(const mbd_ode *o, double t, double y_out[])
{
    const size_t n = o->n;
    const double h = o->hp;
    if (!(h > 0))
        return GSL_EINVAL;
    const double s = (t - o->tp) / h;
    if (s < -1e-9 || s > 1 + 1e-9)
        return GSL_EDOM;   /* outside the last step */
    if (o->p.kind == MBD_ODE_RK && o->p.tableau->dense == 1 && !o->p.doubling) {
        const double s1 = 1.0 - s;
        for (size_t i = 0; i < n; i++)
            y_out[i] = o->rcont[i]
                       + s * (o->rcont[n + i]
                              + s1 * (o->rcont[2 * n + i]
                                      + s * (o->rcont[3 * n + i] + s1 * o->rcont[4 * n + i])));
        return GSL_SUCCESS;
    }
    /* cubic Hermite on (y_n, f_n) and (y_{n+1}, f_{n+1}); for Bogacki-Shampine
     * this is exactly MATLAB's ntrp23 */
    const double s2 = s * s, s3 = s2 * s;
    const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
                 h11 = s3 - s2;
    for (size_t i = 0; i < n; i++)
        y_out[i] = h00 * o->yp[i] + h10 * h * o->fp[i] + h01 * o->y1[i] + h11 * h * o->f1[i];
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Presets                                                                   */

const char *const mbd_ode_preset_names[] = {"ode23", "fixed", "rk4", "tight", "rk8pd", "msbdf",
                                            NULL};
const char *const mbd_ode_preset_descriptions[] = {
    "Bogacki-Shampine 3(2), RelTol 1e-3, AbsTol 1e-6, MATLAB's error control (what the documents ran)",
    "Bogacki-Shampine 3(2) at a fixed step h = 1e-4, no error control",
    "classical Runge-Kutta 4 at a fixed step h = 1e-4",
    "Dormand-Prince 5(4), RelTol 1e-10, AbsTol 1e-12",
    "GSL's Prince-Dormand 8(9), RelTol 1e-12, AbsTol 1e-14 (references)",
    "GSL's multistep BDF for stiff problems, RelTol 1e-8, AbsTol 1e-10",
    NULL};

int mbd_ode_preset(const char *name, mbd_ode_params *p)
{
    memset(p, 0, sizeof *p);
    if (name == NULL)
        return MBD_EINPUT;
    if (strcmp(name, "ode23") == 0) {
        *p = (mbd_ode_params){.name = "ode23", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_bs23,
                              .adaptive = 1, .control = MBD_CONTROL_MATLAB, .rtol = 1e-3,
                              .atol = 1e-6};
    } else if (strcmp(name, "fixed") == 0) {
        *p = (mbd_ode_params){.name = "fixed", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_bs23,
                              .h = 1e-4};
    } else if (strcmp(name, "rk4") == 0) {
        *p = (mbd_ode_params){.name = "rk4", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_rk4,
                              .h = 1e-4};
    } else if (strcmp(name, "tight") == 0) {
        *p = (mbd_ode_params){.name = "tight", .kind = MBD_ODE_RK, .tableau = &mbd_tableau_dopri5,
                              .adaptive = 1, .control = MBD_CONTROL_STANDARD, .rtol = 1e-10,
                              .atol = 1e-12};
    } else if (strcmp(name, "rk8pd") == 0) {
        *p = (mbd_ode_params){.name = "rk8pd", .kind = MBD_ODE_GSL, .gsl_type = gsl_odeiv2_step_rk8pd,
                              .adaptive = 1, .rtol = 1e-12, .atol = 1e-14};
    } else if (strcmp(name, "msbdf") == 0) {
        *p = (mbd_ode_params){.name = "msbdf", .kind = MBD_ODE_GSL, .gsl_type = gsl_odeiv2_step_msbdf,
                              .adaptive = 1, .rtol = 1e-8, .atol = 1e-10};
    } else {
        return MBD_EINPUT;
    }
    return GSL_SUCCESS;
}

struct mbd_ode_sampler {
    mbd_ode *o;
    double *y, time, t_end, last;
    size_t dim;
    int started;
};

mbd_ode_sampler *mbd_ode_sampler_alloc(const mbd_ode_params *p, mbd_rhs f, void *params,
                                       size_t dim, const double y0[], double t_end)
{
    if (!(t_end >= 0) || !isfinite(t_end))
        return NULL;
    mbd_ode_sampler *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->o = mbd_ode_alloc(p, dim, f, params);
    s->y = malloc(dim * sizeof *s->y);
    if (s->o == NULL || s->y == NULL) {
        mbd_ode_sampler_free(s);
        return NULL;
    }
    memcpy(s->y, y0, dim * sizeof *s->y);
    s->dim = dim;
    s->t_end = t_end;
    s->last = -HUGE_VAL;
    return s;
}

void mbd_ode_sampler_free(mbd_ode_sampler *s)
{
    if (s == NULL)
        return;
    mbd_ode_free(s->o);
    free(s->y);
    free(s);
}

int mbd_ode_sampler_at(mbd_ode_sampler *s, double t, double y_out[], mbd_failure *fail)
{
    mbd_failure scratch;
    if (fail == NULL)
        fail = &scratch;
    if (!(t >= s->last && t >= 0 && t <= s->t_end))
        return mbd_failure_set(fail, GSL_EDOM, t, "sampling at t = %g: expected a time from %g "
                               "to %g", t, fmax(s->last, 0.0), s->t_end);
    s->last = t;
    int st = GSL_SUCCESS;
    if (!s->started) {
        st = s->t_end > 0 ? mbd_ode_start(s->o, 0.0, s->y, s->t_end) : GSL_SUCCESS;
        s->started = 1;
    }
    /* step until the last step covers t: its end as it is, the rest interpolated */
    while (st == GSL_SUCCESS && t > s->time)
        st = mbd_ode_step(s->o, &s->time, s->y, s->t_end);
    if (st == GSL_SUCCESS) {
        if (t == s->time)
            memcpy(y_out, s->y, s->dim * sizeof *s->y);
        else
            st = mbd_ode_interpolate(s->o, t, y_out);
    }
    if (st != GSL_SUCCESS) {
        if (s->o->fail.status != GSL_SUCCESS)
            *fail = s->o->fail;
        else
            mbd_failure_set(fail, st, s->time, "sampling the solution failed: %s",
                            mbd_strerror(st));
    }
    return st;
}

int mbd_ode_sample(const mbd_ode_params *p, mbd_rhs f, void *params, size_t dim,
                   const double y0[], const double t[], size_t count, double ys[],
                   mbd_failure *fail)
{
    if (count == 0)
        return GSL_SUCCESS;
    mbd_ode_sampler *s = mbd_ode_sampler_alloc(p, f, params, dim, y0, t[count - 1]);
    if (s == NULL)
        return fail ? mbd_failure_set(fail, GSL_ENOMEM, 0.0, "cannot sample: no integrator")
                    : GSL_ENOMEM;
    int st = GSL_SUCCESS;
    for (size_t k = 0; k < count && st == GSL_SUCCESS; k++)
        st = mbd_ode_sampler_at(s, t[k], ys + k * dim, fail);
    mbd_ode_sampler_free(s);
    return st;
}
