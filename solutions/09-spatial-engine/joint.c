/* Exercise 09.2: a joint's rows from basic constraints -- spherical,
 * revolute, cylindrical, universal (see README.md). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "ex09.h"

int ex09_joint_rows(const ex09_joint *jt, const ex09_state *bi, const ex09_state *bj,
                    ex09_basic_fn basic, ex09_row rows[], size_t *count)
{
    /* EXERCISE 09.2 BEGIN */
    if (jt == NULL || basic == NULL || rows == NULL || count == NULL || (bi == NULL && bj == NULL))
        return MBD_EINPUT;
    const ex09_joint_kind kind = jt->kind;
    if (kind != EX09_SPHERICAL && kind != EX09_REVOLUTE && kind != EX09_CYLINDRICAL
        && kind != EX09_UNIVERSAL)
        return MBD_EINPUT;
    /* the attributes the kind uses: the points always (the cylindrical's
     * perpendicular-2 needs them too), the plane and axis of the revolute
     * and the cylindrical, the cross axes of the universal */
    const int plane = kind == EX09_REVOLUTE || kind == EX09_CYLINDRICAL;
    const int cross = kind == EX09_UNIVERSAL;
    const double *att[6] = {jt->sp, jt->sq, jt->ai, jt->bi, jt->cj, jt->aj};
    const int uses[6] = {1, 1, plane || cross, plane, plane, cross};
    for (int k = 0; k < 6; k++) {
        if (!uses[k])
            continue;
        for (int x = 0; x < 3; x++)
            if (!isfinite(att[k][x]))
                return MBD_EINPUT;
        if (k >= 2 && att[k][0] == 0.0 && att[k][1] == 0.0 && att[k][2] == 0.0)
            return MBD_EINPUT;
    }
    if (plane) {
        const double *a = jt->ai, *b = jt->bi;
        const double n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                             a[0] * b[1] - a[1] * b[0]};
        if (!(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
              > 1e-12 * sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
                    * sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2])))
            return MBD_EINPUT;
    }
    /* the table of basic constraints, in the joint's row order */
    ex09_basic bc[EX09_JOINT_MAX_ROWS];
    size_t n = 0;
    memset(bc, 0, sizeof bc);
    if (kind != EX09_CYLINDRICAL)
        /* the spherical part: CD x, y, z of (P, Q) */
        for (int x = 0; x < 3; x++, n++) {
            bc[n].kind = EX09_CD;
            memcpy(bc[n].sp, jt->sp, sizeof bc[n].sp);
            memcpy(bc[n].sq, jt->sq, sizeof bc[n].sq);
            bc[n].c[x] = 1.0;
        }
    if (plane)
        /* perpendicular-1: c_j normal to a_i and to b_i */
        for (int k = 0; k < 2; k++, n++) {
            bc[n].kind = EX09_DP1;
            memcpy(bc[n].ai, k == 0 ? jt->ai : jt->bi, sizeof bc[n].ai);
            memcpy(bc[n].aj, jt->cj, sizeof bc[n].aj);
        }
    if (kind == EX09_CYLINDRICAL)
        /* perpendicular-2: P -> Q normal to a_i and to b_i */
        for (int k = 0; k < 2; k++, n++) {
            bc[n].kind = EX09_DP2;
            memcpy(bc[n].ai, k == 0 ? jt->ai : jt->bi, sizeof bc[n].ai);
            memcpy(bc[n].sp, jt->sp, sizeof bc[n].sp);
            memcpy(bc[n].sq, jt->sq, sizeof bc[n].sq);
        }
    if (cross) {
        /* the cross axes stay normal */
        bc[n].kind = EX09_DP1;
        memcpy(bc[n].ai, jt->ai, sizeof bc[n].ai);
        memcpy(bc[n].aj, jt->aj, sizeof bc[n].aj);
        n++;
    }
    /* every row with f = 0; into a copy, so a failing call writes nothing */
    const double f[3] = {0.0, 0.0, 0.0};
    ex09_row out[EX09_JOINT_MAX_ROWS];
    for (size_t k = 0; k < n; k++) {
        const int st = basic(&bc[k], bi, bj, f, &out[k]);
        if (st != GSL_SUCCESS)
            return st;
    }
    memcpy(rows, out, n * sizeof out[0]);
    *count = n;
    return GSL_SUCCESS;
    /* EXERCISE 09.2 STUB
    (void)jt; (void)bi; (void)bj; (void)basic; (void)rows; (void)count;
    EXERCISE 09.2 END */
}
