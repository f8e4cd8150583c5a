/* study.c -- chapter 06's computing: one run of a method on a mechanism,
 * its errors against the minimal-coordinate reference, and the story's
 * computations (see study.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "study.h"

const char *const ch06_method_names[] = {"embedding", "augmented", "augmented-baumgarte", NULL};
const char *const ch06_method_descriptions[] = {
    "coordinate partitioning (algorithm E): the independent coordinates integrated, the "
    "dependent ones by Newton",
    "all coordinates with Lagrange multipliers (the projection formulation, no stabilisation)",
    "the augmented form with Baumgarte's gamma - 2 alpha C' - beta^2 C",
    NULL,
};

const char *ch06_library_method(const char *method)
{
    static const char *const library[] = {"embedding", "projection", "projection-baumgarte"};
    for (int k = 0; ch06_method_names[k] != NULL; k++)
        if (method != NULL && strcmp(method, ch06_method_names[k]) == 0)
            return library[k];
    return NULL;
}

void ch06_spec_default(ch06_spec *s, ch06_scenario scenario)
{
    memset(s, 0, sizeof *s);
    mbd_study_spec_init(&s->run, "embedding", CH06_T_END, CH06_DT_OUT);
    mbd_ode_preset("rk4", &s->run.ode);
    s->run.ode.h = CH06_H;
    s->run.alpha = CH06_ALPHA;
    s->run.beta = CH06_BETA;
    s->scenario = scenario;
}

void ch06_run_init(ch06_run *r)
{
    memset(r, 0, sizeof *r);
    mbd_history_init(&r->h);
}

void ch06_run_free(ch06_run *r)
{
    mbd_history_free(&r->h);
    mbd_history_init(&r->h);
}

const char *const *ch06_names(const ch06_model *md)
{
    const mbd_system *s = ch06_system(md);
    return s ? s->names : NULL;
}

/* >> run */
int ch06_run_spec(const ch06_model *md, const ch06_spec *spec, ch06_run *r)
{
    ch06_run_free(r);
    memset(&r->res, 0, sizeof r->res);
    r->max_state_error = r->max_energy_error = r->E0 = NAN;
    const mbd_system *sys = ch06_system(md);
    const char *method = ch06_library_method(spec->run.method);
    if (sys == NULL || method == NULL)
        return mbd_failure_set(&r->res.fail, MBD_EINPUT, 0.0, "unknown method '%s'",
                               spec->run.method ? spec->run.method : "(none)");
    double q0[9], qd0[9];
    ch06_initial(md, q0, qd0);
    mbd_study_spec s = spec->run;
    s.method = method;
    s.independent = spec->n_independent > 0 ? spec->independent : NULL;
    s.n_independent = spec->n_independent;
    s.reselect_independent = spec->n_independent > 0 && spec->reselect;
    int st = mbd_study_run(sys, &s, q0, qd0, &r->h, &r->res);
    if (st != GSL_SUCCESS || r->h.rows == 0)
        return st;
    /* the energy the planar model measures, and the errors against the
     * reference on the run's own output times */
    const size_t n = sys->n, rows = r->h.rows;
    r->E0 = r->h.E[0];
    r->max_energy_error = 0.0;
    for (size_t k = 0; k < rows; k++)
        r->max_energy_error = fmax(r->max_energy_error, fabs(r->h.E[k] - r->E0));
    double *ref = malloc(rows * 2 * n * sizeof *ref);
    if (ref == NULL)
        return GSL_ENOMEM;
    mbd_failure fail;
    st = ch06_reference(md, CH06_REF_EPS, r->h.t, rows, ref, &fail);
    if (st == GSL_SUCCESS) {
        r->max_state_error = 0.0;
        for (size_t k = 0; k < rows; k++)
            for (size_t i = 0; i < n; i++) {
                double d = fabs(mbd_history_q(&r->h, k)[i] - ref[2 * n * k + i]);
                if (i % 3 == 2)   /* angles: the nearest turn */
                    d = fabs(remainder(mbd_history_q(&r->h, k)[i] - ref[2 * n * k + i], 2 * M_PI));
                r->max_state_error = fmax(r->max_state_error, d);
            }
    }
    free(ref);
    return st;
}
/* << run */

int ch06_parse_independent(const ch06_model *md, const char *text, size_t idx[2], size_t *n,
                           char *why, size_t n_why)
{
    *n = 0;
    if (text == NULL || strcmp(text, "auto") == 0)
        return GSL_SUCCESS;
    const size_t dof = ch06_reduced_dof(md);
    char buf[64];
    if (strlen(text) >= sizeof buf) {
        snprintf(why, n_why, "--independent: '%s' is too long", text);
        return MBD_EINPUT;
    }
    strcpy(buf, text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        size_t k;
        if (*n == dof) {
            snprintf(why, n_why, "--independent: the %s has %zu degree%s of freedom; '%s' names "
                     "more coordinates", md->name, dof, dof == 1 ? "" : "s", text);
            return MBD_EINPUT;
        }
        if (mbd_planar_coordinate(md->pm, tok, &k) != GSL_SUCCESS) {
            const char *const *names = ch06_names(md);
            const size_t n_names = ch06_system(md)->n;
            size_t used = (size_t)snprintf(why, n_why, "--independent: the %s has no coordinate "
                                           "'%s' (it has:", md->name, tok);
            for (size_t i = 0; names && i < n_names && used < n_why; i++)
                used += (size_t)snprintf(why + used, n_why - used, " %s", names[i]);
            if (used < n_why)
                snprintf(why + used, n_why - used, "; or auto)");
            return MBD_EINPUT;
        }
        for (size_t j = 0; j < *n; j++)
            if (idx[j] == k) {
                snprintf(why, n_why, "--independent: '%s' is named twice", tok);
                return MBD_EINPUT;
            }
        idx[(*n)++] = k;
    }
    if (*n != dof) {
        snprintf(why, n_why, "--independent: the %s needs %zu independent coordinate%s, not %zu "
                 "(e.g. %s)", md->name, dof, dof == 1 ? "" : "s", *n,
                 dof == 1 ? "theta2" : "theta1,theta2");
        return MBD_EINPUT;
    }
    /* ascending, as the formulation keeps them */
    if (*n == 2 && idx[0] > idx[1]) {
        const size_t t = idx[0];
        idx[0] = idx[1];
        idx[1] = t;
    }
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

const double ch06_steps[CH06_NH] = {0.01, 0.005, 0.0025, 0.00125};
const double ch06_weights[CH06_NAB] = {0.0, 5.0, 10.0};
const double ch06_ratios[CH06_NRATIO] = {0.5, 0.1, 0.03, 0.01};

ch06_study *ch06_study_alloc(void)
{
    ch06_study *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    for (int k = 0; k < CH06_NH; k++) {
        ch06_run_init(&s->emb[k]);
        for (int a = 0; a < CH06_NAB; a++)
            ch06_run_init(&s->aug[a][k]);
    }
    for (int a = 0; a < CH06_NAB; a++)
        ch06_run_init(&s->euler[a]);
    ch06_run_init(&s->forced);
    for (int k = 0; k < CH06_NRATIO; k++)
        ch06_run_init(&s->switched[k]);
    ch06_run_init(&s->automatic);
    ch06_run_init(&s->dp_emb);
    ch06_run_init(&s->dp_aug);
    return s;
}

void ch06_study_free(ch06_study *s)
{
    if (s == NULL)
        return;
    for (int k = 0; k < CH06_NH; k++) {
        ch06_run_free(&s->emb[k]);
        for (int a = 0; a < CH06_NAB; a++)
            ch06_run_free(&s->aug[a][k]);
    }
    for (int a = 0; a < CH06_NAB; a++)
        ch06_run_free(&s->euler[a]);
    ch06_run_free(&s->forced);
    for (int k = 0; k < CH06_NRATIO; k++)
        ch06_run_free(&s->switched[k]);
    ch06_run_free(&s->automatic);
    ch06_run_free(&s->dp_emb);
    ch06_run_free(&s->dp_aug);
    for (int k = 0; k < CH06_NSCENARIOS; k++)
        ch06_model_free(&s->md[k]);
    free(s);
}

/* q'' and lambda of a method ("embedding" or "projection") at (q, q') */
static int accelerations(const ch06_model *md, const char *method, const double q[],
                         const double qd[], double qdd[], double lambda[], size_t *independent)
{
    const mbd_system *sys = ch06_system(md);
    mbd_formulation_params fp = {0};
    mbd_formulation_method(method, &fp);
    mbd_formulation *f = mbd_formulation_alloc(sys, &fp);
    if (f == NULL)
        return GSL_ENOMEM;
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, sys->n),
                          qdv = gsl_vector_const_view_array(qd, sys->n);
    gsl_vector_view av = gsl_vector_view_array(qdd, sys->n),
                    lv = gsl_vector_view_array(lambda, sys->m);
    int st = mbd_formulation_accel(f, 0.0, &qv.vector, &qdv.vector, &av.vector, &lv.vector);
    if (independent != NULL && st == GSL_SUCCESS) {
        double y[18];
        st = mbd_formulation_pack(f, 0.0, q, qd, y);
        mbd_formulation_independent(f, independent);
    }
    mbd_formulation_free(f);
    return st;
}

/* >> embedded-mass */
int ch06_embedded_mass(const ch06_model *md, const double q[], const size_t idx[], double BMB[])
{
    /* B's column k solves [C_q; I_d] b = [0; e_k] (document 001, Sec. 2):
     * the velocity of every coordinate when independent coordinate k moves
     * at unit speed and the others stand still */
    const mbd_system *sys = ch06_system(md);
    const size_t n = sys->n, m = sys->m, d = n - m;
    gsl_matrix *K = gsl_matrix_calloc(n, n), *B = gsl_matrix_calloc(n, d),
               *M = gsl_matrix_alloc(n, n), *MB = gsl_matrix_alloc(n, d);
    gsl_permutation *p = gsl_permutation_alloc(n);
    int st = (K && B && M && MB && p) ? GSL_SUCCESS : GSL_ENOMEM;
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, n);
    if (st == GSL_SUCCESS) {
        gsl_matrix_view Cq = gsl_matrix_submatrix(K, 0, 0, m, n);
        st = sys->jacobian(sys, 0.0, &qv.vector, &Cq.matrix);
    }
    for (size_t k = 0; st == GSL_SUCCESS && k < d; k++)
        gsl_matrix_set(K, m + k, idx[k], 1.0);
    int sign;
    if (st == GSL_SUCCESS)
        st = gsl_linalg_LU_decomp(K, p, &sign);
    for (size_t k = 0; st == GSL_SUCCESS && k < d; k++) {
        gsl_vector_view b = gsl_matrix_column(B, k);
        gsl_vector_set(&b.vector, m + k, 1.0);
        st = gsl_linalg_LU_svx(K, p, &b.vector);
    }
    if (st == GSL_SUCCESS)
        st = sys->mass(sys, 0.0, &qv.vector, M);
    if (st == GSL_SUCCESS) {
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, M, B, 0.0, MB);
        gsl_matrix_view out = gsl_matrix_view_array(BMB, d, d);
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, B, MB, 0.0, &out.matrix);
    }
    gsl_matrix_free(K);
    gsl_matrix_free(B);
    gsl_matrix_free(M);
    gsl_matrix_free(MB);
    gsl_permutation_free(p);
    return st;
}
/* << embedded-mass */

/* a run of method on md with an integrator preset at step h; n_given
 * independent coordinates held or, with a re-selection ratio reselect > 0,
 * where it starts */
static int run_case(const ch06_model *md, const char *method, const char *integrator, double h,
                    double alpha, double t_end, const size_t *given, size_t n_given,
                    double reselect, ch06_run *r)
{
    ch06_spec spec;
    ch06_spec_default(&spec, md->scenario);
    spec.run.method = method;
    mbd_ode_preset(integrator, &spec.run.ode);
    if (strcmp(integrator, "euler") == 0) {   /* explicit Euler: the rk4 preset's step */
        mbd_ode_preset("rk4", &spec.run.ode);
        spec.run.ode.name = "euler";
        spec.run.ode.tableau = &mbd_tableau_euler;
    }
    spec.run.ode.h = h;
    spec.run.alpha = spec.run.beta = alpha;
    spec.run.t_end = t_end;
    spec.run.max_violation = -1.0;   /* the drift is measured, not stopped */
    for (size_t k = 0; k < n_given; k++)
        spec.independent[k] = given[k];
    spec.n_independent = n_given;
    spec.reselect = reselect > 0;
    spec.run.reselect_ratio = reselect;
    return ch06_run_spec(md, &spec, r);
}

static int random_state(const ch06_model *md, unsigned *seed, double q[], double qd[])
{
    double y[4];
    for (size_t i = 0; i < 2 * ch06_reduced_dof(md); i++) {
        *seed = *seed * 1103515245u + 12345u;
        y[i] = 2.0 * M_PI * ((double)(*seed >> 8) / (1u << 24) - 0.5);
    }
    ch06_reduced_to_state(md, y, q, qd);
    return GSL_SUCCESS;
}

int ch06_study_compute(ch06_study *s, mbd_failure *fail)
{
    if (s->computed)
        return GSL_SUCCESS;
    int st = GSL_SUCCESS;
    /* Step 1: the three models and their derivatives at the initial state */
    for (int k = 0; k < CH06_NSCENARIOS && st == GSL_SUCCESS; k++) {
        ch06_model_data(&s->md[k], (ch06_scenario)k);
        st = ch06_model_build(&s->md[k]);
        if (st != GSL_SUCCESS)
            break;
        const mbd_system *sys = ch06_system(&s->md[k]);
        s->n[k] = sys->n;
        s->m[k] = sys->m;
        double q[9], qd[9];
        unsigned seed = 7u + (unsigned)k;
        random_state(&s->md[k], &seed, q, qd);
        gsl_vector_view qv = gsl_vector_view_array(q, sys->n), qdv = gsl_vector_view_array(qd, sys->n);
        st = mbd_system_check_derivatives(sys, 0.0, &qv.vector, &qdv.vector, 0.0, &s->fd[k]);
    }
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, 0.0, "building the models failed: %s", mbd_strerror(st));

    /* Step 2: the pendulum */
    const ch06_model *pm = &s->md[CH06_PENDULUM];
    double q[9], qd[9], qdd[9], lam[9];
    for (int k = 0; k < CH06_NPEND && st == GSL_SUCCESS; k++) {
        const double y[2] = {k * M_PI / 4.0 - 0.3, 3.0 * sin(1.0 + k)};
        s->pend_theta[k] = y[0];
        s->pend_omega[k] = y[1];
        ch06_reduced_to_state(pm, y, q, qd);
        st = accelerations(pm, "embedding", q, qd, qdd, lam, NULL);
        s->pend_emb[k] = qdd[2];
        s->pend_closed[k] = ch06_pendulum_accel(&pm->pend, y[0]);
    }
    double y0[4];
    ch06_reduced_initial(pm, y0);
    ch06_reduced_to_state(pm, y0, q, qd);
    if (st == GSL_SUCCESS) {   /* the coordinate the embedding holds at release */
        double a[9], l[9];
        st = accelerations(pm, "embedding", q, qd, a, l, &s->pend_independent);
    }
    if (st == GSL_SUCCESS)     /* the augmented form's accelerations and multipliers */
        st = accelerations(pm, "projection", q, qd, qdd, lam, NULL);
    s->pend_theta_dd = qdd[2];
    s->pend_Ry_dd = qdd[1];
    memcpy(s->pend_lambda, lam, 2 * sizeof lam[0]);
    if (st == GSL_SUCCESS) {
        gsl_vector_view qv = gsl_vector_view_array(q, 3), lv = gsl_vector_view_array(lam, 2);
        st = mbd_planar_reactions(pm->pm, 0, &qv.vector, &lv.vector, &s->pend_pin, NULL);
        ch06_pendulum_pin_force(&pm->pend, y0[0], y0[1], s->pend_pin_closed);
    }
    if (st == GSL_SUCCESS) {   /* the same rod four times as long: the units decide */
        ch06_model long_rod;
        ch06_model_data(&long_rod, CH06_PENDULUM);
        long_rod.pend.l = 4.0;
        st = ch06_model_build(&long_rod);
        if (st == GSL_SUCCESS) {
            ch06_reduced_to_state(&long_rod, y0, q, qd);
            st = accelerations(&long_rod, "embedding", q, qd, qdd, lam, &s->pend_independent_l4);
        }
        ch06_model_free(&long_rod);
    }
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, 0.0, "the pendulum's accelerations failed: %s",
                               mbd_strerror(st));

    /* Step 3: the slider-crank at t = 0, and at random consistent states */
    const ch06_model *sc = &s->md[CH06_SLIDER_CRANK];
    ch06_initial(sc, s->sc_q0, s->sc_qd0);
    double y[4];
    ch06_reduced_initial(sc, y);
    s->sc_E0 = ch06_reduced_energy(sc, y);
    st = accelerations(sc, "embedding", s->sc_q0, s->sc_qd0, s->sc_qdd_emb, s->sc_lambda,
                       &s->sc_independent);
    if (st == GSL_SUCCESS)
        st = accelerations(sc, "projection", s->sc_q0, s->sc_qd0, s->sc_qdd_aug, lam, NULL);
    for (int k = 0; k < 5 && st == GSL_SUCCESS; k++) {
        gsl_vector_view qv = gsl_vector_view_array(s->sc_q0, 9),
                        lv = gsl_vector_view_array(s->sc_lambda, 8);
        st = mbd_planar_reactions(sc->pm, k, &qv.vector, &lv.vector, &s->sc_react[k], NULL);
    }
    unsigned seed = 2024u;
    s->sc_max_qdd_diff = s->sc_max_lambda_diff = 0.0;
    for (int k = 0; k < CH06_NRANDOM && st == GSL_SUCCESS; k++) {
        double a[9], b[9], la[8], lb[8];
        random_state(sc, &seed, q, qd);
        st = accelerations(sc, "embedding", q, qd, a, la, NULL);
        if (st == GSL_SUCCESS)
            st = accelerations(sc, "projection", q, qd, b, lb, NULL);
        for (int i = 0; i < 9; i++)
            s->sc_max_qdd_diff = fmax(s->sc_max_qdd_diff, fabs(a[i] - b[i]));
        for (int i = 0; i < 8; i++)
            s->sc_max_lambda_diff = fmax(s->sc_max_lambda_diff, fabs(la[i] - lb[i]));
    }
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, 0.0, "the slider-crank's accelerations failed: %s",
                               mbd_strerror(st));

    /* Steps 4 and 5: embedded and augmented RK4 (and Euler) over 2 s */
    for (int k = 0; k < CH06_NH && st == GSL_SUCCESS; k++) {
        st = run_case(sc, "embedding", "rk4", ch06_steps[k], 0.0, CH06_T_END, NULL, 0, 0,
                      &s->emb[k]);
        if (st == GSL_SUCCESS && s->emb[k].h.rows > 0)
            s->emb_theta2_end[k] = mbd_history_q(&s->emb[k].h, s->emb[k].h.rows - 1)[2];
        for (int a = 0; a < CH06_NAB && st == GSL_SUCCESS; a++)
            st = run_case(sc, a == 0 ? "augmented" : "augmented-baumgarte", "rk4", ch06_steps[k],
                          ch06_weights[a], CH06_T_END, NULL, 0, 0, &s->aug[a][k]);
    }
    for (int a = 0; a < CH06_NAB && st == GSL_SUCCESS; a++)
        st = run_case(sc, a == 0 ? "augmented" : "augmented-baumgarte", "euler", 1e-3,
                      ch06_weights[a], CH06_T_END, NULL, 0, 0, &s->euler[a]);

    /* Step 6: the slider's x forced independent; x4 at the start and
     * re-selected; the automatic choice */
    size_t x4;
    if (st == GSL_SUCCESS)
        st = mbd_planar_coordinate(sc->pm, "x4", &x4);
    if (st == GSL_SUCCESS)
        st = run_case(sc, "embedding", "rk4", CH06_H, 0.0, CH06_T_END, &x4, 1, 0, &s->forced);
    for (int k = 0; k < CH06_NRATIO && st == GSL_SUCCESS; k++) {
        ch06_run *r = &s->switched[k];
        st = run_case(sc, "embedding", "rk4", CH06_H, 0.0, CH06_T_END, &x4, 1, ch06_ratios[k], r);
        s->switch_theta2[k] = NAN;
        if (st == GSL_SUCCESS && r->res.n_events > 0
            && r->res.reselections <= MBD_FORMULATION_RESELECTIONS_KEPT) {   /* the first kept */
            double state[18];
            st = ch06_reference(sc, CH06_REF_EPS, &r->res.events[0].t, 1, state, &r->res.fail);
            s->switch_theta2[k] = state[2];
        }
    }
    if (st == GSL_SUCCESS)
        st = run_case(sc, "embedding", "rk4", CH06_H, 0.0, CH06_T_END, NULL, 0, 0,
                      &s->automatic);

    /* Step 7: the double pendulum */
    const ch06_model *dp = &s->md[CH06_DOUBLE_PENDULUM];
    if (st == GSL_SUCCESS) {
        ch06_initial(dp, q, qd);
        st = accelerations(dp, "embedding", q, qd, qdd, lam, s->dp_independent);
    }
    if (st == GSL_SUCCESS)
        st = ch06_embedded_mass(dp, q, s->dp_independent, &s->dp_BMB[0][0]);
    seed = 99u;
    s->dp_max_qdd_diff = 0.0;
    for (int k = 0; k < CH06_NRANDOM && st == GSL_SUCCESS; k++) {
        double a[9], b[9], la[8], lb[8];
        random_state(dp, &seed, q, qd);
        st = accelerations(dp, "embedding", q, qd, a, la, NULL);
        if (st == GSL_SUCCESS)
            st = accelerations(dp, "projection", q, qd, b, lb, NULL);
        for (int i = 0; i < 6; i++)
            s->dp_max_qdd_diff = fmax(s->dp_max_qdd_diff, fabs(a[i] - b[i]));
    }
    if (st == GSL_SUCCESS)
        st = run_case(dp, "embedding", "rk4", CH06_H, 0.0, 5.0, NULL, 0, 0, &s->dp_emb);
    if (st == GSL_SUCCESS)
        st = run_case(dp, "augmented", "rk4", CH06_H, 0.0, 5.0, NULL, 0, 0, &s->dp_aug);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, 0.0, "the story's runs failed: %s", mbd_strerror(st));

    /* Step 8: cost per right-hand side, from the h = 0.00125 runs */
    const ch06_run *cost_runs[3] = {&s->emb[CH06_NH - 1], &s->aug[0][CH06_NH - 1],
                                    &s->aug[1][CH06_NH - 1]};
    for (int k = 0; k < 3; k++)
        s->cost[k] = cost_runs[k]->res.seconds / (double)cost_runs[k]->res.stats.run.ode.fevals;
    s->computed = 1;
    return GSL_SUCCESS;
}
