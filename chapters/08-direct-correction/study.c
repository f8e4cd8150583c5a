/* study.c -- one run with a correction scenario, and the story's
 * computations (see study.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>

#include "mbd/planar.h"
#include "mbd/simulate.h"
#include "study.h"

const char *const ch08_method_names[] = {"a", "b", "c", "d", NULL};
const char *const ch08_method_descriptions[] = {
    "no correction (the document's scenario (a))",
    "Newton on the positions, then one velocity step (b), its Sec. 3",
    "Newton on positions and velocities together (c), its Sec. 4",
    "(c) with the energy equation E = E0 appended (d), its Sec. 5 (default)",
    NULL,
};
const char *const ch08_metric_names[] = {"euclidean", "mass", NULL};
const char *const ch08_metric_descriptions[] = {
    "the shortest step in the coordinates' own units (the document's; default)",
    "the step of least kinetic energy: W = diag(M^-1, M^-1)",
    NULL,
};

int ch08_method_of(const char *name, ch08_method *m)
{
    for (int k = 0; ch08_method_names[k] != NULL; k++)
        if (name != NULL && strcmp(name, ch08_method_names[k]) == 0) {
            *m = (ch08_method)k;
            return GSL_SUCCESS;
        }
    return MBD_EINPUT;
}

void ch08_spec_default(ch08_spec *s)
{
    memset(s, 0, sizeof *s);
    s->method = CH08_D;
    s->tol = CH08_TOL;
    s->max_iter = CH08_MAX_ITER;
    mbd_study_spec_init(&s->run, "projection", CH08_T_END, CH08_DT_OUT);
    mbd_ode_preset("rk4", &s->run.ode);
    s->run.ode.h = CH08_H;
}

/* ------------------------------------------------------------------------ */
/* One run                                                                   */

void ch08_run_init(ch08_run *r)
{
    memset(r, 0, sizeof *r);
    mbd_history_init(&r->h);
    mbd_failure_clear(&r->res.fail);
    r->E0 = r->max_energy_error = NAN;
}

void ch08_run_free(ch08_run *r)
{
    mbd_history_free(&r->h);
    ch08_run_init(r);
}

/* >> run */
int ch08_run_spec(const ch08_model *md, const ch08_spec *spec, ch08_run *r)
{
    ch08_run_free(r);
    const mbd_system *sys = ch08_system(md);
    if (sys == NULL)
        return MBD_EINPUT;
    /* the library's method run: the KKT equations (projection) stepped by
     * RK4, and after every step the scenario's correction as the hook */
    mbd_study_spec run = spec->run;
    static const mbd_correction_mode modes[] = {MBD_CORRECTION_SEQUENTIAL,
                                                MBD_CORRECTION_SEQUENTIAL,
                                                MBD_CORRECTION_SIMULTANEOUS,
                                                MBD_CORRECTION_ENERGY};
    run.project = spec->method != CH08_A;
    run.projection = (mbd_projection_params){.mass_weighted = spec->mass_metric,
                                             .tol = spec->tol,
                                             .max_iter = spec->max_iter,
                                             .mode = modes[spec->method]};
    double q0[CH08_MAX_BODIES], qd0[CH08_MAX_BODIES];
    int st = ch08_initial(md, q0, qd0);
    if (st == GSL_SUCCESS)
        st = mbd_study_run(sys, &run, q0, qd0, &r->h, &r->res);
    if (st != GSL_SUCCESS)
        return st;
    /* the violations of every cut joint, x and y, at the outputs */
    r->ncut = md->ncut;
    r->max_phi_all = r->max_phidot_all = r->max_energy_error = 0.0;
    r->E0 = r->h.rows ? r->h.E[0] : NAN;
    for (size_t k = 0; k < r->h.rows; k++) {
        double phi[CH08_MAX_ROWS], phidot[CH08_MAX_ROWS];
        st = ch08_cut_violation(md, mbd_history_q(&r->h, k), mbd_history_qd(&r->h, k), phi,
                                phidot);
        if (st != GSL_SUCCESS)
            return st;
        for (size_t i = 0; i < 2 * md->ncut; i++) {
            r->max_phi[i] = fmax(r->max_phi[i], fabs(phi[i]));
            r->max_phidot[i] = fmax(r->max_phidot[i], fabs(phidot[i]));
            r->max_phi_all = fmax(r->max_phi_all, fabs(phi[i]));
            r->max_phidot_all = fmax(r->max_phidot_all, fabs(phidot[i]));
        }
        r->max_energy_error = fmax(r->max_energy_error, fabs(r->h.E[k] - r->E0));
    }
    r->iterations = r->res.stats.projection.iterations;
    r->max_iterations = r->res.stats.projection.max_iterations;
    return GSL_SUCCESS;
}
/* << run */

int ch08_reference_error(const ch08_model *md, const ch08_run *r, double *err,
                         mbd_failure *fail)
{
    const mbd_system *sys = ch08_system(md);
    mbd_study_spec run;
    mbd_study_spec_init(&run, "projection", r->h.t[r->h.rows - 1], 0.0);
    mbd_ode_preset("rk8pd", &run.ode);
    run.ode.rtol = run.ode.atol = 1e-12;
    double q0[CH08_MAX_BODIES], qd0[CH08_MAX_BODIES];
    mbd_history ref;
    mbd_history_init(&ref);
    mbd_study_result res;
    /* the same output grid as r */
    run.dt_out = r->h.rows > 1 ? r->h.t[1] - r->h.t[0] : 0.0;
    int st = ch08_initial(md, q0, qd0);
    if (st == GSL_SUCCESS)
        st = mbd_study_run(sys, &run, q0, qd0, &ref, &res);
    if (st == GSL_SUCCESS && res.status != GSL_SUCCESS) {
        *fail = res.fail;
        st = res.status;
    }
    double e = 0.0;
    for (size_t k = 0; st == GSL_SUCCESS && k < r->h.rows && k < ref.rows; k++) {
        if (fabs(ref.t[k] - r->h.t[k]) > 1e-9) {
            st = mbd_failure_set(fail, MBD_EINPUT, r->h.t[k], "the reference's grid differs");
            break;
        }
        for (size_t i = 0; i < sys->n; i++)
            e = fmax(e, fabs(mbd_history_q(&ref, k)[i] - mbd_history_q(&r->h, k)[i]));
    }
    *err = e;
    mbd_history_free(&ref);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The slider-crank of chapter 06, built again from planar.h                 */

typedef struct {
    mbd_planar_model *pm;
    double q0[9], qd0[9];
} slider_model;

/* crank 0.2 m, 1 kg about O; rod 0.5 m, 2 kg; slider 0.5 kg on the x axis;
 * the crank at pi/3 turning at 5 rad/s; gravity along -y. Exact start: the
 * rod's angle from the slider's height, sin(phi) = -l2 sin(th) / l3. */
static int slider_build(slider_model *sm)
{
    const double l2 = 0.2, l3 = 0.5, th = M_PI / 3, w = 5.0, origin[2] = {0.0, 0.0};
    mbd_planar_model *pm = sm->pm = mbd_planar_alloc();
    if (pm == NULL)
        return GSL_ENOMEM;
    const int ground = mbd_planar_add_ground(pm, 1);
    const int crank = mbd_planar_add_body(pm, 2, 1.0, 1.0 * l2 * l2 / 12.0, NULL);
    const int rod = mbd_planar_add_body(pm, 3, 2.0, 2.0 * l3 * l3 / 12.0, NULL);
    const int slider = mbd_planar_add_body(pm, 4, 0.5, 1e-3, NULL);
    const double O[2] = {-0.5 * l2, 0.0}, A2[2] = {0.5 * l2, 0.0}, A3[2] = {-0.5 * l3, 0.0},
                 B3[2] = {0.5 * l3, 0.0};
    mbd_planar_add_revolute(pm, crank, O, ground, origin);
    mbd_planar_add_revolute(pm, crank, A2, rod, A3);
    mbd_planar_add_revolute(pm, rod, B3, slider, origin);
    mbd_planar_add_coordinate_driver(pm, slider, MBD_PLANAR_Y, mbd_planar_constant_speed(0, 0));
    mbd_planar_add_coordinate_driver(pm, slider, MBD_PLANAR_THETA,
                                     mbd_planar_constant_speed(0, 0));
    mbd_planar_set_gravity(pm, 0.0, -9.81);
    int st = mbd_planar_finish(pm);
    if (st != GSL_SUCCESS)
        return st;
    const double phi = asin(-l2 * sin(th) / l3);
    const double phid = -l2 * cos(th) * w / (l3 * cos(phi));
    const double Ax = l2 * cos(th), Ay = l2 * sin(th);
    const double Axd = -l2 * sin(th) * w, Ayd = l2 * cos(th) * w;
    gsl_vector_view q = gsl_vector_view_array(sm->q0, 9), qd = gsl_vector_view_array(sm->qd0, 9);
    mbd_planar_set_pose(pm, crank, 0.5 * Ax, 0.5 * Ay, th, &q.vector);
    mbd_planar_set_velocity(pm, crank, 0.5 * Axd, 0.5 * Ayd, w, &qd.vector);
    mbd_planar_set_pose(pm, rod, Ax + 0.5 * l3 * cos(phi), Ay + 0.5 * l3 * sin(phi), phi,
                        &q.vector);
    mbd_planar_set_velocity(pm, rod, Axd - 0.5 * l3 * sin(phi) * phid,
                            Ayd + 0.5 * l3 * cos(phi) * phid, phid, &qd.vector);
    mbd_planar_set_pose(pm, slider, Ax + l3 * cos(phi), 0.0, 0.0, &q.vector);
    mbd_planar_set_velocity(pm, slider, Axd - l3 * sin(phi) * phid, 0.0, 0.0, &qd.vector);
    return GSL_SUCCESS;
}

/* the slider-crank's run with (b) or (d): |C|, |C'| and the energy */
static int slider_run(ch08_method method, ch08_run *r)
{
    slider_model sm = {0};
    int st = slider_build(&sm);
    ch08_spec spec;
    ch08_spec_default(&spec);
    mbd_study_spec run = spec.run;
    run.project = 1;
    run.projection = (mbd_projection_params){
        .tol = spec.tol, .max_iter = spec.max_iter,
        .mode = method == CH08_D ? MBD_CORRECTION_ENERGY : MBD_CORRECTION_SEQUENTIAL};
    ch08_run_free(r);
    if (st == GSL_SUCCESS)
        st = mbd_study_run(mbd_planar_system(sm.pm), &run, sm.q0, sm.qd0, &r->h, &r->res);
    if (st == GSL_SUCCESS) {
        r->max_phi_all = r->res.stats.max_C;
        r->max_phidot_all = r->res.stats.max_Cdot;
        r->E0 = r->res.stats.E0;
        r->max_energy_error = r->res.stats.max_dE;
        r->iterations = r->res.stats.projection.iterations;
        r->max_iterations = r->res.stats.projection.max_iterations;
    }
    mbd_planar_free(sm.pm);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The story's computations                                                  */

const double ch08_steps[CH08_NH] = {2e-3, 1e-3, 5e-4};
const double ch08_tols[CH08_NTOL] = {1e-10, 1e-12, 1e-14};

ch08_study *ch08_study_alloc(void)
{
    ch08_study *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    ch08_run *all[] = {&s->mass[0], &s->mass[1], &s->slider[0], &s->slider[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ch08_run_init(all[i]);
    for (int k = 0; k < CH08_NMETHODS; k++) {
        ch08_run_init(&s->four[k]);
        ch08_run_init(&s->rhombus[k]);
        ch08_run_init(&s->eight[k]);
    }
    for (int k = 0; k < CH08_NH; k++)
        ch08_run_init(&s->drift[k]);
    for (int i = 0; i < CH08_NTOL; i++)
        for (int k = 0; k < 3; k++)
            ch08_run_init(&s->tolrun[i][k]);
    return s;
}

void ch08_study_free(ch08_study *s)
{
    if (s == NULL)
        return;
    ch08_run *all[] = {&s->mass[0], &s->mass[1], &s->slider[0], &s->slider[1]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ch08_run_free(all[i]);
    for (int k = 0; k < CH08_NMETHODS; k++) {
        ch08_run_free(&s->four[k]);
        ch08_run_free(&s->rhombus[k]);
        ch08_run_free(&s->eight[k]);
    }
    for (int k = 0; k < CH08_NH; k++)
        ch08_run_free(&s->drift[k]);
    for (int i = 0; i < CH08_NTOL; i++)
        for (int k = 0; k < 3; k++)
            ch08_run_free(&s->tolrun[i][k]);
    free(s);
}

/* max |a - b| / max(|b|, floor) over m x n entries */
static double rel_diff(const double *a, const double *b, size_t count, double floor)
{
    double d = 0.0, size = floor;
    for (size_t i = 0; i < count; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        size = fmax(size, fabs(b[i]));
    }
    return d / size;
}

/* Step 1: M, Q_g, q'', lambda and E at the start of R1; the semi-analytic
 * Jacobians against central differences and against the library's own */
static int model_checks(ch08_study *s, mbd_failure *fail)
{
    ch08_model md;
    ch08_model_data(&md, CH08_FOURBAR, CH08_R1);
    int st = ch08_model_build(&md);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the 4-bar could not be built");
    const mbd_system *sys = ch08_system(&md);
    double q[3], qd[3], F[3], A[6], b[5];
    ch08_initial(&md, q, qd);
    gsl_vector_view qv = gsl_vector_view_array(q, 3), qdv = gsl_vector_view_array(qd, 3);
    gsl_matrix_view M = gsl_matrix_view_array(s->M0, 3, 3), Cq = gsl_matrix_view_array(A, 2, 3);
    gsl_vector_view Fv = gsl_vector_view_array(F, 3), g = gsl_vector_view_array(b + 3, 2);
    sys->mass(sys, 0.0, &qv.vector, &M.matrix);
    sys->force(sys, 0.0, &qv.vector, &qdv.vector, &Fv.vector);   /* at rest: Q_g */
    memcpy(s->Qg0, F, sizeof F);
    sys->jacobian(sys, 0.0, &qv.vector, &Cq.matrix);
    sys->gamma(sys, 0.0, &qv.vector, &qdv.vector, &g.vector);
    sys->energy(sys, 0.0, &qv.vector, &qdv.vector, &s->E0);
    /* [M C_q^T; C_q 0] [q''; lambda] = [F; gamma] */
    gsl_matrix *K = gsl_matrix_calloc(5, 5);
    gsl_permutation *p = gsl_permutation_alloc(5);
    gsl_vector_view bv = gsl_vector_view_array(b, 5);
    int sg = 0;
    memcpy(b, F, sizeof F);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            gsl_matrix_set(K, i, j, s->M0[3 * i + j]);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            gsl_matrix_set(K, 3 + i, j, A[3 * i + j]);
            gsl_matrix_set(K, j, 3 + i, A[3 * i + j]);
        }
    gsl_linalg_LU_decomp(K, p, &sg);
    gsl_linalg_LU_svx(K, p, &bv.vector);
    memcpy(s->qdd0, b, 3 * sizeof *b);
    memcpy(s->lambda0, b + 3, 2 * sizeof *b);
    gsl_permutation_free(p);
    gsl_matrix_free(K);

    /* the derivatives at a state off the constraints with a general q' */
    const double qa[3] = {1.1, 0.9, 1.3}, va[3] = {0.7, -1.3, 0.4};
    double J[6], Jfd[6], Jd[6], Jdfd[6], Jlib[6], Eq[3], Eqd[3], Eqfd[3], Eqdfd[3], Eql[3],
        Eqdl[3];
    gsl_matrix_view Jv = gsl_matrix_view_array(J, 2, 3);
    gsl_vector_const_view qav = gsl_vector_const_view_array(qa, 3),
                          vav = gsl_vector_const_view_array(va, 3);
    sys->jacobian(sys, 0.0, &qav.vector, &Jv.matrix);
    gsl_matrix_view Jdv = gsl_matrix_view_array(Jd, 2, 3);
    ch08_velocity_jacobian(&md, qa, va, &Jdv.matrix);
    ch08_energy_gradient(&md, qa, va, Eq, Eqd);
    const double hstep = 1e-6;
    for (int j = 0; j < 3; j++) {
        double qp[3], qm[3], vp[3], vm[3], pp[2], pm[2], dp[2], dm[2], Tp, Vp, Tm, Vm;
        memcpy(qp, qa, sizeof qp);
        memcpy(qm, qa, sizeof qm);
        qp[j] += hstep;
        qm[j] -= hstep;
        ch08_cut_violation(&md, qp, va, pp, dp);
        ch08_cut_violation(&md, qm, va, pm, dm);
        for (int i = 0; i < 2; i++) {
            Jfd[3 * i + j] = (pp[i] - pm[i]) / (2 * hstep);
            Jdfd[3 * i + j] = (dp[i] - dm[i]) / (2 * hstep);
        }
        ch08_energy_parts(&md, qp, va, &Tp, &Vp);
        ch08_energy_parts(&md, qm, va, &Tm, &Vm);
        Eqfd[j] = (Tp + Vp - Tm - Vm) / (2 * hstep);
        memcpy(vp, va, sizeof vp);
        memcpy(vm, va, sizeof vm);
        vp[j] += hstep;
        vm[j] -= hstep;
        ch08_energy_parts(&md, qa, vp, &Tp, &Vp);
        ch08_energy_parts(&md, qa, vm, &Tm, &Vm);
        Eqdfd[j] = (Tp + Vp - Tm - Vm) / (2 * hstep);
    }
    s->fd_phiq = rel_diff(J, Jfd, 6, 1.0);
    s->fd_phidotq = rel_diff(Jd, Jdfd, 6, 1.0);
    s->fd_Eq = rel_diff(Eq, Eqfd, 3, 1.0);
    s->fd_Eqd = rel_diff(Eqd, Eqdfd, 3, 1.0);
    /* the library's generic forms: dC'/dq from gamma, the gradient by differences */
    ch08_model lib;
    ch08_model_data(&lib, CH08_FOURBAR, CH08_R1);
    lib.library_derivatives = 1;
    st = ch08_model_build(&lib);
    gsl_vector *work = gsl_vector_alloc(16);
    gsl_matrix_view Jl = gsl_matrix_view_array(Jlib, 2, 3);
    gsl_vector_view El = gsl_vector_view_array(Eql, 3), Edl = gsl_vector_view_array(Eqdl, 3);
    if (st == GSL_SUCCESS && work != NULL) {
        const mbd_system *ls = ch08_system(&lib);
        st = mbd_system_rate_jacobian(ls, 0.0, &qav.vector, &vav.vector, &Jl.matrix, work);
        if (st == GSL_SUCCESS)
            st = mbd_system_energy_gradient(ls, 0.0, &qav.vector, &vav.vector, &El.vector,
                                            &Edl.vector, work);
    }
    if (work)
        gsl_vector_free(work);
    s->lib_phidotq = rel_diff(Jlib, Jd, 6, 1.0);
    s->lib_Eq = rel_diff(Eql, Eq, 3, 1.0);
    s->lib_Eqd = rel_diff(Eqdl, Eqd, 3, 1.0);
    ch08_model_free(&lib);
    ch08_model_free(&md);
    return st == GSL_SUCCESS ? st
                             : mbd_failure_set(fail, st, NAN, "the library's derivatives failed");
}

/* a run of a scenario with the story's defaults, then the changes asked */
static int story_run(ch08_scenario sc, ch08_reading rd, ch08_method method, double h,
                     double tol, int mass_metric, ch08_run *r, mbd_failure *fail)
{
    ch08_model md;
    ch08_model_data(&md, sc, rd);
    int st = ch08_model_build(&md);
    ch08_spec spec;
    ch08_spec_default(&spec);
    spec.method = method;
    spec.run.ode.h = h;
    spec.tol = tol;
    spec.mass_metric = mass_metric;
    if (st == GSL_SUCCESS)
        st = ch08_run_spec(&md, &spec, r);
    ch08_model_free(&md);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "a %s run could not be set up", ch08_scenario_names[sc]);
    return GSL_SUCCESS;
}

/* the smallest singular value of Phi_q over the outputs of r, and when */
static int sigma_min_along(ch08_scenario sc, ch08_reading rd, const ch08_run *r, double *sigma,
                           double *when)
{
    ch08_model md;
    ch08_model_data(&md, sc, rd);
    int st = ch08_model_build(&md);
    const size_t n = md.n, m = 2 * md.ncut;
    gsl_matrix *A = gsl_matrix_alloc(m, n), *At = gsl_matrix_alloc(n, m), *V = gsl_matrix_alloc(m, m);
    gsl_vector *S = gsl_vector_alloc(m), *w = gsl_vector_alloc(m);
    if (st == GSL_SUCCESS && !(A && At && V && S && w))
        st = GSL_ENOMEM;
    *sigma = INFINITY;
    *when = NAN;
    for (size_t k = 0; st == GSL_SUCCESS && k < r->h.rows; k++) {
        gsl_vector_const_view qv = gsl_vector_const_view_array(mbd_history_q(&r->h, k), n);
        st = ch08_system(&md)->jacobian(ch08_system(&md), r->h.t[k], &qv.vector, A);
        gsl_matrix_transpose_memcpy(At, A);
        if (st == GSL_SUCCESS)
            st = gsl_linalg_SV_decomp(At, V, S, w);
        if (st == GSL_SUCCESS && gsl_vector_get(S, m - 1) < *sigma) {
            *sigma = gsl_vector_get(S, m - 1);
            *when = r->h.t[k];
        }
    }
    gsl_matrix *mats[] = {A, At, V};
    for (int i = 0; i < 3; i++)
        if (mats[i])
            gsl_matrix_free(mats[i]);
    if (S)
        gsl_vector_free(S);
    if (w)
        gsl_vector_free(w);
    ch08_model_free(&md);
    return st;
}

int ch08_study_compute(ch08_study *s, mbd_failure *fail)
{
    if (s->computed)
        return GSL_SUCCESS;
    int st = model_checks(s, fail);
    /* Step 2 */
    for (int k = 0; k < CH08_NMETHODS && st == GSL_SUCCESS; k++)
        st = story_run(CH08_FOURBAR, CH08_R1, (ch08_method)k, CH08_H, CH08_TOL, 0, &s->four[k],
                       fail);
    if (st == GSL_SUCCESS) {
        ch08_model md;
        ch08_model_data(&md, CH08_FOURBAR, CH08_R1);
        st = ch08_model_build(&md);
        if (st == GSL_SUCCESS)
            st = ch08_reference_error(&md, &s->four[CH08_A], &s->four_ref_error, fail);
        ch08_model_free(&md);
    }
    /* Step 3 */
    for (int k = 0; k < CH08_NH && st == GSL_SUCCESS; k++)
        st = story_run(CH08_FOURBAR, CH08_R1, CH08_A, ch08_steps[k], CH08_TOL, 0, &s->drift[k],
                       fail);
    /* Step 4 */
    for (int i = 0; i < CH08_NTOL && st == GSL_SUCCESS; i++)
        for (int k = 0; k < 3 && st == GSL_SUCCESS; k++)
            st = story_run(CH08_FOURBAR, CH08_R1, (ch08_method)(CH08_B + k), CH08_H, ch08_tols[i],
                           0, &s->tolrun[i][k], fail);
    /* Step 5 */
    for (int k = 0; k < 2 && st == GSL_SUCCESS; k++)
        st = story_run(CH08_FOURBAR, CH08_R1, k == 0 ? CH08_C : CH08_D, CH08_H, CH08_TOL, 1,
                       &s->mass[k], fail);
    /* Step 6 */
    for (int k = 0; k < CH08_NMETHODS && st == GSL_SUCCESS; k++)
        st = story_run(CH08_FOURBAR, CH08_R2, (ch08_method)k, CH08_H, CH08_TOL, 0, &s->rhombus[k],
                       fail);
    if (st == GSL_SUCCESS)   /* the smallest singular value of Phi_q along (a) */
        st = sigma_min_along(CH08_FOURBAR, CH08_R2, &s->rhombus[CH08_A], &s->rhombus_sigma_min,
                             &s->rhombus_t_sigma_min);
    if (st == GSL_SUCCESS)
        st = sigma_min_along(CH08_FOURBAR, CH08_R1, &s->four[CH08_A], &s->four_sigma_min,
                             &s->four_t_sigma_min);
    /* Step 7 */
    for (int k = 0; k < CH08_NMETHODS && st == GSL_SUCCESS; k++)
        st = story_run(CH08_EIGHTBAR, CH08_R1, (ch08_method)k, CH08_H, CH08_TOL, 0, &s->eight[k],
                       fail);
    if (st == GSL_SUCCESS)
        st = sigma_min_along(CH08_EIGHTBAR, CH08_R1, &s->eight[CH08_A], &s->eight_sigma_min,
                             &s->eight_t_sigma_min);
    /* Step 8 */
    for (int k = 0; k < 2 && st == GSL_SUCCESS; k++) {
        st = slider_run(k == 0 ? CH08_B : CH08_D, &s->slider[k]);
        if (st != GSL_SUCCESS)
            mbd_failure_set(fail, st, NAN, "the slider-crank could not be set up");
    }
    if (st == GSL_SUCCESS)
        s->computed = 1;
    return st;
}
