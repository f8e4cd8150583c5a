/* model.c -- chapter 08's mechanisms in joint coordinates with cut joints
 * (see model.h).
 *
 * Everything below comes from one recursive sweep over the tree (the
 * "kinematic quantities the recursive kinematics already has" of the
 * document's Sec. 3.2) and from one fact about a pin joint: turning joint j
 * by dq_j turns everything outboard of it about the joint's location T_j,
 * so a point P outboard of joint j moves by
 *
 *     dr_P/dq_j = D (r_P - r_Tj),      D = [0 -1; 1 0]        (eqs. 12, 14, 47)
 *
 * and by nothing when P is not outboard of j. Write anc(P) for the joints on
 * the path from the ground to the body carrying P (the document says a joint
 * is "associated with" the cut joint's B or M end). Its time derivative is
 * the velocity Jacobian's rule, and its q'-derivative is the same vector:
 *
 *     dv_P/dq_j  = D (v_P - v_Tj)      (eqs. 24, 26, 58, in the guide's compact form)
 *     dv_P/dq'_j = D (r_P - r_Tj)      (eq. 59)
 *
 * The document writes the velocity rule as -A l theta'_ORj - A l
 * theta'_RjTj + A D l'; with A l = r_P - r_Tj and A D l' = D (v_P - v_Tj) +
 * omega_j (r_P - r_Tj) (l' is the motion of P seen from the joint's tip
 * frame, turning at omega_j = theta'_ORj + theta'_RjTj) the two agree; the
 * extraction lost the minus signs, which the reading guide rebuilt (its Sec.
 * 3.4).
 *
 * Choices the document leaves open, stated once here:
 *   - the dynamics are Lagrange's equations of the tree, not the RMSTMM (the
 *     guide's Sec. 2.2), with the cut joints' closure as constraints;
 *   - g = 9.81 m/s^2 along -y and V = 0 at y = 0 (the guide's Sec. 3.6);
 *   - the fourbar's J_C = m L^2 / 12 (a uniform 1 m bar; not in the
 *     document), the eightbar's J_C = 1/6 kg m^2 (the document's Example 2);
 *   - the centres of mass at mid-length of every bar;
 *   - no joint springs (eqs. 64-65 with k = 0: gravity is "the only applied
 *     force");
 *   - q' = 0 at the start.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/error.h"
#include "model.h"

const char *const ch08_scenario_names[] = {"fourbar", "eightbar", NULL};
const char *const ch08_scenario_descriptions[] = {
    "the document's four-bar in joint coordinates, one cut joint (n = 3, m = 2; --reading)",
    "a three-loop stand-in for the document's Fig. 9: 8 bars, 3 cut joints (n = 8, m = 6)",
    NULL,
};
const char *const ch08_reading_names[] = {"R1", "R2", NULL};
const char *const ch08_reading_descriptions[] = {
    "a chain of three 1 m links cut at a ground pivot 2 m from O (default)",
    "a rhombus of four 1 m links cut between links 2 and 3; singular where it folds flat",
    NULL,
};

static int lookup(const char *const *names, const char *name, int *k)
{
    for (int i = 0; names[i] != NULL; i++)
        if (name != NULL && strcmp(name, names[i]) == 0) {
            *k = i;
            return GSL_SUCCESS;
        }
    return MBD_EINPUT;
}

int ch08_scenario_of(const char *name, ch08_scenario *s)
{
    int k = 0;
    const int status = lookup(ch08_scenario_names, name, &k);
    if (status == GSL_SUCCESS)
        *s = (ch08_scenario)k;
    return status;
}

int ch08_reading_of(const char *name, ch08_reading *r)
{
    int k = 0;
    const int status = lookup(ch08_reading_names, name, &k);
    if (status == GSL_SUCCESS)
        *r = (ch08_reading)k;
    return status;
}

/* ------------------------------------------------------------------------ */
/* The mechanisms                                                            */

/* a uniform-looking bar: centre of mass at mid-length */
static ch08_body bar(const char *label, int parent, double jx, double jy, double length, double m,
                     double J)
{
    return (ch08_body){.label = label, .parent = parent, .joint = {jx, jy}, .length = length,
                       .com = {0.5 * length, 0.0}, .m = m, .J = J};
}

static ch08_marker at_body(int body, double x)
{
    return (ch08_marker){.body = body, .at = {x, 0.0}};
}

static ch08_marker at_ground(double x, double y)
{
    return (ch08_marker){.body = -1, .at = {x, y}};
}

/* >> fourbar */
/* The four-bar, read two ways (the guide's Sec. 4.1). The document: "the
 * third joint was cut to create a span system with q = [q1 q2 q3]", links
 * "1 m in length and 1 kg in mass", q0 = (pi/3, pi/3, pi/3). */
static void fourbar_data(ch08_model *md)
{
    const double L = 1.0, m = 1.0, J = m * L * L / 12.0;   /* J: a uniform bar (our choice) */
    md->n = 3;
    md->ncut = 1;
    if (md->reading == CH08_R1) {
        /* R1: O - link 1 - link 2 - link 3 in a chain of relative angles;
         * q0 puts the joints at O = (0, 0), (1/2, sqrt3/2), (0, sqrt3) and
         * the tip at G = (-1, sqrt3), where the cut joint pins it. */
        md->body[0] = bar("link 1", -1, 0.0, 0.0, L, m, J);
        md->body[1] = bar("link 2", 0, L, 0.0, L, m, J);
        md->body[2] = bar("link 3", 1, L, 0.0, L, m, J);
        md->cut[0] = (ch08_cut){.label = "G", .M = at_body(2, L),
                                .B = at_ground(-1.0, sqrt(3.0))};
    } else {
        /* R2: link 1 about O, link 2 on link 1's tip, link 3 about the
         * second ground pivot G = (-1/2, sqrt3/2), its angle q3 absolute
         * (its parent is the ground); the cut joint is joint 3 between the
         * tips of links 2 and 3, both at (0, sqrt3) at q0. M on the chain
         * from O, B on link 3: the loop has joints on both sides of its cut
         * joint, the document's two cases (eqs. 15 and 17) together. */
        md->body[0] = bar("link 1", -1, 0.0, 0.0, L, m, J);
        md->body[1] = bar("link 2", 0, L, 0.0, L, m, J);
        md->body[2] = bar("link 3", -1, -0.5, 0.5 * sqrt(3.0), L, m, J);
        md->cut[0] = (ch08_cut){.label = "joint 3", .M = at_body(1, L), .B = at_body(2, L)};
    }
    md->q0[0] = md->q0[1] = md->q0[2] = M_PI / 3.0;
}
/* << fourbar */

/* >> eightbar */
/* The eightbar. Drawn at its (symmetric) equilibrium:
 *
 *        G1 (-1.2, 0)          G2 (0, 0)          G3 (1.2, 0)      ground pivots
 *         |                      |                      |
 *       arm 1 (0.8)              |                    arm 3 (0.8)
 *         |                   arm 2 (1.3)               |
 *        A1 (-1.2,-0.8)          |               A3 (1.2,-0.8)
 *           `--- left beam ---- A2 (0,-1.3) ---- right beam ---'   (1.3 each)
 *                   P (-0.6,-1.05)          Q (0.6,-1.05)           beam midpoints
 *                     \                      /
 *            garland 1 (0.5)            garland 3 (0.5)
 *                       J1 -- garland 2 -- J2                       (0.6; y = -1.45)
 *
 * A frame of three arms hanging from the ground and two beams, each pinned
 * to an outer arm's lower end and, at A2, to the middle arm's (one degree of
 * freedom: the frame swings sideways), and a garland of three bars hung
 * between the beams' midpoints (one more: it swings on the frame). Eight
 * bodies, eleven pins, three loops, 3 * 8 - 2 * 11 = 2 degrees of freedom.
 * Every slanted bar is the hypotenuse of a 5-12-13 or 3-4-5 triangle, so
 * the drawing closes exactly.
 *
 * The spanning tree is the chain G1 - arm 1 - left beam - arm 2 - right
 * beam - arm 3, with the garland a branch off the left beam; the cut joints
 * are arm 2's pivot G2, arm 3's pivot G3 (B on the ground, like the four-bar's)
 * and the garland's last pin Q on the right beam. For Q the paths from the
 * ground to M (garland 3) and to B (the right beam) share joints 1 and 2: the
 * case the document's derivation leaves out (the guide's E5), where a joint's
 * column gets both terms, D (r_M - r_T) - D (r_B - r_T) = D Phi.
 *
 * Why its motion never comes near a singular configuration. Phi_q loses
 * rank exactly when some lambda != 0 has Phi_q^T lambda = 0: cut-joint
 * forces that load no tree joint, i.e. a state of self-stress of the pinned
 * bars with nothing applied. Every bar here has two pins (the beams a third,
 * the garland's), so each carries a force along its own line, and a
 * self-stress needs either
 *   - the garland on one straight line (its bars 0.5, 0.6, 0.5 m: |PQ| =
 *     0.4, 0.6 or 1.6 m), or
 *   - arm 1 in line with the left beam and, at the same time, arm 3 in line
 *     with the right beam (then arm 2 and the beams can hold a force
 *     triangle at A2).
 * The second never happens (over every configuration the larger of the two
 * angles' |sin| is at least 0.92); the first needs the frame folded until
 * |PQ| = |A1 A3| / 2 comes down from 1.2 to 0.6 m. Energy keeps it away:
 * released at rest, V(q(t)) <= E0 = V(q0). Sweeping the whole configuration
 * space of the drawn assembly mode (arm 1 is a crank of its loop: all round;
 * the garland's bar 1 all round; both branches of the right loop and of the
 * garland), the configurations with V <= E0 keep |PQ| in [1.18, 1.20] m and
 * sigma_min(Phi_q) >= 0.270 (sigma_max is about 5), and those with
 * sigma_min < 0.1 all lie 26.9 J or more above E0 = -68.71 J. A 10 s run
 * sees sigma_min >= 0.2717. (The chapter's checks compute these numbers.)
 *
 * The release: arm 1 turned by release_frame (30 deg) from the downward
 * vertical, counter-clockwise, the frame closed by two circle
 * intersections; garland 1 turned by release_garland (0) from its drawn
 * direction, the garland closed on Q by a third. The drawn configuration is
 * the stable equilibrium: released there nothing moves, released 2 deg off
 * it swings by 2 deg. */
#define EB_A 1.2       /* ground pivots at x = -A, 0, A */
#define EB_L1 0.8      /* arms 1 and 3 */
#define EB_L2 1.3      /* arm 2 */
#define EB_B 1.3       /* the beams: sqrt(A^2 + (L2 - L1)^2) = 1.3 */
#define EB_C1 0.5      /* garland bars 1 and 3 */
#define EB_C2 0.6      /* garland bar 2 */

static void eightbar_data(ch08_model *md)
{
    const double m = 1.0, J = 1.0 / 6.0;   /* the document's Example 2 */
    const double half = 0.5 * EB_B;        /* P and Q: the beams' midpoints */
    md->n = 8;
    md->ncut = 3;
    md->body[0] = bar("arm 1", -1, -EB_A, 0.0, EB_L1, m, J);   /* G1 -> A1 */
    md->body[1] = bar("left beam", 0, EB_L1, 0.0, EB_B, m, J); /* A1 -> A2 */
    md->body[2] = bar("arm 2", 1, EB_B, 0.0, EB_L2, m, J);     /* A2 -> G2 */
    md->body[3] = bar("right beam", 2, 0.0, 0.0, EB_B, m, J);  /* A2 -> A3 */
    md->body[4] = bar("arm 3", 3, EB_B, 0.0, EB_L1, m, J);     /* A3 -> G3 */
    md->body[5] = bar("garland 1", 1, half, 0.0, EB_C1, m, J); /* P -> J1 */
    md->body[6] = bar("garland 2", 5, EB_C1, 0.0, EB_C2, m, J);/* J1 -> J2 */
    md->body[7] = bar("garland 3", 6, EB_C2, 0.0, EB_C1, m, J);/* J2 -> Q */
    md->cut[0] = (ch08_cut){.label = "G2", .M = at_body(2, EB_L2), .B = at_ground(0.0, 0.0)};
    md->cut[1] = (ch08_cut){.label = "G3", .M = at_body(4, EB_L1), .B = at_ground(EB_A, 0.0)};
    md->cut[2] = (ch08_cut){.label = "Q", .M = at_body(7, EB_C1), .B = at_body(3, half)};
    md->release_frame = 30.0 * M_PI / 180.0;
    md->release_garland = 0.0;
}

/* The point X on the circles |X - c1| = r1, |X - c2| = r2 to the left
 * (side = +1) or right (-1) of the line from c1 to c2. */
static int circles(const double c1[2], double r1, const double c2[2], double r2, int side,
                   double X[2])
{
    const double dx = c2[0] - c1[0], dy = c2[1] - c1[1], d = hypot(dx, dy);
    if (!(d > 0.0))
        return MBD_EINPUT;
    const double a = (r1 * r1 - r2 * r2 + d * d) / (2.0 * d), h2 = r1 * r1 - a * a;
    if (!(h2 >= 0.0))
        return MBD_EINPUT;
    const double h = side * sqrt(h2), ux = dx / d, uy = dy / d;
    X[0] = c1[0] + a * ux - h * uy;   /* + h D u */
    X[1] = c1[1] + a * uy + h * ux;
    return GSL_SUCCESS;
}

static double direction(const double from[2], const double to[2])
{
    return atan2(to[1] - from[1], to[0] - from[0]);
}

/* the angle a taken into (-pi, pi] */
static double wrap(double a)
{
    a = fmod(a, 2.0 * M_PI);
    if (a > M_PI)
        a -= 2.0 * M_PI;
    else if (a <= -M_PI)
        a += 2.0 * M_PI;
    return a;
}

/* The eightbar's initial configuration from its release angles: each loop
 * closed by one circle intersection, on the side the drawing has it (all
 * three to the right of the line from the known joint to the pivot it
 * closes on). */
static int eightbar_assemble(ch08_model *md)
{
    const double G1[2] = {-EB_A, 0.0}, G2[2] = {0.0, 0.0}, G3[2] = {EB_A, 0.0};
    const double ta = -M_PI / 2.0 + md->release_frame;
    const double A1[2] = {G1[0] + EB_L1 * cos(ta), G1[1] + EB_L1 * sin(ta)};
    double A2[2], A3[2], J2[2];
    int status = circles(A1, EB_B, G2, EB_L2, -1, A2);
    if (status == GSL_SUCCESS)
        status = circles(A2, EB_B, G3, EB_L1, -1, A3);
    if (status != GSL_SUCCESS)
        return status;
    const double tl = direction(A1, A2), tr = direction(A2, A3);
    const double P[2] = {A1[0] + 0.5 * EB_B * cos(tl), A1[1] + 0.5 * EB_B * sin(tl)};
    const double Q[2] = {A2[0] + 0.5 * EB_B * cos(tr), A2[1] + 0.5 * EB_B * sin(tr)};
    /* garland 1 drawn along (0.6, -0.8) */
    const double tg = atan2(-0.8, 0.6) + md->release_garland;
    const double J1[2] = {P[0] + EB_C1 * cos(tg), P[1] + EB_C1 * sin(tg)};
    status = circles(J1, EB_C2, Q, EB_C1, -1, J2);
    if (status != GSL_SUCCESS)
        return status;
    const double theta[8] = {ta, tl, direction(A2, G2), tr, direction(A3, G3), tg,
                             direction(J1, J2), direction(J2, Q)};
    for (size_t i = 0; i < md->n; i++) {
        const int p = md->body[i].parent;
        md->q0[i] = wrap(theta[i] - (p < 0 ? 0.0 : theta[p]));
    }
    return GSL_SUCCESS;
}
/* << eightbar */

void ch08_model_data(ch08_model *md, ch08_scenario s, ch08_reading reading)
{
    memset(md, 0, sizeof *md);
    md->scenario = s;
    md->reading = s == CH08_FOURBAR ? reading : CH08_R1;
    md->name = ch08_scenario_names[s];
    md->g = CH08_G;
    if (s == CH08_FOURBAR)
        fourbar_data(md);
    else
        eightbar_data(md);
}

/* ------------------------------------------------------------------------ */
/* The recursive kinematics                                                  */

/* D a: a turned by a quarter (eq. 14) */
static void quarter(const double a[2], double out[2])
{
    out[0] = -a[1];
    out[1] = a[0];
}

/* What one sweep from the ground outward knows about every body i: its
 * angle and angular velocity, where its tree joint T_i and its centre of
 * mass C_i are, how fast they move, and their accelerations at q'' = 0 (the
 * velocity-product part a = J' q' of the acceleration J q'' + J' q'). */
typedef struct {
    double th[CH08_MAX_BODIES], w[CH08_MAX_BODIES];
    double rT[CH08_MAX_BODIES][2], vT[CH08_MAX_BODIES][2], aT[CH08_MAX_BODIES][2];
    double rC[CH08_MAX_BODIES][2], vC[CH08_MAX_BODIES][2], aC[CH08_MAX_BODIES][2];
} kin;

/* A point fixed in body i (local coordinates l) or in the ground (i < 0):
 *     r = r_T + A(theta) l,   v = v_T + omega D (r - r_T),
 *     a = a_T - omega^2 (r - r_T)        (q'' = 0, so no D (r - r_T) theta'') */
static void point(const kin *k, int i, const double l[2], double r[2], double v[2], double a[2])
{
    if (i < 0) {
        r[0] = l[0], r[1] = l[1];
        v[0] = v[1] = a[0] = a[1] = 0.0;
        return;
    }
    const double c = cos(k->th[i]), s = sin(k->th[i]), w = k->w[i];
    const double d[2] = {c * l[0] - s * l[1], s * l[0] + c * l[1]};   /* r - r_T */
    r[0] = k->rT[i][0] + d[0];
    r[1] = k->rT[i][1] + d[1];
    v[0] = k->vT[i][0] - w * d[1];
    v[1] = k->vT[i][1] + w * d[0];
    a[0] = k->aT[i][0] - w * w * d[0];
    a[1] = k->aT[i][1] - w * w * d[1];
}

/* theta_i = theta_parent + q_i; the joint T_i is a point of the parent (or
 * of the ground); qd may be NULL (at rest). */
static void kinematics(const ch08_model *md, const double q[], const double qd[], kin *k)
{
    for (size_t i = 0; i < md->n; i++) {
        const ch08_body *b = &md->body[i];
        const int p = b->parent;
        k->th[i] = (p < 0 ? 0.0 : k->th[p]) + q[i];
        k->w[i] = (p < 0 ? 0.0 : k->w[p]) + (qd ? qd[i] : 0.0);
        point(k, p, b->joint, k->rT[i], k->vT[i], k->aT[i]);
        point(k, (int)i, b->com, k->rC[i], k->vC[i], k->aC[i]);
    }
}

static void marker(const kin *k, const ch08_marker *mk, double r[2], double v[2], double a[2])
{
    point(k, mk->body, mk->at, r, v, a);
}

/* joint j on the path from the ground to the marker's body */
static int outboard(const ch08_model *md, const ch08_marker *mk, size_t j)
{
    return mk->body >= 0 && md->anc[mk->body][j];
}

/* ------------------------------------------------------------------------ */
/* Constraints: eqs. 5-6, the Jacobians of eqs. 15-17 and 25-27              */

/* >> constraints */
/* Phi (eq. 5) and Phi' (eq. 6), 2 K each (phidot may be NULL). */
static void cut_violation(const ch08_model *md, const kin *k, double phi[], double phidot[])
{
    for (size_t c = 0; c < md->ncut; c++) {
        double rM[2], vM[2], aM[2], rB[2], vB[2], aB[2];
        marker(k, &md->cut[c].M, rM, vM, aM);
        marker(k, &md->cut[c].B, rB, vB, aB);
        for (int x = 0; x < 2; x++) {
            phi[2 * c + x] = rM[x] - rB[x];
            if (phidot)
                phidot[2 * c + x] = vM[x] - vB[x];
        }
    }
}

/* Column j of Phi_q (use_v = 0: the document's eqs. 15 and 17) or of
 * Phidot_q (use_v = 1: eqs. 25 and 27) for cut joint c:
 *
 *     c_qj     = [j in anc(M)] D (r_M - r_Tj) - [j in anc(B)] D (r_B - r_Tj)
 *     c'_qj    = [j in anc(M)] D (v_M - v_Tj) - [j in anc(B)] D (v_B - v_Tj)
 *
 * The document treats a joint "associated with" either end (the B end gives
 * -D r_TjB, eq. 15; the M end +D r_TjM, eq. 17, and eq. 27, which it labels
 * c_qj but is the velocity Jacobian c'_qj: the guide's E2). A joint on the
 * path to both ends gets both terms (the guide's E5). A marker on the
 * ground moves with no joint. */
static void cut_column(const ch08_model *md, const kin *k, size_t c, size_t j, int use_v,
                       double col[2])
{
    const ch08_cut *cut = &md->cut[c];
    double r[2], v[2], a[2], d[2], Dd[2];
    col[0] = col[1] = 0.0;
    if (outboard(md, &cut->M, j)) {
        marker(k, &cut->M, r, v, a);
        const double *p = use_v ? v : r, *t = use_v ? k->vT[j] : k->rT[j];
        d[0] = p[0] - t[0], d[1] = p[1] - t[1];
        quarter(d, Dd);
        col[0] += Dd[0], col[1] += Dd[1];
    }
    if (outboard(md, &cut->B, j)) {
        marker(k, &cut->B, r, v, a);
        const double *p = use_v ? v : r, *t = use_v ? k->vT[j] : k->rT[j];
        d[0] = p[0] - t[0], d[1] = p[1] - t[1];
        quarter(d, Dd);
        col[0] -= Dd[0], col[1] -= Dd[1];
    }
}

/* Phi_q (use_v = 0) or Phidot_q (use_v = 1), m x n, column by column (eq. 7). */
static void cut_jacobian(const ch08_model *md, const kin *k, int use_v, gsl_matrix *A)
{
    for (size_t c = 0; c < md->ncut; c++)
        for (size_t j = 0; j < md->n; j++) {
            double col[2];
            cut_column(md, k, c, j, use_v, col);
            gsl_matrix_set(A, 2 * c, j, col[0]);
            gsl_matrix_set(A, 2 * c + 1, j, col[1]);
        }
}

/* gamma = -(Phi_q q')_q q' = -Phidot_q q': the velocity Jacobian's columns
 * weighted by q' (the guide's Sec. 2.2: the bias term reuses the velocity
 * Jacobian). For the fourbar R1 this is sum_k L_k omega_k^2 e_k. */
static void cut_gamma(const ch08_model *md, const kin *k, const double qd[], double gamma[])
{
    for (size_t c = 0; c < md->ncut; c++) {
        double gx = 0.0, gy = 0.0;
        for (size_t j = 0; j < md->n; j++) {
            double col[2];
            cut_column(md, k, c, j, 1, col);
            gx -= col[0] * qd[j];
            gy -= col[1] * qd[j];
        }
        gamma[2 * c] = gx;
        gamma[2 * c + 1] = gy;
    }
}
/* << constraints */

/* ------------------------------------------------------------------------ */
/* Mass matrix, forces, energy                                               */

/* >> dynamics */
/* M_jk = sum over bodies i outboard of both joints j and k of
 *     m_i (D(r_Ci - r_Tj)) . (D(r_Ci - r_Tk)) + J_i
 * -- sum_i m_i J_v,i^T J_v,i + J_i J_w,i^T J_w,i with J_v,i's column j the
 * eq. 47 vector D (r_Ci - r_Tj) and J_w,i a row of ones over anc(i); D keeps
 * dot products, so the D's drop out. At R1's q0 (J = 1/12) this is
 * [11/2 8/3 1/3; 8/3 13/6 7/12; 1/3 7/12 1/3]: by hand, with beta_kk = J +
 * m a^2 + L^2 (bodies beyond k), beta_kl = L_k (m_l a_l + L_l (bodies beyond
 * l)) and M = S^T [beta_kl cos(theta_k - theta_l)] S, S the lower triangle
 * of ones (theta = S q; the guide's Sec. 7): M(q0) = [21/4 5/2 1/4; 5/2 2
 * 1/2; 1/4 1/2 1/4] + J [3 2 1; 2 2 1; 1 1 1]. */
static void mass_matrix(const ch08_model *md, const kin *k, gsl_matrix *M)
{
    for (size_t j = 0; j < md->n; j++)
        for (size_t l = j; l < md->n; l++) {
            double s = 0.0;
            for (size_t i = 0; i < md->n; i++) {
                if (!md->anc[i][j] || !md->anc[i][l])
                    continue;
                const double dj[2] = {k->rC[i][0] - k->rT[j][0], k->rC[i][1] - k->rT[j][1]};
                const double dl[2] = {k->rC[i][0] - k->rT[l][0], k->rC[i][1] - k->rT[l][1]};
                s += md->body[i].m * (dj[0] * dl[0] + dj[1] * dl[1]) + md->body[i].J;
            }
            gsl_matrix_set(M, j, l, s);
            gsl_matrix_set(M, l, j, s);
        }
}

/* F = Q_g - h. Gravity, through dr_C/dq_j = D (r_C - r_Tj) (eq. 47):
 *     Q_g,j = sum_{i outboard of j} m_i (D(r_Ci - r_Tj)) . (0, -g)
 *           = -g sum_{i outboard of j} m_i (x_Ci - x_Tj).
 * The velocity terms h = M' q' - dT/dq: with v_C = J_v q', Lagrange's
 * d/dt(dT/dq') - dT/dq = M q'' + sum_i m_i J_v,i^T (J_v,i' q'), because the
 * columns of J_v are partial derivatives of one position, so the J_v'^T v
 * and (dv/dq)^T v terms cancel; J_w is constant and adds nothing. J_v,i' q'
 * is C_i's acceleration at q'' = 0, a_Ci, from the sweep:
 *     h_j = sum_{i outboard of j} m_i (D(r_Ci - r_Tj)) . a_Ci.
 * At R1's q0 (at rest) h = 0 and Q_g = (0, 5g/4, g/2), by hand: the
 * centres C1 = (1/4, sqrt3/4), C2 = (1/4, 3 sqrt3/4), C3 = (-1/2, sqrt3)
 * and the joints T1 = (0, 0), T2 = (1/2, sqrt3/2), T3 = (0, sqrt3) give
 *     Q_g1 = -g ((1/4 - 0) + (1/4 - 0) + (-1/2 - 0))  = 0,
 *     Q_g2 = -g ((1/4 - 1/2) + (-1/2 - 1/2))          = 5g/4,
 *     Q_g3 = -g (-1/2 - 0)                             = g/2.
 * With Phi_q(q0) = [-sqrt3 -sqrt3/2 0; -1 -3/2 -1], whose null space is
 * v = (1, -2, 2), q''(0) = a v with v^T M v a = v^T Q_g: v^T M(q0) v = 5/4 +
 * 3 J (the J part is the sum of the bodies' squared rates S v = (1, -1, 1))
 * and v^T Q_g = -3g/2, so a = -(3g/2) / (5/4 + 3 J) = -g for J = 1/12:
 * q''(0) = (-g, 2g, -2g); the multipliers (M q'' + Phi_q^T lambda = F)
 * are lambda = (-g / (2 sqrt3), -g/3) = (-2.8319, -3.27). */
static void forces(const ch08_model *md, const kin *k, double F[])
{
    for (size_t j = 0; j < md->n; j++) {
        double f = 0.0;
        for (size_t i = 0; i < md->n; i++) {
            if (!md->anc[i][j])
                continue;
            const double d[2] = {k->rC[i][0] - k->rT[j][0], k->rC[i][1] - k->rT[j][1]};
            double Dd[2];
            quarter(d, Dd);
            const double m = md->body[i].m;
            f -= m * md->g * d[0];                                 /* Q_g */
            f -= m * (Dd[0] * k->aC[i][0] + Dd[1] * k->aC[i][1]);  /* -h */
        }
        F[j] = f;
    }
}

/* T = sum_i (1/2) m_i |v_Ci|^2 + (1/2) J_i omega_i^2 (eq. 51) and V = sum_i
 * m_i g y_Ci (eq. 41 with g pointing down: the print m r^T g lost its sign
 * with the extraction's minus signs, the guide's E7). At R1's q0: T = 0 and
 * V = g (sqrt3/4 + 3 sqrt3/4 + sqrt3) = 2 sqrt3 g = 33.98283684450137 J. */
static void energy_parts(const ch08_model *md, const kin *k, double *T, double *V)
{
    double t = 0.0, v = 0.0;
    for (size_t i = 0; i < md->n; i++) {
        const ch08_body *b = &md->body[i];
        t += 0.5 * b->m * (k->vC[i][0] * k->vC[i][0] + k->vC[i][1] * k->vC[i][1]);
        t += 0.5 * b->J * k->w[i] * k->w[i];
        v += b->m * md->g * k->rC[i][1];
    }
    *T = t;
    *V = v;
}

/* E_q and E_q' body by body (eqs. 38-63), each body i counted for the
 * joints j outboard of which it lies (the sums of eqs. 39-40 run over all
 * bodies, but the partials of eqs. 47, 58, 59 vanish for the others: the
 * guide's E6):
 *
 *   dV_i/dq_j  = m_i (D r_TjCi)^T (0, g) ... = m_i g (x_Ci - x_Tj)   (eq. 49; its second
 *                form "m_i r_TjCi^T D g" lost a sign: (D r)^T g = -r^T D g, the guide's E7)
 *   dV_i/dq'_j = 0                                                    (eq. 50)
 *   dT_i/dq_j  = m_i v_Ci^T D (v_Ci - v_Tj)                           (eq. 62 with eq. 58;
 *                d omega_i/dq_j = 0, eq. 60)
 *   dT_i/dq'_j = m_i v_Ci^T D (r_Ci - r_Tj) + J_i omega_i             (eq. 63; eqs. 59, 61)
 *
 * At rest E_q' = 0 and E_q = dV/dq = -Q_g; in general E_q' = (M q')^T and
 * E_q = (1/2) q'^T M_q q' + V_q (the guide's Sec. 3.5), which the chapter's
 * checks confirm. */
static void energy_gradient(const ch08_model *md, const kin *k, double Eq[], double Eqd[])
{
    for (size_t j = 0; j < md->n; j++) {
        double eq = 0.0, eqd = 0.0;
        for (size_t i = 0; i < md->n; i++) {
            if (!md->anc[i][j])
                continue;
            const ch08_body *b = &md->body[i];
            const double d[2] = {k->rC[i][0] - k->rT[j][0], k->rC[i][1] - k->rT[j][1]};
            const double dv[2] = {k->vC[i][0] - k->vT[j][0], k->vC[i][1] - k->vT[j][1]};
            double Dd[2], Ddv[2];
            quarter(d, Dd);
            quarter(dv, Ddv);
            eq += b->m * md->g * d[0];
            eq += b->m * (k->vC[i][0] * Ddv[0] + k->vC[i][1] * Ddv[1]);
            eqd += b->m * (k->vC[i][0] * Dd[0] + k->vC[i][1] * Dd[1]) + b->J * k->w[i];
        }
        Eq[j] = eq;
        Eqd[j] = eqd;
    }
}
/* << dynamics */

/* ------------------------------------------------------------------------ */
/* The mbd_system callbacks                                                  */

/* the callbacks get vectors that may be views with a stride: copy them */
static void get(const gsl_vector *v, size_t n, double out[])
{
    for (size_t i = 0; i < n; i++)
        out[i] = gsl_vector_get(v, i);
}

static int sys_mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES];
    kin k;
    get(q, md->n, qq);
    kinematics(md, qq, NULL, &k);
    mass_matrix(md, &k, M);
    return GSL_SUCCESS;
}

static int sys_force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *F)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES], vv[CH08_MAX_BODIES], f[CH08_MAX_BODIES];
    kin k;
    get(q, md->n, qq);
    get(qd, md->n, vv);
    kinematics(md, qq, vv, &k);
    forces(md, &k, f);
    for (size_t i = 0; i < md->n; i++)
        gsl_vector_set(F, i, f[i]);
    return GSL_SUCCESS;
}

static int sys_constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES], phi[CH08_MAX_ROWS];
    kin k;
    get(q, md->n, qq);
    kinematics(md, qq, NULL, &k);
    cut_violation(md, &k, phi, NULL);
    for (size_t r = 0; r < 2 * md->ncut; r++)
        gsl_vector_set(C, r, phi[r]);
    return GSL_SUCCESS;
}

static int sys_jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES];
    kin k;
    get(q, md->n, qq);
    kinematics(md, qq, NULL, &k);
    cut_jacobian(md, &k, 0, Cq);
    return GSL_SUCCESS;
}

static int sys_gamma(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                     gsl_vector *gamma)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES], vv[CH08_MAX_BODIES], gm[CH08_MAX_ROWS];
    kin k;
    get(q, md->n, qq);
    get(qd, md->n, vv);
    kinematics(md, qq, vv, &k);
    cut_gamma(md, &k, vv, gm);
    for (size_t r = 0; r < 2 * md->ncut; r++)
        gsl_vector_set(gamma, r, gm[r]);
    return GSL_SUCCESS;
}

static int sys_energy(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                      double *E)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES], vv[CH08_MAX_BODIES], T, V;
    kin k;
    get(q, md->n, qq);
    get(qd, md->n, vv);
    kinematics(md, qq, vv, &k);
    energy_parts(md, &k, &T, &V);
    *E = T + V;
    return GSL_SUCCESS;
}

/* the document's semi-analytic derivatives as the system's optional
 * callbacks (system.h), so that the library's corrections use them */
static int sys_rate_jacobian(const mbd_system *s, double t, const gsl_vector *q,
                             const gsl_vector *qd, gsl_matrix *Cdot_q)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES], vv[CH08_MAX_BODIES];
    get(q, md->n, qq);
    get(qd, md->n, vv);
    return ch08_velocity_jacobian(md, qq, vv, Cdot_q);
}

static int sys_energy_gradient(const mbd_system *s, double t, const gsl_vector *q,
                               const gsl_vector *qd, gsl_vector *E_q, gsl_vector *E_qd)
{
    (void)t;
    const ch08_model *md = s->model;
    double qq[CH08_MAX_BODIES], vv[CH08_MAX_BODIES], eq[CH08_MAX_BODIES], eqd[CH08_MAX_BODIES];
    get(q, md->n, qq);
    get(qd, md->n, vv);
    int st = ch08_energy_gradient(md, qq, vv, eq, eqd);
    for (size_t i = 0; i < md->n && st == GSL_SUCCESS; i++) {
        gsl_vector_set(E_q, i, eq[i]);
        gsl_vector_set(E_qd, i, eqd[i]);
    }
    return st;
}

/* ------------------------------------------------------------------------ */
/* Building                                                                  */

static int marker_ok(const ch08_model *md, const ch08_marker *mk)
{
    return mk->body >= -1 && mk->body < (int)md->n;
}

int ch08_model_build(ch08_model *md)
{
    static const char *const names[CH08_MAX_BODIES] = {"q1", "q2", "q3", "q4",
                                                       "q5", "q6", "q7", "q8"};
    md->built = 0;
    if (md->n == 0 || md->n > CH08_MAX_BODIES || md->ncut == 0 || md->ncut > CH08_MAX_CUTS)
        return MBD_EINPUT;
    /* anc(i) = anc(parent) + {i}: parents come first */
    memset(md->anc, 0, sizeof md->anc);
    for (size_t i = 0; i < md->n; i++) {
        const int p = md->body[i].parent;
        if (p < -1 || p >= (int)i)
            return MBD_EINPUT;
        if (p >= 0)
            memcpy(md->anc[i], md->anc[p], sizeof md->anc[i]);
        md->anc[i][i] = 1;
    }
    for (size_t c = 0; c < md->ncut; c++)
        if (!marker_ok(md, &md->cut[c].M) || !marker_ok(md, &md->cut[c].B))
            return MBD_EINPUT;
    if (md->scenario == CH08_EIGHTBAR) {
        const int status = eightbar_assemble(md);
        if (status != GSL_SUCCESS)
            return status;
    }
    md->sys = (mbd_system){
        .n = md->n,
        .m = 2 * md->ncut,
        .names = names,
        .model = md,
        .mass = sys_mass,
        .force = sys_force,
        .constraint = sys_constraint,
        .jacobian = sys_jacobian,
        .constraint_t = NULL,
        .gamma = sys_gamma,
        .energy = sys_energy,
        .rate_jacobian = md->library_derivatives ? NULL : sys_rate_jacobian,
        .energy_gradient = md->library_derivatives ? NULL : sys_energy_gradient,
    };
    md->built = 1;
    return GSL_SUCCESS;
}

void ch08_model_free(ch08_model *md)
{
    md->built = 0;
}

const mbd_system *ch08_system(const ch08_model *md)
{
    return md->built ? &md->sys : NULL;
}

int ch08_initial(const ch08_model *md, double q[], double qd[])
{
    if (!md->built)
        return MBD_EINPUT;
    for (size_t i = 0; i < md->n; i++) {
        q[i] = md->q0[i];
        qd[i] = 0.0;
    }
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* The correction's pieces                                                   */

int ch08_velocity_jacobian(const ch08_model *md, const double q[], const double qd[],
                           gsl_matrix *Phidot_q)
{
    if (!md->built)
        return MBD_EINPUT;
    if (Phidot_q->size1 != 2 * md->ncut || Phidot_q->size2 != md->n)
        return GSL_EBADLEN;
    kin k;
    kinematics(md, q, qd, &k);
    cut_jacobian(md, &k, 1, Phidot_q);
    return GSL_SUCCESS;
}

int ch08_energy_gradient(const ch08_model *md, const double q[], const double qd[], double Eq[],
                         double Eqd[])
{
    if (!md->built)
        return MBD_EINPUT;
    kin k;
    kinematics(md, q, qd, &k);
    energy_gradient(md, &k, Eq, Eqd);
    return GSL_SUCCESS;
}

int ch08_cut_violation(const ch08_model *md, const double q[], const double qd[], double phi[],
                       double phidot[])
{
    if (!md->built)
        return MBD_EINPUT;
    kin k;
    kinematics(md, q, qd, &k);
    cut_violation(md, &k, phi, phidot);
    return GSL_SUCCESS;
}

int ch08_energy_parts(const ch08_model *md, const double q[], const double qd[], double *T,
                      double *V)
{
    if (!md->built)
        return MBD_EINPUT;
    kin k;
    double t, v;
    kinematics(md, q, qd, &k);
    energy_parts(md, &k, &t, &v);
    if (T)
        *T = t;
    if (V)
        *V = v;
    return GSL_SUCCESS;
}

int ch08_positions(const ch08_model *md, const double q[], double joint[][2], double com[][2],
                   double tip[][2], double theta[])
{
    if (!md->built)
        return MBD_EINPUT;
    kin k;
    kinematics(md, q, NULL, &k);
    for (size_t i = 0; i < md->n; i++) {
        if (joint)
            joint[i][0] = k.rT[i][0], joint[i][1] = k.rT[i][1];
        if (com)
            com[i][0] = k.rC[i][0], com[i][1] = k.rC[i][1];
        if (tip) {
            const double end[2] = {md->body[i].length, 0.0};
            double v[2], a[2];
            point(&k, (int)i, end, tip[i], v, a);
        }
        if (theta)
            theta[i] = k.th[i];
    }
    return GSL_SUCCESS;
}
