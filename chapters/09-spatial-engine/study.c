/* study.c -- one analysis of a model and its record (see study.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "mbd/io.h"
#include "study.h"

const char *const ch09_analysis_names[] = {"assembly", "kinematics", "inverse-dynamics", "dynamics",
                                           NULL};
const char *const ch09_analysis_descriptions[] = {
    "a consistent configuration from the file's guess (and the initial velocities)",
    "a fully driven model: position, velocity and acceleration at every step",
    "kinematics, then the multipliers and every joint's reaction",
    "time-stepping dynamics: BDF on the index-3 equations (or index 1 with projection)",
    NULL,
};

const char *const ch09_integrator_names[] = {"bdf1", "bdf2", "bdf3", "bdf4", "bdf5",
                                             "tight", "rk8pd", NULL};
const char *const ch09_integrator_descriptions[] = {
    "BDF of order 1 (implicit Euler) on the index-3 equations",
    "BDF of order 2 (the document's)",
    "BDF up to order 3 (variable coefficients; orders 1 and 2 first)",
    "BDF up to order 4",
    "BDF up to order 5",
    "index 1 with projection, Dormand-Prince 5(4) (ode.h's tight: rtol 1e-10, atol 1e-12)",
    "index 1 with projection, GSL's Prince-Dormand 8(9) (rtol 1e-12, atol 1e-14)",
    NULL,
};

int ch09_integrator_of(const char *name, unsigned *index)
{
    for (unsigned k = 0; name != NULL && ch09_integrator_names[k] != NULL; k++)
        if (strcmp(name, ch09_integrator_names[k]) == 0) {
            *index = k;
            return GSL_SUCCESS;
        }
    return MBD_EINPUT;
}

unsigned ch09_integrator_order(unsigned integrator)
{
    return integrator < 5 ? integrator + 1 : 0;
}

void ch09_run_init(ch09_run *r)
{
    memset(r, 0, sizeof *r);
    mbd_failure_clear(&r->fail);
}

void ch09_run_free(ch09_run *r)
{
    free(r->t);
    free(r->q);
    free(r->qd);
    free(r->qdd);
    free(r->points);
    free(r->C);
    free(r->E);
    free(r->react);
    ch09_run_init(r);
}

typedef struct {
    ch09_model *md;
    ch09_run *r;
    gsl_vector *C;
    int reactions;
} recorder;

static int grow(ch09_run *r)
{
    if (r->rows < r->cap)
        return GSL_SUCCESS;
    const size_t cap = r->cap ? 2 * r->cap : 256;
    const size_t w[] = {1, r->n, r->n, r->n, 3 * r->npoints, 1, 1, 6 * r->njoints};
    double **p[] = {&r->t, &r->q, &r->qd, &r->qdd, &r->points, &r->C, &r->E, &r->react};
    for (size_t i = 0; i < 8; i++) {
        double *g = realloc(*p[i], cap * (w[i] ? w[i] : 1) * sizeof **p[i]);
        if (g == NULL)
            return GSL_ENOMEM;
        *p[i] = g;
    }
    r->cap = cap;
    return GSL_SUCCESS;
}

/* one row of the record at (t, q, q') (lambda when reactions are asked);
 * C_norm and E are |Phi| and the energy when the caller has them already
 * (the dynamics' observer has both), NAN to evaluate them here */
static int record_row(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                      const gsl_vector *qd, const gsl_vector *qdd, const gsl_vector *lambda,
                      double C_norm, double E, void *user)
{
    recorder *c = user;
    ch09_run *r = c->r;
    const mbd_model_desc *d = c->md->desc;
    const mbd_system *sys = mbd_spatial_system(sm);
    if (r->rows >= CH09_MAX_STEPS + 1)   /* an adaptive run that records every step */
        return mbd_failure_set(&r->fail, MBD_ESTEPLIMIT, t,
                               "more than %d outputs (every step of an adaptive run is one: "
                               "give --dt-out)", CH09_MAX_STEPS);
    int st = grow(r);
    if (st != GSL_SUCCESS)
        return st;
    const size_t k = r->rows, n = r->n;
    r->t[k] = t;
    memcpy(r->q + k * n, q->data, n * sizeof(double));
    memcpy(r->qd + k * n, qd->data, n * sizeof(double));
    if (qdd != NULL)
        memcpy(r->qdd + k * n, qdd->data, n * sizeof(double));
    else
        memset(r->qdd + k * n, 0, n * sizeof(double));
    for (size_t i = 0; i < r->npoints; i++) {
        const mbd_model_output_point *op = &d->outputs[i];
        st = mbd_spatial_point_position(sm, c->md->body[op->body], op->point, q,
                                        r->points + (k * r->npoints + i) * 3);
        if (st != GSL_SUCCESS)
            return st;
    }
    if (isnan(C_norm)) {
        st = sys->constraint(sys, t, q, c->C);
        C_norm = st == GSL_SUCCESS ? gsl_blas_dnrm2(c->C) : NAN;
    }
    r->C[k] = C_norm;
    r->E[k] = E;
    if (st == GSL_SUCCESS && isnan(E) && sys->energy)
        st = sys->energy(sys, t, q, qd, &r->E[k]);
    for (size_t j = 0; st == GSL_SUCCESS && c->reactions && lambda != NULL && j < r->njoints; j++) {
        mbd_spatial_reaction on_i;
        const size_t nj = c->md->desc->njoints;
        st = mbd_spatial_reactions(sm, j < nj ? c->md->joint[j] : c->md->constraint[j - nj], q,
                                   lambda, &on_i, NULL);
        double *o = r->react + (k * r->njoints + j) * 6;
        memcpy(o, on_i.F, 3 * sizeof(double));
        memcpy(o + 3, on_i.n_point, 3 * sizeof(double));
    }
    if (st == GSL_SUCCESS)
        r->rows++;
    return st;
}

/* the kinematics' and inverse dynamics' observer, and the assembly's row */
static int record(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                  const gsl_vector *qd, const gsl_vector *qdd, const gsl_vector *lambda,
                  void *user)
{
    return record_row(sm, t, q, qd, qdd, lambda, NAN, NAN, user);
}

/* the dynamics' observer: one row of the record per output */
static int record_dynamics(const mbd_spatial_model *sm, const mbd_spatial_dynamics_point *pt,
                           void *user)
{
    recorder *c = user;
    c->r->newton_iterations += pt->newton_iterations;
    c->r->max_euler_norm = fmax(c->r->max_euler_norm, pt->euler_norm);
    c->r->max_velocity_drift = fmax(c->r->max_velocity_drift, pt->velocity_drift);
    /* the observer measured |Phi| and the energy at this state: not again */
    return record_row(sm, pt->t, pt->q, pt->qd, pt->qdd, pt->lambda, pt->phi_norm, pt->energy,
                      user);
}

/* >> run-dynamics */
static int run_dynamics(ch09_model *md, const ch09_spec *spec, gsl_vector *q, gsl_vector *qd,
                        recorder *c)
{
    mbd_spatial_dynamics_options o = {
        .order = ch09_integrator_order(spec->integrator), .newton = spec->newton, .h = spec->h,
        .adaptive = spec->adaptive, .rtol = spec->rtol, .atol = spec->atol,
        .tol = spec->opts.tol, .max_iter = spec->opts.max_iter,
        .linear_solver = spec->linear_solver};
    if (o.order == 0) {
        /* the index-1 comparison: the preset's integrator, its tolerances
         * unless the file or the options give them */
        o.method = MBD_SPATIAL_INDEX1_RK;
        o.order = 2;
        mbd_ode_preset(ch09_integrator_names[spec->integrator], &o.ode);
        o.ode.h = spec->h;   /* its first step */
        if (spec->rtol > 0)
            o.ode.rtol = spec->rtol;
        if (spec->atol > 0)
            o.ode.atol = spec->atol;
    }
    mbd_spatial_dynamics *d = mbd_spatial_dynamics_alloc(md->sm, &o);
    if (d == NULL)
        return mbd_failure_set(&c->r->fail, MBD_EINPUT, spec->t0,
                               "dynamics: the integrator could not be set up (options, memory, "
                               "or the %s linear solver)",
                               mbd_linsolve_kind_name(spec->linear_solver));
    int st = mbd_spatial_dynamics_start(d, spec->t0, q, qd, NULL, NULL);
    if (st == GSL_SUCCESS)
        st = mbd_spatial_dynamics_run(d, spec->t0, spec->t_end, spec->dt_out, q, qd,
                                      record_dynamics, c);
    c->r->dynamics = *mbd_spatial_dynamics_stats_get(d);
    mbd_spatial_dynamics_free(d);
    return st;
}
/* << run-dynamics */

int ch09_spec_of_model(const ch09_model *md, ch09_spec *spec, mbd_failure *fail)
{
    const mbd_model_analysis *a = &md->desc->analysis;
    memset(spec, 0, sizeof *spec);
    spec->assemble = 1;
    spec->t_end = CH09_T_END;
    spec->h = CH09_H;
    /* KLU: faster than the dense LU already at one body (A01: 4.2 against
     * 5.0 us per index-1 right-hand side), and the only one that scales;
     * --linear-solver dense shows the difference */
    spec->linear_solver = MBD_LINSOLVE_SPARSE;
    switch (a->type) {
    case MBD_MODEL_ANALYSIS_NONE:
        spec->analysis = CH09_ASSEMBLY;
        spec->auto_analysis = 1;   /* ch09_run_spec makes it kinematics when fully driven */
        return GSL_SUCCESS;
    case MBD_MODEL_ANALYSIS_ASSEMBLY:
        spec->analysis = CH09_ASSEMBLY;
        break;
    case MBD_MODEL_ANALYSIS_KINEMATICS:
        spec->analysis = CH09_KINEMATICS;
        break;
    case MBD_MODEL_ANALYSIS_INVERSE_DYNAMICS:
        spec->analysis = CH09_INVERSE_DYNAMICS;
        break;
    case MBD_MODEL_ANALYSIS_DYNAMICS:
        spec->analysis = CH09_DYNAMICS;
        break;
    }
    spec->t0 = a->t_start;
    if (a->type != MBD_MODEL_ANALYSIS_ASSEMBLY) {
        spec->t_end = a->t_end;
        spec->h = a->h;
        spec->assemble = a->assemble;
    }
    if (isfinite(a->tolerance))
        spec->opts.tol = a->tolerance;
    if (a->max_iterations > 0)
        spec->opts.max_iter = a->max_iterations > 100000 ? 100000 : (unsigned)a->max_iterations;
    spec->integrator = CH09_BDF2;
    if (a->integrator != NULL && ch09_integrator_of(a->integrator, &spec->integrator) != GSL_SUCCESS)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "%s:%lu:%lu: analysis: 'integrator': this program has bdf1 ... "
                               "bdf5, tight and rk8pd, not '%s'", md->desc->source,
                               a->integrator_pos.line, a->integrator_pos.column, a->integrator);
    if (a->newton == MBD_MODEL_NEWTON_FULL)
        spec->newton = MBD_SPATIAL_NEWTON_FULL;
    if (a->newton == MBD_MODEL_NEWTON_MODIFIED)
        spec->newton = MBD_SPATIAL_NEWTON_MODIFIED;
    if (a->newton != MBD_MODEL_NEWTON_DEFAULT && spec->analysis == CH09_DYNAMICS
        && ch09_integrator_order(spec->integrator) == 0)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "%s:%lu:%lu: analysis: 'newton': the integrator %s (index 1 with "
                               "projection) solves no Newton iteration (remove the key)",
                               md->desc->source, a->pos.line, a->pos.column,
                               ch09_integrator_names[spec->integrator]);
    if (isfinite(a->rtol) || isfinite(a->atol)) {
        spec->adaptive = 1;
        spec->rtol = isfinite(a->rtol) ? a->rtol : 0.0;
        spec->atol = isfinite(a->atol) ? a->atol : 0.0;
    }
    if (a->newton != MBD_MODEL_NEWTON_DEFAULT && a->newton != MBD_MODEL_NEWTON_FULL &&
        spec->analysis != CH09_DYNAMICS)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "%s:%lu:%lu: analysis: 'newton': a %s analysis uses full Newton "
                               "(remove the key or write 'full')",
                               md->desc->source, a->pos.line, a->pos.column,
                               ch09_analysis_names[spec->analysis]);
    return GSL_SUCCESS;
}

/* >> run */
int ch09_run_spec(ch09_model *md, const ch09_spec *spec_in, ch09_run *r)
{
    ch09_run_free(r);
    ch09_spec spec = *spec_in;
    const mbd_system *sys = mbd_spatial_system(md->sm);
    r->n = sys->n;
    r->npoints = md->desc->noutputs;
    r->njoints = md->desc->njoints + md->desc->nconstraints;   /* reactions: both */
    gsl_vector *q = gsl_vector_alloc(r->n), *qd = gsl_vector_alloc(r->n);
    gsl_vector *scratch = gsl_vector_alloc(r->n);
    gsl_vector *C = gsl_vector_alloc(sys->m ? sys->m : 1);
    int *known = calloc(mbd_spatial_n_bodies(md->sm), sizeof *known);
    int st = q && qd && scratch && C && known ? GSL_SUCCESS : GSL_ENOMEM;
    if (st == GSL_SUCCESS)
        st = ch09_initial(md, q, qd, known);
    for (size_t k = 0; st == GSL_SUCCESS && k < md->desc->nbodies; k++)
        if (!md->desc->bodies[k].is_ground && md->desc->bodies[k].velocity_known)
            r->velocities_known++;
    if (st == GSL_SUCCESS && spec.assemble) {
        st = mbd_spatial_assemble(md->sm, spec.t0, q, &spec.opts, &r->assembly);
        r->assembly_failed = st != GSL_SUCCESS;
        if (st == GSL_SUCCESS)
            st = ch09_known_velocities(md, q, qd);
    }
    if (st == GSL_SUCCESS) {
        /* the rank of [Phi_q] (the normalisation rows included) at the start */
        gsl_vector_set_zero(scratch);
        st = mbd_spatial_velocity(md->sm, spec.t0, q, scratch, NULL, &spec.opts, &r->structure);
        r->ranked = st == GSL_SUCCESS;
        r->rank = r->structure.rank;
        r->dof = r->structure.dof;
    }
    if (st == GSL_SUCCESS)
        st = mbd_spatial_velocity(md->sm, spec.t0, q, qd, known, &spec.opts, &r->velocity);
    if (st != GSL_SUCCESS)
        r->fail = *mbd_spatial_last_failure(md->sm);
    /* a file without an analysis: kinematics when the model is fully driven */
    if (st == GSL_SUCCESS && spec.auto_analysis && r->dof == 0)
        spec.analysis = spec.reactions ? CH09_INVERSE_DYNAMICS : CH09_KINEMATICS;
    r->analysis = spec.analysis;
    recorder c = {md, r, C, spec.reactions};
    if (st == GSL_SUCCESS && spec.analysis == CH09_ASSEMBLY) {
        st = record(md->sm, spec.t0, q, qd, NULL, NULL, &c);
    } else if (st == GSL_SUCCESS && spec.analysis == CH09_DYNAMICS) {
        st = run_dynamics(md, &spec, q, qd, &c);
        if (st != GSL_SUCCESS && r->fail.status == GSL_SUCCESS)
            r->fail = *mbd_spatial_last_failure(md->sm);
    } else if (st == GSL_SUCCESS) {
        st = spec.analysis == CH09_KINEMATICS
                 ? mbd_spatial_kinematics(md->sm, spec.t0, spec.t_end, spec.h, q, &spec.opts,
                                          record, &c)
                 : mbd_spatial_inverse_dynamics(md->sm, spec.t0, spec.t_end, spec.h, q,
                                                &spec.opts, record, &c);
        if (st != GSL_SUCCESS && r->fail.status == GSL_SUCCESS)
            r->fail = *mbd_spatial_last_failure(md->sm);
    }
    r->status = st;
    if (q)
        gsl_vector_free(q);
    if (qd)
        gsl_vector_free(qd);
    if (scratch)
        gsl_vector_free(scratch);
    if (C)
        gsl_vector_free(C);
    free(known);
    return st == GSL_ENOMEM ? st : GSL_SUCCESS;
}
/* << run */

int ch09_run_model(ch09_model *md, const char *file, const char *text, int analysis, double h,
                   int reactions, int strict, ch09_run *r, mbd_failure *fail)
{
    ch09_run_init(r);
    int st = text ? ch09_model_load_string(md, text, file, fail)
                  : ch09_model_load_named(md, file, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch09_spec spec;
    st = ch09_spec_of_model(md, &spec, fail);
    if (analysis != CH09_FILE) {
        spec.analysis = (ch09_analysis)analysis;
        spec.auto_analysis = 0;
    }
    if (h > 0)
        spec.h = h;
    spec.reactions = reactions;
    if (st == GSL_SUCCESS)
        st = ch09_run_spec(md, &spec, r);
    if (st == GSL_SUCCESS && strict && r->status != GSL_SUCCESS) {
        *fail = r->fail;
        st = r->status;
    }
    if (st != GSL_SUCCESS) {
        ch09_run_free(r);
        ch09_model_free(md);
    }
    return st;
}

int ch09_write_csv(FILE *out, const ch09_model *md, const ch09_run *r, int reactions)
{
    const mbd_model_desc *d = md->desc;
    static const char *const rp[] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
    fputs("t", out);
    for (int pass = 0; pass < 2; pass++)
        for (size_t b = 0; b < d->nbodies; b++)
            for (int i = 0; i < 7 && !d->bodies[b].is_ground; i++)
                fprintf(out, ",%s.%s%s", d->bodies[b].name, rp[i], pass ? "_dot" : "");
    for (size_t i = 0; i < r->npoints; i++)
        fprintf(out, ",%s.x,%s.y,%s.z", d->outputs[i].name, d->outputs[i].name,
                d->outputs[i].name);
    fputs(",C_norm,E", out);
    static const char *const fr[] = {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz"};
    for (size_t j = 0; reactions && j < r->njoints; j++)
        for (int i = 0; i < 6; i++)
            fprintf(out, ",%s.%s",
                    j < d->njoints ? d->joints[j].name : d->constraints[j - d->njoints].name,
                    fr[i]);
    fputc('\n', out);
    for (size_t k = 0; k < r->rows; k++) {
        fprintf(out, "%.17g", r->t[k]);
        for (size_t i = 0; i < 2 * r->n; i++)
            fprintf(out, ",%.17g", i < r->n ? r->q[k * r->n + i] : r->qd[k * r->n + i - r->n]);
        for (size_t i = 0; i < 3 * r->npoints; i++)
            fprintf(out, ",%.17g", r->points[k * 3 * r->npoints + i]);
        fprintf(out, ",%.17g,%.17g", r->C[k], r->E[k]);
        for (size_t i = 0; reactions && i < 6 * r->njoints; i++)
            fprintf(out, ",%.17g", r->react[k * 6 * r->njoints + i]);
        fputc('\n', out);
    }
    return ferror(out) ? GSL_EFAILED : GSL_SUCCESS;
}

/* The keys, every one on every run (a value a run does not define is
 * "none"): model, name, analysis, bodies, coordinates, rows, rank, dof,
 * redundant_rows, redundant_row_names, assembled, assembly_iterations,
 * assembly_residual, velocities_known, velocity_rank, t_start, t_end, h,
 * outputs, t_reached, max_C_norm, E0, status. */
void ch09_write_summary(FILE *out, const ch09_model *md, const ch09_spec *spec, const ch09_run *r)
{
    double cmax = 0.0;
    for (size_t k = 0; k < r->rows; k++)
        cmax = fmax(cmax, r->C[k]);
    const int timed = r->analysis != CH09_ASSEMBLY, rows = r->rows > 0;
    mbd_summary_string(out, "model", md->desc->source);
    mbd_summary_string(out, "name", md->desc->name);
    mbd_summary_string(out, "analysis", ch09_analysis_names[r->analysis]);
    mbd_summary_long(out, "bodies", (long)md->desc->nbodies - 1);
    mbd_summary_long(out, "coordinates", (long)md->n);
    mbd_summary_long(out, "rows", (long)md->m);
    mbd_summary_optional(out, "rank", (double)r->rank, r->ranked);
    mbd_summary_optional(out, "dof", (double)r->dof, r->ranked);
    mbd_summary_optional(out, "redundant_rows", (double)(md->m - r->rank), r->ranked);
    fputs("redundant_row_names =", out);
    const size_t nd = !r->ranked ? 0
                      : r->structure.n_dropped < MBD_SPATIAL_REPORT_ROWS ? r->structure.n_dropped
                                                                          : MBD_SPATIAL_REPORT_ROWS;
    for (size_t k = 0; k < nd; k++) {
        mbd_spatial_row_info info;
        if (mbd_spatial_row_info_get(md->sm, r->structure.dropped[k], &info) == GSL_SUCCESS)
            fprintf(out, "%s %s", k ? "," : "", info.name);
    }
    fprintf(out, "%s\n", !r->ranked || r->structure.n_dropped == 0 ? " none"
                         : r->structure.n_dropped > nd           ? ", ..."
                                                                 : "");
    mbd_summary_string(out, "assembled", !spec->assemble ? "no" : r->assembly_failed ? "failed" : "yes");
    mbd_summary_optional(out, "assembly_iterations", r->assembly.iterations, spec->assemble);
    mbd_summary_optional(out, "assembly_residual", r->assembly.residual,
                         spec->assemble && isfinite(r->assembly.residual));
    mbd_summary_long(out, "velocities_known", (long)r->velocities_known);
    mbd_summary_optional(out, "velocity_rank", (double)r->velocity.rank, r->ranked);
    mbd_summary_double(out, "t_start", spec->t0);
    mbd_summary_optional(out, "t_end", spec->t_end, timed);
    mbd_summary_optional(out, "h", spec->h, timed);
    mbd_summary_long(out, "outputs", (long)r->rows);
    mbd_summary_optional(out, "t_reached", rows ? r->t[r->rows - 1] : 0.0, rows);
    mbd_summary_optional(out, "max_C_norm", cmax, rows && isfinite(cmax));
    mbd_summary_optional(out, "E0", rows ? r->E[0] : 0.0, rows && isfinite(r->E[0]));
    double dE = 0.0;
    for (size_t k = 0; k < r->rows; k++)
        dE = fmax(dE, fabs(r->E[k] - r->E[0]));
    mbd_summary_optional(out, "max_energy_change", dE, rows && isfinite(dE));
    const int dyn = r->analysis == CH09_DYNAMICS;
    mbd_summary_string(out, "integrator", !dyn ? "none" : ch09_integrator_names[spec->integrator]);
    mbd_summary_string(out, "newton", !dyn || ch09_integrator_order(spec->integrator) == 0
                                          ? "none" : mbd_spatial_newton_name(spec->newton));
    mbd_summary_string(out, "linear_solver",
                       !dyn ? "none" : mbd_linsolve_kind_name(spec->linear_solver));
    mbd_summary_optional(out, "steps", (double)r->dynamics.steps, dyn);
    mbd_summary_optional(out, "rejected", (double)r->dynamics.rejected, dyn && spec->adaptive);
    mbd_summary_optional(out, "newton_iterations", (double)r->dynamics.newton_iterations, dyn);
    mbd_summary_optional(out, "max_euler_norm_error", r->max_euler_norm, dyn && rows);
    mbd_summary_optional(out, "max_velocity_drift", r->max_velocity_drift, dyn && rows);
    mbd_summary_string(out, "status", mbd_status_word(r->status));
}

/* ------------------------------------------------------------------------ */
/* Part 2: the dynamics runs the story and the figures share                 */

int ch09_run_variant(ch09_model *md, const char *file, const char *text, const ch09_variant *v,
                     ch09_run *r, double *seconds, mbd_failure *fail)
{
    ch09_run_init(r);
    const double start = mbd_cli_seconds();
    int st;
    if (v->governor_c > 0) {
        ch09_model_params par;
        ch09_model_params_default(&par);
        par.governor_c = v->governor_c;
        char path[4096 + 256];
        snprintf(path, sizeof path, "%s%s", ch09_models_dir(), file);
        st = ch09_model_load_with(md, text ? NULL : path, text, file, &par, fail);
    } else {
        st = text ? ch09_model_load_string(md, text, file, fail)
                  : ch09_model_load_named(md, file, fail);
    }
    if (st != GSL_SUCCESS)
        return st;
    ch09_spec spec;
    st = ch09_spec_of_model(md, &spec, fail);
    if (st == GSL_SUCCESS && v->integrator != NULL &&
        ch09_integrator_of(v->integrator, &spec.integrator) != GSL_SUCCESS)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN, "no integrator '%s'", v->integrator);
    if (v->fixed) {
        spec.adaptive = 0;
        spec.rtol = spec.atol = 0.0;
    }
    if (v->rtol > 0 || v->atol > 0) {
        spec.adaptive = 1;
        spec.rtol = v->rtol;
        spec.atol = v->atol;
    }
    if (v->h > 0)
        spec.h = v->h;
    if (v->t_end > 0)
        spec.t_end = v->t_end;
    if (v->dt_out > 0)
        spec.dt_out = v->dt_out;
    spec.reactions = v->reactions;
    if (st == GSL_SUCCESS)
        st = ch09_run_spec(md, &spec, r);
    if (seconds != NULL)
        *seconds = mbd_cli_seconds() - start;
    if (st != GSL_SUCCESS) {
        ch09_run_free(r);
        ch09_model_free(md);
    }
    return st;
}

double ch09_point_error(const ch09_run *r, const double *t, const double *x, const double *y,
                        size_t n, size_t *matched, double *err)
{
    double e = 0.0;
    size_t k = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        while (k < r->rows && r->t[k] < t[i] - 1e-9)
            k++;
        const int here = k < r->rows && fabs(r->t[k] - t[i]) <= 1e-9 && r->npoints > 0;
        const double d = here ? fmax(fabs(r->points[3 * k * r->npoints] - x[i]),
                                     fabs(r->points[3 * k * r->npoints + 1] - y[i]))
                              : NAN;
        if (err != NULL)
            err[i] = d;
        if (here) {
            e = fmax(e, d);
            count++;
        }
    }
    if (matched != NULL)
        *matched = count;
    return e;
}
