/* Absolute stability (stability.h): characteristic polynomials, their roots,
 * boundary loci, and stability measured by running the library's schemes. */
#include <float.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "model.h"
#include "study.h"
#include "reference.h"

/* ------------------------------------------------------------------------ */
/* Characteristic polynomials                                                */

/* pi(zeta, z) built as a sum of terms  coef * zeta^j * z^d */
static void add(ch02_charpoly *cp, unsigned j, unsigned d, double coef)
{
    cp->c[j][d] += coef;
    if (coef != 0.0) {
        if (j > cp->kdeg)
            cp->kdeg = j;
        if (d > cp->zdeg)
            cp->zdeg = d;
    }
}

/* >> charpoly */
int ch02_charpoly_of(const mbd_ode_params *p, ch02_charpoly *cp)
{
    memset(cp, 0, sizeof *cp);
    if (p->kind == MBD_ODE_RK) {
        /* y_{n+1} = R(z) y_n with R(z) = 1 + sum_d z^d b^T A^(d-1) e:  pi = zeta - R(z) */
        const mbd_tableau *tb = p->tableau;
        const unsigned s = tb->stages;
        if (p->doubling || s > CH02_Z_DEG)
            return MBD_EINPUT;
        double v[CH02_Z_DEG], w[CH02_Z_DEG];
        for (unsigned i = 0; i < s; i++)
            v[i] = 1.0;
        cp->one_step = 1;
        add(cp, 1, 0, 1.0);
        add(cp, 0, 0, -1.0);
        for (unsigned d = 1; d <= s; d++) {
            double r = 0.0;
            for (unsigned i = 0; i < s; i++)
                r += tb->b[i] * v[i];
            add(cp, 0, d, -r);
            for (unsigned i = 0; i < s; i++) {       /* v := A v */
                w[i] = 0.0;
                for (unsigned j = 0; j < s; j++)
                    w[i] += tb->a[i * s + j] * v[j];
            }
            memcpy(v, w, s * sizeof *v);
        }
        return GSL_SUCCESS;
    }
    if (p->kind != MBD_ODE_AB && p->kind != MBD_ODE_AM && p->kind != MBD_ODE_PECE
        && p->kind != MBD_ODE_IMPLICIT_EULER)
        return MBD_EINPUT;
    const unsigned k = p->kind == MBD_ODE_IMPLICIT_EULER ? 1 : p->order;
    if (k < 1 || k > 5 || (p->kind == MBD_ODE_PECE && (k < 2 || p->corrections < 1)))
        return MBD_EINPUT;
    /* Index the k-step recurrence so that y_{n+1-j} is zeta^(k-j); f = lambda y gives
     * h f_{n+1-j} = z y_{n+1-j}. Two building blocks, linear in z:
     *   P = y_n + z sum_{j=0}^{k-1} bAB_j y_{n-j}       (Adams-Bashforth of order k)
     *   B = y_n + z sum_{j=1}^{k-1} bAM_j y_{n+1-j}     (Adams-Moulton of order k without
     *                                                    its implicit term w y_{n+1}, w = bAM_0 z) */
    double bab[5] = {0}, bam[5] = {0};
    ch02_adams(0, k, bab);
    ch02_adams(1, k, bam);
    double P[2][CH02_ZETA_DEG + 1] = {{0}}, B[2][CH02_ZETA_DEG + 1] = {{0}};  /* [z power][zeta power] */
    P[0][k - 1] = 1.0;
    B[0][k - 1] = 1.0;
    for (unsigned j = 0; j < k; j++)
        P[1][k - 1 - j] += bab[j];
    for (unsigned j = 1; j < k; j++)
        B[1][k - j] += bam[j];
    const double w = bam[0];
    add(cp, k, 0, 1.0);                            /* y_{n+1} */
    if (p->kind == MBD_ODE_AB) {                   /* y_{n+1} = P */
        for (unsigned d = 0; d < 2; d++)
            for (unsigned j = 0; j < k; j++)
                add(cp, j, d, -P[d][j]);
    } else if (p->kind == MBD_ODE_AM || p->kind == MBD_ODE_IMPLICIT_EULER) {
        add(cp, k, 1, -w);                         /* (1 - w) y_{n+1} = B, solved exactly */
        for (unsigned d = 0; d < 2; d++)
            for (unsigned j = 0; j < k; j++)
                add(cp, j, d, -B[d][j]);
    } else {
        /* P(EC)^m E: y^(0) = P, y^(i+1) = B + w y^(i), so
         * y_{n+1} = (1 + w + ... + w^(m-1)) B + w^m P */
        const unsigned m = p->corrections;
        if (m + 1 > CH02_Z_DEG)
            return MBD_EINPUT;
        double wi = 1.0;
        for (unsigned i = 0; i < m; i++, wi *= w)
            for (unsigned d = 0; d < 2; d++)
                for (unsigned j = 0; j < k; j++)
                    add(cp, j, i + d, -wi * B[d][j]);
        for (unsigned d = 0; d < 2; d++)             /* wi = w^m now */
            for (unsigned j = 0; j < k; j++)
                add(cp, j, m + d, -wi * P[d][j]);
    }
    return GSL_SUCCESS;
}
/* << charpoly */

/* coefficients of pi(., z) as a polynomial in zeta */
static unsigned zeta_poly(const ch02_charpoly *cp, double complex z, double complex a[])
{
    for (unsigned j = 0; j <= cp->kdeg; j++) {
        double complex acc = 0.0, zd = 1.0;
        for (unsigned d = 0; d <= cp->zdeg; d++, zd *= z)
            acc += cp->c[j][d] * zd;
        a[j] = acc;
    }
    return cp->kdeg;
}

double complex ch02_amp_factor(const ch02_charpoly *cp, double complex z)
{
    double complex a[CH02_ZETA_DEG + 1];
    zeta_poly(cp, z, a);
    return -a[0] / a[1];   /* Q zeta - P = 0 */
}

/* strip leading (near-)zero coefficients and factor out roots at zero; returns
 * the degree of what is left, with a[] shifted so a[0] != 0 */
static unsigned trim(double complex a[], unsigned deg, unsigned *zeros)
{
    double big = 0.0;
    for (unsigned j = 0; j <= deg; j++)
        big = fmax(big, cabs(a[j]));
    while (deg > 0 && cabs(a[deg]) <= 1e-14 * big)
        deg--;
    unsigned z0 = 0;
    while (z0 < deg && cabs(a[z0]) <= 1e-300)
        z0++;
    if (z0 > 0) {
        for (unsigned j = 0; j + z0 <= deg; j++)
            a[j] = a[j + z0];
        deg -= z0;
    }
    if (zeros)
        *zeros = z0;
    return deg;
}

double ch02_root_modulus(const ch02_charpoly *cp, double complex z)
{
    double complex a[CH02_ZETA_DEG + 1], r[CH02_ZETA_DEG];
    unsigned deg = trim(a, zeta_poly(cp, z, a), NULL);
    if (deg == 0)
        return 0.0;
    if (deg == 1)
        return cabs(a[0] / a[1]);
    if (ch02_complex_roots(a, deg, r, 0) != deg)
        return NAN;
    double m = 0.0;
    for (unsigned i = 0; i < deg; i++)
        m = fmax(m, cabs(r[i]));
    return m;
}

/* >> limit-theory */
int ch02_limit_theory(const ch02_charpoly *cp, double x_max, double *x_star)
{
    const double slack = 1e-12;
    double lo = 0.0, x = 1e-3;
    for (;;) {
        if (ch02_root_modulus(cp, -x) > 1.0 + slack) {
            /* bracketed: bisect on max |zeta| = 1 itself */
            double hi = x;
            for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
                double mid = 0.5 * (lo + hi);
                if (ch02_root_modulus(cp, -mid) > 1.0)
                    hi = mid;
                else
                    lo = mid;
            }
            *x_star = 0.5 * (lo + hi);
            return 1;
        }
        lo = x;
        if (x >= x_max)
            return 0;
        x = fmin(1.01 * x, x_max);
    }
}
/* << limit-theory */

int ch02_limit_imaginary(const ch02_charpoly *cp, double y_max, double *y_star)
{
    /* Near y = 0 every consistent scheme has max |zeta| = 1 + c y^q, below
     * rounding for small y whatever the sign of c: scan with a slack for
     * rounding, then require |zeta| clearly below 1 halfway to the end found,
     * which a scheme that grows on the axis (c > 0: explicit Euler, the
     * second-order family, Cash-Karp's order-5 row) does not have. */
    const double slack = 1e-14;
    double lo = 0.0, y = 0.01;
    *y_star = 0.0;
    for (;;) {
        if (!(ch02_root_modulus(cp, I * y) <= 1.0 + slack)) {
            if (lo == 0.0)
                return 0;                 /* no interval */
            double hi = y;
            for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
                double mid = 0.5 * (lo + hi);
                if (ch02_root_modulus(cp, I * mid) > 1.0 + slack)
                    hi = mid;
                else
                    lo = mid;
            }
            if (!(ch02_root_modulus(cp, I * 0.25 * (lo + hi)) < 1.0 - 1e-12))
                return 0;                 /* growth hidden by the slack: no interval */
            *y_star = 0.5 * (lo + hi);
            return 1;
        }
        lo = y;
        if (y >= y_max) {
            *y_star = y_max;
            return 0;
        }
        y = fmin(1.01 * y, y_max);
    }
}

/* ------------------------------------------------------------------------ */
/* Complex polynomial roots: Aberth-Ehrlich                                  */

unsigned ch02_complex_roots(const double complex a[], unsigned deg, double complex roots[],
                            int warm)
{
    if (deg == 0 || cabs(a[deg]) == 0.0)
        return 0;
    if (deg == 1) {
        roots[0] = -a[0] / a[1];
        return 1;
    }
    /* monic coefficients, and a root bound for the starting circle */
    double complex m[CH02_Z_DEG + 1];
    double bound = 0.0;
    for (unsigned j = 0; j <= deg; j++) {
        m[j] = a[j] / a[deg];
        if (j < deg)
            bound = fmax(bound, pow(cabs(m[j]), 1.0 / (double)(deg - j)));
    }
    if (!warm) {
        const double r = fmax(bound, 1e-3);
        for (unsigned i = 0; i < deg; i++)
            roots[i] = r * cexp(I * (2.0 * M_PI * i / deg + 0.4));
    }
    for (int it = 0; it < 500; it++) {
        double change = 0.0, size = 0.0;
        for (unsigned i = 0; i < deg; i++) {
            double complex p = m[deg], dp = 0.0, x = roots[i];
            for (unsigned j = deg; j-- > 0;) {
                dp = dp * x + p;
                p = p * x + m[j];
            }
            if (p == 0.0)
                continue;
            double complex ratio = p / dp, sum = 0.0;
            for (unsigned j = 0; j < deg; j++)
                if (j != i && roots[j] != x)
                    sum += 1.0 / (x - roots[j]);
            double complex step = ratio / (1.0 - ratio * sum);
            if (!isfinite(creal(step)) || !isfinite(cimag(step)))
                step = 1e-3 * (1.0 + cabs(x));   /* a nudge off a critical point */
            roots[i] = x - step;
            change = fmax(change, cabs(step));
            size = fmax(size, cabs(roots[i]));
        }
        if (change <= 4 * DBL_EPSILON * fmax(size, 1e-8))
            return deg;
    }
    /* converged to working precision only approximately: accept if the
     * residuals are small */
    for (unsigned i = 0; i < deg; i++) {
        double complex p = m[deg];
        for (unsigned j = deg; j-- > 0;)
            p = p * roots[i] + m[j];
        if (cabs(p) > 1e-8 * fmax(1.0, pow(cabs(roots[i]), deg)))
            return 0;
    }
    return deg;
}

/* ------------------------------------------------------------------------ */
/* Boundary locus                                                            */

/* >> locus */
size_t ch02_boundary_locus(const ch02_charpoly *cp, size_t ntheta, double zmax, double re[],
                           double im[], size_t cap)
{
    enum { MAXR = CH02_Z_DEG };
    const unsigned deg = cp->zdeg;
    if (deg == 0 || ntheta < 2)
        return 0;
    /* root r at angle index t: track[r][t]; curves follow the nearest root */
    static double complex track[MAXR][4097];
    if (ntheta > 4096)
        ntheta = 4096;
    double complex prev[MAXR], cur[MAXR];
    unsigned nprev = 0;
    for (size_t t = 0; t <= ntheta; t++) {
        const double complex zeta = cexp(I * 2.0 * M_PI * (double)t / (double)ntheta);
        /* the polynomial in z: e_d = sum_j c[j][d] zeta^j */
        double complex e[CH02_Z_DEG + 1];
        for (unsigned d = 0; d <= deg; d++) {
            double complex acc = 0.0, zj = 1.0;
            for (unsigned j = 0; j <= cp->kdeg; j++, zj *= zeta)
                acc += cp->c[j][d] * zj;
            e[d] = acc;
        }
        unsigned zeros;
        unsigned dd = trim(e, deg, &zeros);
        unsigned n = 0;
        for (unsigned i = 0; i < zeros; i++)
            cur[n++] = 0.0;
        if (dd > 0) {
            double complex r[CH02_Z_DEG];
            if (nprev == deg && dd + zeros == deg) {
                for (unsigned i = 0; i < dd; i++)
                    r[i] = prev[zeros + i];
                if (ch02_complex_roots(e, dd, r, 1) != dd)
                    dd = ch02_complex_roots(e, dd, r, 0);
            } else {
                dd = ch02_complex_roots(e, dd, r, 0);
            }
            for (unsigned i = 0; i < dd; i++)
                cur[n++] = r[i];
        }
        /* the degree dropped (a root ran off to infinity): fill with "far away" */
        while (n < deg)
            cur[n++] = INFINITY;
        /* match each previous root to its nearest current one (greedy) */
        if (t > 0) {
            int used[MAXR] = {0};
            double complex ordered[MAXR];
            for (unsigned i = 0; i < deg; i++) {
                unsigned best = 0;
                double bd = HUGE_VAL;
                for (unsigned j = 0; j < deg; j++) {
                    if (used[j])
                        continue;
                    double dist = isfinite(creal(prev[i])) && isfinite(creal(cur[j]))
                                      ? cabs(prev[i] - cur[j]) : (double)j;
                    if (dist < bd) {
                        bd = dist;
                        best = j;
                    }
                }
                used[best] = 1;
                ordered[i] = cur[best];
            }
            memcpy(cur, ordered, deg * sizeof *cur);
        }
        for (unsigned i = 0; i < deg; i++)
            track[i][t] = cur[i];
        memcpy(prev, cur, deg * sizeof *cur);
        nprev = deg;
    }
    /* write the curves, breaking where a root jumps or leaves the window, and
     * where another root zeta lies outside the unit circle: there the locus is
     * not the edge of the stability region */
    size_t out = 0;
    const double jump = 0.25 * zmax;
    for (unsigned i = 0; i < deg; i++) {
        int open = 0;
        for (size_t t = 0; t <= ntheta && out + 2 < cap; t++) {
            double complex z = track[i][t];
            int inside = isfinite(creal(z)) && cabs(z) <= zmax
                         && (cp->one_step || ch02_root_modulus(cp, z) <= 1.0 + 1e-6);
            int jumped = open && t > 0 && cabs(z - track[i][t - 1]) > jump;
            if ((!inside || jumped) && open) {
                re[out] = im[out] = NAN;
                out++;
                open = 0;
            }
            if (inside) {
                re[out] = creal(z);
                im[out] = cimag(z);
                out++;
                open = 1;
            }
        }
        if (open && out < cap) {
            re[out] = im[out] = NAN;
            out++;
        }
    }
    return out;
}
/* << locus */

void ch02_locus_window(const double re[], const double im[], size_t n, double zmax,
                       double box[4])
{
    for (size_t k = 0; k < n; k++)
        if (isfinite(re[k]) && isfinite(im[k]) && hypot(re[k], im[k]) > 0.9 * zmax)
            return;
    for (size_t k = 0; k < n; k++)
        if (isfinite(re[k]) && isfinite(im[k])) {
            box[0] = fmin(box[0], re[k]);
            box[1] = fmax(box[1], re[k]);
            box[2] = fmin(box[2], im[k]);
            box[3] = fmax(box[3], im[k]);
        }
}

/* ------------------------------------------------------------------------ */
/* Measurement                                                               */

/* >> amplification */
int ch02_amplification(const mbd_ode_params *p0, double alpha, double x, long nsteps,
                       ch02_amp *a)
{
    memset(a, 0, sizeof *a);
    ch02_problem pr;
    ch02_problem_init(&pr, CH02_DECAY, alpha, 1.0);
    mbd_ode_params p = *p0;
    p.h = x / alpha;
    p.adaptive = 0;
    p.doubling = 0;
    mbd_ode *o = mbd_ode_alloc(&p, 1, ch02_rhs, &pr);
    if (o == NULL)
        return GSL_EINVAL;
    /* the growth of max |y| from one quarter of the run to the next, at its end,
     * where only the dominant root of the recurrence is left */
    const long q = nsteps / 4, w1 = nsteps - 2 * q, w2 = nsteps - q;
    double y = 1.0, t = 0.0, t_stop = (double)(nsteps + 2) * p.h, m1 = 0.0, m2 = 0.0;
    int st = mbd_ode_start(o, t, &y, t_stop);
    long n;
    for (n = 1; st == GSL_SUCCESS && n <= nsteps; n++) {
        st = mbd_ode_step(o, &t, &y, t_stop);
        if (st == MBD_ENONFINITE || (st == GSL_SUCCESS && !(fabs(y) <= 1e100))) {
            a->blowup_step = n;
            st = GSL_SUCCESS;
            break;
        }
        if (st != GSL_SUCCESS)
            break;
        const double ay = fabs(y);
        if (ay < 1e-250) {             /* it underflows: decays as fast as can be seen */
            a->growth = 0.0;
            break;
        }
        if (n > w2)
            m2 = fmax(m2, ay);
        else if (n > w1)
            m1 = fmax(m1, ay);
    }
    a->steps = mbd_ode_get_stats(o)->steps;
    a->fevals = mbd_ode_get_stats(o)->fevals;
    a->y_end = fabs(y);
    if (a->blowup_step > 0)
        a->growth = INFINITY;
    else if (n > nsteps && m1 > 0.0)
        a->growth = pow(m2 / m1, 1.0 / (double)q);
    mbd_ode_free(o);
    return st;
}
/* << amplification */

int ch02_is_stable(const ch02_amp *a)
{
    return a->blowup_step == 0 && a->growth <= 1.0;
}

/* >> limit-measured */
int ch02_limit_measured(const mbd_ode_params *p, double alpha, double x_max, double tol,
                        double *x_star, int *found, long *runs)
{
    ch02_amp a;
    double lo = 0.0, x = 0.05;
    *found = 0;
    *runs = 0;
    for (;;) {
        int st = ch02_amplification(p, alpha, x, CH02_STABILITY_STEPS, &a);
        ++*runs;
        if (st != GSL_SUCCESS)
            return st;
        if (!ch02_is_stable(&a))
            break;
        lo = x;
        if (x >= x_max)
            return GSL_SUCCESS;        /* stable at every tested step */
        x = fmin(1.05 * x, x_max);
    }
    double hi = x;
    while (hi - lo > tol * hi) {
        double mid = 0.5 * (lo + hi);
        int st = ch02_amplification(p, alpha, mid, CH02_STABILITY_STEPS, &a);
        ++*runs;
        if (st != GSL_SUCCESS)
            return st;
        if (ch02_is_stable(&a))
            lo = mid;
        else
            hi = mid;
    }
    *x_star = 0.5 * (lo + hi);
    *found = 1;
    return GSL_SUCCESS;
}
/* << limit-measured */
