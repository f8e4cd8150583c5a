/* cli_bench.c -- the benchmarks of every chapter program (--bench N): the
 * timing, the one CSV schema, and the pipeline's kinds of a mechanism
 * chapter (cli.h says what each kind measures). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "mbd/cli.h"
#include "mbd/error.h"
#include "mbd/formulation.h"
#include "mbd/history.h"

#include "dense.h"

/* ------------------------------------------------------------------------ */
/* Timing                                                                    */

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A case under the timer: how many calls make one repetition, and what the
 * first call counted. */
typedef struct {
    mbd_cli_bench_fn fn;
    void *ctx;
    long calls;
    mbd_cli_bench_counts counts;
    double warm;                 /* the warm-up call's seconds */
} timed;

/* n calls; the seconds they took in *elapsed */
static int call_n(const timed *t, long n, double *elapsed)
{
    mbd_cli_bench_counts scratch;
    const double t0 = cpu_seconds();
    for (long k = 0; k < n; k++) {
        memset(&scratch, 0, sizeof scratch);
        int st = t->fn(t->ctx, &scratch);
        if (st != GSL_SUCCESS)
            return st;
    }
    *elapsed = cpu_seconds() - t0;
    return GSL_SUCCESS;
}

/* The warm-up call (its counts are the case's), then as many calls as make
 * a repetition last MBD_CLI_BENCH_MIN_SECONDS, found by timing growing
 * batches until one lasts a quarter of it. */
static int calibrate(timed *t)
{
    memset(&t->counts, 0, sizeof t->counts);
    double t0 = cpu_seconds();
    int st = t->fn(t->ctx, &t->counts);
    double elapsed = cpu_seconds() - t0;
    if (st != GSL_SUCCESS)
        return st;
    t->warm = elapsed;
    const double target = MBD_CLI_BENCH_MIN_SECONDS;
    long n = 1;
    while (elapsed < 0.25 * target) {
        double grow = elapsed > 0 ? 0.5 * target / elapsed : 16.0;
        n = (long)ceil((double)n * fmin(16.0, fmax(2.0, grow)));
        st = call_n(t, n, &elapsed);
        if (st != GSL_SUCCESS)
            return st;
    }
    t->calls = elapsed >= target ? n : (long)ceil(1.1 * (double)n * target / elapsed);
    return GSL_SUCCESS;
}

/* one repetition: seconds per call */
static int repetition(const timed *t, double *per_call)
{
    double elapsed = 0.0;
    int st = call_n(t, t->calls, &elapsed);
    *per_call = elapsed / (double)t->calls;
    return st;
}

static int compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double min, median, max;
} spread;

/* min, median and max of v[0 .. n-1] (n >= 1); sorts v */
static spread spread_of(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    const double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return (spread){v[0], median, v[n - 1]};
}

/* ------------------------------------------------------------------------ */
/* The CSV rows                                                              */

const char *mbd_cli_bench_kind_name(mbd_cli_bench_kind kind)
{
    switch (kind) {
    case MBD_CLI_BENCH_WHOLE_RUN:
        return "whole-run";
    case MBD_CLI_BENCH_INTEGRATION:
        return "integration";
    case MBD_CLI_BENCH_RHS:
        return "rhs";
    case MBD_CLI_BENCH_OUTPUT:
        return "output";
    }
    return "unknown";
}

void mbd_cli_bench_header(FILE *out)
{
    fputs("commit,date,program,case,method,kind,repeats,calls,min_s,median_s,max_s,steps,fevals,"
          "outputs,per_step_s,per_rhs_s,per_output_s,kkt_size,kkt_lu_s,overhead,"
          "output_model_s,output_own_s\n",
          out);
}

/* One row; NAN and 0 are written as empty fields. */
typedef struct {
    const char *program, *case_name, *method;
    mbd_cli_bench_kind kind;
    long repeats, calls;
    spread time;
    mbd_cli_bench_counts counts;
    double per_step, per_rhs, per_output;
    long kkt_size;
    double kkt_lu, overhead;
    double output_model, output_own;
} bench_row;

/* a text field, with what would break the CSV (a comma, a quote, a line
 * break) replaced by '_' */
static void put_text(FILE *out, const char *s)
{
    for (; s != NULL && *s != '\0'; s++)
        fputc(*s == ',' || *s == '"' || (unsigned char)*s < 0x20 ? '_' : *s, out);
}

static void put_double(FILE *out, double v)
{
    fputc(',', out);
    if (isfinite(v))
        fprintf(out, "%.6g", v);
}

static void put_long(FILE *out, long v)
{
    fputc(',', out);
    if (v != 0)
        fprintf(out, "%ld", v);
}

/* $name, or else `fallback` */
static const char *environment(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? v : fallback;
}

/* the date of the rows without $MBD_BENCH_DATE: when the first was written */
static const char *first_row_date(void)
{
    static char date[32];
    if (date[0] == '\0') {
        const time_t now = time(NULL);
        struct tm utc;
        if (gmtime_r(&now, &utc) == NULL
            || strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
            snprintf(date, sizeof date, "unknown");
    }
    return date;
}

static void write_row(FILE *out, const bench_row *r)
{
    put_text(out, environment("MBD_BENCH_COMMIT", "unknown"));
    fputc(',', out);
    put_text(out, environment("MBD_BENCH_DATE", first_row_date()));
    fputc(',', out);
    put_text(out, r->program);
    fputc(',', out);
    put_text(out, r->case_name);
    fputc(',', out);
    put_text(out, r->method);
    fputc(',', out);
    put_text(out, mbd_cli_bench_kind_name(r->kind));
    put_long(out, r->repeats);
    put_long(out, r->calls);
    put_double(out, r->time.min);
    put_double(out, r->time.median);
    put_double(out, r->time.max);
    put_long(out, r->counts.steps);
    put_long(out, r->counts.fevals);
    put_long(out, r->counts.outputs);
    put_double(out, r->per_step);
    put_double(out, r->per_rhs);
    put_double(out, r->per_output);
    put_long(out, r->kkt_size);
    put_double(out, r->kkt_lu);
    put_double(out, r->overhead);
    put_double(out, r->output_model);
    put_double(out, r->output_own);
    fputc('\n', out);
    fflush(out);
}

/* ------------------------------------------------------------------------ */
/* The cases' measurements, and the passes                                   */

/* One case: one timed function (whole-run, integration), or two or three
 * timed in alternate repetitions (output: with and without the outputs, and
 * the model callbacks of one output; rhs: the right-hand side and the bare
 * LU). Calibrated once; the seconds per call of each repetition in va[],
 * vb[], vc[]. */
typedef struct {
    char program[64], case_name[128], method[128];
    mbd_cli_bench_kind kind;
    long repeats, done;
    long calls[3];
    mbd_cli_bench_counts counts[2];
    long kkt_size;
    double *va, *vb, *vc;
} entry;

/* While mbd_cli_bench_passes runs a program's bench part, the entries of
 * its cases in the order they are called; `next` is the entry of the next
 * case of the pass. */
static struct {
    int active;
    long pass, repeats;
    size_t next, n, cap;
    entry *e;
} passes;

static void copy_text(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

static int entry_init(entry *e, const char *program, const char *case_name, const char *method,
                      mbd_cli_bench_kind kind, long repeats, long kkt_size)
{
    memset(e, 0, sizeof *e);
    copy_text(e->program, sizeof e->program, program);
    copy_text(e->case_name, sizeof e->case_name, case_name);
    copy_text(e->method, sizeof e->method, method);
    e->kind = kind;
    e->repeats = repeats;
    e->kkt_size = kkt_size;
    e->va = calloc(3 * (size_t)repeats, sizeof *e->va);
    if (e->va == NULL)
        return GSL_ENOMEM;
    e->vb = e->va + repeats;
    e->vc = e->vb + repeats;
    return GSL_SUCCESS;
}

static void entry_free(entry *e)
{
    free(e->va);
    e->va = e->vb = e->vc = NULL;
}

static int entry_same(const entry *e, const char *program, const char *case_name,
                      const char *method, mbd_cli_bench_kind kind)
{
    entry named;   /* the names as an entry keeps them (cut to its fields) */
    copy_text(named.program, sizeof named.program, program);
    copy_text(named.case_name, sizeof named.case_name, case_name);
    copy_text(named.method, sizeof named.method, method);
    return e->kind == kind && strcmp(e->program, named.program) == 0
           && strcmp(e->case_name, named.case_name) == 0 && strcmp(e->method, named.method) == 0;
}

/* The row of a measured case (none for an output case whose run has no
 * outputs between its ends). */
static void entry_write(FILE *out, entry *e)
{
    bench_row r = {.program = e->program, .case_name = e->case_name, .method = e->method,
                   .kind = e->kind, .repeats = e->done, .calls = e->calls[0],
                   .counts = e->counts[0], .per_step = NAN, .per_rhs = NAN, .per_output = NAN,
                   .kkt_lu = NAN, .overhead = NAN, .output_model = NAN,
                   .output_own = NAN};
    if (e->done < 1)
        return;
    switch (e->kind) {
    case MBD_CLI_BENCH_WHOLE_RUN:
    case MBD_CLI_BENCH_INTEGRATION:
        r.time = spread_of(e->va, e->done);
        if (r.counts.steps > 0)
            r.per_step = r.time.median / (double)r.counts.steps;
        break;
    case MBD_CLI_BENCH_OUTPUT: {
        const long extra = e->counts[0].outputs - e->counts[1].outputs;
        if (extra <= 0)
            return;
        for (long k = 0; k < e->done; k++)
            e->va[k] = (e->va[k] - e->vb[k]) / (double)extra;
        r.time = spread_of(e->va, e->done);
        r.counts.outputs = extra;
        r.per_output = r.time.median;
        if (e->calls[2] > 0) {
            r.output_model = spread_of(e->vc, e->done).median;
            r.output_own = r.per_output - r.output_model;
        }
        break;
    }
    case MBD_CLI_BENCH_RHS:
        r.time = spread_of(e->va, e->done);
        r.per_rhs = r.time.median;
        r.kkt_size = e->kkt_size;
        r.kkt_lu = spread_of(e->vb, e->done).median;
        r.overhead = r.per_rhs / r.kkt_lu;
        break;
    }
    write_row(out, &r);
}

/* One case, timed: outside the passes all its repetitions, and its row is
 * written; in a pass one repetition, the first pass making and calibrating
 * its entry. tb and tc may be NULL (tc only with tb). */
static int bench_case(FILE *out, const char *program, const char *case_name, const char *method,
                      mbd_cli_bench_kind kind, long repeats, long kkt_size, timed *ta,
                      timed *tb, timed *tc)
{
    entry local, *e = &local;
    int st = GSL_SUCCESS, fresh = 1;
    if (passes.active) {
        if (passes.pass == 0) {
            if (passes.n == passes.cap) {
                size_t cap = passes.cap ? 2 * passes.cap : 64;
                entry *grown = realloc(passes.e, cap * sizeof *grown);
                if (grown == NULL)
                    return GSL_ENOMEM;
                passes.e = grown;
                passes.cap = cap;
            }
            e = &passes.e[passes.n];
            st = entry_init(e, program, case_name, method, kind, passes.repeats, kkt_size);
            if (st != GSL_SUCCESS)
                return st;
            passes.n++;
        } else {
            if (passes.next >= passes.n
                || !entry_same(&passes.e[passes.next], program, case_name, method, kind))
                return MBD_EINPUT;   /* the cases differ from pass to pass */
            e = &passes.e[passes.next];
            fresh = 0;
        }
        passes.next++;
    } else {
        st = entry_init(e, program, case_name, method, kind, repeats < 1 ? 1 : repeats, kkt_size);
        if (st != GSL_SUCCESS)
            return st;
    }
    int warm_used = 0;
    if (fresh) {
        st = calibrate(ta);
        if (st == GSL_SUCCESS && tb != NULL)
            st = calibrate(tb);
        if (st == GSL_SUCCESS && tb != NULL && tc != NULL)
            st = calibrate(tc);
        e->calls[0] = ta->calls;
        if (tb != NULL && tc != NULL)
            e->calls[2] = tc->calls;
        e->counts[0] = ta->counts;
        if (tb != NULL) {
            e->calls[1] = tb->calls;
            e->counts[1] = tb->counts;
        }
        /* a case that takes MBD_CLI_BENCH_LONG_SECONDS or more (a story):
         * its warm-up call, one call like every repetition's, is its first
         * repetition (caches warm up in far less than a second) */
        if (st == GSL_SUCCESS && tb == NULL && ta->calls == 1
            && ta->warm >= MBD_CLI_BENCH_LONG_SECONDS && e->done < e->repeats) {
            e->va[e->done++] = ta->warm;
            warm_used = 1;
            if (e->repeats > MBD_CLI_BENCH_LONG_REPEATS)
                e->repeats = MBD_CLI_BENCH_LONG_REPEATS;
        }
    } else {
        ta->calls = e->calls[0];
        if (tb != NULL)
            tb->calls = e->calls[1];
        if (tb != NULL && tc != NULL)
            tc->calls = e->calls[2];
    }
    const long reps = passes.active ? 1 - warm_used : e->repeats;
    for (long r = 0; r < reps && st == GSL_SUCCESS && e->done < e->repeats; r++) {
        st = repetition(ta, &e->va[e->done]);
        if (st == GSL_SUCCESS && tb != NULL)
            st = repetition(tb, &e->vb[e->done]);
        if (st == GSL_SUCCESS && tb != NULL && tc != NULL)
            st = repetition(tc, &e->vc[e->done]);
        if (st == GSL_SUCCESS)
            e->done++;
    }
    if (!passes.active) {
        if (st == GSL_SUCCESS)
            entry_write(out, e);
        entry_free(e);
    }
    return st;
}

int mbd_cli_bench_passes(const mbd_cli_program *p, long repeats, FILE *out, mbd_failure *fail)
{
    if (repeats < 1)
        repeats = 1;
    if (passes.active)
        return mbd_failure_set(fail, MBD_EINPUT, NAN, "benchmark passes inside passes");
    passes.active = 1;
    passes.repeats = repeats;
    passes.n = 0;
    int st = GSL_SUCCESS;
    for (long k = 0; k < repeats && st == GSL_SUCCESS && p->bench != NULL; k++) {
        passes.pass = k;
        passes.next = 0;
        st = p->bench(p->ctx, repeats, fail);
        if (st == GSL_SUCCESS && passes.next != passes.n)
            st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                                 "the benchmark cases differ between passes (%zu, then %zu)",
                                 passes.n, passes.next);
    }
    if (st != GSL_SUCCESS && fail->status == GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "a benchmark case failed: %s", mbd_strerror(st));
    if (st == GSL_SUCCESS) {
        mbd_cli_bench_header(out);
        for (size_t i = 0; i < passes.n; i++)
            entry_write(out, &passes.e[i]);
        fflush(out);
    }
    for (size_t i = 0; i < passes.n; i++)
        entry_free(&passes.e[i]);
    free(passes.e);
    passes.e = NULL;
    passes.n = passes.cap = 0;
    passes.active = 0;
    return st;
}

int mbd_cli_bench(FILE *out, const char *program, const char *case_name, const char *method,
                  mbd_cli_bench_kind kind, long repeats, mbd_cli_bench_fn fn, void *ctx)
{
    timed t = {.fn = fn, .ctx = ctx};
    return bench_case(out, program, case_name, method, kind, repeats, 0, &t, NULL, NULL);
}

/* ------------------------------------------------------------------------ */
/* The pipeline's kinds                                                      */

typedef struct {
    const mbd_system *sys;
    mbd_study_spec spec;
    const double *q0, *qd0;
    const char *method;          /* for the rows */
} pipeline_case;

/* the integration as a program makes it: a fresh history, filled and freed */
static int integrate(void *ctx, mbd_cli_bench_counts *n)
{
    const pipeline_case *c = ctx;
    mbd_history h;
    mbd_history_init(&h);
    mbd_study_result r;
    int st = mbd_study_run(c->sys, &c->spec, c->q0, c->qd0, &h, &r);
    if (st == GSL_SUCCESS)
        st = r.status;
    n->steps = r.stats.run.ode.steps;
    n->fevals = r.stats.run.ode.fevals;
    n->outputs = (long)h.rows;
    mbd_history_free(&h);
    return st;
}

/* The case run once, its history in h (initialised by the caller), and the
 * index of the first of its two middle outputs: where the rhs and output
 * kinds time their single evaluations. */
static int middle_outputs(const pipeline_case *c, mbd_history *h, size_t *mid)
{
    mbd_study_result res;
    int st = mbd_study_run(c->sys, &c->spec, c->q0, c->qd0, h, &res);
    if (st == GSL_SUCCESS)
        st = res.status;
    if (st == GSL_SUCCESS && h->rows < 2)
        st = MBD_EINPUT;
    *mid = st == GSL_SUCCESS ? (h->rows - 1) / 2 : 0;
    return st;
}

/* The model callbacks one output's measurement needs (what
 * mbd_formulation_measure_q calls: C_q, C, C_t when the model has it, and
 * the energy), at two neighbouring outputs of the run in turn. */
typedef struct {
    const mbd_system *s;
    double t[2];
    const double *q[2], *qd[2];
    gsl_matrix *Cq;
    gsl_vector *C, *Ct;
    unsigned turn;
} model_case;

static int model_once(void *ctx, mbd_cli_bench_counts *n)
{
    model_case *c = ctx;
    const unsigned i = c->turn++ & 1u;
    const mbd_system *s = c->s;
    (void)n;
    /* the views as mbd_formulation_measure_q builds them (no library call),
     * so that the callbacks alone are timed */
    gsl_vector_const_view q = mbd_const_view(c->q[i], s->n), qd = mbd_const_view(c->qd[i], s->n);
    int st = GSL_SUCCESS;
    if (s->m > 0) {
        st = s->jacobian(s, c->t[i], &q.vector, c->Cq);
        if (st == GSL_SUCCESS)
            st = s->constraint(s, c->t[i], &q.vector, c->C);
        if (st == GSL_SUCCESS && s->constraint_t != NULL)
            st = s->constraint_t(s, c->t[i], &q.vector, c->Ct);
    }
    double E = 0.0;
    if (st == GSL_SUCCESS && s->energy != NULL)
        st = s->energy(s, c->t[i], &q.vector, &qd.vector, &E);
    return st;
}

/* the integration with outputs at spec->dt_out and with outputs at the ends
 * only, and the model callbacks of one output, timed in alternate
 * repetitions */
static int bench_output(FILE *out, const char *program, const char *case_name, long repeats,
                        pipeline_case *with)
{
    pipeline_case ends = *with, dense = *with;
    const double span = with->spec.t_end - with->spec.t0;
    ends.spec.dt_out = span;
    /* a difference of two timings is lost in their noise unless the outputs
     * are many: a run with fewer than 10 000 is timed on a grid of 10 000 */
    if (!(with->spec.dt_out > 0) || span / with->spec.dt_out < 1e4)
        dense.spec.dt_out = span / 1e4;
    const mbd_system *s = with->sys;
    mbd_history h;
    mbd_history_init(&h);
    model_case mc = {.s = s};
    mc.Cq = gsl_matrix_alloc(s->m > 0 ? s->m : 1, s->n);
    mc.C = gsl_vector_alloc(s->m > 0 ? s->m : 1);
    mc.Ct = gsl_vector_alloc(s->m > 0 ? s->m : 1);
    size_t mid = 0;
    int st = mc.Cq && mc.C && mc.Ct ? GSL_SUCCESS : GSL_ENOMEM;
    if (st == GSL_SUCCESS)
        st = middle_outputs(with, &h, &mid);
    if (st == GSL_SUCCESS) {
        for (size_t i = 0; i < 2; i++) {
            mc.t[i] = h.t[mid + i];
            mc.q[i] = mbd_history_q(&h, mid + i);
            mc.qd[i] = mbd_history_qd(&h, mid + i);
        }
        timed tw = {.fn = integrate, .ctx = &dense}, te = {.fn = integrate, .ctx = &ends},
              tm = {.fn = model_once, .ctx = &mc};
        st = bench_case(out, program, case_name, with->method, MBD_CLI_BENCH_OUTPUT, repeats, 0,
                        &tw, &te, &tm);
    }
    gsl_vector_free(mc.Ct);
    gsl_vector_free(mc.C);
    gsl_matrix_free(mc.Cq);
    mbd_history_free(&h);
    return st;
}

/* one right-hand side, at two neighbouring states in turn (so that no call
 * sees the state of the call before it, whatever a formulation remembers) */
typedef struct {
    mbd_formulation *f;
    double t[2];
    const double *y[2];
    double *dydt;
    unsigned turn;
} rhs_case;

static int rhs_once(void *ctx, mbd_cli_bench_counts *n)
{
    rhs_case *c = ctx;
    const unsigned i = c->turn++ & 1u;
    n->fevals = 1;
    return mbd_formulation_rhs(c->t[i], c->y[i], c->dydt, c->f);
}

/* a bare LU solve of a copy of the KKT matrix */
typedef struct {
    const gsl_matrix *K;
    gsl_matrix *LU;
    gsl_permutation *perm;
    const gsl_vector *b;
    gsl_vector *x;
} lu_case;

static int lu_once(void *ctx, mbd_cli_bench_counts *n)
{
    const lu_case *c = ctx;
    (void)n;
    int sign;
    gsl_matrix_memcpy(c->LU, c->K);
    int st = gsl_linalg_LU_decomp(c->LU, c->perm, &sign);
    return st != GSL_SUCCESS ? st : gsl_linalg_LU_solve(c->LU, c->perm, c->b, c->x);
}

/* K = [M C_q^T; C_q 0], b = [F; gamma] at (t, q, q') */
static int kkt_system(const mbd_system *s, double t, const double q[], const double qd[],
                      gsl_matrix *K, gsl_vector *b)
{
    const size_t n = s->n, m = s->m;
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, n);
    gsl_vector_const_view qdv = gsl_vector_const_view_array(qd, n);
    gsl_matrix_set_zero(K);
    gsl_matrix_view M = gsl_matrix_submatrix(K, 0, 0, n, n);
    gsl_matrix_view Cq = gsl_matrix_submatrix(K, n, 0, m, n);
    gsl_vector_view F = gsl_vector_subvector(b, 0, n);
    gsl_vector_view g = gsl_vector_subvector(b, n, m);
    int st = s->mass(s, t, &qv.vector, &M.matrix);
    if (st == GSL_SUCCESS)
        st = s->jacobian(s, t, &qv.vector, &Cq.matrix);
    if (st == GSL_SUCCESS)
        st = s->force(s, t, &qv.vector, &qdv.vector, &F.vector);
    if (st == GSL_SUCCESS)
        st = s->gamma(s, t, &qv.vector, &qdv.vector, &g.vector);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            gsl_matrix_set(K, j, n + i, gsl_matrix_get(K, n + i, j));
    return st;
}

/* The rhs row at the middle output of a run of the case, with the bare LU
 * beside it. */
static int bench_rhs(FILE *out, const char *program, const char *case_name, long repeats,
                     const pipeline_case *c)
{
    const mbd_system *s = c->sys;
    const size_t n = s->n, m = s->m, k = n + m;
    mbd_formulation_params fp = {.mu = c->spec.mu, .alpha = c->spec.alpha, .beta = c->spec.beta};
    if (mbd_formulation_method(c->spec.method, &fp) != GSL_SUCCESS)
        return MBD_EINPUT;
    mbd_history h;
    mbd_history_init(&h);
    mbd_formulation *f = mbd_formulation_alloc(s, &fp);
    const size_t dim = f ? mbd_formulation_dim(f) : 0;
    double *y = malloc(2 * (dim ? dim : 1) * sizeof *y);
    double *dydt = malloc((dim ? dim : 1) * sizeof *dydt);
    gsl_matrix *K = gsl_matrix_alloc(k, k), *LU = gsl_matrix_alloc(k, k);
    gsl_vector *b = gsl_vector_alloc(k), *x = gsl_vector_alloc(k);
    gsl_permutation *perm = gsl_permutation_alloc(k);
    int st = f && y && dydt && K && LU && b && x && perm ? GSL_SUCCESS : GSL_ENOMEM;
    if (f == NULL)
        st = MBD_EINPUT;
    size_t mid = 0;
    if (st == GSL_SUCCESS)
        st = middle_outputs(c, &h, &mid);
    if (st == GSL_SUCCESS) {
        rhs_case rc = {.f = f, .t = {h.t[mid], h.t[mid + 1]}, .y = {y, y + dim}, .dydt = dydt};
        for (int i = 0; i < 2 && st == GSL_SUCCESS; i++)
            st = mbd_formulation_pack(f, rc.t[i], mbd_history_q(&h, mid + (size_t)i),
                                      mbd_history_qd(&h, mid + (size_t)i), y + (size_t)i * dim);
        if (st == GSL_SUCCESS)
            st = kkt_system(s, rc.t[0], mbd_history_q(&h, mid), mbd_history_qd(&h, mid), K, b);
        lu_case lc = {K, LU, perm, b, x};
        timed tr = {.fn = rhs_once, .ctx = &rc}, tl = {.fn = lu_once, .ctx = &lc};
        if (st == GSL_SUCCESS)
            st = bench_case(out, program, case_name, c->method, MBD_CLI_BENCH_RHS, repeats,
                            (long)k, &tr, &tl, NULL);
    }
    gsl_permutation_free(perm);
    gsl_vector_free(x);
    gsl_vector_free(b);
    gsl_matrix_free(LU);
    gsl_matrix_free(K);
    free(dydt);
    free(y);
    mbd_formulation_free(f);
    mbd_history_free(&h);
    return st;
}

int mbd_cli_bench_pipeline(FILE *out, const char *program, const char *case_name,
                           const char *method, long repeats, const mbd_system *sys,
                           const mbd_study_spec *spec, const double q0[], const double qd0[],
                           unsigned kinds)
{
    if (repeats < 1)
        repeats = 1;
    pipeline_case c = {sys, *spec, q0, qd0, method ? method : spec->method};
    int st = GSL_SUCCESS;
    if (kinds & (1u << MBD_CLI_BENCH_INTEGRATION))
        st = mbd_cli_bench(out, program, case_name, c.method, MBD_CLI_BENCH_INTEGRATION,
                           repeats, integrate, &c);
    if (st == GSL_SUCCESS && (kinds & (1u << MBD_CLI_BENCH_OUTPUT)))
        st = bench_output(out, program, case_name, repeats, &c);
    if (st == GSL_SUCCESS && (kinds & (1u << MBD_CLI_BENCH_RHS)))
        st = bench_rhs(out, program, case_name, repeats, &c);
    return st;
}

FILE *mbd_cli_bench_sink(void)
{
    static FILE *sink;
    if (sink == NULL)
        sink = fopen("/dev/null", "w");
    return sink;
}
