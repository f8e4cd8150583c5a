/* model.h -- the slider-crank of document 000 (Newhart 2019, Sec. 2.4.3,
 * Table 4, listings A.4): model, the two mass matrices, the true energy, and
 * the branch on which the mechanism moves when its rods are equally long.
 *
 * Geometry. Angles are measured from the downward vertical. The crank (rod 1,
 * length L1, mass m1) turns about the origin; its tip is at
 * (L1 sin th1, -L1 cos th1). The connecting rod (rod 2, L2, m2) hangs from the
 * crank tip at the relative angle th2, so its absolute angle is th1 + th2. The
 * slider (m3) moves on the x axis at x3. Gravity g acts in -y. The coordinates
 * are q = (th1, th2, x3) and two constraints hold the end of rod 2 on the slider:
 *
 *     C = [ L1 sin th1 + L2 sin(th1 + th2) - x3 ;  -L1 cos th1 - L2 cos(th1 + th2) ].
 *
 * Mass matrices. The document's M = diag(m1 L1^2/3, m2 L2^2/3, m3) keeps only
 * each rod's inertia about its own pivot; the consistent one of the two-rod
 * chain in relative angles is
 *     M11 = m1 L1^2/3 + m2 (L1^2 + L2^2/3 + L1 L2 cos th2),
 *     M12 = m2 (L2^2/3 + L1 L2 cos th2 / 2),   M22 = m2 L2^2/3,   M33 = m3.
 * The applied forces F (gravity and the chain's Coriolis and centrifugal
 * terms) are the document's for either.
 *
 * Energy. The zero of potential energy is at the height of the crank pivot
 * (the slider's line, y = 0); the kinetic energy is always the consistent one,
 * (1/2) q'^T M_consistent q', whichever mass matrix drives the motion.
 */
#ifndef CH05_MODEL_H
#define CH05_MODEL_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "mbd/system.h"

typedef enum { CH05_MASS_DOCUMENT, CH05_MASS_CONSISTENT } ch05_mass_kind;

/* Where the model was evaluated closest to the fold th1 = 0 (the mass
 * callback runs once per right-hand side of every formulation). */
typedef struct {
    double min_abs_theta1;     /* smallest |th1| (th1 taken into (-pi, pi]) */
    double t;                  /* the time of that evaluation */
    double cond;               /* cond(S) of the running mass matrix there */
    long evaluations;
} ch05_probe;

void ch05_probe_reset(ch05_probe *p);

typedef struct {
    double g, m1, m2, m3, L1, L2;
    double theta10;            /* release angle of the crank (at rest) */
    ch05_mass_kind mass;       /* the mass matrix the system's mass callback gives */
    int gamma_printed;         /* gamma with the document's printed overall sign (wrong) */
    ch05_probe *probe;         /* NULL, or where the system's mass callback records its visits */
} ch05_model;

/* Table 4: g = 9.81, unit masses, L1 = L2 = 2, th1(0) = 3 pi / 4; the
 * document's mass matrix and the code's (correct) gamma. */
void ch05_model_document(ch05_model *m);

/* "document" or "consistent" */
const char *ch05_mass_name(ch05_mass_kind kind);

/* The mbd_system of the model (n = 3, m = 2), with s->model = m; the system
 * keeps the pointer, so m must outlive it. */
void ch05_system(ch05_model *m, mbd_system *s);

/* Table 4's initial state: th1 = theta10, th2 = acos(-cos th1) - th1 (the
 * listing's formula: the end of rod 2 at y = 0 on the L1 = L2 branch),
 * x3 from the first constraint, all at rest. */
void ch05_initial(const ch05_model *m, double q0[3], double qd0[3]);

/* The mass matrix of the given kind at q (3 x 3). */
void ch05_mass_matrix(const ch05_model *m, ch05_mass_kind kind, const double q[3], gsl_matrix *M);
/* F(q, q') as the document writes it, with the factors of L1 = L2 = 2 in their
 * general form (1/2) m2 L1 L2 and m g L / 2. */
void ch05_force(const ch05_model *m, const double q[3], const double qd[3], double F[3]);
void ch05_constraint(const ch05_model *m, const double q[3], double C[2]);
void ch05_jacobian(const ch05_model *m, const double q[3], double Cq[2][3]);
void ch05_gamma(const ch05_model *m, const double q[3], const double qd[3], double gamma[2]);

/* The velocity terms Lagrange's equations give for the consistent mass
 * matrix, -(M' q' - (1/2) d(q'^T M q')/dq), from central differences of M
 * (step h), for comparison with the velocity part F(q, q') - F(q, 0) of the
 * document's force. */
void ch05_lagrange_velocity_terms(const ch05_model *m, const double q[3], const double qd[3],
                                  double h, double out[3]);

/* Potential, consistent kinetic and total (true) energy. */
double ch05_potential(const ch05_model *m, const double q[3]);
double ch05_kinetic(const ch05_model *m, const double q[3], const double qd[3]);
double ch05_energy(const ch05_model *m, const double q[3], const double qd[3]);

/* ------------------------------------------------------------------------ */
/* The L1 = L2 = L branch and the fold                                        */

/* The state on the branch th2 = pi - 2 th1, x3 = 2 L sin th1 from (th1, th1'). */
void ch05_branch_state(const ch05_model *m, double th1, double th1d, double q[3], double qd[3]);
/* How far q is from the branch: max(|th2 + 2 th1 - pi|, |x3 - 2 L sin th1|)
 * (the first with th2 + 2 th1 - pi taken modulo 2 pi). */
double ch05_branch_residual(const ch05_model *m, const double q[3]);
/* The same for the other branch through the fold, th2 = pi (rods folded onto
 * each other), x3 = 0: max(|th2 - pi|, |x3|). */
double ch05_folded_residual(const double q[3]);

/* The Schur complement S = C_q M^-1 C_q^T (2 x 2) of the given mass matrix at
 * q, and its 2-norm condition number lambda_max / lambda_min (INFINITY when S
 * is not positive definite). */
void ch05_schur(const ch05_model *m, ch05_mass_kind kind, const double q[3], double S[2][2]);
double ch05_schur_condition(const ch05_model *m, ch05_mass_kind kind, const double q[3]);

#endif
