/* Euler parameters and time functions of the spatial module (spatial.h;
 * the guide's Sec. 2.1 for the matrices, document Sec. 6.1 and guide Sec.
 * 4.1 for the rotation matrix -> p conversion, document Sec. 4.2 and guide
 * Sec. 2.5 for the drivers' time functions). */
#include <float.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/error.h"
#include "mbd/spatial.h"
#include "spatial_impl.h"

/* ------------------------------------------------------------------------ */
/* Small vector algebra (shared by the spatial sources)                       */

double sp_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void sp_cross3(const double a[3], const double b[3], double c[3])
{
    const double x = a[1] * b[2] - a[2] * b[1];
    const double y = a[2] * b[0] - a[0] * b[2];
    const double z = a[0] * b[1] - a[1] * b[0];
    c[0] = x;
    c[1] = y;
    c[2] = z;
}

void sp_matvec3(const double *A, const double x[3], double y[3])
{
    double t[3];
    for (int r = 0; r < 3; r++)
        t[r] = A[3 * r] * x[0] + A[3 * r + 1] * x[1] + A[3 * r + 2] * x[2];
    memcpy(y, t, sizeof t);
}

void sp_matTvec3(const double *A, const double x[3], double y[3])
{
    double t[3];
    for (int c = 0; c < 3; c++)
        t[c] = A[c] * x[0] + A[3 + c] * x[1] + A[6 + c] * x[2];
    memcpy(y, t, sizeof t);
}

void sp_mul34(double B[3][4], const double x[4], double y[3])
{
    for (int r = 0; r < 3; r++)
        y[r] = B[r][0] * x[0] + B[r][1] * x[1] + B[r][2] * x[2] + B[r][3] * x[3];
}

void sp_mul34T(double B[3][4], const double x[3], double y[4])
{
    for (int c = 0; c < 4; c++)
        y[c] = B[0][c] * x[0] + B[1][c] * x[1] + B[2][c] * x[2];
}

/* ------------------------------------------------------------------------ */
/* Euler parameters                                                          */

void mbd_spatial_skew(const double a[3], double S[3][3])
{
    S[0][0] = 0.0;   S[0][1] = -a[2]; S[0][2] = a[1];
    S[1][0] = a[2];  S[1][1] = 0.0;   S[1][2] = -a[0];
    S[2][0] = -a[1]; S[2][1] = a[0];  S[2][2] = 0.0;
}

/* >> spatial-ep-A */
/* A(p) = (e0^2 - e^T e) I + 2 e e^T + 2 e0 e~, written out as the guide's
 * Sec. 2.1 prints it: 2 [e0^2 + e1^2 - 1/2, e1 e2 - e0 e3, ...] uses
 * e0^2 + e^T e = 1 and so differs from this one off the unit sphere; this
 * one is the homogeneous quadratic whose derivative is B(p, a) for every p. */
void mbd_spatial_ep_A(const double p[4], double A[3][3])
{
    const double e0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
    const double d = e0 * e0 - e1 * e1 - e2 * e2 - e3 * e3;
    A[0][0] = d + 2.0 * e1 * e1;
    A[1][1] = d + 2.0 * e2 * e2;
    A[2][2] = d + 2.0 * e3 * e3;
    A[0][1] = 2.0 * (e1 * e2 - e0 * e3);
    A[1][0] = 2.0 * (e1 * e2 + e0 * e3);
    A[0][2] = 2.0 * (e1 * e3 + e0 * e2);
    A[2][0] = 2.0 * (e1 * e3 - e0 * e2);
    A[1][2] = 2.0 * (e2 * e3 - e0 * e1);
    A[2][1] = 2.0 * (e2 * e3 + e0 * e1);
}
/* << spatial-ep-A */

/* >> spatial-ep-G */
/* G(p) = [-e, -e~ + e0 I] (sign = -1) and E(p) = [-e, e~ + e0 I] (sign = +1) */
static void ep_GE(const double p[4], double sign, double X[3][4])
{
    const double e0 = p[0];
    const double e[3] = {p[1], p[2], p[3]};
    double S[3][3];
    mbd_spatial_skew(e, S);
    for (int r = 0; r < 3; r++) {
        X[r][0] = -e[r];
        for (int c = 0; c < 3; c++)
            X[r][c + 1] = sign * S[r][c] + (r == c ? e0 : 0.0);
    }
}

void mbd_spatial_ep_G(const double p[4], double G[3][4]) { ep_GE(p, -1.0, G); }
void mbd_spatial_ep_E(const double p[4], double E[3][4]) { ep_GE(p, +1.0, E); }
/* << spatial-ep-G */

/* >> spatial-ep-B */
/* B(p, a) = d(A(p) a)/dp = 2 [ (e0 I + e~) a,  e a^T - (e0 I + e~) a~ ]:
 * the first column from d/de0 of e0^2 a + 2 e0 e x a, the other three from
 * d/de of -(e^T e) a + 2 e (e^T a) + 2 e0 e x a. */
void mbd_spatial_ep_B(const double p[4], const double a[3], double B[3][4])
{
    const double e0 = p[0];
    const double e[3] = {p[1], p[2], p[3]};
    double S[3][3], T[3][3], As[3][3];
    mbd_spatial_skew(e, S);
    mbd_spatial_skew(a, As);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            T[r][c] = S[r][c] + (r == c ? e0 : 0.0);        /* e0 I + e~ */
    for (int r = 0; r < 3; r++) {
        B[r][0] = 2.0 * (T[r][0] * a[0] + T[r][1] * a[1] + T[r][2] * a[2]);
        for (int c = 0; c < 3; c++) {
            double ta = T[r][0] * As[0][c] + T[r][1] * As[1][c] + T[r][2] * As[2][c];
            B[r][c + 1] = 2.0 * (e[r] * a[c] - ta);
        }
    }
}
/* << spatial-ep-B */

/* K(a, b) = d(B(p, a)^T b)/dp = 2 [a^T b, a^T b~; a~ b, a b^T + b a^T - (a^T b) I]
 * (Haug eq. 9.4.25; B is linear in p, so K is constant) */
void mbd_spatial_ep_K(const double a[3], const double b[3], double K[4][4])
{
    const double ab = sp_dot3(a, b);
    double bs[3][3], axb[3];
    mbd_spatial_skew(b, bs);
    sp_cross3(a, b, axb);
    K[0][0] = 2.0 * ab;
    for (int c = 0; c < 3; c++) {
        /* a^T b~ = (b~^T a)^T = -(b x a)^T = (a x b)^T */
        K[0][c + 1] = 2.0 * (a[0] * bs[0][c] + a[1] * bs[1][c] + a[2] * bs[2][c]);
        K[c + 1][0] = 2.0 * axb[c];
        for (int r = 0; r < 3; r++)
            K[r + 1][c + 1] = 2.0 * (a[r] * b[c] + b[r] * a[c] - (r == c ? ab : 0.0));
    }
}

/* >> spatial-ep-omega */
void mbd_spatial_ep_omega_bar(const double p[4], const double pd[4], double wbar[3])
{
    double G[3][4];
    mbd_spatial_ep_G(p, G);
    sp_mul34(G, pd, wbar);
    for (int k = 0; k < 3; k++)
        wbar[k] *= 2.0;
}

void mbd_spatial_ep_omega(const double p[4], const double pd[4], double w[3])
{
    double E[3][4];
    mbd_spatial_ep_E(p, E);
    sp_mul34(E, pd, w);
    for (int k = 0; k < 3; k++)
        w[k] *= 2.0;
}

void mbd_spatial_ep_pdot_body(const double p[4], const double wbar[3], double pd[4])
{
    double G[3][4];
    mbd_spatial_ep_G(p, G);
    sp_mul34T(G, wbar, pd);
    for (int k = 0; k < 4; k++)
        pd[k] *= 0.5;
}

void mbd_spatial_ep_pdot_global(const double p[4], const double w[3], double pd[4])
{
    double E[3][4];
    mbd_spatial_ep_E(p, E);
    sp_mul34T(E, w, pd);
    for (int k = 0; k < 4; k++)
        pd[k] *= 0.5;
}
/* << spatial-ep-omega */

/* >> spatial-ep-from-A */
/* Shepperd's method. With A = A(p), |p| = 1 (from the formula above):
 *     1 + tr A        = 4 e0^2          A21 - A12 = 4 e0 e1
 *     1 + 2 A00 - tr A = 4 e1^2         A02 - A20 = 4 e0 e2
 *     1 + 2 A11 - tr A = 4 e2^2         A10 - A01 = 4 e0 e3
 *     1 + 2 A22 - tr A = 4 e3^2         A01 + A10 = 4 e1 e2, A02 + A20 = 4 e1 e3,
 *                                       A12 + A21 = 4 e2 e3.
 * The four squares sum to 4, so the largest is at least 1: its root is at
 * least 1/2, and the other three components divide by it safely. The
 * document's A2p takes the first one always and divides by e0 = 0 for any
 * half turn (guide Sec. 4.1, Sec. 6.2 item 11). */
int mbd_spatial_ep_from_A(double A[3][3], double p[4])
{
    const double tr = A[0][0] + A[1][1] + A[2][2];
    const double sq[4] = {1.0 + tr, 1.0 + 2.0 * A[0][0] - tr, 1.0 + 2.0 * A[1][1] - tr,
                          1.0 + 2.0 * A[2][2] - tr};
    int k = 0;
    for (int c = 1; c < 4; c++)
        if (sq[c] > sq[k])
            k = c;
    const double big = 0.5 * sqrt(fmax(sq[k], 0.0));
    const double f = big > 0 ? 0.25 / big : 0.0;
    switch (k) {
    case 0:
        p[0] = big;
        p[1] = (A[2][1] - A[1][2]) * f;
        p[2] = (A[0][2] - A[2][0]) * f;
        p[3] = (A[1][0] - A[0][1]) * f;
        break;
    case 1:
        p[1] = big;
        p[0] = (A[2][1] - A[1][2]) * f;
        p[2] = (A[0][1] + A[1][0]) * f;
        p[3] = (A[0][2] + A[2][0]) * f;
        break;
    case 2:
        p[2] = big;
        p[0] = (A[0][2] - A[2][0]) * f;
        p[1] = (A[0][1] + A[1][0]) * f;
        p[3] = (A[1][2] + A[2][1]) * f;
        break;
    default:
        p[3] = big;
        p[0] = (A[1][0] - A[0][1]) * f;
        p[1] = (A[0][2] + A[2][0]) * f;
        p[2] = (A[1][2] + A[2][1]) * f;
        break;
    }
    /* p and -p are the same rotation: the one with e0 >= 0 */
    if (p[0] < 0)
        for (int c = 0; c < 4; c++)
            p[c] = -p[c];
    const double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    if (len > 0 && isfinite(len))
        for (int c = 0; c < 4; c++)
            p[c] /= len;
    /* is A a rotation? */
    double worst = 0.0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double s = A[0][r] * A[0][c] + A[1][r] * A[1][c] + A[2][r] * A[2][c];
            worst = fmax(worst, fabs(s - (r == c ? 1.0 : 0.0)));
        }
    const double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1])
                       - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0])
                       + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    if (!(worst <= 1e-6) || !(fabs(det - 1.0) <= 1e-6) || !(len > 0 && isfinite(len)))
        return MBD_EINPUT;
    return GSL_SUCCESS;
}
/* << spatial-ep-from-A */

/* ------------------------------------------------------------------------ */
/* Time functions                                                            */

static mbd_spatial_fn fn_invalid(void)
{
    mbd_spatial_fn f;
    memset(&f, 0, sizeof f);
    f.kind = MBD_SPATIAL_FN_INVALID;
    return f;
}

static mbd_spatial_fn fn_plain(void)
{
    mbd_spatial_fn f;
    memset(&f, 0, sizeof f);
    f.kind = MBD_SPATIAL_FN_PLAIN;
    f.amp = 1.0;
    return f;
}

mbd_spatial_fn mbd_spatial_fn_constant(double c)
{
    if (!isfinite(c))
        return fn_invalid();
    mbd_spatial_fn f = fn_plain();
    f.poly[0] = c;
    return f;
}

mbd_spatial_fn mbd_spatial_fn_poly(size_t degree, const double a[])
{
    if (degree > MBD_SPATIAL_FN_DEGREE || a == NULL)
        return fn_invalid();
    mbd_spatial_fn f = fn_plain();
    for (size_t k = 0; k <= degree; k++) {
        if (!isfinite(a[k]))
            return fn_invalid();
        f.poly[k] = a[k];
    }
    return f;
}

mbd_spatial_fn mbd_spatial_fn_sine(double amp, double omega, double phase)
{
    if (!(isfinite(amp) && isfinite(omega) && isfinite(phase)))
        return fn_invalid();
    mbd_spatial_fn f = fn_plain();
    f.nsine = 1;
    f.sine[0][0] = amp;
    f.sine[0][1] = omega;
    f.sine[0][2] = phase;
    return f;
}

mbd_spatial_fn mbd_spatial_fn_sum(mbd_spatial_fn a, mbd_spatial_fn b)
{
    if (a.kind != MBD_SPATIAL_FN_PLAIN || b.kind != MBD_SPATIAL_FN_PLAIN
        || a.nsine + b.nsine > MBD_SPATIAL_FN_SINES)
        return fn_invalid();
    for (size_t k = 0; k <= MBD_SPATIAL_FN_DEGREE; k++)
        a.poly[k] += b.poly[k];
    for (size_t s = 0; s < b.nsine; s++)
        memcpy(a.sine[a.nsine + s], b.sine[s], sizeof b.sine[s]);
    a.nsine += b.nsine;
    return a;
}

mbd_spatial_fn mbd_spatial_fn_scale(double c, mbd_spatial_fn a)
{
    if (!isfinite(c))
        return fn_invalid();
    switch (a.kind) {
    case MBD_SPATIAL_FN_PLAIN:
        for (size_t k = 0; k <= MBD_SPATIAL_FN_DEGREE; k++)
            a.poly[k] *= c;
        for (size_t s = 0; s < a.nsine; s++)
            a.sine[s][0] *= c;
        return a;
    case MBD_SPATIAL_FN_SIN:
    case MBD_SPATIAL_FN_COS:
        a.amp *= c;
        return a;
    default:
        return fn_invalid();
    }
}

static mbd_spatial_fn fn_outer(mbd_spatial_fn_kind kind, double amp, mbd_spatial_fn g)
{
    if (g.kind != MBD_SPATIAL_FN_PLAIN || !isfinite(amp))
        return fn_invalid();
    g.kind = kind;
    g.amp = amp;
    return g;
}

mbd_spatial_fn mbd_spatial_fn_cos(double amp, mbd_spatial_fn g)
{
    return fn_outer(MBD_SPATIAL_FN_COS, amp, g);
}

mbd_spatial_fn mbd_spatial_fn_sin(double amp, mbd_spatial_fn g)
{
    return fn_outer(MBD_SPATIAL_FN_SIN, amp, g);
}

mbd_spatial_fn mbd_spatial_fn_user(mbd_spatial_fn_eval_fn eval, void *user)
{
    if (eval == NULL)
        return fn_invalid();
    mbd_spatial_fn f = fn_plain();
    f.kind = MBD_SPATIAL_FN_USER;
    f.eval = eval;
    f.user = user;
    return f;
}

/* g, g', g'' of the plain part: the polynomial by Horner's rule with its
 * derivatives, then the sines. */
static void plain_eval(const mbd_spatial_fn *f, double t, double g[3])
{
    double v = 0.0, d1 = 0.0, d2 = 0.0;
    for (int k = MBD_SPATIAL_FN_DEGREE; k >= 0; k--) {
        d2 = d2 * t + 2.0 * d1;
        d1 = d1 * t + v;
        v = v * t + f->poly[k];
    }
    for (size_t s = 0; s < f->nsine; s++) {
        const double A = f->sine[s][0], w = f->sine[s][1], ph = f->sine[s][2];
        const double sn = sin(w * t + ph), cs = cos(w * t + ph);
        v += A * sn;
        d1 += A * w * cs;
        d2 -= A * w * w * sn;
    }
    g[0] = v;
    g[1] = d1;
    g[2] = d2;
}

int mbd_spatial_fn_eval(const mbd_spatial_fn *f, double t, double v[3])
{
    if (f == NULL)
        return MBD_EINPUT;
    double g[3];
    switch (f->kind) {
    case MBD_SPATIAL_FN_PLAIN:
        plain_eval(f, t, v);
        break;
    case MBD_SPATIAL_FN_SIN: {
        /* (amp sin g)' = amp cos g g',  '' = amp (cos g g'' - sin g g'^2) */
        plain_eval(f, t, g);
        const double s = sin(g[0]), c = cos(g[0]);
        v[0] = f->amp * s;
        v[1] = f->amp * c * g[1];
        v[2] = f->amp * (c * g[2] - s * g[1] * g[1]);
        break;
    }
    case MBD_SPATIAL_FN_COS: {
        /* (amp cos g)' = -amp sin g g',  '' = -amp (sin g g'' + cos g g'^2) */
        plain_eval(f, t, g);
        const double s = sin(g[0]), c = cos(g[0]);
        v[0] = f->amp * c;
        v[1] = -f->amp * s * g[1];
        v[2] = -f->amp * (s * g[2] + c * g[1] * g[1]);
        break;
    }
    case MBD_SPATIAL_FN_USER: {
        int st = f->eval(t, v, f->user);
        if (st != GSL_SUCCESS)
            return st;
        break;
    }
    default:
        return MBD_EINPUT;
    }
    if (!(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2])))
        return MBD_ENONFINITE;
    return GSL_SUCCESS;
}

int mbd_spatial_fn_is_constant(const mbd_spatial_fn *f)
{
    if (f == NULL)
        return 0;
    if (f->kind != MBD_SPATIAL_FN_PLAIN && f->kind != MBD_SPATIAL_FN_SIN
        && f->kind != MBD_SPATIAL_FN_COS)
        return 0;
    for (size_t k = 1; k <= MBD_SPATIAL_FN_DEGREE; k++)
        if (f->poly[k] != 0.0)
            return 0;
    for (size_t s = 0; s < f->nsine; s++)
        if (f->sine[s][0] != 0.0 && f->sine[s][1] != 0.0)
            return 0;
    return 1;
}
