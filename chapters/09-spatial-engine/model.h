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

typedef struct {
    mbd_model_desc *desc;        /* the file, as read (owned) */
    mbd_spatial_model *sm;       /* built from it */
    int *body;                   /* desc body k -> spatial body index */
    int *joint;                  /* desc joint k -> spatial joint index */
    int *constraint;             /* desc constraint k -> spatial joint index */
    size_t n, m;                 /* coordinates, rows */
} ch09_model;

/* Reads `path` and builds it. MBD_EINPUT with "FILE:LINE:COL: what" in
 * fail->cause for a file the reader or the builder refuses (a torque
 * callback this program does not have, ...); nothing is left allocated on a
 * failure. */
int ch09_model_load(ch09_model *md, const char *path, mbd_failure *fail);
/* The same from text in memory (source names it in messages). */
int ch09_model_load_string(ch09_model *md, const char *text, const char *source,
                           mbd_failure *fail);
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
