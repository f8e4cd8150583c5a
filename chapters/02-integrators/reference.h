/* reference.h -- absolute stability on y' = lambda y, two ways.
 *
 * Theory: applied to y' = lambda y with z = h lambda, every scheme of the
 * chapter is a linear recurrence whose characteristic polynomial
 *     pi(zeta, z) = sum_j sum_d c[j][d] zeta^j z^d
 * decides stability: the scheme is stable at z when every root zeta has
 * |zeta| <= 1. For a one-step scheme pi = Q(z) zeta - P(z), and R = P/Q is its
 * amplification factor. The polynomial is built from the scheme's own
 * coefficients (the tableau, the Adams coefficients of schemes.h), not from
 * the library.
 *
 * Measurement: the library runs the scheme on y' = -alpha y with h = x/alpha,
 * and the growth of |y_n| over the end of a long run gives the amplification
 * per step; bisection on x finds where it passes 1.
 */
#ifndef CH02_REFERENCE_H
#define CH02_REFERENCE_H

#include <complex.h>
#include <stddef.h>

#include "mbd/ode.h"

#define CH02_ZETA_DEG 6     /* the largest degree in zeta */
#define CH02_Z_DEG 12       /* the largest degree in z */

typedef struct {
    unsigned kdeg, zdeg;                              /* degrees in zeta and in z */
    double c[CH02_ZETA_DEG + 1][CH02_Z_DEG + 1];       /* pi = sum c[j][d] zeta^j z^d */
    int one_step;                                     /* pi = Q(z) zeta - P(z) */
} ch02_charpoly;

/* The characteristic polynomial of the scheme the library would run with
 * parameters p (an explicit Runge-Kutta tableau, AB_k, AM_k, AB_k/AM_k P(EC)^m E,
 * implicit Euler). MBD_EINPUT for what it cannot describe (step doubling,
 * GSL's steppers). */
int ch02_charpoly_of(const mbd_ode_params *p, ch02_charpoly *cp);

/* R(z) = P(z)/Q(z) of a one-step scheme. */
double complex ch02_amp_factor(const ch02_charpoly *cp, double complex z);

/* max |zeta| over the roots of pi(., z) (the spectral radius of one step). */
double ch02_root_modulus(const ch02_charpoly *cp, double complex z);

/* The first x in (0, x_max] at which max |zeta| at z = -x exceeds 1: returns 1
 * and *x_star, or 0 when the scheme is stable all along (to 1e-12). */
int ch02_limit_theory(const ch02_charpoly *cp, double x_max, double *x_star);

/* The imaginary-axis interval: the largest y* <= y_max such that max |zeta|
 * at z = i y stays <= 1 for 0 < y < y* (the longest stable step h omega on
 * an undamped oscillation). Returns 1 and *y_star when there is such an
 * interval and it ends before y_max; 0 when the scheme is stable all along,
 * and also, with *y_star = 0, when it has no interval at all (explicit Euler
 * and the second-order family grow at every step on the axis). */
int ch02_limit_imaginary(const ch02_charpoly *cp, double y_max, double *y_star);

/* The boundary locus: for zeta = exp(i theta), theta in [0, 2 pi], the roots z
 * of pi(zeta, z) = 0, followed as curves, kept where no other root lies outside
 * the unit circle (the edge of the stability region); curves are separated by
 * a NAN point and points with |z| > zmax are dropped. Writes at most cap points
 * into re[], im[]; returns the number written. */
size_t ch02_boundary_locus(const ch02_charpoly *cp, size_t ntheta, double zmax, double re[],
                           double im[], size_t cap);

/* Extends box = {x0, x1, y0, y1} to hold the curve of n points (re[i], im[i])
 * written by ch02_boundary_locus with this zmax, when the curve is bounded: a
 * curve with a point beyond 0.9 zmax was cut there (the trapezoid's imaginary
 * axis) and is left out. Non-finite points (the breaks) are skipped. */
void ch02_locus_window(const double re[], const double im[], size_t n, double zmax,
                       double box[4]);

/* The roots of the complex polynomial sum_{d=0}^{deg} a[d] x^d (a[deg] != 0)
 * by the Aberth-Ehrlich iteration; returns the number found (deg), or 0 on
 * failure. roots[] may hold starting guesses when `warm` is set. */
unsigned ch02_complex_roots(const double complex a[], unsigned deg, double complex roots[],
                            int warm);

/* ------------------------------------------------------------------------ */
/* Measurement                                                               */

typedef struct {
    double growth;      /* |y| growth per step over the last quarter of the run; 0: it underflowed */
    double y_end;       /* |y| at the end (or at blow-up) */
    long blowup_step;   /* > 0: |y| exceeded 1e100 at this step */
    long steps;
    long fevals;
} ch02_amp;

/* Runs the scheme p (fixed step; p->h is replaced) on y' = -alpha y, y(0) = 1,
 * with h = x/alpha for nsteps steps and measures its amplification. */
int ch02_amplification(const mbd_ode_params *p, double alpha, double x, long nsteps,
                       ch02_amp *a);

/* 1: stable at x (growth <= 1, no blow-up). */
int ch02_is_stable(const ch02_amp *a);

/* The step x = h alpha at which the scheme turns unstable, found by running
 * it: a scan x = 0.05 * 1.05^k up to x_max, then bisection to a relative
 * width tol. Returns GSL_SUCCESS with *found = 1 and *x_star, or *found = 0 when
 * every tested step up to x_max was stable; *runs counts the runs made. */
int ch02_limit_measured(const mbd_ode_params *p, double alpha, double x_max, double tol,
                        double *x_star, int *found, long *runs);

#define CH02_STABILITY_STEPS 2000   /* the length of each measuring run */

#endif
