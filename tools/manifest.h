/* tools/manifest.h -- exercises/manifest.yaml, read with libyaml's document API.
 *
 * The schema (the file's header comment is its user documentation):
 *
 *   timeout: 10                   optional: seconds per test (default 10)
 *   chapters:
 *     - chapter: "01"             two digits
 *       slug: static-penalty      the directory is NN-slug
 *       title: ...
 *       uses: ["01"]              optional: earlier chapters whose exercise
 *                                 functions this chapter's code calls
 *       timeout: 10               optional: seconds per test in this chapter
 *       exercises:
 *         - id: "01.1"            NN.K, NN the chapter
 *           title: ...
 *           file: rigid_bar.c     in exercises/NN-slug/ and solutions/NN-slug/
 *           functions: [ex01_rigid_bar]
 *           points: 5             split evenly over the tests of suite "exNN.K"
 *           timeout: 10           optional: seconds per test of this exercise
 *
 * Every error names the file, the line and the column of the offending node
 * and says what was expected.
 */
#ifndef MBD_TOOL_MANIFEST_H
#define MBD_TOOL_MANIFEST_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    char *id;            /* "01.1" */
    char *title;
    char *file;          /* "rigid_bar.c" */
    char **functions;
    size_t nfunctions;
    double points;
    double timeout;      /* seconds per test; 0 = the chapter's */
    unsigned long line, column;   /* of the exercise's mapping, 1-based */
} mx_exercise;

typedef struct {
    char *number;        /* "01" */
    char *slug;          /* "static-penalty" */
    char *dir;           /* "01-static-penalty" */
    char *title;
    char **uses;         /* chapter numbers */
    size_t nuses;
    double timeout;      /* 0 = the manifest's */
    mx_exercise *ex;
    size_t nex;
    unsigned long line, column;
} mx_chapter;

typedef struct {
    char *path;
    double timeout;      /* default seconds per test (10 unless the file says) */
    mx_chapter *ch;
    size_t nch;
} mx_manifest;

/* Reads and checks the manifest. Prints every problem to err as
 * "path:line:column: message" and returns their number (0: success; the
 * manifest must then be freed with mx_free, which is also safe after errors). */
int mx_load(const char *path, mx_manifest *m, FILE *err);
void mx_free(mx_manifest *m);

const mx_chapter *mx_find_chapter(const mx_manifest *m, const char *number);
/* the time limit of an exercise's tests, in seconds */
double mx_timeout(const mx_manifest *m, const mx_chapter *c, const mx_exercise *e);
/* the part of an id after the dot ("1" of "01.1") */
const char *mx_exercise_number(const mx_exercise *e);

#endif
