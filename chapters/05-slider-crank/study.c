/* One simulation of the slider-crank and its measurements (see study.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/io.h"

#include "mbd/study.h"
#include "study.h"

void ch05_spec_document(ch05_spec *s)
{
    memset(s, 0, sizeof *s);   /* reference_dense = no_history = 0 */
    mbd_study_spec_init(&s->run, "penalty-baumgarte", 1.8, 1e-4);
    s->mass = CH05_MASS_DOCUMENT;
}

const char *ch05_branch_name(ch05_branch b)
{
    switch (b) {
    case CH05_BRANCH_SAME:
        return "same";
    case CH05_BRANCH_FOLDED:
        return "folded";
    case CH05_BRANCH_UNDECIDED:
        return "undecided";
    default:
        return "none";
    }
}

void ch05_run_init(ch05_run *r)
{
    memset(r, 0, sizeof *r);
    mbd_history_init(&r->hist);
    mbd_failure_clear(&r->fail);
    r->fold_time = r->fold_reference = NAN;
    r->fold_c2 = r->fold_step = r->fold_rate = NAN;
    r->max_own_cond = NAN;
}

void ch05_run_free(ch05_run *r)
{
    mbd_history_free(&r->hist);
}

/* >> branch */
/* After the fold the two branches part: at th1 the same branch has
 * th2 = pi - 2 th1, x3 = 2 L sin th1, the folded one th2 = pi, x3 = 0. A
 * state is on the one it is much closer to than they are to each other. */
static ch05_branch classify(const ch05_model *m, const double q[3])
{
    const double sep = fmax(2.0 * fabs(q[0]), 2.0 * m->L1 * fabs(sin(q[0])));
    const double same = ch05_branch_residual(m, q), folded = ch05_folded_residual(q);
    if (same < 0.1 * sep && same < folded)
        return CH05_BRANCH_SAME;
    if (folded < 0.1 * sep && folded < same)
        return CH05_BRANCH_FOLDED;
    return CH05_BRANCH_UNDECIDED;
}
/* << branch */

int ch05_run_errors(const ch05_run *r, ch05_reference *ref, double t_max, double *pos,
                    double *vel, double *invariant)
{
    double ep = 0.0, ev = 0.0, inv = 0.0;
    const mbd_history *h = &r->hist;
    for (size_t k = 0; k < h->rows && h->t[k] <= t_max; k++) {
        double q[3], qd[3];
        int st = ch05_reference_state(ref, h->t[k], q, qd);
        if (st != GSL_SUCCESS)
            return st;
        const double *qq = mbd_history_q(h, k), *vv = mbd_history_qd(h, k);
        for (int i = 0; i < 3; i++) {
            ep = fmax(ep, fabs(qq[i] - q[i]));
            ev = fmax(ev, fabs(vv[i] - qd[i]));
        }
        if (!(h->t[k] >= r->fold_time))   /* before the fold (or no fold) */
            inv = fmax(inv, ch05_branch_residual(&r->model, qq));
    }
    if (pos)
        *pos = ep;
    if (vel)
        *vel = ev;
    if (invariant)
        *invariant = inv;
    return GSL_SUCCESS;
}

void ch05_run_difference(const ch05_run *a, const ch05_run *b, double t_max, double diff[6])
{
    for (int i = 0; i < 6; i++)
        diff[i] = 0.0;
    size_t rows = a->hist.rows < b->hist.rows ? a->hist.rows : b->hist.rows;
    for (size_t k = 0; k < rows && a->hist.t[k] <= t_max; k++) {
        const double *qa = mbd_history_q(&a->hist, k), *qb = mbd_history_q(&b->hist, k);
        const double *va = mbd_history_qd(&a->hist, k), *vb = mbd_history_qd(&b->hist, k);
        for (int i = 0; i < 3; i++) {
            diff[i] = fmax(diff[i], fabs(qa[i] - qb[i]));
            diff[3 + i] = fmax(diff[3 + i], fabs(va[i] - vb[i]));
        }
    }
}

double ch05_run_energy_error(const ch05_run *r, double t_max)
{
    double e = 0.0;
    const mbd_history *h = &r->hist;
    for (size_t k = 0; k < h->rows && h->t[k] <= t_max; k++)
        e = fmax(e, fabs(h->E[k] - h->E[0]));
    return e;
}

/* What a run measures at its outputs, folded as they come (the observer of
 * the library's run, study.h), so that a run that keeps no history (a
 * summary) measures the same as one that does, row by row in time order. */
typedef struct {
    ch05_run *r;
    const ch05_spec *spec;
    ch05_reference *ref;
    mbd_formulation *own;        /* the condition of the method's matrix (record_condition) */
    double *y;                   /* its state (mbd_formulation_dim of it) */
    int ref_ready;               /* the reference is set up (at the first output) */
    int status;                  /* of the reference or the condition: an error, not a finding */
    size_t rows;
    double t_prev, th1_prev;     /* the previous output's time and th1 */
    double inv_done;             /* the invariant over the rows before the previous one */
    double inv_prev;             /* the previous row's residual, pending until the fold is known */
    double ep, ev;               /* position and velocity errors */
    double last_q[3];            /* the last output's positions */
} measure;

/* the reference of this mass matrix, set up (or kept from an earlier run
 * when it fits) when the run has its first output: tabulated on the output
 * grid, and its fold found */
static int reference_ready(measure *m)
{
    const ch05_spec *spec = m->spec;
    ch05_reference *ref = m->ref;
    int st = GSL_SUCCESS;
    if (ref->driver == NULL || ref->params.kind != spec->mass) {
        ch05_reference_free(ref);
        st = ch05_reference_init(ref, &m->r->model, spec->mass);
    }
    if (st == GSL_SUCCESS && spec->run.dt_out > 0)
        st = spec->reference_dense
                 ? ch05_reference_tabulate_dense(ref, spec->run.dt_out, spec->run.t_end)
                 : ch05_reference_tabulate(ref, spec->run.dt_out, spec->run.t_end);
    if (st == GSL_SUCCESS)
        st = ch05_reference_fold(ref, &m->r->fold_reference);
    if (st == GSL_EMAXITER)
        st = GSL_SUCCESS;   /* no fold within 3 s: fold_reference stays NAN */
    return st;
}

static int measure_output(void *ctx, double t, const double q[], const double qd[],
                          double C_norm, double Cdot_norm, double E, double step)
{
    (void)C_norm;
    (void)Cdot_norm;
    (void)E;
    measure *m = ctx;
    ch05_run *r = m->r;
    int st = GSL_SUCCESS;
    if (!m->ref_ready) {
        st = reference_ready(m);
        m->ref_ready = 1;
        if (st != GSL_SUCCESS)
            return m->status = st;
    }
    /* the slider's farthest point, cond(S), the drift before the fold */
    if (q[2] > r->max_x3) {
        r->max_x3 = q[2];
        r->t_max_x3 = t;
    }
    r->max_schur_cond = fmax(r->max_schur_cond, ch05_schur_condition(&r->model, m->spec->mass, q));
    if (isnan(r->fold_time) && q[0] >= CH05_APPROACH) {
        double C[2];
        ch05_constraint(&r->model, q, C);
        r->fold_c2 = C[1];
    }
    /* the fold: the first sign change of th1 between outputs; the invariant
     * counts the rows before it, so the previous row's waits for it */
    const double res = ch05_branch_residual(&r->model, q);
    if (isnan(r->fold_time)) {
        if (m->rows > 0 && m->th1_prev > 0.0 && q[0] <= 0.0) {
            const double a = m->th1_prev, b = q[0];
            r->fold_time = m->t_prev + a / (a - b) * (t - m->t_prev);
            r->fold_step = step;
            r->fold_rate = qd[0];
            if (!(m->t_prev >= r->fold_time))
                m->inv_done = fmax(m->inv_done, m->inv_prev);
            if (!(t >= r->fold_time))
                m->inv_done = fmax(m->inv_done, res);
        } else {
            if (m->rows > 0)
                m->inv_done = fmax(m->inv_done, m->inv_prev);
            m->inv_prev = res;
        }
    } else if (!(t >= r->fold_time)) {
        m->inv_done = fmax(m->inv_done, res);
    }
    /* the condition number of the matrix the formulation solves with, on a
     * copy of the model that the probe does not watch */
    if (m->own != NULL) {
        double c = INFINITY;
        st = mbd_formulation_pack(m->own, t, q, qd, m->y);
        if (st == GSL_SUCCESS)
            st = mbd_formulation_condition(m->own, t, m->y, &c);
        r->max_own_cond = fmax(r->max_own_cond, c);
        if (st != GSL_SUCCESS)
            return m->status = st;
    }
    /* the errors against the reference */
    double qr[3], qdr[3];
    st = ch05_reference_state(m->ref, t, qr, qdr);
    if (st != GSL_SUCCESS)
        return m->status = st;
    for (int i = 0; i < 3; i++) {
        m->ep = fmax(m->ep, fabs(q[i] - qr[i]));
        m->ev = fmax(m->ev, fabs(qd[i] - qdr[i]));
    }
    m->t_prev = t;
    m->th1_prev = q[0];
    for (int i = 0; i < 3; i++)
        m->last_q[i] = q[i];
    m->rows++;
    return GSL_SUCCESS;
}

int ch05_run_spec(ch05_run *r, const ch05_spec *spec, ch05_reference *ref)
{
    ch05_run_free(r);
    ch05_run_init(r);
    ch05_model_document(&r->model);
    r->model.mass = spec->mass;
    ch05_probe_reset(&r->probe);
    r->model.probe = &r->probe;
    ch05_system(&r->model, &r->sys);

    mbd_formulation_params fp = {.mu = spec->run.mu, .alpha = spec->run.alpha, .beta = spec->run.beta};
    int st = mbd_formulation_method(spec->run.method, &fp);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&r->fail, MBD_EINPUT, NAN, "unknown method '%s'", spec->run.method);

    /* the condition of the method's matrix, on a copy of the model that the
     * probe does not watch: the probe counts the integrator's evaluations only */
    ch05_model own_model = r->model;
    own_model.probe = NULL;
    mbd_system own_sys;
    ch05_system(&own_model, &own_sys);
    measure m = {.r = r, .spec = spec, .ref = ref, .status = GSL_SUCCESS};
    if (spec->run.record_condition) {
        m.own = mbd_formulation_alloc(&own_sys, &fp);
        m.y = m.own != NULL ? malloc(mbd_formulation_dim(m.own) * sizeof *m.y) : NULL;
        if (m.y == NULL) {
            mbd_formulation_free(m.own);
            return GSL_ENOMEM;
        }
        r->max_own_cond = -INFINITY;
    }
    r->max_x3 = -INFINITY;

    /* the library's method run (study.h), measured at every output */
    double q0[3], qd0[3];
    ch05_initial(&r->model, q0, qd0);
    mbd_study_spec ss = spec->run;
    ss.record_condition = 0;   /* measured by the observer, without the probe watching */
    ss.observe = measure_output;
    ss.observe_ctx = &m;
    mbd_study_result res;
    st = mbd_study_run(&r->sys, &ss, q0, qd0, spec->no_history ? NULL : &r->hist, &res);
    mbd_formulation_free(m.own);
    free(m.y);
    r->status = st != GSL_SUCCESS ? st : res.status;
    r->fail = res.fail;
    r->stats = res.stats;
    if (st != GSL_SUCCESS || (r->status == MBD_EINPUT && res.stats.rows == 0))
        return r->status;   /* refused before it started (e.g. projection of index-2) */
    if (m.status != GSL_SUCCESS)
        return m.status;    /* the reference or a condition number failed */
    if (m.rows == 0) {
        r->max_own_cond = NAN;
        if ((st = reference_ready(&m)) != GSL_SUCCESS)
            return st;
    } else if (isnan(r->fold_time)) {
        m.inv_done = fmax(m.inv_done, m.inv_prev);   /* no fold: every row counts */
    }
    r->max_pos_err = m.ep;
    r->max_vel_err = m.ev;
    r->max_invariant = m.inv_done;
    if (m.rows > 0 && isfinite(r->fold_time))
        r->branch = classify(&r->model, m.last_q);
    else
        r->branch = CH05_BRANCH_NONE;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The computations                                                          */

int ch05_run_one(ch05_study *s, ch05_run *r, const char *method, const char *integrator,
                 ch05_mass_kind mass, double t_end, int project)
{
    ch05_spec spec;
    ch05_spec_document(&spec);
    spec.run.method = method;
    spec.mass = mass;
    spec.run.t_end = t_end;
    spec.run.project = project;
    spec.run.record_condition = 1;
    if (mbd_ode_preset(integrator, &spec.run.ode) != GSL_SUCCESS)
        return MBD_EINPUT;
    return ch05_run_spec(r, &spec, &s->ref[mass]);   /* the story's references, reused */
}

/* the library's projection asked for accelerations exactly on the fold */
static void projection_on_fold(ch05_study *s, ch05_mass_kind kind)
{
    ch05_model m = s->model;
    m.mass = kind;
    mbd_system sys;
    ch05_system(&m, &sys);
    mbd_formulation_params fp = {.mu = 1e5, .alpha = 20.0, .beta = 20.0};
    mbd_formulation_method("projection", &fp);
    mbd_formulation *f = mbd_formulation_alloc(&sys, &fp);
    double q[3], qd[3], a[3];
    s->fold_status[kind] = GSL_ENOMEM;
    s->fold_cause[kind][0] = '\0';
    if (f != NULL && ch05_reference_state(&s->ref[kind], s->fold[kind], q, qd) == GSL_SUCCESS) {
        gsl_vector_view qv = gsl_vector_view_array(q, 3), qdv = gsl_vector_view_array(qd, 3);
        gsl_vector_view av = gsl_vector_view_array(a, 3);
        s->fold_status[kind] = mbd_formulation_accel(f, s->fold[kind], &qv.vector, &qdv.vector,
                                                     &av.vector, NULL);
        snprintf(s->fold_cause[kind], sizeof s->fold_cause[kind], "%s",
                 mbd_formulation_failure(f)->cause);
    }
    mbd_formulation_free(f);
}

int ch05_compute(ch05_study *s)
{
    ch05_model *m = &s->model;
    ch05_model_document(m);
    ch05_initial(m, s->q0, s->qd0);
    s->E0 = ch05_energy(m, s->q0, s->qd0);
    ch05_constraint(m, s->q0, s->C0);

    /* the derivatives of C, with the code's gamma and with the printed one */
    {
        const double q[3] = {1.1, -0.7, 2.5}, qd[3] = {-0.8, 1.3, 0.4};
        gsl_vector_const_view qv = gsl_vector_const_view_array(q, 3);
        gsl_vector_const_view qdv = gsl_vector_const_view_array(qd, 3);
        ch05_model mm = *m;
        mbd_system sys;
        ch05_system(&mm, &sys);
        int st = mbd_system_check_derivatives(&sys, 0.0, &qv.vector, &qdv.vector, 0.0, &s->fd_code);
        mm.gamma_printed = 1;
        if (st == GSL_SUCCESS)
            st = mbd_system_check_derivatives(&sys, 0.0, &qv.vector, &qdv.vector, 0.0,
                                              &s->fd_printed);
        if (st != GSL_SUCCESS)
            return st;
        double F[3], F0[3];
        const double rest[3] = {0, 0, 0};
        ch05_force(m, q, qd, F);
        ch05_force(m, q, rest, F0);
        for (int i = 0; i < 3; i++)
            s->vel_terms_doc[i] = F[i] - F0[i];
        ch05_lagrange_velocity_terms(m, q, qd, 1e-5, s->vel_terms_lagrange);
    }
    gsl_matrix_view Md = gsl_matrix_view_array(s->Md, 3, 3);
    gsl_matrix_view Mc = gsl_matrix_view_array(s->Mc, 3, 3);
    ch05_mass_matrix(m, CH05_MASS_DOCUMENT, s->q0, &Md.matrix);
    ch05_mass_matrix(m, CH05_MASS_CONSISTENT, s->q0, &Mc.matrix);

    /* the references, their folds and the slider's farthest point */
    for (int k = 0; k < 2; k++) {
        int st = ch05_reference_init(&s->ref[k], m, (ch05_mass_kind)k);
        if (st == GSL_SUCCESS)
            st = ch05_reference_crossing(&s->ref[k], 0.0, 3.0, &s->fold[k]);
        if (st == GSL_SUCCESS)
            st = ch05_reference_crossing(&s->ref[k], M_PI / 2, 3.0, &s->t_x3max[k]);
        if (st != GSL_SUCCESS)
            return st;
    }
    /* the true energy along the document model's reference */
    s->E_ref_max_drift = 0.0;
    s->E_ref_min = INFINITY;
    for (int i = 0; i <= 1800; i++) {
        double t = 1e-3 * i, q[3], qd[3];
        int st = ch05_reference_state(&s->ref[CH05_MASS_DOCUMENT], t, q, qd);
        if (st != GSL_SUCCESS)
            return st;
        double E = ch05_energy(m, q, qd);
        s->E_ref_max_drift = fmax(s->E_ref_max_drift, fabs(E - s->E0));
        if (E < s->E_ref_min) {
            s->E_ref_min = E;
            s->t_E_ref_min = t;
        }
    }

    /* Step 4: what the document ran */
    double t0 = mbd_cli_seconds();
    int st = ch05_run_one(s, &s->pen, "penalty-baumgarte", "ode23", CH05_MASS_DOCUMENT, T_DOC, 0);
    s->seconds_pen = mbd_cli_seconds() - t0;
    if (st != GSL_SUCCESS)
        return st;
    t0 = mbd_cli_seconds();
    st = ch05_run_one(s, &s->proj, "projection-baumgarte", "ode23", CH05_MASS_DOCUMENT, T_DOC, 0);
    s->seconds_proj = mbd_cli_seconds() - t0;
    if (st != GSL_SUCCESS)
        return st;

    /* Steps 5 and 7 */
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < N_METHODS; j++)
            for (int i = 0; i < N_INTEG; i++) {
                st = ch05_run_one(s, &s->runs[k][j][i], METHODS[j], INTEGRATORS[i], (ch05_mass_kind)k,
                             T_THROUGH, 0);
                if (st != GSL_SUCCESS)
                    return st;
            }
        st = ch05_run_one(s, &s->post[k], "projection", "ode23", (ch05_mass_kind)k, T_THROUGH, 1);
        if (st != GSL_SUCCESS)
            return st;
        projection_on_fold(s, (ch05_mass_kind)k);
        st = ch05_run_one(s, &s->on_fold[k], "projection", "tight", (ch05_mass_kind)k, s->fold[k], 0);
        if (st != GSL_SUCCESS)
            return st;
    }

    /* Step 8 */
    return ch05_run_one(s, &s->printed, "penalty-baumgarte-printed", "ode23", CH05_MASS_DOCUMENT,
                   T_DOC, 0);
}

ch05_study *ch05_study_alloc(void)
{
    ch05_study *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    ch05_run *all[] = {&s->pen, &s->proj, &s->post[0], &s->post[1], &s->on_fold[0],
                       &s->on_fold[1], &s->printed};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ch05_run_init(all[i]);
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < N_METHODS; j++)
            for (int i = 0; i < N_INTEG; i++)
                ch05_run_init(&s->runs[k][j][i]);
    return s;
}

void ch05_study_free(ch05_study *s)
{
    if (s == NULL)
        return;
    ch05_run *all[] = {&s->pen, &s->proj, &s->post[0], &s->post[1], &s->on_fold[0],
                       &s->on_fold[1], &s->printed};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ch05_run_free(all[i]);
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < N_METHODS; j++)
            for (int i = 0; i < N_INTEG; i++)
                ch05_run_free(&s->runs[k][j][i]);
        ch05_reference_free(&s->ref[k]);
    }
    free(s);
}
