/* model.h -- chapter 09's models: a model file read by the library's reader
 * (model_file.h) and built into the spatial module (spatial.h): bodies,
 * joints, basic and driving constraints, forces, torques, spring-damper-
 * actuators and output points, with the initial configuration and
 * velocities the file gives (document 003, Vignos 2016, Secs. 3-6).
 */
#ifndef CH09_MODEL_H
#define CH09_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include <gsl/gsl_vector.h>

#include "mbd/error.h"
#include "mbd/model_file.h"
#include "mbd/spatial.h"

/* The torques the program computes itself. A model file's torque written
 * `callback: NAME` (docs/model-format.md, "Torques") gets the function this
 * program registers under NAME; the flyball governor's two (document 003,
 * Sec. 5.2, Figs. 13-14, and Sec. 7 "Flyball Governor"; Haug, Sec. 12.6;
 * reading guide 003, Sec. 3.2 and Sec. 5.2 case 7) are:
 *   governor_spring  Ts = C (0.05 - y_collar) about the torque's y axis,
 *                    y_collar the global height of the origin of the body
 *                    named `collar` (the document's Ts.m: C (0.2 - y - 0.15),
 *                    the shaft's hinge at 0.2 and the spring's free length
 *                    0.15); C = 12500 N m/m unless the parameters say;
 *   load_ramp        Te = 0 for t < 1 s, 25 (1 - t) N m for 1 <= t < 2 s,
 *                    -25 N m after (the document's Te.m), about the torque's
 *                    y axis.
 * Both act on the axis the file's `frame` names (the body frame by default:
 * the shaft's y axis, which is the global y axis it turns about). */
#define CH09_GOVERNOR_C 12500.0       /* N m per m: the document's Ts.m */
#define CH09_GOVERNOR_C_MAX 1e6       /* the largest C accepted, 57 times the
                                         * document's largest; its oscillations already
                                         * grow at 17500 (guide 003, Sec. 5.2 case 7) */

typedef struct {
    double governor_c;           /* governor_spring's C (N m/m), > 0 */
    int governor_c_given;        /* 1: a model without a governor_spring torque is refused
                                    (the C would go unused) */
} ch09_model_params;

/* the defaults: C = CH09_GOVERNOR_C, not given */
void ch09_model_params_default(ch09_model_params *p);
/* GSL_EINVAL for a C outside (0, CH09_GOVERNOR_C_MAX]. ch09_model_load_with
 * takes the parameters (the program's from --governor-c); the other loaders
 * use the defaults. */
int ch09_model_params_check(const ch09_model_params *p);

typedef struct ch09_callbacks ch09_callbacks;   /* model.c's: the callbacks' data */

typedef struct {
    mbd_model_desc *desc;        /* the file, as read (owned) */
    mbd_spatial_model *sm;       /* built from it */
    int *body;                   /* desc body k -> spatial body index */
    int *joint;                  /* desc joint k -> spatial joint index */
    int *constraint;             /* desc constraint k -> spatial joint index */
    size_t n, m;                 /* coordinates, rows */
    ch09_callbacks *cb;          /* the registered torques' data (owned; NULL: none) */
} ch09_model;

/* Reads `path` and builds it. MBD_EINPUT with "FILE:LINE:COL: what" in
 * fail->cause for a file the reader or the builder refuses (a torque
 * callback this program does not have, ...); nothing is left allocated on a
 * failure. */
int ch09_model_load(ch09_model *md, const char *path, mbd_failure *fail);
/* The same from text in memory (source names it in messages). */
int ch09_model_load_string(ch09_model *md, const char *text, const char *source,
                           mbd_failure *fail);
/* The two with the parameters given here instead of the process's (a test
 * runs the governor at several C): path, or text named source when text is
 * not NULL. MBD_EINPUT also for a C out of range. */
int ch09_model_load_with(ch09_model *md, const char *path, const char *text, const char *source,
                         const ch09_model_params *params, mbd_failure *fail);
/* the C of the model's governor_spring torque, or NAN when it has none */
double ch09_model_governor_c(const ch09_model *md);
void ch09_model_free(ch09_model *md);

/* The directory of the chapter's models (ending in '/'): $MBD_CH09_MODELS
 * when set, else chapters/09-spatial-engine/models/ below the working
 * directory when it is there (make run starts in the repository), else the
 * one of the source tree the program was built from. */
const char *ch09_models_dir(void);
/* ch09_model_load of one of the chapter's models by file name */
int ch09_model_load_named(ch09_model *md, const char *file, mbd_failure *fail);

/* The initial state the file gives: every body at its pose (q) with its
 * velocity where known (qd), the unknown velocities left 0 (known[b] = 0:
 * one entry per spatial body). */
int ch09_initial(const ch09_model *md, gsl_vector *q, gsl_vector *qd, int *known);
/* The known velocities (r' and the body-frame angular velocity of the file)
 * as q' at the configuration q, the others 0: after an assembly has moved
 * the poses, p' must be taken at the new p (p^T p' = 0). */
int ch09_known_velocities(const ch09_model *md, const gsl_vector *q, gsl_vector *qd);

/* The IFToMM A02 N four-bar (reading guide 003, Sec. 5.2 case 8) as a model
 * file on `out`: N + 1 vertical cranks of 1 m, 1 kg on revolutes to the
 * ground at x = 0 ... N, joined at their tips by N horizontal couplers (a
 * revolute to the crank on the left, two CD rows, x and y, to the one on the
 * right: 12 N + 5 rows, 1 degree of freedom); the first crank's tip B0
 * starts at 1 m/s in +x, the other velocities solved for; gravity -y.
 * GSL_EINVAL for N outside 1 ... CH09_MAX_FOUR_BARS. */
#define CH09_MAX_FOUR_BARS 1000
int ch09_write_n_four_bar(FILE *out, int N);

#endif
