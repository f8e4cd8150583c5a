/* The spatial model: bodies, joints as tables of basic rows, forces,
 * finishing into an mbd_system, look-ups and states (spatial.h; document
 * 003 Secs. 3.2, 4.1-4.4 and 5; guide Secs. 1-3). */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>

#include "mbd/error.h"
#include "mbd/spatial.h"
#include "spatial_impl.h"

static const char *const kind_names[] = {
    "CD", "D", "DP1", "DP2", "perpendicular-1", "perpendicular-2", "spherical", "revolute",
    "cylindrical", "translational", "universal", "revolute-cylindrical", "ground joint",
};

static const size_t kind_rows[] = {1, 1, 1, 1, 2, 2, 3, 5, 4, 5, 4, 3, 6};

size_t mbd_spatial_joint_rows(mbd_spatial_joint_kind kind)
{
    return (unsigned)kind <= MBD_SPATIAL_JOINT_GROUND ? kind_rows[kind] : 0;
}

const char *mbd_spatial_joint_kind_name(mbd_spatial_joint_kind kind)
{
    return (unsigned)kind <= MBD_SPATIAL_JOINT_GROUND ? kind_names[kind] : "unknown";
}

/* ------------------------------------------------------------------------ */
/* Errors while building (as planar.c: the first one is kept)                 */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int refuse(mbd_spatial_model *sm, int status, const char *fmt, ...)
{
    if (sm->fail.status == GSL_SUCCESS) {
        va_list ap;
        va_start(ap, fmt);
        mbd_failure_vset(&sm->fail, status, NAN, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int open_for(mbd_spatial_model *sm, const char *what)
{
    if (sm->fail.status != GSL_SUCCESS)
        return 0;
    if (sm->finished) {
        refuse(sm, MBD_EINPUT, "%s: the model is finished already", what);
        return 0;
    }
    return 1;
}

static int grow(void **p, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return GSL_SUCCESS;
    size_t ncap = *cap ? 2 * *cap : 8;
    void *q = realloc(*p, ncap * size);
    if (q == NULL)
        return GSL_ENOMEM;
    *p = q;
    *cap = ncap;
    return GSL_SUCCESS;
}

static int finite3(const double v[3])
{
    return v == NULL || (isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]));
}

static void copy3(double dst[3], const double src[3])
{
    if (src != NULL)
        memcpy(dst, src, 3 * sizeof *dst);
    else
        dst[0] = dst[1] = dst[2] = 0.0;
}

static double norm3(const double v[3]) { return sqrt(sp_dot3(v, v)); }

/* A name: 1..MBD_SPATIAL_NAME_MAX characters of letters, digits, _ - . */
static int good_name(const char *name)
{
    if (name == NULL || name[0] == '\0' || strlen(name) > MBD_SPATIAL_NAME_MAX)
        return 0;
    for (const char *c = name; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '-' || *c == '.'))
            return 0;
    return 1;
}

mbd_spatial_model *mbd_spatial_alloc(void)
{
    mbd_spatial_model *sm = calloc(1, sizeof *sm);
    if (sm != NULL) {
        mbd_failure_clear(&sm->fail);
        mbd_failure_clear(&sm->last);
    }
    return sm;
}

void mbd_spatial_free(mbd_spatial_model *sm)
{
    if (sm == NULL)
        return;
    free(sm->bodies);
    free(sm->joints);
    free(sm->rows);
    free(sm->forces);
    free(sm->names);
    free(sm->name_ptrs);
    sp_work_free(&sm->w);
    free(sm);
}

const mbd_failure *mbd_spatial_failure(const mbd_spatial_model *sm)
{
    static const mbd_failure no_model = {.status = MBD_EINPUT, .time = 0.0, .cause = "no model"};
    return sm != NULL ? &sm->fail : &no_model;
}

const mbd_failure *mbd_spatial_last_failure(const mbd_spatial_model *sm)
{
    static const mbd_failure no_model = {.status = MBD_EINPUT, .time = 0.0, .cause = "no model"};
    return sm != NULL ? &sm->last : &no_model;
}

/* ------------------------------------------------------------------------ */
/* Bodies                                                                    */

static int valid_body(const mbd_spatial_model *sm, int b)
{
    return b >= 0 && (size_t)b < sm->nb;
}

static int moving(const mbd_spatial_model *sm, int b)
{
    return valid_body(sm, b) && !sm->bodies[b].ground;
}

static int add_body(mbd_spatial_model *sm, const char *name, int ground, double m,
                    double J[3][3])
{
    const char *what = ground ? "ground" : "body";
    if (sm == NULL || !open_for(sm, what))
        return -1;
    if (!good_name(name))
        return refuse(sm, MBD_EINPUT,
                      "%s %zu: a name must have 1 to %d letters, digits, '_', '-' or '.'", what,
                      sm->nb, MBD_SPATIAL_NAME_MAX);
    if (mbd_spatial_body_index(sm, name) >= 0)
        return refuse(sm, MBD_EINPUT, "%s '%s': the name is taken", what, name);
    sp_body bd;
    memset(&bd, 0, sizeof bd);
    snprintf(bd.name, sizeof bd.name, "%s", name);
    bd.ground = ground;
    if (!ground) {
        if (!(m > 0 && isfinite(m)))
            return refuse(sm, MBD_EINPUT, "body '%s': the mass must be positive (got %g)", name,
                          m);
        if (J != NULL) {
            double Jmax = 0.0;
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) {
                    if (!isfinite(J[r][c]))
                        return refuse(sm, MBD_EINPUT, "body '%s': J is not finite", name);
                    Jmax = fmax(Jmax, fabs(J[r][c]));
                }
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < r; c++)
                    if (fabs(J[r][c] - J[c][r]) > 1e-12 * Jmax)
                        return refuse(sm, MBD_EINPUT, "body '%s': J is not symmetric", name);
            /* positive semidefinite: the smallest eigenvalue */
            double a[9];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    a[3 * r + c] = J[r][c];
            gsl_matrix_view Av = gsl_matrix_view_array(a, 3, 3);
            double evd[3];
            gsl_vector_view ev = gsl_vector_view_array(evd, 3);
            gsl_eigen_symm_workspace *ws = gsl_eigen_symm_alloc(3);
            if (ws == NULL)
                return refuse(sm, GSL_ENOMEM, "body '%s': out of memory", name);
            gsl_eigen_symm(&Av.matrix, &ev.vector, ws);
            gsl_eigen_symm_free(ws);
            double emin = fmin(evd[0], fmin(evd[1], evd[2]));
            if (emin < -1e-12 * Jmax)
                return refuse(sm, MBD_EINPUT,
                              "body '%s': J is not positive semidefinite (eigenvalue %g)", name,
                              emin);
            memcpy(bd.J, J, sizeof bd.J);
        }
        bd.m = m;
        bd.col = sm->n;
    }
    if (sm->nb >= (size_t)INT_MAX
        || grow((void **)&sm->bodies, &sm->cap_b, sm->nb, sizeof *sm->bodies) != GSL_SUCCESS)
        return refuse(sm, GSL_ENOMEM, "%s '%s': out of memory", what, name);
    if (!ground) {
        sm->n += 7;
        sm->moving++;
    }
    sm->bodies[sm->nb] = bd;
    return (int)sm->nb++;
}

int mbd_spatial_add_body(mbd_spatial_model *sm, const char *name, double m, double J[3][3])
{
    return add_body(sm, name, 0, m, J);
}

int mbd_spatial_add_ground(mbd_spatial_model *sm, const char *name)
{
    return add_body(sm, name, 1, 0.0, NULL);
}

/* ------------------------------------------------------------------------ */
/* Joints: tables of basic rows                                              */

/* The rows of the joint being added, before they are appended */
typedef struct {
    sp_row row[6];
    size_t count;
} row_table;

static sp_row *new_row(row_table *t, mbd_spatial_row_kind kind, int i, int j, const char *label)
{
    sp_row *r = &t->row[t->count++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->i = i;
    r->j = j;
    r->f = mbd_spatial_fn_constant(0.0);
    /* the joint's name is prefixed when the table is appended */
    snprintf(r->name, sizeof r->name, "%s", label);
    return r;
}

/* >> spatial-joint-tables */
/* CD rows x, y, z of the points sp (on i) and sq (on j): the spherical part */
static void rows_spherical(row_table *t, int i, const double sp[3], int j, const double sq[3])
{
    static const char *const label[3] = {"CD x", "CD y", "CD z"};
    for (int k = 0; k < 3; k++) {
        sp_row *r = new_row(t, MBD_SPATIAL_ROW_CD, i, j, label[k]);
        copy3(r->sp, sp);
        copy3(r->sq, sq);
        r->c[k] = 1.0;
    }
}

static void row_dp1(row_table *t, int i, const double ai[3], int j, const double aj[3],
                    const char *label)
{
    sp_row *r = new_row(t, MBD_SPATIAL_ROW_DP1, i, j, label);
    copy3(r->ai, ai);
    copy3(r->aj, aj);
}

static void row_dp2(row_table *t, int i, const double ai[3], const double sp[3], int j,
                    const double sq[3], const char *label)
{
    sp_row *r = new_row(t, MBD_SPATIAL_ROW_DP2, i, j, label);
    copy3(r->ai, ai);
    copy3(r->sp, sp);
    copy3(r->sq, sq);
}

/* perpendicular-1 (the document's B1): c_j normal to the plane (a_i, b_i) */
static void rows_perp1(row_table *t, int i, const double ai[3], const double bi[3], int j,
                       const double cj[3])
{
    row_dp1(t, i, ai, j, cj, "DP1 a_i.c_j");
    row_dp1(t, i, bi, j, cj, "DP1 b_i.c_j");
}

/* perpendicular-2 (the document's B2): P -> Q normal to the plane (a_i, b_i) */
static void rows_perp2(row_table *t, int i, const double ai[3], const double bi[3],
                       const double sp[3], int j, const double sq[3])
{
    row_dp2(t, i, ai, sp, j, sq, "DP2 a_i.PQ");
    row_dp2(t, i, bi, sp, j, sq, "DP2 b_i.PQ");
}
/* << spatial-joint-tables */

/* Appends a joint and its rows; returns its index or -1. */
static int add_joint(mbd_spatial_model *sm, const char *name, mbd_spatial_joint_kind kind, int i,
                     int j, const double sp[3], const double sq[3], int has_point,
                     const row_table *t)
{
    const char *what = kind_names[kind];
    const int k = (int)sm->nj;
    if (!good_name(name))
        return refuse(sm, MBD_EINPUT,
                      "%s (joint %d): a name must have 1 to %d letters, digits, '_', '-' or '.'",
                      what, k, MBD_SPATIAL_NAME_MAX);
    if (mbd_spatial_joint_index(sm, name) >= 0)
        return refuse(sm, MBD_EINPUT, "%s '%s': the name is taken", what, name);
    if (!valid_body(sm, i) || (kind != MBD_SPATIAL_JOINT_GROUND && !valid_body(sm, j)))
        return refuse(sm, MBD_EINPUT, "%s '%s': no body with index %d (%zu bodies)", what, name,
                      valid_body(sm, i) ? j : i, sm->nb);
    if (kind == MBD_SPATIAL_JOINT_GROUND) {
        if (sm->bodies[i].ground)
            return refuse(sm, MBD_EINPUT, "%s '%s': body '%s' is a ground already", what, name,
                          sm->bodies[i].name);
    } else {
        if (i == j)
            return refuse(sm, MBD_EINPUT, "%s '%s': joins body '%s' to itself", what, name,
                          sm->bodies[i].name);
        if (sm->bodies[i].ground && sm->bodies[j].ground)
            return refuse(sm, MBD_EINPUT, "%s '%s': joins two grounds ('%s' and '%s')", what,
                          name, sm->bodies[i].name, sm->bodies[j].name);
    }
    if (!finite3(sp) || !finite3(sq))
        return refuse(sm, MBD_EINPUT, "%s '%s': a point is not finite", what, name);
    if (sm->nj >= (size_t)INT_MAX
        || grow((void **)&sm->joints, &sm->cap_j, sm->nj, sizeof *sm->joints) != GSL_SUCCESS)
        return refuse(sm, GSL_ENOMEM, "%s '%s': out of memory", what, name);
    for (size_t r = 0; r < t->count; r++)
        if (grow((void **)&sm->rows, &sm->cap_r, sm->nr + r, sizeof *sm->rows) != GSL_SUCCESS)
            return refuse(sm, GSL_ENOMEM, "%s '%s': out of memory", what, name);
    sp_joint *jt = &sm->joints[sm->nj];
    memset(jt, 0, sizeof *jt);
    snprintf(jt->name, sizeof jt->name, "%s", name);
    jt->kind = kind;
    jt->i = i;
    jt->j = j;
    copy3(jt->sp, sp);
    copy3(jt->sq, sq);
    jt->has_point = has_point;
    jt->first = sm->nr;
    jt->count = t->count;
    for (size_t r = 0; r < t->count; r++) {
        sp_row *row = &sm->rows[sm->nr++];
        *row = t->row[r];
        row->joint = k;
        row->rheonomic = !mbd_spatial_fn_is_constant(&row->f);
        if (row->rheonomic)
            sm->rheonomic = 1;
        char label[32];
        snprintf(label, sizeof label, "%.31s", t->row[r].name);
        snprintf(row->name, sizeof row->name, "%.63s/%.31s", name, label);
    }
    sm->nj++;
    return k;
}

/* A direction must be nonzero and finite */
static int bad_dir(const double v[3])
{
    if (v == NULL || !finite3(v))
        return 1;
    return !(norm3(v) > 0);
}

/* Two directions spanning a plane: nonzero and not parallel */
static int bad_plane(const double a[3], const double b[3])
{
    if (bad_dir(a) || bad_dir(b))
        return 1;
    double c[3];
    sp_cross3(a, b, c);
    return !(norm3(c) > 1e-9 * norm3(a) * norm3(b));
}

static int check_fn(mbd_spatial_model *sm, const char *what, const char *name,
                    const mbd_spatial_fn *f)
{
    if (f->kind == MBD_SPATIAL_FN_INVALID || (unsigned)f->kind > MBD_SPATIAL_FN_USER)
        return refuse(sm, MBD_EINPUT, "%s '%s': the time function is invalid (a constructor "
                      "was given a bad argument)", what, name ? name : "?");
    return 0;
}

int mbd_spatial_add_cd(mbd_spatial_model *sm, const char *name, int i, const double sp[3], int j,
                       const double sq[3], const double c[3], mbd_spatial_fn f)
{
    if (sm == NULL || !open_for(sm, "CD"))
        return -1;
    if (bad_dir(c))
        return refuse(sm, MBD_EINPUT, "CD '%s': the coordinate selector is zero or not finite",
                      name ? name : "?");
    if (check_fn(sm, "CD", name, &f))
        return -1;
    row_table t = {.count = 0};
    sp_row *r = new_row(&t, MBD_SPATIAL_ROW_CD, i, j, "CD");
    copy3(r->sp, sp);
    copy3(r->sq, sq);
    copy3(r->c, c);
    r->f = f;
    return add_joint(sm, name, MBD_SPATIAL_JOINT_CD, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_d(mbd_spatial_model *sm, const char *name, int i, const double sp[3], int j,
                      const double sq[3], mbd_spatial_fn f)
{
    if (sm == NULL || !open_for(sm, "D"))
        return -1;
    if (check_fn(sm, "D", name, &f))
        return -1;
    row_table t = {.count = 0};
    sp_row *r = new_row(&t, MBD_SPATIAL_ROW_D, i, j, "D");
    copy3(r->sp, sp);
    copy3(r->sq, sq);
    r->f = f;
    return add_joint(sm, name, MBD_SPATIAL_JOINT_D, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_dp1(mbd_spatial_model *sm, const char *name, int i, const double ai[3], int j,
                        const double aj[3], mbd_spatial_fn f)
{
    if (sm == NULL || !open_for(sm, "DP1"))
        return -1;
    if (bad_dir(ai) || bad_dir(aj))
        return refuse(sm, MBD_EINPUT, "DP1 '%s': a vector is zero or not finite",
                      name ? name : "?");
    if (check_fn(sm, "DP1", name, &f))
        return -1;
    row_table t = {.count = 0};
    row_dp1(&t, i, ai, j, aj, "DP1");
    t.row[0].f = f;
    return add_joint(sm, name, MBD_SPATIAL_JOINT_DP1, i, j, NULL, NULL, 0, &t);
}

int mbd_spatial_add_dp2(mbd_spatial_model *sm, const char *name, int i, const double ai[3],
                        const double sp[3], int j, const double sq[3], mbd_spatial_fn f)
{
    if (sm == NULL || !open_for(sm, "DP2"))
        return -1;
    if (bad_dir(ai))
        return refuse(sm, MBD_EINPUT, "DP2 '%s': the vector is zero or not finite",
                      name ? name : "?");
    if (check_fn(sm, "DP2", name, &f))
        return -1;
    row_table t = {.count = 0};
    row_dp2(&t, i, ai, sp, j, sq, "DP2");
    t.row[0].f = f;
    return add_joint(sm, name, MBD_SPATIAL_JOINT_DP2, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_perp1(mbd_spatial_model *sm, const char *name, int i, const double ai[3],
                          const double bi[3], int j, const double cj[3])
{
    if (sm == NULL || !open_for(sm, "perpendicular-1"))
        return -1;
    if (bad_plane(ai, bi) || bad_dir(cj))
        return refuse(sm, MBD_EINPUT, "perpendicular-1 '%s': a vector is zero, or a_i and b_i "
                      "are parallel", name ? name : "?");
    row_table t = {.count = 0};
    rows_perp1(&t, i, ai, bi, j, cj);
    return add_joint(sm, name, MBD_SPATIAL_JOINT_PERP1, i, j, NULL, NULL, 0, &t);
}

int mbd_spatial_add_perp2(mbd_spatial_model *sm, const char *name, int i, const double ai[3],
                          const double bi[3], const double sp[3], int j, const double sq[3])
{
    if (sm == NULL || !open_for(sm, "perpendicular-2"))
        return -1;
    if (bad_plane(ai, bi))
        return refuse(sm, MBD_EINPUT, "perpendicular-2 '%s': a vector is zero, or a_i and b_i "
                      "are parallel", name ? name : "?");
    row_table t = {.count = 0};
    rows_perp2(&t, i, ai, bi, sp, j, sq);
    return add_joint(sm, name, MBD_SPATIAL_JOINT_PERP2, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_spherical(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                              int j, const double sq[3])
{
    if (sm == NULL || !open_for(sm, "spherical"))
        return -1;
    row_table t = {.count = 0};
    rows_spherical(&t, i, sp, j, sq);
    return add_joint(sm, name, MBD_SPATIAL_JOINT_SPHERICAL, i, j, sp, sq, 1, &t);
}

/* >> spatial-revolute */
int mbd_spatial_add_revolute(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                             const double ai[3], const double bi[3], int j, const double sq[3],
                             const double cj[3])
{
    if (sm == NULL || !open_for(sm, "revolute"))
        return -1;
    if (bad_plane(ai, bi) || bad_dir(cj))
        return refuse(sm, MBD_EINPUT, "revolute '%s': a vector is zero, or a_i and b_i are "
                      "parallel", name ? name : "?");
    /* 5 rows: the points coincide (3 CD), the axis c_j stays normal to the
     * plane (a_i, b_i) of body i (2 DP1) */
    row_table t = {.count = 0};
    rows_spherical(&t, i, sp, j, sq);
    rows_perp1(&t, i, ai, bi, j, cj);
    return add_joint(sm, name, MBD_SPATIAL_JOINT_REVOLUTE, i, j, sp, sq, 1, &t);
}
/* << spatial-revolute */

int mbd_spatial_add_cylindrical(mbd_spatial_model *sm, const char *name, int i,
                                const double sp[3], const double ai[3], const double bi[3], int j,
                                const double sq[3], const double cj[3])
{
    if (sm == NULL || !open_for(sm, "cylindrical"))
        return -1;
    if (bad_plane(ai, bi) || bad_dir(cj))
        return refuse(sm, MBD_EINPUT, "cylindrical '%s': a vector is zero, or a_i and b_i are "
                      "parallel", name ? name : "?");
    row_table t = {.count = 0};
    rows_perp1(&t, i, ai, bi, j, cj);
    rows_perp2(&t, i, ai, bi, sp, j, sq);
    return add_joint(sm, name, MBD_SPATIAL_JOINT_CYLINDRICAL, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_translational(mbd_spatial_model *sm, const char *name, int i,
                                  const double sp[3], const double ai[3], const double bi[3],
                                  int j, const double sq[3], const double cj[3],
                                  const double aj[3])
{
    if (sm == NULL || !open_for(sm, "translational"))
        return -1;
    if (bad_plane(ai, bi) || bad_dir(cj) || bad_dir(aj))
        return refuse(sm, MBD_EINPUT, "translational '%s': a vector is zero, or a_i and b_i "
                      "are parallel", name ? name : "?");
    row_table t = {.count = 0};
    rows_perp1(&t, i, ai, bi, j, cj);
    rows_perp2(&t, i, ai, bi, sp, j, sq);
    row_dp1(&t, i, ai, j, aj, "DP1 a_i.a_j");
    return add_joint(sm, name, MBD_SPATIAL_JOINT_TRANSLATIONAL, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_universal(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                              const double ai[3], int j, const double sq[3], const double aj[3])
{
    if (sm == NULL || !open_for(sm, "universal"))
        return -1;
    if (bad_dir(ai) || bad_dir(aj))
        return refuse(sm, MBD_EINPUT, "universal '%s': a vector is zero or not finite",
                      name ? name : "?");
    row_table t = {.count = 0};
    rows_spherical(&t, i, sp, j, sq);
    row_dp1(&t, i, ai, j, aj, "DP1 a_i.a_j");
    return add_joint(sm, name, MBD_SPATIAL_JOINT_UNIVERSAL, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_revcyl(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                           const double hi[3], int j, const double sq[3], const double hj[3],
                           const double aj[3], const double bj[3])
{
    if (sm == NULL || !open_for(sm, "revolute-cylindrical"))
        return -1;
    if (bad_dir(hi) || bad_dir(hj) || bad_plane(aj, bj))
        return refuse(sm, MBD_EINPUT, "revolute-cylindrical '%s': a vector is zero, or a_j "
                      "and b_j are parallel", name ? name : "?");
    /* DP1(h_i, h_j), then the two DP2 rows with body j in DP2's "i" place:
     * a_j^T A_j^T (r_i + A_i s_i^P - r_j - A_j s_j^Q) = 0, the same with b_j
     * (the document's code, guide Sec. 2.4). The document's code checks
     * that a_j, b_j, h_j are orthogonal exactly (dot ~= 0), which rejects
     * rounded unit vectors; here they need only span a plane. */
    row_table t = {.count = 0};
    row_dp1(&t, i, hi, j, hj, "DP1 h_i.h_j");
    row_dp2(&t, j, aj, sq, i, sp, "DP2 a_j.QP");
    row_dp2(&t, j, bj, sq, i, sp, "DP2 b_j.QP");
    return add_joint(sm, name, MBD_SPATIAL_JOINT_REVCYL, i, j, sp, sq, 1, &t);
}

int mbd_spatial_add_ground_joint(mbd_spatial_model *sm, const char *name, int b,
                                 const double r0[3], const double p0[4])
{
    if (sm == NULL || !open_for(sm, "ground joint"))
        return -1;
    double p[4] = {1.0, 0.0, 0.0, 0.0};
    if (p0 != NULL) {
        const double len = sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2] + p0[3] * p0[3]);
        if (!(len > 0 && isfinite(len)))
            return refuse(sm, MBD_EINPUT, "ground joint '%s': p0 is zero or not finite",
                          name ? name : "?");
        for (int k = 0; k < 4; k++)
            p[k] = p0[k] / len;
    }
    if (!finite3(r0))
        return refuse(sm, MBD_EINPUT, "ground joint '%s': r0 is not finite", name ? name : "?");
    /* CD rows between the body's centre (on i) and r0, a point of the
     * global frame (j); then the orientation rows (G(p0) p)_k = 0 */
    row_table t = {.count = 0};
    rows_spherical(&t, b, NULL, SP_GLOBAL, r0);
    static const char *const label[3] = {"orientation 1", "orientation 2", "orientation 3"};
    for (int k = 0; k < 3; k++) {
        sp_row *r = new_row(&t, MBD_SPATIAL_ROW_ORIENTATION, b, SP_GLOBAL, label[k]);
        memcpy(r->p0, p, sizeof p);
        r->axis = k;
    }
    return add_joint(sm, name, MBD_SPATIAL_JOINT_GROUND, b, SP_GLOBAL, NULL, r0, 0, &t);
}

/* ------------------------------------------------------------------------ */
/* Forces                                                                    */

int mbd_spatial_set_gravity(mbd_spatial_model *sm, const double g[3])
{
    if (sm == NULL)
        return MBD_EINPUT;
    if (!open_for(sm, "gravity"))
        return sm->fail.status;
    if (g == NULL || !finite3(g)) {
        refuse(sm, MBD_EINPUT, "gravity: missing or not finite");
        return MBD_EINPUT;
    }
    copy3(sm->g, g);
    return GSL_SUCCESS;
}

int mbd_spatial_set_mass_shift(mbd_spatial_model *sm, double s)
{
    if (sm == NULL)
        return MBD_EINPUT;
    if (!(s >= 0 && isfinite(s)))
        return MBD_EINPUT;
    sm->shift = s;
    for (size_t b = 0; b < sm->nb; b++) {
        double (*J)[3] = sm->bodies[b].J;
        sm->bodies[b].kappa = s * 4.0 * (J[0][0] + J[1][1] + J[2][2]) / 3.0;
    }
    return GSL_SUCCESS;
}

static int add_force(mbd_spatial_model *sm, const char *name, sp_force f, const char *what)
{
    if (!open_for(sm, what))
        return -1;
    const int k = (int)sm->nf;
    if (!good_name(name))
        return refuse(sm, MBD_EINPUT,
                      "%s %d: a name must have 1 to %d letters, digits, '_', '-' or '.'", what,
                      k, MBD_SPATIAL_NAME_MAX);
    for (size_t o = 0; o < sm->nf; o++)
        if (strcmp(sm->forces[o].name, name) == 0)
            return refuse(sm, MBD_EINPUT, "%s '%s': the name is taken", what, name);
    if (!valid_body(sm, f.i) || (f.kind == SP_TSDA && !valid_body(sm, f.j)))
        return refuse(sm, MBD_EINPUT, "%s '%s': no body with index %d (%zu bodies)", what, name,
                      valid_body(sm, f.i) ? f.j : f.i, sm->nb);
    if (f.kind != SP_TSDA && sm->bodies[f.i].ground)
        return refuse(sm, MBD_EINPUT, "%s '%s': body '%s' is a ground", what, name,
                      sm->bodies[f.i].name);
    if (f.kind == SP_TSDA && f.i == f.j)
        return refuse(sm, MBD_EINPUT, "%s '%s': joins body '%s' to itself", what, name,
                      sm->bodies[f.i].name);
    if (f.frame != MBD_SPATIAL_GLOBAL && f.frame != MBD_SPATIAL_BODY)
        return refuse(sm, MBD_EINPUT, "%s '%s': no frame %d", what, name, (int)f.frame);
    if (!finite3(f.sp) || !finite3(f.sq) || !finite3(f.v))
        return refuse(sm, MBD_EINPUT, "%s '%s': not finite", what, name);
    if (sm->nf >= (size_t)INT_MAX
        || grow((void **)&sm->forces, &sm->cap_f, sm->nf, sizeof *sm->forces) != GSL_SUCCESS)
        return refuse(sm, GSL_ENOMEM, "%s '%s': out of memory", what, name);
    snprintf(f.name, sizeof f.name, "%s", name);
    sm->forces[sm->nf++] = f;
    return k;
}

int mbd_spatial_add_force(mbd_spatial_model *sm, const char *name, int b, const double s[3],
                          const double F[3], mbd_spatial_frame frame)
{
    if (sm == NULL)
        return -1;
    sp_force f = {.kind = SP_FORCE, .i = b, .j = -1, .frame = frame};
    copy3(f.sp, s);
    copy3(f.v, F);
    return add_force(sm, name, f, "force");
}

int mbd_spatial_add_torque(mbd_spatial_model *sm, const char *name, int b, const double n[3],
                           mbd_spatial_frame frame)
{
    if (sm == NULL)
        return -1;
    sp_force f = {.kind = SP_TORQUE, .i = b, .j = -1, .frame = frame};
    copy3(f.v, n);
    return add_force(sm, name, f, "torque");
}

int mbd_spatial_add_variable_torque(mbd_spatial_model *sm, const char *name, int b,
                                    mbd_spatial_torque_fn fn, mbd_spatial_frame frame,
                                    void *user)
{
    if (sm == NULL)
        return -1;
    if (fn == NULL) {
        if (open_for(sm, "variable torque"))
            refuse(sm, MBD_EINPUT, "variable torque '%s': no function", name ? name : "?");
        return -1;
    }
    sp_force f = {.kind = SP_VTORQUE, .i = b, .j = -1, .frame = frame, .torque = fn,
                  .user = user};
    return add_force(sm, name, f, "variable torque");
}

int mbd_spatial_add_tsda(mbd_spatial_model *sm, const char *name, int i, const double sp[3],
                         int j, const double sq[3], double k, double l0, double c,
                         mbd_spatial_actuator_fn h, void *user)
{
    if (sm == NULL || !open_for(sm, "TSDA"))
        return -1;
    if (!(k >= 0 && isfinite(k)) || !(l0 >= 0 && isfinite(l0)) || !(c >= 0 && isfinite(c)))
        return refuse(sm, MBD_EINPUT, "TSDA '%s': k, l0 and c must be >= 0 and finite",
                      name ? name : "?");
    sp_force f = {.kind = SP_TSDA, .i = i, .j = j, .frame = MBD_SPATIAL_GLOBAL, .k = k,
                  .l0 = l0, .c = c, .act = h, .user = user};
    copy3(f.sp, sp);
    copy3(f.sq, sq);
    return add_force(sm, name, f, "TSDA");
}

/* ------------------------------------------------------------------------ */
/* Finishing                                                                 */

int mbd_spatial_finish(mbd_spatial_model *sm)
{
    if (sm == NULL)
        return MBD_EINPUT;
    if (sm->fail.status != GSL_SUCCESS)
        return sm->fail.status;
    if (sm->finished) {
        refuse(sm, MBD_EINPUT, "finish: the model is finished already");
        return MBD_EINPUT;
    }
    if (sm->moving == 0) {
        refuse(sm, MBD_EINPUT, "finish: the model has no moving body (%zu grounds)", sm->nb);
        return MBD_EINPUT;
    }
    /* one normalisation row per moving body, after the joints' rows */
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        if (grow((void **)&sm->rows, &sm->cap_r, sm->nr, sizeof *sm->rows) != GSL_SUCCESS) {
            refuse(sm, GSL_ENOMEM, "finish: out of memory");
            return GSL_ENOMEM;
        }
        sp_row *r = &sm->rows[sm->nr++];
        memset(r, 0, sizeof *r);
        r->kind = MBD_SPATIAL_ROW_NORMALISATION;
        r->i = (int)b;
        r->j = SP_GLOBAL;
        r->f = mbd_spatial_fn_constant(0.0);
        r->joint = -1;
        snprintf(r->name, sizeof r->name, "normalisation/%.63s", bd->name);
    }
    sm->m = sm->nr;
    /* coordinate names x_<body>, ..., e3_<body> */
    sm->names = malloc(sm->n * sizeof *sm->names);
    sm->name_ptrs = malloc(sm->n * sizeof *sm->name_ptrs);
    if (sm->names == NULL || sm->name_ptrs == NULL
        || sp_work_alloc(&sm->w, sm->n, sm->m) != GSL_SUCCESS) {
        refuse(sm, GSL_ENOMEM, "finish: out of memory");
        return GSL_ENOMEM;
    }
    static const char *const stem[7] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
    for (size_t b = 0; b < sm->nb; b++) {
        const sp_body *bd = &sm->bodies[b];
        if (bd->ground)
            continue;
        for (size_t c = 0; c < 7; c++) {
            snprintf(sm->names[bd->col + c], sizeof sm->names[0], "%.2s_%.63s", stem[c],
                     bd->name);
            sm->name_ptrs[bd->col + c] = sm->names[bd->col + c];
        }
    }
    mbd_spatial_set_mass_shift(sm, sm->shift);
    sm->sys = (mbd_system){
        .n = sm->n,
        .m = sm->m,
        .names = (const char *const *)sm->name_ptrs,
        .model = sm,
        .mass = sp_sys_mass,
        .force = sp_sys_force,
        .constraint = sp_sys_constraint,
        .jacobian = sp_sys_jacobian,
        .constraint_t = sm->rheonomic ? sp_sys_constraint_t : NULL,
        .gamma = sp_sys_gamma,
        .energy = sp_sys_energy,
    };
    sm->finished = 1;
    return GSL_SUCCESS;
}

const mbd_system *mbd_spatial_system(const mbd_spatial_model *sm)
{
    return sm != NULL && sm->finished ? &sm->sys : NULL;
}

/* ------------------------------------------------------------------------ */
/* Looking up                                                                */

size_t mbd_spatial_n_bodies(const mbd_spatial_model *sm) { return sm ? sm->nb : 0; }
size_t mbd_spatial_n_joints(const mbd_spatial_model *sm) { return sm ? sm->nj : 0; }
size_t mbd_spatial_n_rows(const mbd_spatial_model *sm) { return sm && sm->finished ? sm->m : 0; }

int mbd_spatial_body_index(const mbd_spatial_model *sm, const char *name)
{
    if (sm == NULL || name == NULL)
        return -1;
    for (size_t b = 0; b < sm->nb; b++)
        if (strcmp(sm->bodies[b].name, name) == 0)
            return (int)b;
    return -1;
}

int mbd_spatial_joint_index(const mbd_spatial_model *sm, const char *name)
{
    if (sm == NULL || name == NULL)
        return -1;
    for (size_t k = 0; k < sm->nj; k++)
        if (strcmp(sm->joints[k].name, name) == 0)
            return (int)k;
    return -1;
}

const char *mbd_spatial_body_name(const mbd_spatial_model *sm, int b)
{
    return sm != NULL && valid_body(sm, b) ? sm->bodies[b].name : NULL;
}

int mbd_spatial_body_coordinates(const mbd_spatial_model *sm, int b, size_t *first)
{
    if (sm == NULL || first == NULL || !moving(sm, b))
        return MBD_EINPUT;
    *first = sm->bodies[b].col;
    return GSL_SUCCESS;
}

int mbd_spatial_joint_info_get(const mbd_spatial_model *sm, int k, mbd_spatial_joint_info *info)
{
    if (sm == NULL || info == NULL || k < 0 || (size_t)k >= sm->nj)
        return MBD_EINPUT;
    const sp_joint *jt = &sm->joints[k];
    *info = (mbd_spatial_joint_info){.name = jt->name, .kind = jt->kind, .body = {jt->i, jt->j},
                                     .first = jt->first, .count = jt->count};
    return GSL_SUCCESS;
}

static size_t col_of(const mbd_spatial_model *sm, int b)
{
    return moving(sm, b) ? sm->bodies[b].col : SP_NONE;
}

int mbd_spatial_row_info_get(const mbd_spatial_model *sm, size_t k, mbd_spatial_row_info *info)
{
    if (sm == NULL || info == NULL || !sm->finished || k >= sm->m)
        return MBD_EINPUT;
    const sp_row *r = &sm->rows[k];
    *info = (mbd_spatial_row_info){.name = r->name,
                                   .kind = r->kind,
                                   .joint = r->joint,
                                   .body = {r->i, r->j},
                                   .col = {col_of(sm, r->i), col_of(sm, r->j)},
                                   .rheonomic = r->rheonomic};
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* States                                                                    */

void sp_side_of(const mbd_spatial_model *sm, int b, const gsl_vector *q, const gsl_vector *qd,
                sp_side *z)
{
    memset(z, 0, sizeof *z);
    z->p[0] = 1.0;
    z->col = SP_NONE;
    if (moving(sm, b)) {
        const size_t c = sm->bodies[b].col;
        z->col = c;
        for (int k = 0; k < 3; k++)
            z->r[k] = gsl_vector_get(q, c + k);
        for (int k = 0; k < 4; k++)
            z->p[k] = gsl_vector_get(q, c + 3 + k);
        if (qd != NULL) {
            for (int k = 0; k < 3; k++)
                z->rd[k] = gsl_vector_get(qd, c + k);
            for (int k = 0; k < 4; k++)
                z->pd[k] = gsl_vector_get(qd, c + 3 + k);
        }
    }
    mbd_spatial_ep_A(z->p, z->A);
}

/* A finished model, a valid body (moving when need_moving), vectors of size n */
static int check_state(const mbd_spatial_model *sm, int b, int need_moving, const gsl_vector *v1,
                       const gsl_vector *v2)
{
    if (sm == NULL || !sm->finished || !valid_body(sm, b) || v1 == NULL)
        return MBD_EINPUT;
    if (need_moving && sm->bodies[b].ground)
        return MBD_EINPUT;
    if (v1->size != sm->n || (v2 != NULL && v2->size != sm->n))
        return GSL_EBADLEN;
    return GSL_SUCCESS;
}

int mbd_spatial_set_pose(const mbd_spatial_model *sm, int b, const double r[3],
                         const double p[4], gsl_vector *q)
{
    int st = check_state(sm, b, 1, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    double pp[4] = {1.0, 0.0, 0.0, 0.0};
    if (p != NULL) {
        const double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
        if (!(len > 0 && isfinite(len)))
            return MBD_EINPUT;
        for (int k = 0; k < 4; k++)
            pp[k] = p[k] / len;
    }
    if (!finite3(r))
        return MBD_EINPUT;
    const size_t c = sm->bodies[b].col;
    for (int k = 0; k < 3; k++)
        gsl_vector_set(q, c + k, r != NULL ? r[k] : 0.0);
    for (int k = 0; k < 4; k++)
        gsl_vector_set(q, c + 3 + k, pp[k]);
    return GSL_SUCCESS;
}

int mbd_spatial_set_pose_A(const mbd_spatial_model *sm, int b, const double r[3],
                           double A[3][3], gsl_vector *q)
{
    if (A == NULL)
        return MBD_EINPUT;
    double p[4];
    int st = mbd_spatial_ep_from_A(A, p);
    if (st != GSL_SUCCESS)
        return st;
    return mbd_spatial_set_pose(sm, b, r, p, q);
}

int mbd_spatial_set_velocity(const mbd_spatial_model *sm, int b, const gsl_vector *q,
                             const double rd[3], const double w[3], mbd_spatial_frame frame,
                             gsl_vector *qd)
{
    int st = check_state(sm, b, 1, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    if (qd == NULL || !finite3(rd) || !finite3(w))
        return MBD_EINPUT;
    sp_side z;
    sp_side_of(sm, b, q, NULL, &z);
    double ww[3], pd[4];
    copy3(ww, w);
    if (frame == MBD_SPATIAL_BODY)
        mbd_spatial_ep_pdot_body(z.p, ww, pd);
    else if (frame == MBD_SPATIAL_GLOBAL)
        mbd_spatial_ep_pdot_global(z.p, ww, pd);
    else
        return MBD_EINPUT;
    for (int k = 0; k < 3; k++)
        gsl_vector_set(qd, z.col + k, rd != NULL ? rd[k] : 0.0);
    for (int k = 0; k < 4; k++)
        gsl_vector_set(qd, z.col + 3 + k, pd[k]);
    return GSL_SUCCESS;
}

int mbd_spatial_pose(const mbd_spatial_model *sm, int b, const gsl_vector *q, double r[3],
                     double p[4])
{
    int st = check_state(sm, b, 0, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    sp_side z;
    sp_side_of(sm, b, q, NULL, &z);
    if (r != NULL)
        memcpy(r, z.r, sizeof z.r);
    if (p != NULL)
        memcpy(p, z.p, sizeof z.p);
    return GSL_SUCCESS;
}

int mbd_spatial_angular_velocity(const mbd_spatial_model *sm, int b, const gsl_vector *q,
                                 const gsl_vector *qd, mbd_spatial_frame frame, double w[3])
{
    int st = check_state(sm, b, 0, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    if (qd == NULL || w == NULL)
        return MBD_EINPUT;
    sp_side z;
    sp_side_of(sm, b, q, qd, &z);
    if (frame == MBD_SPATIAL_BODY)
        mbd_spatial_ep_omega_bar(z.p, z.pd, w);
    else if (frame == MBD_SPATIAL_GLOBAL)
        mbd_spatial_ep_omega(z.p, z.pd, w);
    else
        return MBD_EINPUT;
    return GSL_SUCCESS;
}

int mbd_spatial_point_position(const mbd_spatial_model *sm, int b, const double s[3],
                               const gsl_vector *q, double x[3])
{
    int st = check_state(sm, b, 0, q, NULL);
    if (st != GSL_SUCCESS)
        return st;
    if (x == NULL || !finite3(s))
        return MBD_EINPUT;
    sp_side z;
    sp_side_of(sm, b, q, NULL, &z);
    double ss[3], a[3];
    copy3(ss, s);
    sp_matvec3(&z.A[0][0], ss, a);
    for (int k = 0; k < 3; k++)
        x[k] = z.r[k] + a[k];
    return GSL_SUCCESS;
}

int mbd_spatial_point_velocity(const mbd_spatial_model *sm, int b, const double s[3],
                               const gsl_vector *q, const gsl_vector *qd, double v[3])
{
    int st = check_state(sm, b, 0, q, qd);
    if (st != GSL_SUCCESS)
        return st;
    if (qd == NULL || v == NULL || !finite3(s))
        return MBD_EINPUT;
    sp_side z;
    sp_side_of(sm, b, q, qd, &z);
    double ss[3], B[3][4], bp[3];
    copy3(ss, s);
    /* d(r + A s)/dt = r' + B(p, s) p' */
    mbd_spatial_ep_B(z.p, ss, B);
    sp_mul34(B, z.pd, bp);
    for (int k = 0; k < 3; k++)
        v[k] = z.rd[k] + bp[k];
    return GSL_SUCCESS;
}
