/* lib/src/spatial_dynamics.c -- BDF dynamics of the spatial engine (spatial.h,
 * "Dynamics"; document 003 Sec. 6.6; guide Sec. 4.6).
 *
 * STATUS (issue 20)
 *   done:  BDF1 and variable-step BDF2 in acceleration form on the index-3
 *          equations, the residual scaled by 1/(beta0^2 h^2); quasi-Newton
 *          (the document's matrix, once per step, refactored) and full Newton;
 *          hard failure on non-convergence (time, correction, the row or
 *          coordinate with the largest residual); fixed steps, or steps
 *          controlled by a predictor-corrector error estimate; Hermite dense
 *          output; the consistent start; the observer with the diagnostics;
 *          the counters; the dense and the sparse (KLU) kinds of linsolve.h.
 *          Tested by tests/lib/test_spatial_dynamics.c (9 tests, 0.5 s; clean
 *          under ASan/UBSan). Measured: A01 over 0-20 s against the reduced
 *          ODE (rk8pd): max |dx|, |dy| = 7.7e-4 at h = 1e-3, 2.2e-2 at h =
 *          1e-2 (BDF2, quasi-Newton, 2.0 iterations per step); adaptive rtol
 *          1e-8: 3.3e-4 in 35691 steps. Error ratios when h halves: 1.95
 *          (BDF1), 4.00 (BDF2).
 *   done (wip/ch09-scale): the work per iteration is O(n + m): no dense M,
 *          Phi_q or Newton matrix any more. Each iteration evaluates each row
 *          once (Phi and its body blocks, sp_row_phi_blocks) and each body's
 *          mass block once (sp_body_mass_p, shared with sp_sys_mass); the
 *          residual is assembled body by body and row by row; the Newton
 *          matrix's values are written straight into the pattern's values
 *          through maps from each block to its values (blk7), built once;
 *          the pattern itself is built from lists by bodies (no N x N mark).
 *          Full Newton's differences are local: a perturbed body column
 *          re-evaluates only the rows touching the body and the body's own
 *          force and force elements (sp_body_own_force, sp_force_add). The
 *          observer's diagnostics come from the row blocks too. Results are
 *          bit-identical to the dense assembly's on the tests and on chapter
 *          09's models (A01, SMD, A02 N = 2, free slider-crank; both kinds,
 *          both Newtons). The N four-bar (sparse, quasi, BDF2, h = 1e-3; make
 *          bench CH=09, n-four-bar-N): ~120 us/step at N = 5, ~1.1 ms at
 *          N = 40 (9x; before: 21x), ~2.1 ms at N = 80; full Newton ~0.5 ms
 *          at N = 5, ~4 ms at N = 40. At N = 40 about half the time is KLU
 *          (refactor ~20 %, the solves ~15 %, the refactorisation's checks
 *          klu_rgrowth and klu_condest ~10 %), about a fifth the row
 *          evaluations (sp_side_of recomputes a body's A for every row).
 *   done (session 7): BDF up to order 5 (variable coefficients: the
 *          derivative at t_n of the polynomial through the last k + 1
 *          steps; the order rises as the past steps come; fixed steps of
 *          order >= 3 start with doubling steps from h / 2^m so that the
 *          first step's O(h0^2) stays below the method's error), orders >= 3
 *          start Newton from the polynomial of the last steps' [q''; lambda]
 *          (about one iteration per step), outputs from the quintic Hermite
 *          (q, q', q'' at both ends); modified Newton (the quasi matrix kept
 *          across steps); the index-1 comparison (accel, project, run_index1:
 *          the same KKT matrix as the right-hand side of an ode.h integrator
 *          and as the projection's, in the kinetic-energy metric); each
 *          body's side (A(p)) once per evaluation. Measured: A01 over 2000 s
 *          with rk8pd (rtol 1e-8) 2.3e-4 m from the IFToMM file in 1.4 s;
 *          BDF damps the swing (BDF5 adaptive rtol 1e-10: 2e-2 m, 3.3 s).
 *          A02 N = 40 over 20 s, BDF4 h = 4e-3, modified Newton to 1e-12,
 *          KLU: 6.6e-4 m from the ADAMS file in 1.9 s (the start's rank
 *          and velocity analyses by SuiteSparseQR: 0.05 s; dense, 0.45 s).
 *          The index-1 path stops at the N four-bar's first horizontal
 *          position (the KKT matrix is singular there).
 *   done (session 8): the BDF is a stepper of run.h's driver loop
 *          (DESIGN.md: "the BDF of chapter 09"), which owns the output grid
 *          and the step limit, as the index-1 path's integrator is.
 *   remains:
 *     - the full Newton matrix's (Phi_q^T lambda)_q and F_q, F_q' are
 *       forward differences of those terms (the analytic (Phi_q^T lambda)_q
 *       needs the K(a, b) blocks of each basic row, and F_q the TSDA's and
 *       the gyroscopic term's derivatives); (M q'')_q is analytic.
 *     - the F_q of a variable torque is differenced with respect to its own
 *       body's coordinates only (the governor's spring torque depends on the
 *       collar: full Newton is then not exactly full Newton; it converges).
 *     - redundant rows make the KKT matrix singular (MBD_ESINGULAR): the
 *       rows would have to be reduced to an independent set first (the
 *       analyses' QRPT knows which).
 *     - the error estimate's constants at orders 1 and 2 are those of the
 *       fixed-step methods (1/2 and 4/7), also for unequal steps; fixed-step
 *       BDF5 is unreliable on these undamped problems (its region leaves
 *       the imaginary axis near 0): bdf4 is the files' choice.
 *     - the Newton test is relative to 1 + |q|_inf: a model far from the
 *       origin (the N four-bar reaches x = 40) gets a looser absolute test;
 *       the A02 files ask for 1e-12.
 *
 * The method (the header has the equations). Per step from t_{n-1} to t_n =
 * t_{n-1} + h:
 *
 *   order k = 1 at the first step (and after a Newton failure), else the
 *   option's; beta0, a_q, a_v from the BDF formula (variable-step BDF2: the
 *   coefficients for w = h_n / h_{n-1}); the Newton iterate starts from the
 *   last step's q'' and lambda (the document's guess).
 *
 *   Newton on g = [M q'' + Phi_q^T lambda - F; Phi / (beta0^2 h^2)], q, q'
 *   from q'' by the BDF map. The correction is judged on what it does to the
 *   positions, dq = beta0^2 h^2 dq'': converged when |dq|_inf <= tol (1 +
 *   |q|_inf) (the velocities move by dq / (beta0 h), the multipliers converge
 *   with them). Not converged in max_iter iterations, or diverging (the
 *   correction growing twice over), is a failure in a fixed-step run and a
 *   retry with h / 4 in an adaptive one.
 *
 *   The scaling. Unscaled, the constraint rows of the Newton matrix would be
 *   beta0^2 h^2 Phi_q against the O(1) rows of M: its condition number grows
 *   like 1/h^2 and the quasi-Newton step mixes units. Divided by beta0^2 h^2
 *   (the derivative of q_n with respect to q''_n) the rows are Phi_q, the
 *   matrix tends to the regular KKT matrix [M Phi_q^T; Phi_q 0] as h -> 0
 *   (M alone is singular in the r-p form, the normalisation rows make the
 *   whole regular), and the terms the quasi-Newton matrix leaves out are
 *   O(h^2) (stiffness, constraint curvature) and O(h) (damping): it
 *   contracts the better the smaller h is.
 *
 *   The error estimate (adaptive runs; logged always). The predictor is the
 *   Taylor extrapolation of the last step, q_p = q_{n-1} + h q'_{n-1} (+ h^2
 *   q''_{n-1} / 2 at order 2), q'_p = q'_{n-1} (+ h q''_{n-1}): its error is
 *   of the corrector's order, so the local error is a multiple of the
 *   difference: order 1: q(t_n) - q_n = -h^2 q'' / 2 and q_n - q_p = h^2 q'',
 *   estimate (1/2)(q_n - q_p); order 2 (equal steps): -2/9 h^3 q''' against
 *   q_n - q_p = 7/18 h^3 q''', estimate (4/7)(q_n - q_p). The velocities are
 *   index-2 variables of an index-3 system: their part of the estimate is
 *   multiplied by h (Hairer-Wanner's scaling of higher-index variables), so
 *   it is of the positions' order. err = C_k max_i max(|q - q_p|_i,
 *   h |q' - q'_p|_i) / (atol + rtol max(|q_n|, |q_{n-1}|)_i); a step is
 *   accepted when err <= 1, and the next h = h min(2, max(0.2, 0.9 err^(-1 /
 *   (k + 1)))) (no growth right after a rejection; the ratio 2 keeps
 *   variable-step BDF2 zero-stable, which needs w < 1 + sqrt 2).
 *
 *   The full Newton matrix: M + beta0^2 h^2 [(M q'')_q + (Phi_q^T lambda)_q -
 *   F_q] - beta0 h F_q'. (M q'')_q is analytic: M's p block is 4 G^T J G
 *   (+ kappa p p^T with the mass shift), and with G(p) x = -G(x) p and G(p)^T
 *   v = T(v) p, T(v) = [0 -v^T; v -v~],
 *       d(4 G^T J G x)/dp = 4 [T(J G x) - G^T J G(x)],
 *       d(kappa p p^T x)/dp = kappa (p^T x I + p x^T)
 *   (the guide's Sec. 4.6 form). (Phi_q^T lambda)_q is a forward difference
 *   of that term alone (each body column perturbed, only the rows touching
 *   the body re-evaluated by their blocks); F_q and F_q' forward differences
 *   of F alone. Not the whole residual: the BDF map and the constraint rows
 *   stay exact.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "mbd/error.h"
#include "mbd/linsolve.h"
#include "mbd/run.h"
#include "mbd/spatial.h"
#include "spatial_impl.h"

/* the highest BDF order */
#define SP_BDF_KMAX 5

/* A 7-row block of the Newton matrix in the pattern's values: at[a] is the
 * value index of the block's entry (r0 + a, c0); its row a's columns c0 ...
 * c0 + w - 1 follow at at[a] + e (the pattern holds whole blocks and is
 * sorted by rows, then columns). */
typedef struct {
    size_t at[7];
} blk7;

struct mbd_spatial_dynamics {
    mbd_spatial_model *sm;
    mbd_spatial_dynamics_options o;
    size_t n, m, N;
    /* the linear solver and its pattern (sorted by rows, then columns) */
    mbd_linsolve *ls;
    size_t nnz, *prow, *pcol, *rowptr;   /* rowptr: N + 1 */
    double *val;
    /* where each block's values are */
    blk7 *mass;                 /* nb: each moving body's 7 x 7 block */
    size_t (*jac)[2];           /* m: (n + k, c_s), side s's 7 columns of row k */
    blk7 (*jacT)[2];            /* m: (c_s + a, n + k), its transpose */
    blk7 (*cpl)[2][2];          /* m, full Newton: (c_s + a, c_t), side s's rows, side t's
                                 * columns */
    /* the model's structure by bodies */
    size_t (*rowcol)[2];        /* each row's sides' first columns (SIZE_MAX: none) */
    size_t *brow_ptr, *brow;    /* the rows touching each body (ascending) */
    size_t *bf_ptr, *bf;        /* the force elements whose F depends on each body's
                                 * coordinates (full Newton) */
    /* the rows and the mass at the last evaluated q */
    mbd_spatial_row_eval *rev;  /* m */
    double (*Mp)[4][4];         /* nb: each moving body's p block of M */
    sp_side *side;              /* nb + 1: each body's side (sp_side_of) at the last
                                 * evaluated q; [nb] the global frame's */
    gsl_vector *F, *Fa, *Fb;    /* n; Fa, Fb: the differences' scratch, kept zero */
    gsl_vector *phi, *nu, *gam; /* m */
    gsl_vector *z, *g;          /* N: [q''; lambda], the residual / the correction */
    gsl_vector *q, *qd;         /* n: the step's trial state */
    gsl_vector *q1, *qd1, *qdd1, *lam1;   /* the last accepted step */
    /* the past steps for the BDF formulas and the predictor: hq[j], hqd[j]
     * at ht[j], j = 0 the last accepted step (a copy of q1, qd1), nh of them
     * valid */
    gsl_vector *hq[SP_BDF_KMAX + 2], *hqd[SP_BDF_KMAX + 2];
    gsl_vector *hz[SP_BDF_KMAX + 2];      /* [q''; lambda] there (N) */
    double ht[SP_BDF_KMAX + 2];
    size_t nh;
    gsl_vector *aq, *av;        /* the BDF combinations */
    gsl_vector *qo, *qdo, *qddo, *lamo;   /* an interpolated output */
    mbd_spatial_dynamics_stats st;
    size_t fac0, refac0;
    int kept;                   /* the factored matrix is a quasi-Newton matrix [M Phi_q^T;
                                 * Phi_q 0] (at some recent q) that modified Newton may use */
};

const char *mbd_spatial_newton_name(mbd_spatial_newton kind)
{
    return kind == MBD_SPATIAL_NEWTON_FULL       ? "full"
           : kind == MBD_SPATIAL_NEWTON_MODIFIED ? "modified"
                                                 : "quasi";
}

int mbd_spatial_newton_of(const char *name, mbd_spatial_newton *kind)
{
    if (name != NULL && strcmp(name, "quasi") == 0)
        *kind = MBD_SPATIAL_NEWTON_QUASI;
    else if (name != NULL && strcmp(name, "full") == 0)
        *kind = MBD_SPATIAL_NEWTON_FULL;
    else if (name != NULL && strcmp(name, "modified") == 0)
        *kind = MBD_SPATIAL_NEWTON_MODIFIED;
    else
        return GSL_EINVAL;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The workspace                                                             */

static int options_fill(mbd_spatial_dynamics_options *o)
{
    if (o->order == 0)
        o->order = 2;
    if (o->h == 0)
        o->h = 1e-3;
    if (o->rtol == 0)
        o->rtol = 1e-6;
    if (o->atol == 0)
        o->atol = 1e-8;
    if (o->tol == 0)
        o->tol = 1e-10;
    if (o->max_iter == 0)
        o->max_iter = 20;
    if (o->hmin == 0)
        o->hmin = 1e-10;
    if (o->consistency == 0)
        o->consistency = 1e-6;
    if ((o->method != MBD_SPATIAL_INDEX3_BDF && o->method != MBD_SPATIAL_INDEX1_RK)
        || o->order > SP_BDF_KMAX || !(o->h > 0) || !(o->rtol > 0) || !(o->atol > 0) || !(o->tol > 0)
        || !(o->hmin > 0) || o->hmax < 0 || !(o->consistency > 0)
        || (o->newton != MBD_SPATIAL_NEWTON_QUASI && o->newton != MBD_SPATIAL_NEWTON_FULL
            && o->newton != MBD_SPATIAL_NEWTON_MODIFIED)
        || (o->linear_solver != MBD_LINSOLVE_DENSE && o->linear_solver != MBD_LINSOLVE_SPARSE))
        return MBD_EINPUT;
    return GSL_SUCCESS;
}

/* The value index of the pattern's entry (r, c), SIZE_MAX if it is not in
 * it (a binary search in row r) */
static size_t entry_at(const mbd_spatial_dynamics *d, size_t r, size_t c)
{
    size_t lo = d->rowptr[r], hi = d->rowptr[r + 1];
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (d->pcol[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->rowptr[r + 1] && d->pcol[lo] == c ? lo : SIZE_MAX;
}

static blk7 block_at(const mbd_spatial_dynamics *d, size_t r0, size_t c0)
{
    blk7 b;
    for (size_t a = 0; a < 7; a++)
        b.at[a] = entry_at(d, r0 + a, c0);
    return b;
}

/* a column block of a pattern row: first column and width */
typedef struct {
    size_t c, w;
} colblk;

static int colblk_cmp(const void *x, const void *y)
{
    const colblk *a = x, *b = y;
    return a->c < b->c ? -1 : a->c > b->c;
}

/* the first column of force element f's body on side s (0: i, 1: j; a
 * TSDA's j only), SIZE_MAX when it has none */
static size_t force_col(const mbd_spatial_model *sm, const sp_force *f, int s)
{
    const int b = s == 0 ? f->i : (f->kind == SP_TSDA ? f->j : -1);
    return b >= 0 && !sm->bodies[b].ground ? sm->bodies[b].col : SIZE_MAX;
}

/* >> spatial-dynamics-pattern */
/* The Newton matrix's pattern by blocks, built from the bodies' lists (no
 * N x N mark): the rows of a moving body b carry b's 7 x 7 mass block; the
 * column n + k of each row k touching b (Phi_q^T); for full Newton the 7 x 7
 * coupling blocks of the bodies that share a row or a TSDA with b ((Phi_q^T
 * lambda)_q, F_q, F_q'). Row n + k carries its sides' 7 columns. Each
 * pattern row is sorted by columns; a pass counts, a second fills. Then the
 * maps from each block to its first values. */
static int pattern_build(mbd_spatial_dynamics *d)
{
    const mbd_spatial_model *sm = d->sm;
    const size_t N = d->N, n = d->n, m = d->m, nb = sm->nb;
    const int full = d->o.newton == MBD_SPATIAL_NEWTON_FULL;
    size_t maxl = 1;
    for (size_t b = 0; b < nb; b++) {
        const size_t l = 1 + 2 * (d->brow_ptr[b + 1] - d->brow_ptr[b])
                         + (d->bf_ptr[b + 1] - d->bf_ptr[b]);
        maxl = l > maxl ? l : maxl;
    }
    colblk *cb = malloc(maxl * sizeof *cb);
    d->rowptr = calloc(N + 1, sizeof *d->rowptr);
    if (cb == NULL || d->rowptr == NULL) {
        free(cb);
        return GSL_ENOMEM;
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t e = 0;
        for (size_t b = 0; b < nb; b++) {
            if (sm->bodies[b].ground)
                continue;
            const size_t c = sm->bodies[b].col;
            size_t l = 0;
            cb[l++] = (colblk){c, 7};
            for (size_t x = d->brow_ptr[b]; x < d->brow_ptr[b + 1]; x++) {
                const size_t k = d->brow[x];
                cb[l++] = (colblk){n + k, 1};
                if (full)
                    for (int s = 0; s < 2; s++)
                        if (d->rowcol[k][s] != SIZE_MAX && d->rowcol[k][s] != c)
                            cb[l++] = (colblk){d->rowcol[k][s], 7};
            }
            if (full)
                for (size_t x = d->bf_ptr[b]; x < d->bf_ptr[b + 1]; x++) {
                    const sp_force *f = &sm->forces[d->bf[x]];
                    if (f->kind != SP_TSDA)
                        continue;
                    for (int s = 0; s < 2; s++) {
                        const size_t fc = force_col(sm, f, s);
                        if (fc != SIZE_MAX && fc != c)
                            cb[l++] = (colblk){fc, 7};
                    }
                }
            qsort(cb, l, sizeof *cb, colblk_cmp);
            size_t u = 0;   /* unique */
            for (size_t x = 0; x < l; x++)
                if (u == 0 || cb[x].c != cb[u - 1].c)
                    cb[u++] = cb[x];
            for (size_t a = 0; a < 7; a++) {
                if (pass == 1)
                    e = d->rowptr[c + a];
                for (size_t x = 0; x < u; x++)
                    for (size_t w = 0; w < cb[x].w; w++) {
                        if (pass == 1) {
                            d->prow[e] = c + a;
                            d->pcol[e] = cb[x].c + w;
                        } else {
                            d->rowptr[c + a + 1]++;
                        }
                        e++;
                    }
            }
        }
        for (size_t k = 0; k < m; k++) {
            size_t c0 = d->rowcol[k][0], c1 = d->rowcol[k][1];
            if (c0 > c1) {   /* SIZE_MAX (none) last */
                const size_t tmp = c0;
                c0 = c1;
                c1 = tmp;
            }
            const size_t cs[2] = {c0, c1};
            if (pass == 1)
                e = d->rowptr[n + k];
            for (int s = 0; s < 2; s++) {
                if (cs[s] == SIZE_MAX || (s == 1 && cs[1] == cs[0]))
                    continue;
                for (size_t w = 0; w < 7; w++) {
                    if (pass == 1) {
                        d->prow[e] = n + k;
                        d->pcol[e] = cs[s] + w;
                    } else {
                        d->rowptr[n + k + 1]++;
                    }
                    e++;
                }
            }
        }
        if (pass == 0) {
            /* the counts summed into the rows' starts */
            for (size_t r = 0; r < N; r++)
                d->rowptr[r + 1] += d->rowptr[r];
            d->nnz = d->rowptr[N];
            d->prow = malloc((d->nnz ? d->nnz : 1) * sizeof *d->prow);
            d->pcol = malloc((d->nnz ? d->nnz : 1) * sizeof *d->pcol);
            d->val = malloc((d->nnz ? d->nnz : 1) * sizeof *d->val);
            if (d->prow == NULL || d->pcol == NULL || d->val == NULL) {
                free(cb);
                return GSL_ENOMEM;
            }
        }
    }
    free(cb);
    /* the maps */
    d->mass = malloc((nb ? nb : 1) * sizeof *d->mass);
    d->jac = malloc((m ? m : 1) * sizeof *d->jac);
    d->jacT = malloc((m ? m : 1) * sizeof *d->jacT);
    d->cpl = full ? malloc((m ? m : 1) * sizeof *d->cpl) : NULL;
    if (d->mass == NULL || d->jac == NULL || d->jacT == NULL || (full && d->cpl == NULL))
        return GSL_ENOMEM;
    for (size_t b = 0; b < nb; b++)
        if (!sm->bodies[b].ground)
            d->mass[b] = block_at(d, sm->bodies[b].col, sm->bodies[b].col);
    for (size_t k = 0; k < m; k++)
        for (int s = 0; s < 2; s++) {
            const size_t c = d->rowcol[k][s];
            if (c == SIZE_MAX)
                continue;
            d->jac[k][s] = entry_at(d, n + k, c);
            d->jacT[k][s] = block_at(d, c, n + k);
            if (full)
                for (int t = 0; t < 2; t++)
                    if (d->rowcol[k][t] != SIZE_MAX)
                        d->cpl[k][s][t] = block_at(d, c, d->rowcol[k][t]);
        }
    d->ls = mbd_linsolve_alloc(d->o.linear_solver, N, d->nnz, d->prow, d->pcol);
    return d->ls != NULL ? GSL_SUCCESS : GSL_ENOMEM;
}
/* << spatial-dynamics-pattern */

/* Lists by bodies (CSR): the rows touching each body, and the force elements
 * acting on it (the bodies of a force, a torque, a TSDA) */
static int body_lists(mbd_spatial_dynamics *d)
{
    const mbd_spatial_model *sm = d->sm;
    const size_t nb = sm->nb, m = d->m;
    size_t *colbody = malloc((d->n ? d->n : 1) * sizeof *colbody);
    d->brow_ptr = calloc(nb + 1, sizeof *d->brow_ptr);
    d->bf_ptr = calloc(nb + 1, sizeof *d->bf_ptr);
    if (colbody == NULL || d->brow_ptr == NULL || d->bf_ptr == NULL) {
        free(colbody);
        return GSL_ENOMEM;
    }
    for (size_t b = 0; b < nb; b++)
        if (!sm->bodies[b].ground)
            for (size_t c = 0; c < 7; c++)
                colbody[sm->bodies[b].col + c] = b;
    for (int pass = 0; pass < 2; pass++) {
        size_t *fill = NULL;
        if (pass == 1) {
            for (size_t b = 0; b < nb; b++) {
                d->brow_ptr[b + 1] += d->brow_ptr[b];
                d->bf_ptr[b + 1] += d->bf_ptr[b];
            }
            d->brow = malloc((d->brow_ptr[nb] ? d->brow_ptr[nb] : 1) * sizeof *d->brow);
            d->bf = malloc((d->bf_ptr[nb] ? d->bf_ptr[nb] : 1) * sizeof *d->bf);
            fill = calloc(2 * nb + 1, sizeof *fill);
            if (d->brow == NULL || d->bf == NULL || fill == NULL) {
                free(fill);
                free(colbody);
                return GSL_ENOMEM;
            }
        }
        for (size_t k = 0; k < m; k++)
            for (int s = 0; s < 2; s++) {
                const size_t c = d->rowcol[k][s];
                if (c == SIZE_MAX || (s == 1 && c == d->rowcol[k][0]))
                    continue;
                const size_t b = colbody[c];
                if (pass == 0)
                    d->brow_ptr[b + 1]++;
                else
                    d->brow[d->brow_ptr[b] + fill[b]++] = k;
            }
        for (size_t f = 0; f < sm->nf; f++)
            for (int s = 0; s < 2; s++) {
                const size_t c = force_col(sm, &sm->forces[f], s);
                if (c == SIZE_MAX || (s == 1 && c == force_col(sm, &sm->forces[f], 0)))
                    continue;
                const size_t b = colbody[c];
                if (pass == 0)
                    d->bf_ptr[b + 1]++;
                else
                    d->bf[d->bf_ptr[b] + fill[nb + b]++] = f;
            }
        free(fill);
    }
    free(colbody);
    return GSL_SUCCESS;
}

void mbd_spatial_dynamics_free(mbd_spatial_dynamics *d)
{
    if (d == NULL)
        return;
    mbd_linsolve_free(d->ls);
    void *ptrs[] = {d->prow, d->pcol, d->rowptr, d->val, d->mass, d->jac, d->jacT, d->cpl,
                    d->rowcol, d->brow_ptr, d->brow, d->bf_ptr, d->bf, d->rev, d->Mp,
                    d->side};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++)
        free(ptrs[k]);
    gsl_vector *vecs[] = {d->F,  d->Fa,   d->Fb,   d->phi, d->nu,  d->gam,  d->z,
                          d->g,  d->q,    d->qd,   d->q1,  d->qd1, d->qdd1, d->lam1,
                          d->aq, d->av,   d->qo,   d->qdo, d->qddo, d->lamo};
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; k++)
        if (vecs[k] != NULL)
            gsl_vector_free(vecs[k]);
    for (size_t j = 0; j < SP_BDF_KMAX + 2; j++) {
        if (d->hq[j] != NULL)
            gsl_vector_free(d->hq[j]);
        if (d->hqd[j] != NULL)
            gsl_vector_free(d->hqd[j]);
        if (d->hz[j] != NULL)
            gsl_vector_free(d->hz[j]);
    }
    free(d);
}

mbd_spatial_dynamics *mbd_spatial_dynamics_alloc(mbd_spatial_model *sm,
                                                 const mbd_spatial_dynamics_options *o)
{
    if (sm == NULL || !sm->finished)
        return NULL;
    mbd_spatial_dynamics_options op = {0};
    if (o != NULL)
        op = *o;
    if (options_fill(&op) != GSL_SUCCESS)
        return NULL;
    mbd_spatial_dynamics *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    d->sm = sm;
    d->o = op;
    const size_t n = sm->n, m = sm->m, N = n + m;
    d->n = n;
    d->m = m;
    d->N = N;
    d->rowcol = malloc((m ? m : 1) * sizeof *d->rowcol);
    d->rev = malloc((m ? m : 1) * sizeof *d->rev);
    d->Mp = malloc((sm->nb ? sm->nb : 1) * sizeof *d->Mp);
    d->side = malloc((sm->nb + 1) * sizeof *d->side);
    int ok = d->rowcol != NULL && d->rev != NULL && d->Mp != NULL && d->side != NULL;
    for (size_t k = 0; ok && k < m; k++) {
        mbd_spatial_row_info info;
        ok = mbd_spatial_row_info_get(sm, k, &info) == GSL_SUCCESS;
        if (ok) {
            d->rowcol[k][0] = info.col[0];
            d->rowcol[k][1] = info.col[1];
        }
    }
    if (ok) {
        gsl_vector **vn[] = {&d->F,  &d->Fa, &d->Fb, &d->q,  &d->qd,  &d->q1,  &d->qd1,
                             &d->qdd1, &d->aq, &d->av, &d->qo, &d->qdo, &d->qddo,
                             &d->hq[0], &d->hq[1], &d->hq[2], &d->hq[3], &d->hq[4],
                             &d->hq[5], &d->hq[6], &d->hqd[0], &d->hqd[1], &d->hqd[2],
                             &d->hqd[3], &d->hqd[4], &d->hqd[5], &d->hqd[6]};
        for (size_t k = 0; k < sizeof vn / sizeof vn[0]; k++)
            *vn[k] = gsl_vector_calloc(n);
        gsl_vector **vm[] = {&d->phi, &d->nu, &d->gam, &d->lam1, &d->lamo};
        for (size_t k = 0; k < sizeof vm / sizeof vm[0]; k++)
            *vm[k] = gsl_vector_calloc(m);
        d->z = gsl_vector_calloc(N);
        d->g = gsl_vector_calloc(N);
        ok = d->z && d->g;
        for (size_t j = 0; j < SP_BDF_KMAX + 2; j++) {
            d->hz[j] = gsl_vector_calloc(N);
            ok = ok && d->hz[j] != NULL;
        }
        for (size_t k = 0; ok && k < sizeof vn / sizeof vn[0]; k++)
            ok = *vn[k] != NULL;
        for (size_t k = 0; ok && k < sizeof vm / sizeof vm[0]; k++)
            ok = *vm[k] != NULL;
    }
    if (ok)
        ok = body_lists(d) == GSL_SUCCESS;
    if (ok)
        ok = pattern_build(d) == GSL_SUCCESS;
    if (!ok) {
        mbd_spatial_dynamics_free(d);
        return NULL;
    }
    return d;
}

const mbd_spatial_dynamics_stats *mbd_spatial_dynamics_stats_get(const mbd_spatial_dynamics *d)
{
    return &d->st;
}

/* ------------------------------------------------------------------------ */
/* Pieces                                                                    */

static double inf_norm(const gsl_vector *v, size_t *where)
{
    double r = 0.0;
    size_t w = 0;
    for (size_t i = 0; i < v->size; i++) {
        const double a = fabs(gsl_vector_get(v, i));
        if (!(a <= r)) {   /* NaN wins */
            r = a;
            w = i;
        }
    }
    if (where != NULL)
        *where = w;
    return r;
}

static const char *coord_name(const mbd_spatial_dynamics *d, size_t i)
{
    const mbd_system *s = &d->sm->sys;
    return s->names != NULL ? s->names[i] : "?";
}

static int force_of(mbd_spatial_dynamics *d, double t, const gsl_vector *q, const gsl_vector *qd,
                    gsl_vector *F)
{
    d->st.force_evals++;
    return d->sm->sys.force(&d->sm->sys, t, q, qd, F);
}

/* >> spatial-dynamics-eval */
/* The rows (Phi into d->phi, nu = -Phi_t into d->nu, the body blocks into
 * d->rev; with qd also gamma into d->gam, in the same evaluation) and each
 * moving body's p block of M at (t, q): one evaluation of each row and each
 * body, O(n + m) */
static int eval_rows(mbd_spatial_dynamics *d, double t, const gsl_vector *q,
                     const gsl_vector *qd)
{
    const mbd_spatial_model *sm = d->sm;
    /* each body's side once (its A(p)), then the rows from them */
    for (size_t b = 0; b < sm->nb; b++)
        sp_side_of(sm, (int)b, q, qd, &d->side[b]);
    sp_side_of(sm, -1, q, qd, &d->side[sm->nb]);
    for (size_t k = 0; k < d->m; k++) {
        const sp_row *r = &sm->rows[k];
        const sp_side *zi = &d->side[r->i >= 0 ? (size_t)r->i : sm->nb];
        const sp_side *zj = &d->side[r->j >= 0 ? (size_t)r->j : sm->nb];
        int st = sp_row_eval_sides(sm, k, t, zi, zj, qd != NULL, &d->rev[k]);
        if (st != GSL_SUCCESS)
            return st;
        gsl_vector_set(d->phi, k, d->rev[k].phi);
        gsl_vector_set(d->nu, k, d->rev[k].nu);
        if (qd != NULL)
            gsl_vector_set(d->gam, k, d->rev[k].gamma);
    }
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        const double *p = gsl_vector_const_ptr(q, bd->col + 3);
        sp_body_mass_p(bd, p, d->Mp[b]);
    }
    return GSL_SUCCESS;
}

static int eval_at(mbd_spatial_dynamics *d, double t, const gsl_vector *q)
{
    return eval_rows(d, t, q, NULL);
}

/* y := Phi_q x - y (x of size n, y of size m) from d->rev's blocks */
static void jac_mul(const mbd_spatial_dynamics *d, const gsl_vector *x, gsl_vector *y)
{
    for (size_t k = 0; k < d->m; k++) {
        double v = 0.0;
        for (int s = 0; s < 2; s++) {
            const size_t c = d->rowcol[k][s];
            if (c == SIZE_MAX)
                continue;
            const double *xc = gsl_vector_const_ptr(x, c);
            for (int a = 0; a < 3; a++)
                v += d->rev[k].phi_r[s][a] * xc[a];
            for (int a = 0; a < 4; a++)
                v += d->rev[k].phi_p[s][a] * xc[3 + a];
        }
        gsl_vector_set(y, k, v - gsl_vector_get(y, k));
    }
}

/* The Newton matrix's values from d->rev and d->Mp: [M Phi_q^T; Phi_q 0],
 * block by block into the pattern's values (the coupling blocks of full
 * Newton zero) */
static void kkt_fill(mbd_spatial_dynamics *d)
{
    const mbd_spatial_model *sm = d->sm;
    double *val = d->val;
    memset(val, 0, d->nnz * sizeof *val);
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        const blk7 *B = &d->mass[b];
        for (int a = 0; a < 3; a++)
            val[B->at[a] + a] = bd->m;
        for (int a = 0; a < 4; a++)
            for (int e = 0; e < 4; e++)
                val[B->at[3 + a] + 3 + e] = d->Mp[b][a][e];
    }
    for (size_t k = 0; k < d->m; k++) {
        const mbd_spatial_row_eval *ev = &d->rev[k];
        for (int s = 0; s < 2; s++) {
            if (d->rowcol[k][s] == SIZE_MAX)
                continue;
            const size_t j = d->jac[k][s];
            const blk7 *T = &d->jacT[k][s];
            for (int a = 0; a < 3; a++) {
                val[j + a] += ev->phi_r[s][a];
                val[T->at[a]] += ev->phi_r[s][a];
            }
            for (int a = 0; a < 4; a++) {
                val[j + 3 + a] += ev->phi_p[s][a];
                val[T->at[3 + a]] += ev->phi_p[s][a];
            }
        }
    }
}
/* << spatial-dynamics-eval */

/* factor the values (fresh or with the pivots reused) */
static int kkt_factor(mbd_spatial_dynamics *d, int fresh)
{
    d->st.matrices++;
    return fresh ? mbd_linsolve_factor(d->ls, d->val) : mbd_linsolve_refactor(d->ls, d->val);
}

/* T(v) = [0 -v^T; v -v~] (4 x 4): G(p)^T v = T(v) p */
static void t_matrix(const double v[3], double T[4][4])
{
    double S[3][3];
    mbd_spatial_skew(v, S);
    T[0][0] = 0.0;
    for (int a = 0; a < 3; a++) {
        T[0][a + 1] = -v[a];
        T[a + 1][0] = v[a];
        for (int b = 0; b < 3; b++)
            T[a + 1][b + 1] = -S[a][b];
    }
}

/* value += v at the pattern's entry (r, c) when it is in it (a force
 * element's F_q outside the block pattern is dropped) */
static void val_add(mbd_spatial_dynamics *d, size_t r, size_t c, double v)
{
    const size_t e = entry_at(d, r, c);
    if (e != SIZE_MAX)
        d->val[e] += v;
}

/* >> spatial-dynamics-full */
/* The values += c2 [(M q'')_q + (Phi_q^T lambda)_q - F_q] - c1 F_q' at (t,
 * q, q'), q'' = z[0..n), lambda = z[n..); d->rev holds the rows at q. Every
 * difference is local: a body column perturbed re-evaluates only the rows
 * touching the body and the body's own force and force elements, so the
 * work is O(n) for a model whose bodies have bounded numbers of rows and
 * forces. */
static int full_terms(mbd_spatial_dynamics *d, double t, double c2, double c1)
{
    mbd_spatial_model *sm = d->sm;
    const size_t n = d->n;
    /* (M q'')_q: analytic, the p blocks only */
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        const size_t c = bd->col;
        double p[4], x[4], G[3][4], Gx[3][4], JG[3][4], Gxv[3], JGx[3], T[4][4];
        for (int a = 0; a < 4; a++) {
            p[a] = gsl_vector_get(d->q, c + 3 + a);
            x[a] = gsl_vector_get(d->z, c + 3 + a);
        }
        mbd_spatial_ep_G(p, G);
        mbd_spatial_ep_G(x, Gx);
        sp_mul34(G, x, Gxv);
        sp_matvec3(&bd->J[0][0], Gxv, JGx);
        t_matrix(JGx, T);
        for (int r = 0; r < 3; r++)
            for (int a = 0; a < 4; a++)
                JG[r][a] = bd->J[r][0] * G[0][a] + bd->J[r][1] * G[1][a] + bd->J[r][2] * G[2][a];
        const double ptx = p[0] * x[0] + p[1] * x[1] + p[2] * x[2] + p[3] * x[3];
        const blk7 *B = &d->mass[b];
        for (int a = 0; a < 4; a++)
            for (int e = 0; e < 4; e++) {
                double GJGx = 0.0;   /* (G^T J G(x))_{ae} = sum_r JG[r][a] Gx[r][e] */
                for (int r = 0; r < 3; r++)
                    GJGx += JG[r][a] * Gx[r][e];
                double v = 4.0 * (T[a][e] - GJGx);
                v += bd->kappa * ((a == e ? ptx : 0.0) + p[a] * x[e]);
                d->val[B->at[3 + a] + 3 + e] += c2 * v;
            }
    }
    /* (Phi_q^T lambda)_q: forward differences of that term, by body columns,
     * only the rows touching the body re-evaluated (by their blocks) */
    for (size_t b = 0; b < sm->nb; b++) {
        if (sm->bodies[b].ground)
            continue;
        const size_t bc = sm->bodies[b].col;
        for (size_t j = 0; j < 7; j++) {
            const size_t col = bc + j;
            const double q0 = gsl_vector_get(d->q, col);
            const double del = sqrt(DBL_EPSILON) * fmax(1.0, fabs(q0));
            gsl_vector_set(d->q, col, q0 + del);
            for (size_t x = d->brow_ptr[b]; x < d->brow_ptr[b + 1]; x++) {
                const size_t k = d->brow[x];
                const double lam = gsl_vector_get(d->z, n + k);
                if (lam == 0.0)
                    continue;
                const int t_side = d->rowcol[k][0] == bc ? 0 : 1;
                const mbd_spatial_row_eval *e0 = &d->rev[k];
                mbd_spatial_row_eval e1;
                sp_row_blocks(sm, k, d->q, &e1);
                for (int s = 0; s < 2; s++) {
                    if (d->rowcol[k][s] == SIZE_MAX)
                        continue;
                    const blk7 *B = &d->cpl[k][s][t_side];
                    for (int a = 0; a < 3; a++)
                        d->val[B->at[a] + j] += c2 * lam * (e1.phi_r[s][a] - e0->phi_r[s][a]) / del;
                    for (int a = 0; a < 4; a++)
                        d->val[B->at[3 + a] + j]
                            += c2 * lam * (e1.phi_p[s][a] - e0->phi_p[s][a]) / del;
                }
            }
            gsl_vector_set(d->q, col, q0);
        }
    }
    /* F_q and F_q': forward differences of the body's own force and of the
     * force elements acting on it, each into d->Fa (perturbed) and d->Fb
     * (not), whose touched entries are zeroed again after use */
    for (int which = 0; which < 2; which++) {
        gsl_vector *xv = which == 0 ? d->q : d->qd;
        const double cf = which == 0 ? c2 : c1;
        for (size_t b = 0; b < sm->nb; b++) {
            const sp_body *bd = &sm->bodies[b];
            if (bd->ground)
                continue;
            const size_t bc = bd->col;
            double F0[7];
            sp_body_own_force(sm, bd, gsl_vector_const_ptr(d->q, bc + 3),
                              gsl_vector_const_ptr(d->qd, bc + 3), F0);
            for (size_t j = 0; j < 7; j++) {
                const size_t col = bc + j;
                const double x0 = gsl_vector_get(xv, col);
                const double del = sqrt(DBL_EPSILON) * fmax(1.0, fabs(x0));
                gsl_vector_set(xv, col, x0 + del);
                double F1[7];
                sp_body_own_force(sm, bd, gsl_vector_const_ptr(d->q, bc + 3),
                                  gsl_vector_const_ptr(d->qd, bc + 3), F1);
                int st = GSL_SUCCESS;
                for (size_t x = d->bf_ptr[b]; st == GSL_SUCCESS && x < d->bf_ptr[b + 1]; x++)
                    st = sp_force_add(sm, d->bf[x], t, d->q, d->qd, d->Fa);
                gsl_vector_set(xv, col, x0);
                for (size_t x = d->bf_ptr[b]; st == GSL_SUCCESS && x < d->bf_ptr[b + 1]; x++)
                    st = sp_force_add(sm, d->bf[x], t, d->q, d->qd, d->Fb);
                const blk7 *B = &d->mass[b];
                for (int a = 0; a < 7; a++) {
                    const double dF = (F1[a] - F0[a]) / del;
                    if (dF != 0.0)
                        d->val[B->at[a] + j] -= cf * dF;
                }
                /* the elements' entries: their bodies' 7 rows each */
                for (size_t x = d->bf_ptr[b]; x < d->bf_ptr[b + 1]; x++) {
                    const sp_force *f = &sm->forces[d->bf[x]];
                    for (int s = 0; s < 2; s++) {
                        const size_t fc = force_col(sm, f, s);
                        if (fc == SIZE_MAX)
                            continue;
                        for (size_t a = 0; a < 7; a++) {
                            const double fa = gsl_vector_get(d->Fa, fc + a);
                            const double fb = gsl_vector_get(d->Fb, fc + a);
                            if (fa == 0.0 && fb == 0.0)
                                continue;   /* done (a body shared by two elements) */
                            const double dF = (fa - fb) / del;
                            if (st == GSL_SUCCESS && dF != 0.0)
                                val_add(d, fc + a, col, -cf * dF);
                            gsl_vector_set(d->Fa, fc + a, 0.0);
                            gsl_vector_set(d->Fb, fc + a, 0.0);
                        }
                    }
                }
                if (st != GSL_SUCCESS)
                    return st;
            }
        }
    }
    return GSL_SUCCESS;
}
/* << spatial-dynamics-full */

/* ------------------------------------------------------------------------ */
/* The consistent start                                                      */

/* >> spatial-dynamics-accel */
/* The index-1 solve at (t, q, q'): [M Phi_q^T; Phi_q 0] [q''; lambda] = [F;
 * gamma] into d->z, with the normalisation rows' gamma = -p'^T p' (the
 * document's code pairs p^T with -2 p'^T p', guide Sec. 6.2 item 1). The
 * matrix is factored afresh (pivots chosen) when `fresh`, else with the
 * pivots of the last factorisation. Leaves the rows at q in d. */
static int accel(mbd_spatial_dynamics *d, double t, const gsl_vector *q, const gsl_vector *qd,
                 int fresh)
{
    const size_t n = d->n, m = d->m;
    int st = eval_rows(d, t, q, qd);
    if (st == GSL_SUCCESS)
        st = force_of(d, t, q, qd, d->F);
    if (st != GSL_SUCCESS)
        return st;
    kkt_fill(d);
    st = kkt_factor(d, fresh);
    d->kept = st == GSL_SUCCESS;   /* the quasi-Newton matrix at q */
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_view z1 = gsl_vector_subvector(d->z, 0, n);
    gsl_vector_view z2 = gsl_vector_subvector(d->z, n, m);
    gsl_vector_memcpy(&z1.vector, d->F);
    gsl_vector_memcpy(&z2.vector, d->gam);
    st = mbd_linsolve_solve(d->ls, d->z->data);
    if (st != GSL_SUCCESS)
        return st;
    return inf_norm(d->z, NULL) < HUGE_VAL ? GSL_SUCCESS : MBD_ENONFINITE;
}
/* << spatial-dynamics-accel */

/* >> spatial-dynamics-start */
int mbd_spatial_dynamics_start(mbd_spatial_dynamics *d, double t, const gsl_vector *q,
                               const gsl_vector *qd, gsl_vector *qdd, gsl_vector *lambda)
{
    mbd_spatial_model *sm = d->sm;
    const size_t n = d->n, m = d->m;
    if (q == NULL || qd == NULL || q->size != n || qd->size != n
        || (qdd != NULL && qdd->size != n) || (lambda != NULL && lambda->size != m))
        return mbd_failure_set(&sm->last, MBD_EINPUT, t, "dynamics: bad vector sizes");
    mbd_failure_clear(&sm->last);
    gsl_vector_memcpy(d->q, q);
    gsl_vector_memcpy(d->qd, qd);
    int st = eval_at(d, t, d->q);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, st, t, "dynamics: the constraints could not be "
                               "evaluated at the start (%s)", mbd_strerror(st));
    size_t worst;
    double r = inf_norm(d->phi, &worst);
    if (!(r <= d->o.consistency))
        return mbd_failure_set(&sm->last, MBD_EINPUT, t,
                               "dynamics: the start is not consistent: |Phi|_inf = %.3g at row "
                               "'%s' (assemble first)", r, sm->rows[worst].name);
    /* Phi_q q' - nu into d->nu */
    jac_mul(d, d->qd, d->nu);
    r = inf_norm(d->nu, &worst);
    if (!(r <= d->o.consistency))
        return mbd_failure_set(&sm->last, MBD_EINPUT, t,
                               "dynamics: the start is not consistent: |Phi_q q' - nu|_inf = "
                               "%.3g at row '%s' (solve the velocities first)",
                               r, sm->rows[worst].name);
    st = accel(d, t, d->q, d->qd, 1);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, st, t, "dynamics: the start's accelerations could "
                               "not be solved for (%s%s)", mbd_strerror(st),
                               st == MBD_ESINGULAR ? "; redundant rows?" : "");
    if (qdd != NULL) {
        gsl_vector_view z1 = gsl_vector_subvector(d->z, 0, n);
        gsl_vector_memcpy(qdd, &z1.vector);
    }
    if (lambda != NULL) {
        gsl_vector_view z2 = gsl_vector_subvector(d->z, n, m);
        gsl_vector_memcpy(lambda, &z2.vector);
    }
    return GSL_SUCCESS;
}
/* << spatial-dynamics-start */

/* ------------------------------------------------------------------------ */
/* One step                                                                  */

typedef struct {
    unsigned order;
    double h, beta;
    unsigned iterations;
    double correction;       /* the last scaled correction */
    double error;            /* the scaled error estimate */
    int diverged;
} step_info;

/* q' = a_v + beta h q'', q = a_q + beta h q' */
static void bdf_map(mbd_spatial_dynamics *d, double h, double beta)
{
    const size_t n = d->n;
    for (size_t i = 0; i < n; i++) {
        const double v = gsl_vector_get(d->av, i) + beta * h * gsl_vector_get(d->z, i);
        gsl_vector_set(d->qd, i, v);
        gsl_vector_set(d->q, i, gsl_vector_get(d->aq, i) + beta * h * v);
    }
}

/* >> spatial-dynamics-residual */
/* g = [M q'' + Phi_q^T lambda - F; Phi / (beta h)^2] body by body and row by
 * row, with F, the rows (d->phi, d->rev) and the mass blocks (d->Mp) left in
 * d for the Newton matrix */
static int residual(mbd_spatial_dynamics *d, double t, double h, double beta)
{
    const mbd_spatial_model *sm = d->sm;
    const size_t n = d->n, m = d->m;
    bdf_map(d, h, beta);
    int st = force_of(d, t, d->q, d->qd, d->F);
    if (st == GSL_SUCCESS)
        st = eval_at(d, t, d->q);
    if (st != GSL_SUCCESS)
        return st;
    const double *qdd = d->z->data, *lam = d->z->data + n;
    double *g = d->g->data;
    /* M q'' - F, each body's 7 rows */
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        const size_t c = bd->col;
        for (int a = 0; a < 3; a++)
            g[c + a] = bd->m * qdd[c + a] - gsl_vector_get(d->F, c + a);
        for (int a = 0; a < 4; a++) {
            double v = 0.0;
            for (int e = 0; e < 4; e++)
                v += d->Mp[b][a][e] * qdd[c + 3 + e];
            g[c + 3 + a] = v - gsl_vector_get(d->F, c + 3 + a);
        }
    }
    /* + Phi_q^T lambda, each row's blocks; Phi / (beta h)^2 */
    const double sc = 1.0 / (beta * beta * h * h);
    for (size_t k = 0; k < m; k++) {
        const mbd_spatial_row_eval *ev = &d->rev[k];
        for (int s = 0; s < 2; s++) {
            const size_t c = d->rowcol[k][s];
            if (c == SIZE_MAX)
                continue;
            for (int a = 0; a < 3; a++)
                g[c + a] += ev->phi_r[s][a] * lam[k];
            for (int a = 0; a < 4; a++)
                g[c + 3 + a] += ev->phi_p[s][a] * lam[k];
        }
        g[n + k] = ev->phi * sc;
    }
    return GSL_SUCCESS;
}
/* << spatial-dynamics-residual */

/* >> spatial-dynamics-newton */
/* Newton for the step to t = t_{n-1} + h at the order in si; d->z holds the
 * start guess, the solution on success. GSL_SUCCESS, MBD_ENOCONV (si says
 * why), or a model or solver status.
 *
 * Which matrix: quasi, [M Phi_q^T; Phi_q 0] evaluated at the step's first
 * iterate (the document's); full, the whole derivative at every iterate;
 * modified, the quasi matrix kept from earlier steps (it does not depend on
 * h or the order, only on q) until the iteration stops contracting well (a
 * correction above a quarter of the one before, or a fourth iteration):
 * then it is evaluated afresh at the current iterate and the iteration goes
 * on. A modified step fails only once its matrix is fresh. */
static int newton(mbd_spatial_dynamics *d, double t, step_info *si, int *first_factor)
{
    const size_t n = d->n;
    const double h = si->h, beta = si->beta;
    const int full = d->o.newton == MBD_SPATIAL_NEWTON_FULL;
    const int keep = d->o.newton == MBD_SPATIAL_NEWTON_MODIFIED;
    double prev = HUGE_VAL;
    int fresh = 0, refresh = !(keep && d->kept);
    si->iterations = 0;
    si->diverged = 0;
    si->correction = HUGE_VAL;
    for (unsigned it = 0; it < d->o.max_iter; it++) {
        int st = residual(d, t, h, beta);
        if (st != GSL_SUCCESS)
            return st;
        if (full || refresh) {
            kkt_fill(d);   /* from the residual's rows and mass blocks */
            d->kept = !full;
            if (full) {
                st = full_terms(d, t, beta * beta * h * h, beta * h);
                if (st != GSL_SUCCESS)
                    return st;
            }
            st = kkt_factor(d, *first_factor);
            if (st != GSL_SUCCESS) {
                d->kept = 0;
                return st;
            }
            *first_factor = 0;
            fresh = 1;
            refresh = 0;
        }
        st = mbd_linsolve_solve(d->ls, d->g->data);   /* g := K^-1 g */
        if (st != GSL_SUCCESS)
            return st;
        gsl_vector_sub(d->z, d->g);
        si->iterations = it + 1;
        d->st.newton_iterations++;
        /* the correction of the positions, beta^2 h^2 dq'' */
        gsl_vector_view dqdd = gsl_vector_subvector(d->g, 0, n);
        const double dq = beta * beta * h * h * inf_norm(&dqdd.vector, NULL);
        bdf_map(d, h, beta);
        const double corr = dq / (1.0 + inf_norm(d->q, NULL));
        si->correction = corr;
        if (!isfinite(corr) || !(inf_norm(d->z, NULL) < HUGE_VAL))
            return MBD_ENONFINITE;
        if (corr <= d->o.tol)
            return GSL_SUCCESS;
        if (keep && !fresh && (it >= 3 || (it >= 1 && corr > 0.25 * prev))) {
            refresh = 1;   /* the kept matrix is too old: evaluate it here */
            prev = HUGE_VAL;   /* and judge the fresh one on its own corrections */
            continue;
        }
        if (it >= 1 && corr > 2.0 * prev) {
            si->diverged = 1;
            return MBD_ENOCONV;
        }
        prev = corr;
    }
    return MBD_ENOCONV;
}
/* << spatial-dynamics-newton */

/* The failure message of a Newton that did not converge: the residual at
 * the last iterate, its largest entry in each block, named */
static int newton_failure(mbd_spatial_dynamics *d, double t, const step_info *si, int st)
{
    mbd_spatial_model *sm = d->sm;
    const size_t n = d->n;
    if (st != MBD_ENOCONV)
        return mbd_failure_set(&sm->last, st, t,
                               "dynamics: the step of h = %.3g to t = %.9g failed: %s", si->h,
                               t, mbd_strerror(st));
    int rst = residual(d, t, si->h, si->beta);
    if (rst != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, MBD_ENOCONV, t,
                               "dynamics: Newton did not converge at t = %.9g (h = %.3g)", t,
                               si->h);
    gsl_vector_view g1 = gsl_vector_subvector(d->g, 0, n);
    size_t wc, wr;
    const double r1 = inf_norm(&g1.vector, &wc);
    const double r2 = inf_norm(d->phi, &wr);
    return mbd_failure_set(&sm->last, MBD_ENOCONV, t,
                           "dynamics: Newton did not converge at t = %.9g (h = %.3g, order %u, "
                           "%s Newton): scaled correction %.3g > tol %.3g after %u iterations%s; "
                           "largest residuals: constraint row '%s' |Phi| = %.3g, equation of "
                           "motion of '%s' %.3g",
                           t, si->h, si->order, mbd_spatial_newton_name(d->o.newton),
                           si->correction, d->o.tol, si->iterations,
                           si->diverged ? " (diverging)" : "", sm->rows[wr].name, r2,
                           coord_name(d, wc), r1);
}

/* The variable-coefficient BDF of order k at tn over the past times tp[0] =
 * t_{n-1} > tp[1] > ... > tp[k-1]: x'(t_n) ~ w[0] x_n + sum_j w[j] x_{n-j},
 * the derivative at tn of the polynomial through the k + 1 points. With w[0]
 * = sum_j 1 / (tn - tp[j-1]) and the others L_j'(tn) of the Lagrange basis. */
static void bdf_weights(double tn, const double *tp, unsigned k, double w[SP_BDF_KMAX + 1])
{
    w[0] = 0.0;
    for (unsigned i = 1; i <= k; i++)
        w[0] += 1.0 / (tn - tp[i - 1]);
    for (unsigned j = 1; j <= k; j++) {
        double num = 1.0, den = tp[j - 1] - tn;
        for (unsigned i = 1; i <= k; i++) {
            if (i == j)
                continue;
            num *= tn - tp[i - 1];
            den *= tp[j - 1] - tp[i - 1];
        }
        w[j] = num / den;
    }
}

/* The scaled error estimate of the step just solved (d->q, d->qd) against a
 * predictor. Orders 1 and 2: the Taylor extrapolation of the last step (its
 * q''), constants 1/2 and 4/7. Order k >= 3: the polynomial through the
 * last k + 1 steps extrapolated to t_n, whose error is P y^(k+1) with P =
 * prod_{j=1}^{k+1} (t_n - t_{n-j}) / (k+1)!, against the corrector's C
 * y^(k+1), C = (1/w0) prod_{j=1}^{k} (t_n - t_{n-j}) / (k+1)!: the estimate
 * is C / (P + C) (q_n - q_p) = (1/w0) / (t_n - t_{n-k-1} + 1/w0) (q_n - q_p). */
static double error_estimate(mbd_spatial_dynamics *d, const step_info *si, double tn)
{
    const double h = si->h;
    const unsigned k = si->order;
    double C, l[SP_BDF_KMAX + 2];
    if (k <= 2) {
        C = k == 1 ? 0.5 : 4.0 / 7.0;
    } else {
        const double *tp = d->ht;
        for (unsigned j = 0; j <= k; j++) {
            l[j] = 1.0;
            for (unsigned i = 0; i <= k; i++)
                if (i != j)
                    l[j] *= (tn - tp[i]) / (tp[j] - tp[i]);
        }
        const double iw0 = si->beta * h;
        C = iw0 / (tn - tp[k] + iw0);
    }
    double err = 0.0;
    for (size_t i = 0; i < d->n; i++) {
        const double q1 = gsl_vector_get(d->q1, i), v1 = gsl_vector_get(d->qd1, i);
        double qp, vp;
        if (k <= 2) {
            const double a1 = gsl_vector_get(d->qdd1, i);
            qp = q1 + h * v1;
            vp = v1;
            if (k == 2) {
                qp += 0.5 * h * h * a1;
                vp += h * a1;
            }
        } else {
            qp = vp = 0.0;
            for (unsigned j = 0; j <= k; j++) {
                qp += l[j] * gsl_vector_get(d->hq[j], i);
                vp += l[j] * gsl_vector_get(d->hqd[j], i);
            }
        }
        const double q = gsl_vector_get(d->q, i);
        const double e = fmax(fabs(q - qp), h * fabs(gsl_vector_get(d->qd, i) - vp));
        const double w = d->o.atol + d->o.rtol * fmax(fabs(q), fabs(q1));
        err = fmax(err, C * e / w);
    }
    return err;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

static int observe(mbd_spatial_dynamics *d, double t, const gsl_vector *q, const gsl_vector *qd,
                   const gsl_vector *qdd, const gsl_vector *lam, const step_info *si,
                   int at_step, mbd_spatial_dynamics_observer obs, void *user)
{
    mbd_spatial_model *sm = d->sm;
    const mbd_system *s = &sm->sys;
    if (obs == NULL)
        return GSL_SUCCESS;
    mbd_spatial_dynamics_point pt = {.t = t, .q = q, .qd = qd, .qdd = qdd, .lambda = lam,
                                     .energy = NAN, .at_step = at_step};
    if (si != NULL) {
        pt.newton_iterations = si->iterations;
        pt.h = si->h;
        pt.error = si->error;
    }
    /* the diagnostics use d->phi, d->nu, d->rev, d->Mp, free between steps */
    int st = eval_at(d, t, q);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, st, t, "dynamics: the diagnostics failed (%s)",
                               mbd_strerror(st));
    pt.phi_norm = gsl_blas_dnrm2(d->phi);
    jac_mul(d, qd, d->nu);
    pt.velocity_drift = gsl_blas_dnrm2(d->nu);
    double en = 0.0;
    for (size_t b = 0; b < sm->nb; b++) {
        if (sm->bodies[b].ground)
            continue;
        const size_t c = sm->bodies[b].col + 3;
        double pp = 0.0;
        for (int a = 0; a < 4; a++)
            pp += gsl_vector_get(q, c + a) * gsl_vector_get(q, c + a);
        en = fmax(en, fabs(pp - 1.0));
    }
    pt.euler_norm = en;
    if (s->energy != NULL) {
        double E;
        if (s->energy(s, t, q, qd, &E) == GSL_SUCCESS)
            pt.energy = E;
    }
    st = obs(sm, &pt, user);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(&sm->last, st, t, "dynamics: the observer stopped the run (%s)",
                               mbd_strerror(st));
    return GSL_SUCCESS;
}

/* >> spatial-dynamics-interpolate */
/* The state at tau in [t_{n-1}, t_n]: the quintic Hermite polynomial of q
 * with q, q', q'' at both ends, from (q1, qd1, qdd1) at ta and (q, qd, z)
 * at tb; q' and q'' its derivatives (they take the end values), lambda
 * linear. Its interpolation error is O(h^6) in q, below the method's at
 * every order. */
static void interpolate(mbd_spatial_dynamics *d, double ta, double tb, double tau)
{
    const size_t n = d->n, m = d->m;
    const double h = tb - ta, s = (tau - ta) / h;
    const double s2 = s * s, s3 = s2 * s, s4 = s3 * s, s5 = s4 * s;
    /* the basis for q_a, h q'_a, h^2 q''_a, q_b, h q'_b, h^2 q''_b */
    const double H[6] = {1 - 10 * s3 + 15 * s4 - 6 * s5, s - 6 * s3 + 8 * s4 - 3 * s5,
                         0.5 * (s2 - 3 * s3 + 3 * s4 - s5), 10 * s3 - 15 * s4 + 6 * s5,
                         -4 * s3 + 7 * s4 - 3 * s5, 0.5 * (s3 - 2 * s4 + s5)};
    const double D[6] = {-30 * s2 + 60 * s3 - 30 * s4, 1 - 18 * s2 + 32 * s3 - 15 * s4,
                         0.5 * (2 * s - 9 * s2 + 12 * s3 - 5 * s4), 30 * s2 - 60 * s3 + 30 * s4,
                         -12 * s2 + 28 * s3 - 15 * s4, 0.5 * (3 * s2 - 8 * s3 + 5 * s4)};
    const double E[6] = {-60 * s + 180 * s2 - 120 * s3, -36 * s + 96 * s2 - 60 * s3,
                         0.5 * (2 - 18 * s + 36 * s2 - 20 * s3), 60 * s - 180 * s2 + 120 * s3,
                         -24 * s + 84 * s2 - 60 * s3, 0.5 * (6 * s - 24 * s2 + 20 * s3)};
    for (size_t i = 0; i < n; i++) {
        const double x[6] = {gsl_vector_get(d->q1, i), h * gsl_vector_get(d->qd1, i),
                             h * h * gsl_vector_get(d->qdd1, i), gsl_vector_get(d->q, i),
                             h * gsl_vector_get(d->qd, i), h * h * gsl_vector_get(d->z, i)};
        double q = 0.0, v = 0.0, a = 0.0;
        for (int j = 0; j < 6; j++) {
            q += H[j] * x[j];
            v += D[j] * x[j];
            a += E[j] * x[j];
        }
        gsl_vector_set(d->qo, i, q);
        gsl_vector_set(d->qdo, i, v / h);
        gsl_vector_set(d->qddo, i, a / (h * h));
    }
    for (size_t k = 0; k < m; k++)
        gsl_vector_set(d->lamo, k,
                       (1 - s) * gsl_vector_get(d->lam1, k) + s * gsl_vector_get(d->z, n + k));
}
/* << spatial-dynamics-interpolate */

/* ------------------------------------------------------------------------ */
/* The run                                                                   */

/* ------------------------------------------------------------------------ */
/* The index-1 alternative: an explicit integrator of ode.h with projection  */

/* y = [q; q'] -> y' = [q'; q''] by the index-1 solve (accel) */
static int rk_rhs(double t, const double y[], double dydt[], void *params)
{
    mbd_spatial_dynamics *d = params;
    const size_t n = d->n;
    gsl_vector_const_view q = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view qd = gsl_vector_const_view_array(y + n, n);
    d->st.rhs_evals++;
    int st = accel(d, t, &q.vector, &qd.vector, 0);
    if (st != GSL_SUCCESS)
        return st;
    memcpy(dydt, y + n, n * sizeof *dydt);
    memcpy(dydt + n, d->z->data, n * sizeof *dydt);
    return GSL_SUCCESS;
}

/* >> spatial-dynamics-project */
/* x += dx, [M Phi_q^T; Phi_q 0] [dx; mu] = [0; -r], the matrix from d's rows
 * and mass blocks (the least change of x in the kinetic-energy metric that
 * removes the residual r of the rows, to first order) */
static int kkt_correct(mbd_spatial_dynamics *d, const gsl_vector *r, gsl_vector *x)
{
    gsl_vector_view z1 = gsl_vector_subvector(d->z, 0, d->n);
    gsl_vector_view z2 = gsl_vector_subvector(d->z, d->n, d->m);
    kkt_fill(d);
    int st = kkt_factor(d, 0);
    d->kept = st == GSL_SUCCESS;   /* the quasi-Newton matrix at this q */
    if (st != GSL_SUCCESS)
        return st;
    gsl_vector_set_zero(&z1.vector);
    gsl_vector_memcpy(&z2.vector, r);
    gsl_vector_scale(&z2.vector, -1.0);
    st = mbd_linsolve_solve(d->ls, d->z->data);
    if (st == GSL_SUCCESS)
        gsl_vector_add(x, &z1.vector);
    return st;
}

/* Moves (q, q') onto Phi = 0, then Phi_q q' = nu, in the kinetic-energy
 * metric (module comment in spatial.h); *moved says whether anything moved.
 * MBD_ENOCONV when the positions do not settle in max_iter iterations. */
static int project(mbd_spatial_dynamics *d, double t, gsl_vector *q, gsl_vector *qd, int *moved)
{
    const double tol = d->o.tol;
    *moved = 0;
    for (unsigned it = 0;; it++) {
        int st = eval_at(d, t, q);
        if (st != GSL_SUCCESS)
            return st;
        if (inf_norm(d->phi, NULL) <= tol * (1.0 + inf_norm(q, NULL)))
            break;
        if (it == d->o.max_iter)
            return MBD_ENOCONV;
        st = kkt_correct(d, d->phi, q);
        if (st != GSL_SUCCESS)
            return st;
        d->st.newton_iterations++;
        *moved = 1;
    }
    /* d holds the rows at the final q: r = Phi_q q' - nu */
    jac_mul(d, qd, d->nu);
    if (inf_norm(d->nu, NULL) <= tol * (1.0 + inf_norm(qd, NULL)))
        return GSL_SUCCESS;
    *moved = 1;
    return kkt_correct(d, d->nu, qd);
}
/* << spatial-dynamics-project */

typedef struct {
    mbd_spatial_dynamics *d;
    mbd_spatial_dynamics_observer obs;
    void *user;
} rk_ctx;

static int rk_hook(void *ctx, double t, double y[], int *changed, mbd_failure *fail)
{
    rk_ctx *c = ctx;
    mbd_spatial_dynamics *d = c->d;
    const size_t n = d->n;
    gsl_vector_view q = gsl_vector_view_array(y, n), qd = gsl_vector_view_array(y + n, n);
    int st = project(d, t, &q.vector, &qd.vector, changed);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, t, "dynamics (index 1): the projection after the step "
                               "to t = %.9g failed (%s)", t, mbd_strerror(st));
    if (*changed)
        d->st.projections++;
    return GSL_SUCCESS;
}

static int rk_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                     mbd_failure *fail)
{
    rk_ctx *c = ctx;
    mbd_spatial_dynamics *d = c->d;
    const size_t n = d->n, m = d->m;
    /* q'' and lambda at the output: one more index-1 solve */
    gsl_vector_const_view q = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view qd = gsl_vector_const_view_array(y + n, n);
    int st = accel(d, t, &q.vector, &qd.vector, 0);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, t, "dynamics (index 1): the accelerations at the "
                               "output t = %.9g could not be solved for (%s)", t,
                               mbd_strerror(st));
    gsl_vector_memcpy(d->qo, &q.vector);
    gsl_vector_memcpy(d->qdo, &qd.vector);
    gsl_vector_view z1 = gsl_vector_subvector(d->z, 0, n);
    gsl_vector_view z2 = gsl_vector_subvector(d->z, n, m);
    gsl_vector_memcpy(d->qddo, &z1.vector);
    gsl_vector_memcpy(d->lamo, &z2.vector);
    if (info->step > 0 && info->h > 0) {
        d->st.h_min = fmin(d->st.h_min, info->h);
        d->st.h_max = fmax(d->st.h_max, info->h);
    }
    step_info si = {.h = info->h, .error = NAN};
    st = observe(d, t, d->qo, d->qdo, d->qddo, d->lamo, info->step > 0 ? &si : NULL,
                 !info->interpolated, c->obs, c->user);
    if (st != GSL_SUCCESS) {
        *fail = d->sm->last;
        return st;
    }
    return GSL_SUCCESS;
}

/* >> spatial-dynamics-run-index1 */
static int run_index1(mbd_spatial_dynamics *d, double t0, double t1, double dt_out,
                      gsl_vector *q, gsl_vector *qd, mbd_spatial_dynamics_observer obs,
                      void *user)
{
    mbd_spatial_model *sm = d->sm;
    const size_t n = d->n;
    double *y = malloc(2 * n * sizeof *y);
    mbd_ode *ode = y != NULL ? mbd_ode_alloc(&d->o.ode, 2 * n, rk_rhs, d) : NULL;
    if (ode == NULL) {
        free(y);
        return mbd_failure_set(&sm->last, MBD_EINPUT, t0, "dynamics (index 1): the "
                               "integrator could not be set up (its parameters, or memory)");
    }
    memcpy(y, q->data, n * sizeof *y);
    memcpy(y + n, qd->data, n * sizeof *y);
    rk_ctx c = {d, obs, user};
    mbd_run_params rp = {.t0 = t0, .t_end = t1, .dt_out = dt_out, .output = rk_output,
                         .output_ctx = &c, .hook = rk_hook, .hook_ctx = &c,
                         .max_steps = MBD_RUN_MAX_STEPS};
    mbd_run_stats rs;
    mbd_failure fail;
    mbd_failure_clear(&fail);
    memset(&rs, 0, sizeof rs);
    int st = t1 > t0 ? mbd_run(ode, &rp, y, &rs, &fail)
                     : rk_output(&c, t0, y, &(mbd_run_info){0}, &fail);
    d->st.steps = (size_t)rs.ode.steps;
    d->st.rejected = (size_t)rs.ode.rejected;
    if (st != GSL_SUCCESS)
        mbd_failure_set(&sm->last, st, fail.time, "%s", fail.cause);
    else
        mbd_failure_clear(&sm->last);
    memcpy(q->data, y, n * sizeof *y);
    memcpy(qd->data, y + n, n * sizeof *y);
    mbd_ode_free(ode);
    free(y);
    return st;
}
/* << spatial-dynamics-run-index1 */

/* the step just accepted (d->q, d->qd at tn) becomes the newest of the
 * past steps; the oldest falls off */
static void history_push(mbd_spatial_dynamics *d, double tn)
{
    const size_t cap = SP_BDF_KMAX + 1;
    gsl_vector *oq = d->hq[cap - 1], *oqd = d->hqd[cap - 1], *oz = d->hz[cap - 1];
    for (size_t j = cap - 1; j > 0; j--) {
        d->hq[j] = d->hq[j - 1];
        d->hqd[j] = d->hqd[j - 1];
        d->hz[j] = d->hz[j - 1];
        d->ht[j] = d->ht[j - 1];
    }
    d->hq[0] = oq;
    d->hqd[0] = oqd;
    d->hz[0] = oz;
    gsl_vector_memcpy(d->hq[0], d->q);
    gsl_vector_memcpy(d->hqd[0], d->qd);
    gsl_vector_memcpy(d->hz[0], d->z);
    d->ht[0] = tn;
    if (d->nh < cap)
        d->nh++;
}

/* >> spatial-dynamics-run */
/* The BDF as a stepper of run.h's loop, which owns the outputs: the state
 * y = [q; q'; q''; lambda] (2n + n + m), so that an output at a step's end
 * has the step's own q'' and lambda and one inside it their interpolant. A
 * step is one accepted step: the retries of a rejected or failed attempt are
 * inside it. The step just accepted stays in d (q, q', z) until the next
 * step begins, for the interpolation of the outputs inside it; it becomes
 * the newest past step then. */
typedef struct {
    mbd_spatial_dynamics *d;
    double t0, t1, h, hmax;
    double ta, tb;              /* the last accepted step: from ta to tb */
    size_t nfixed, step;        /* fixed steps: their number, the next one's index */
    unsigned sub, nsub;         /* fixed steps of order >= 3: the start-up steps */
    int first_factor, grow_ok, pending;
    size_t held;                /* accepted steps since h last changed */
    step_info si;               /* the last accepted step's */
    mbd_ode_stats stats;
    mbd_spatial_dynamics_observer obs;
    void *user;
} bdf_run;

/* the last accepted step becomes the newest past step */
static void bdf_settle(bdf_run *b)
{
    mbd_spatial_dynamics *d = b->d;
    if (!b->pending)
        return;
    gsl_vector_view zq = gsl_vector_subvector(d->z, 0, d->n);
    gsl_vector_view zl = gsl_vector_subvector(d->z, d->n, d->m);
    history_push(d, b->tb);
    gsl_vector_memcpy(d->q1, d->q);
    gsl_vector_memcpy(d->qd1, d->qd);
    gsl_vector_memcpy(d->qdd1, &zq.vector);
    gsl_vector_memcpy(d->lam1, &zl.vector);
    b->pending = 0;
}

static void bdf_pack(const mbd_spatial_dynamics *d, const gsl_vector *q, const gsl_vector *qd,
                     const gsl_vector *qdd, const gsl_vector *lam, double y[])
{
    const size_t n = d->n, m = d->m;
    for (size_t i = 0; i < n; i++) {
        y[i] = gsl_vector_get(q, i);
        y[n + i] = gsl_vector_get(qd, i);
        y[2 * n + i] = gsl_vector_get(qdd, i);
    }
    for (size_t k = 0; k < m; k++)
        y[3 * n + k] = gsl_vector_get(lam, k);
}

/* the start (mbd_spatial_dynamics_start has solved for q'' and lambda) */
static int bdf_start(void *self, double t0, const double y0[], double t_end)
{
    bdf_run *b = self;
    mbd_spatial_dynamics *d = b->d;
    const mbd_spatial_dynamics_options *o = &d->o;
    (void)y0;   /* d->q1, d->qd1, d->qdd1, d->lam1 hold it */
    gsl_vector_memcpy(d->hq[0], d->q1);
    gsl_vector_memcpy(d->hqd[0], d->qd1);
    gsl_vector_memcpy(d->hz[0], d->z);   /* the start's [q''; lambda] */
    d->ht[0] = t0;
    d->nh = 1;
    b->t0 = t0;
    b->t1 = t_end;
    b->ta = b->tb = t0;
    const double span = t_end - t0;
    b->hmax = o->hmax > 0 ? o->hmax : fmax(span, o->hmin);
    /* fixed steps: N equal steps on an exact grid */
    b->nfixed = 0;
    if (!o->adaptive) {
        const double steps = ceil(span / o->h - 1e-9);
        if (steps > 1e9)
            return mbd_failure_set(&d->sm->last, MBD_EINPUT, t0, "dynamics: %g steps are too "
                                   "many", steps);
        b->nfixed = (size_t)steps;
    }
    b->h = o->adaptive ? fmin(o->h, b->hmax) : (b->nfixed > 0 ? span / (double)b->nfixed : 0);
    /* fixed steps of order k >= 3 start with m + 1 steps that double, h /
     * 2^m, h / 2^m, h / 2^(m-1), ..., h / 2, ending on the grid's first
     * point: the first step is of order 1 and its error O(h0^2) stays in the
     * solution of an undamped system for good, so h0 = h / 2^m <=
     * h^((k+1)/2) (time in seconds) makes it no larger than a regular step's
     * O(h^(k+1)); the order rises as the past steps come. Orders 1 and 2
     * step on the grid from the start (the document's). */
    b->nsub = 0;
    if (!o->adaptive && o->order >= 3 && b->nfixed > 0 && b->h < 1.0) {
        const double m = ceil(log2(pow(b->h, 1.0 - 0.5 * (o->order + 1.0))));
        b->nsub = m < 1 ? 0 : m > 40 ? 40 : (unsigned)m;
    }
    return GSL_SUCCESS;
}

/* One accepted step from *t (the grid's next point for fixed steps, t_stop
 * at most); y gets its state. */
static int bdf_step(void *self, double *t_io, double y[], double t_stop)
{
    bdf_run *b = self;
    mbd_spatial_dynamics *d = b->d;
    const mbd_spatial_dynamics_options *o = &d->o;
    const size_t n = d->n, m = d->m;
    const double t0 = b->t0, t1 = t_stop, t = *t_io, span = b->t1 - b->t0;
    bdf_settle(b);
    step_info si = {0};
    double h = b->h;
    int st;
    for (;;) {
        double tn;
        if (o->adaptive) {
            if (t + h >= t1 || t + 1.0001 * h >= t1)
                h = t1 - t;
            tn = t + h;
            if (h == t1 - t)
                tn = t1;
        } else if (b->sub < b->nsub) {
            /* a start-up step: it ends at t0 + h / 2^(nsub - sub) */
            tn = t0 + ldexp(span / (double)b->nfixed, -(int)(b->nsub - b->sub));
            h = tn - t;
        } else {
            tn = b->step + 1 == b->nfixed ? b->t1
                                          : t0 + span * (double)(b->step + 1) / (double)b->nfixed;
            h = tn - t;
        }
        /* the order: 1 at the start and after a restart, 2 from the second
         * step, k >= 3 once k + 1 past steps are there for its predictor */
        {
            unsigned k = 1;
            if (o->order >= 2 && d->nh >= 2)
                k = 2;
            if (o->order >= 3 && d->nh >= 4)
                k = (unsigned)(d->nh - 1 < o->order ? d->nh - 1 : o->order);
            si.order = k;
        }
        si.h = h;
        /* the BDF coefficients: q = a_q + beta h q', q' = a_v + beta h q'' */
        {
            double w[SP_BDF_KMAX + 1];
            bdf_weights(tn, d->ht, si.order, w);
            si.beta = 1.0 / (w[0] * h);
            gsl_vector_set_zero(d->aq);
            gsl_vector_set_zero(d->av);
            for (unsigned j = 1; j <= si.order; j++) {
                gsl_blas_daxpy(-w[j] / w[0], d->hq[j - 1], d->aq);
                gsl_blas_daxpy(-w[j] / w[0], d->hqd[j - 1], d->av);
            }
        }
        /* the guess: orders 1 and 2, the last step's q'' and lambda (the
         * document's); order k >= 3, their polynomial through the last k + 1
         * steps at t_n, whose error O(h^(k+1)) leaves Newton far less to do */
        gsl_vector_view zq = gsl_vector_subvector(d->z, 0, n);
        gsl_vector_view zl = gsl_vector_subvector(d->z, n, m);
        if (si.order <= 2) {
            gsl_vector_memcpy(&zq.vector, d->qdd1);
            gsl_vector_memcpy(&zl.vector, d->lam1);
        } else {
            gsl_vector_set_zero(d->z);
            for (unsigned j = 0; j <= si.order; j++) {
                double l = 1.0;
                for (unsigned i = 0; i <= si.order; i++)
                    if (i != j)
                        l *= (tn - d->ht[i]) / (d->ht[j] - d->ht[i]);
                gsl_blas_daxpy(l, d->hz[j], d->z);
            }
        }
        st = newton(d, tn, &si, &b->first_factor);
        if (st != GSL_SUCCESS) {
            if (!o->adaptive || (st != MBD_ENOCONV && st != MBD_ESINGULAR
                                 && st != MBD_ENONFINITE))
                return newton_failure(d, t + si.h, &si, st);
            /* adaptive: retry with a quarter of the step, at order 1 */
            d->st.newton_failures++;
            h *= 0.25;
            d->nh = 1;   /* keep only the last accepted step */
            b->grow_ok = 0;
            b->held = 0;
            if (h < o->hmin)
                return newton_failure(d, t + si.h, &si, st);
            continue;
        }
        si.error = error_estimate(d, &si, tn);
        if (o->adaptive && si.error > 1.0) {
            d->st.rejected++;
            h *= fmax(0.2, 0.9 * pow(si.error, -1.0 / (si.order + 1.0)));
            b->grow_ok = 0;
            b->held = 0;
            if (h < o->hmin)
                return mbd_failure_set(&d->sm->last, MBD_ESTEPSIZE, tn,
                                       "dynamics: the step size fell below hmin = %.3g at t = "
                                       "%.9g (error estimate %.3g)", o->hmin, t, si.error);
            continue;
        }
        /* accepted */
        d->st.steps++;
        d->st.h_min = fmin(d->st.h_min, h);
        d->st.h_max = fmax(d->st.h_max, h);
        b->si = si;
        b->ta = t;
        b->tb = tn;
        b->pending = 1;
        bdf_pack(d, d->q, d->qd, &zq.vector, &zl.vector, y);
        *t_io = tn;
        if (!o->adaptive && b->sub < b->nsub)
            b->sub++;
        else
            b->step++;
        if (o->adaptive) {
            const double fac = si.error > 0 ? 0.9 * pow(si.error, -1.0 / (si.order + 1.0)) : 2.0;
            /* growth up to 2 (variable-step BDF2 is zero-stable for ratios
             * below 1 + sqrt 2); from order 3 on h is held for k steps after
             * a change and grows only by 20 % or more (the variable-
             * coefficient formulas of higher order lose stability when the
             * step changes often) */
            double up = b->grow_ok ? 2.0 : 1.0;
            if (si.order >= 3 && (b->held < si.order || fac < 1.2))
                up = 1.0;
            const double r = fmin(up, fmax(0.2, fac));
            h = fmin(h * r, b->hmax);
            b->held = r == 1.0 ? b->held + 1 : 0;
            b->grow_ok = 1;
        }
        b->h = h;
        return GSL_SUCCESS;
    }
}

static int bdf_interpolate(const void *self, double t, double y_out[])
{
    const bdf_run *b = self;
    mbd_spatial_dynamics *d = b->d;
    interpolate(d, b->ta, b->tb, t);
    bdf_pack(d, d->qo, d->qdo, d->qddo, d->lamo, y_out);
    return GSL_SUCCESS;
}

/* there is no post-step hook: a changed state would need a restart */
static int bdf_reset(void *self, double t, const double y[])
{
    bdf_run *b = self;
    (void)y;
    return mbd_failure_set(&b->d->sm->last, MBD_EINPUT, t,
                           "dynamics: the BDF cannot restart from a changed state");
}

static const mbd_ode_stats *bdf_stats(const void *self)
{
    bdf_run *b = (bdf_run *)self;
    b->stats.steps = (long)b->d->st.steps;
    b->stats.rejected = (long)b->d->st.rejected;
    return &b->stats;
}

static const mbd_failure *bdf_failure(const void *self)
{
    const bdf_run *b = self;
    return &b->d->sm->last;
}

static int bdf_output(void *ctx, double t, const double y[], const mbd_run_info *info,
                      mbd_failure *fail)
{
    bdf_run *b = ctx;
    mbd_spatial_dynamics *d = b->d;
    const size_t n = d->n, m = d->m;
    gsl_vector_const_view q = gsl_vector_const_view_array(y, n);
    gsl_vector_const_view qd = gsl_vector_const_view_array(y + n, n);
    gsl_vector_const_view qdd = gsl_vector_const_view_array(y + 2 * n, n);
    gsl_vector_const_view lam = gsl_vector_const_view_array(y + 3 * n, m);
    int st = observe(d, t, &q.vector, &qd.vector, &qdd.vector, &lam.vector,
                     info->step > 0 ? &b->si : NULL, !info->interpolated, b->obs, b->user);
    if (st != GSL_SUCCESS)
        *fail = d->sm->last;
    return st;
}

int mbd_spatial_dynamics_run(mbd_spatial_dynamics *d, double t0, double t1, double dt_out,
                             gsl_vector *q, gsl_vector *qd, mbd_spatial_dynamics_observer obs,
                             void *user)
{
    mbd_spatial_model *sm = d->sm;
    const size_t n = d->n, m = d->m;
    const mbd_spatial_dynamics_options *o = &d->o;
    memset(&d->st, 0, sizeof d->st);
    d->st.h_min = HUGE_VAL;
    d->fac0 = mbd_linsolve_factorisations(d->ls);
    d->refac0 = mbd_linsolve_refactorisations(d->ls);
    if (!(isfinite(t0) && isfinite(t1) && t1 >= t0 && dt_out >= 0 && isfinite(dt_out)))
        return mbd_failure_set(&sm->last, MBD_EINPUT, t0,
                               "dynamics: bad times t0 = %g, t1 = %g, dt_out = %g", t0, t1,
                               dt_out);
    int st = mbd_spatial_dynamics_start(d, t0, q, qd, d->qdd1, d->lam1);
    if (st != GSL_SUCCESS)
        return st;
    if (o->method == MBD_SPATIAL_INDEX1_RK) {
        st = run_index1(d, t0, t1, dt_out, q, qd, obs, user);
        goto counters;
    }
    gsl_vector_memcpy(d->q1, q);
    gsl_vector_memcpy(d->qd1, qd);
    const size_t dim = 3 * n + m;
    double *y = malloc(dim * sizeof *y);
    if (y == NULL)
        return mbd_failure_set(&sm->last, GSL_ENOMEM, t0, "dynamics: out of memory");
    gsl_vector_view zq = gsl_vector_subvector(d->z, 0, n);
    gsl_vector_view zl = gsl_vector_subvector(d->z, n, m);
    bdf_pack(d, q, qd, &zq.vector, &zl.vector, y);
    bdf_run b = {.d = d, .obs = obs, .user = user};
    static const char *const names[SP_BDF_KMAX + 1] = {"bdf", "bdf1", "bdf2", "bdf3", "bdf4",
                                                         "bdf5"};
    const mbd_stepper s = {.self = &b, .name = names[o->order <= SP_BDF_KMAX ? o->order : 0],
                           .dim = dim, .adaptive = o->adaptive, .h = o->h,
                           .start = bdf_start, .step = bdf_step, .interpolate = bdf_interpolate,
                           .reset = bdf_reset, .stats = bdf_stats, .failure = bdf_failure};
    const mbd_run_params rp = {.t0 = t0, .t_end = t1, .dt_out = dt_out, .output = bdf_output,
                               .output_ctx = &b, .max_steps = MBD_RUN_MAX_STEPS};
    mbd_failure fail;
    mbd_failure_clear(&fail);
    if (t1 > t0) {
        st = mbd_run_stepper(&s, &rp, y, NULL, &fail);
    } else {   /* no span: the start alone */
        st = bdf_start(&b, t0, y, t1);
        if (st == GSL_SUCCESS)
            st = bdf_output(&b, t0, y, &(mbd_run_info){0}, &fail);
    }
    bdf_settle(&b);   /* the last accepted step */
    if (st != GSL_SUCCESS) {
        if (fail.status != GSL_SUCCESS)
            mbd_failure_set(&sm->last, fail.status, fail.time, "%s", fail.cause);
    } else {
        mbd_failure_clear(&sm->last);
    }
    gsl_vector_memcpy(q, d->q1);
    gsl_vector_memcpy(qd, d->qd1);
    free(y);
counters:
    d->st.factorisations = mbd_linsolve_factorisations(d->ls) - d->fac0;
    d->st.refactorisations = mbd_linsolve_refactorisations(d->ls) - d->refac0;
    if (d->st.steps == 0)
        d->st.h_min = 0.0;
    return st;
}
/* << spatial-dynamics-run */
