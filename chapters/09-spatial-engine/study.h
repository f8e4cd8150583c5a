/* study.h -- chapter 09's computing: one analysis of a model (assembly,
 * kinematics, inverse dynamics; dynamics arrives with part 2) and its record,
 * CSV and summary (WORK IN PROGRESS: issue 19). */
#ifndef CH09_STUDY_H
#define CH09_STUDY_H

#include <stdio.h>

#include "mbd/cli.h"
#include "model.h"

typedef enum { CH09_ASSEMBLY, CH09_KINEMATICS, CH09_INVERSE_DYNAMICS, CH09_DYNAMICS } ch09_analysis;
extern const char *const ch09_analysis_names[];
extern const char *const ch09_analysis_descriptions[];

typedef struct {
    ch09_analysis analysis;
    double t0, t_end, h;
    int reactions;
} ch09_spec;

typedef struct {
    size_t n, rows, cap, npoints, njoints;
    double *t, *q, *qd, *points, *C, *E, *react;   /* per row: n, n, 3 npoints, 1, 1, 6 njoints */
    mbd_spatial_report assembly;
    int status;
    mbd_failure fail;
} ch09_run;

void ch09_run_init(ch09_run *r);
void ch09_run_free(ch09_run *r);
int ch09_run_spec(ch09_model *md, const ch09_spec *spec, ch09_run *r);
int ch09_write_csv(FILE *out, const ch09_model *md, const ch09_run *r, int reactions);
void ch09_write_summary(FILE *out, const ch09_model *md, const ch09_spec *spec, const ch09_run *r);

#endif
