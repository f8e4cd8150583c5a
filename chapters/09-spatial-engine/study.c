/* study.c -- one analysis of a model and its record (see study.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "study.h"

const char *const ch09_analysis_names[] = {"assembly", "kinematics", "inverse-dynamics", "dynamics",
                                           NULL};
const char *const ch09_analysis_descriptions[] = {
    "a consistent configuration from the file's guess (and the initial velocities)",
    "a fully driven model: position, velocity and acceleration at every step",
    "kinematics, then the multipliers and every joint's reaction",
    "time-stepping dynamics (chapter 09 part 2; not yet available)",
    NULL,
};

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
    const size_t w[] = {1, r->n, r->n, 3 * r->npoints, 1, 1, 6 * r->njoints};
    double **p[] = {&r->t, &r->q, &r->qd, &r->points, &r->C, &r->E, &r->react};
    for (size_t i = 0; i < 7; i++) {
        double *g = realloc(*p[i], cap * (w[i] ? w[i] : 1) * sizeof **p[i]);
        if (g == NULL)
            return GSL_ENOMEM;
        *p[i] = g;
    }
    r->cap = cap;
    return GSL_SUCCESS;
}

/* one row of the record at (t, q, q') (lambda when reactions are asked) */
static int record(const mbd_spatial_model *sm, double t, const gsl_vector *q,
                  const gsl_vector *qd, const gsl_vector *qdd, const gsl_vector *lambda,
                  void *user)
{
    (void)qdd;
    recorder *c = user;
    ch09_run *r = c->r;
    const mbd_model_desc *d = c->md->desc;
    const mbd_system *sys = mbd_spatial_system(sm);
    int st = grow(r);
    if (st != GSL_SUCCESS)
        return st;
    const size_t k = r->rows, n = r->n;
    r->t[k] = t;
    memcpy(r->q + k * n, q->data, n * sizeof(double));
    memcpy(r->qd + k * n, qd->data, n * sizeof(double));
    for (size_t i = 0; i < r->npoints; i++) {
        const mbd_model_output_point *op = &d->outputs[i];
        st = mbd_spatial_point_position(sm, c->md->body[op->body], op->point, q,
                                        r->points + (k * r->npoints + i) * 3);
        if (st != GSL_SUCCESS)
            return st;
    }
    st = sys->constraint(sys, t, q, c->C);
    r->C[k] = st == GSL_SUCCESS ? gsl_blas_dnrm2(c->C) : NAN;
    r->E[k] = NAN;
    if (st == GSL_SUCCESS && sys->energy)
        st = sys->energy(sys, t, q, qd, &r->E[k]);
    for (size_t j = 0; st == GSL_SUCCESS && c->reactions && lambda != NULL && j < r->njoints; j++) {
        mbd_spatial_reaction on_i;
        st = mbd_spatial_reactions(sm, c->md->joint[j], q, lambda, &on_i, NULL);
        double *o = r->react + (k * r->njoints + j) * 6;
        memcpy(o, on_i.F, 3 * sizeof(double));
        memcpy(o + 3, on_i.n_point, 3 * sizeof(double));
    }
    if (st == GSL_SUCCESS)
        r->rows++;
    return st;
}

int ch09_run_spec(ch09_model *md, const ch09_spec *spec, ch09_run *r)
{
    ch09_run_free(r);
    if (spec->analysis == CH09_DYNAMICS)
        return mbd_failure_set(&r->fail, MBD_EINPUT, NAN,
                               "--analysis dynamics: not available yet (chapter 09 part 2)");
    const mbd_system *sys = mbd_spatial_system(md->sm);
    r->n = sys->n;
    r->npoints = md->desc->noutputs;
    r->njoints = md->desc->njoints;
    gsl_vector *q = gsl_vector_alloc(r->n), *qd = gsl_vector_alloc(r->n);
    gsl_vector *C = gsl_vector_alloc(sys->m ? sys->m : 1);
    int *known = calloc(mbd_spatial_n_bodies(md->sm), sizeof *known);
    int st = q && qd && C && known ? GSL_SUCCESS : GSL_ENOMEM;
    if (st == GSL_SUCCESS)
        st = ch09_initial(md, q, qd, known);
    if (st == GSL_SUCCESS) {
        st = mbd_spatial_assemble(md->sm, spec->t0, q, NULL, &r->assembly);
        if (st == GSL_SUCCESS)
            st = mbd_spatial_velocity(md->sm, spec->t0, q, qd, known, NULL, NULL);
        if (st != GSL_SUCCESS)
            r->fail = *mbd_spatial_last_failure(md->sm);
    }
    recorder c = {md, r, C, spec->reactions};
    if (st == GSL_SUCCESS && spec->analysis == CH09_ASSEMBLY) {
        st = record(md->sm, spec->t0, q, qd, NULL, NULL, &c);
    } else if (st == GSL_SUCCESS) {
        st = spec->analysis == CH09_KINEMATICS
                 ? mbd_spatial_kinematics(md->sm, spec->t0, spec->t_end, spec->h, q, NULL, record, &c)
                 : mbd_spatial_inverse_dynamics(md->sm, spec->t0, spec->t_end, spec->h, q, NULL,
                                                record, &c);
        if (st != GSL_SUCCESS)
            r->fail = *mbd_spatial_last_failure(md->sm);
    }
    r->status = st;
    if (q)
        gsl_vector_free(q);
    if (qd)
        gsl_vector_free(qd);
    if (C)
        gsl_vector_free(C);
    free(known);
    return GSL_SUCCESS;
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
            fprintf(out, ",%s.%s", d->joints[j].name, fr[i]);
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

void ch09_write_summary(FILE *out, const ch09_model *md, const ch09_spec *spec, const ch09_run *r)
{
    double cmax = 0.0;
    for (size_t k = 0; k < r->rows; k++)
        cmax = fmax(cmax, r->C[k]);
    fprintf(out, "model = %s\n", md->desc->source);
    fprintf(out, "analysis = %s\n", ch09_analysis_names[spec->analysis]);
    fprintf(out, "bodies = %zu\ncoordinates = %zu\nrows = %zu\n", md->desc->nbodies - 1, md->n,
            md->m);
    fprintf(out, "assembly_iterations = %u\nassembly_residual = %.17g\n", r->assembly.iterations,
            r->assembly.residual);
    fprintf(out, "rank = %zu\ndof = %zu\nredundant_rows = %zu\n", r->assembly.rank,
            r->assembly.dof, r->assembly.n_dropped);
    fprintf(out, "outputs = %zu\nmax_C_norm = %.17g\n", r->rows, cmax);
    fprintf(out, "status = %s\n", r->status == GSL_SUCCESS ? "ok" : mbd_strerror(r->status));
}
