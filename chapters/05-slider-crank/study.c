/* One simulation of the slider-crank and its measurements (see study.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/io.h"

#include "mbd/study.h"
#include "study.h"

void ch05_spec_document(ch05_spec *s)
{
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

/* The condition number of the matrix the formulation solves with
 * (mbd_formulation_condition) at every output, on a copy of the model that
 * the probe does not watch: the probe counts the integrator's evaluations only. */
static int own_condition(ch05_run *r, const mbd_formulation_params *fp)
{
    ch05_model m = r->model;
    m.probe = NULL;
    mbd_system s;
    ch05_system(&m, &s);
    mbd_formulation *f = mbd_formulation_alloc(&s, fp);
    if (f == NULL)
        return GSL_ENOMEM;
    const mbd_history *h = &r->hist;
    int st = GSL_SUCCESS;
    r->max_own_cond = -INFINITY;
    double y[6];   /* the formulation's state: [q; q'] or smaller (the embedding's) */
    for (size_t k = 0; k < h->rows && st == GSL_SUCCESS; k++) {
        double c = INFINITY;
        st = mbd_formulation_pack(f, h->t[k], mbd_history_q(h, k), mbd_history_qd(h, k), y);
        if (st == GSL_SUCCESS)
            st = mbd_formulation_condition(f, h->t[k], y, &c);
        r->max_own_cond = fmax(r->max_own_cond, c);
    }
    mbd_formulation_free(f);
    if (h->rows == 0)
        r->max_own_cond = NAN;
    return st;
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

    /* the library's method run (study.h) */
    double q0[3], qd0[3];
    ch05_initial(&r->model, q0, qd0);
    mbd_study_spec ss = spec->run;
    ss.record_condition = 0;   /* measured below, without the probe watching */
    mbd_study_result res;
    st = mbd_study_run(&r->sys, &ss, q0, qd0, &r->hist, &res);
    r->status = st != GSL_SUCCESS ? st : res.status;
    r->fail = res.fail;
    r->stats = res.stats;
    if (st != GSL_SUCCESS || (r->status == MBD_EINPUT && r->hist.rows == 0))
        return r->status;   /* refused before it started (e.g. projection of index-2) */

    /* the fold: the first sign change of th1 between outputs */
    const mbd_history *h = &r->hist;
    r->max_x3 = -INFINITY;
    for (size_t k = 0; k < h->rows; k++) {
        const double *q = mbd_history_q(h, k);
        if (q[2] > r->max_x3) {
            r->max_x3 = q[2];
            r->t_max_x3 = h->t[k];
        }
        r->max_schur_cond = fmax(r->max_schur_cond,
                                 ch05_schur_condition(&r->model, spec->mass, q));
        if (isnan(r->fold_time) && q[0] >= CH05_APPROACH) {
            double C[2];
            ch05_constraint(&r->model, q, C);
            r->fold_c2 = C[1];
        }
        if (k > 0 && isnan(r->fold_time)) {
            const double a = mbd_history_q(h, k - 1)[0], b = q[0];
            if (a > 0.0 && b <= 0.0) {
                r->fold_time = h->t[k - 1] + a / (a - b) * (h->t[k] - h->t[k - 1]);
                r->fold_step = h->h[k];
                r->fold_rate = mbd_history_qd(h, k)[0];
            }
        }
    }
    if (spec->run.record_condition) {
        st = own_condition(r, &fp);
        if (st != GSL_SUCCESS)
            return st;
    }
    if (h->rows > 0 && isfinite(r->fold_time))
        r->branch = classify(&r->model, mbd_history_q(h, h->rows - 1));
    else
        r->branch = CH05_BRANCH_NONE;

    /* the reference of this mass matrix: kept from an earlier run when it fits */
    st = GSL_SUCCESS;
    if (ref->driver == NULL || ref->params.kind != spec->mass) {
        ch05_reference_free(ref);
        st = ch05_reference_init(ref, &r->model, spec->mass);
    }
    if (st == GSL_SUCCESS && spec->run.dt_out > 0)
        st = spec->reference_dense
                 ? ch05_reference_tabulate_dense(ref, spec->run.dt_out, spec->run.t_end)
                 : ch05_reference_tabulate(ref, spec->run.dt_out, spec->run.t_end);
    if (st == GSL_SUCCESS)
        st = ch05_reference_fold(ref, &r->fold_reference);
    if (st == GSL_EMAXITER)
        st = GSL_SUCCESS;   /* no fold within 3 s: fold_reference stays NAN */
    if (st == GSL_SUCCESS)
        st = ch05_run_errors(r, ref, INFINITY, &r->max_pos_err, &r->max_vel_err,
                             &r->max_invariant);
    return st;
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
