/* mbd/io.h -- the output end of the pipeline: CSV, tables, summaries, figures.
 *
 * None of these writes a non-finite number as a result: a CSV row or a
 * summary value that is NaN or infinite is refused with MBD_ENONFINITE and
 * nothing is written, so a caller can stop cleanly and say why.
 */
#ifndef MBD_IO_H
#define MBD_IO_H

#include <stddef.h>
#include <stdio.h>

#include "mbd/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* CSV: one header row, then rows of %.17g numbers                            */

typedef struct mbd_csv mbd_csv;

/* Opens path ("-" is stdout) and writes the header. On failure returns NULL
 * and sets *status (MBD_EIO with errno's text in `fail`, if given). */
mbd_csv *mbd_csv_open(const char *path, size_t ncols, const char *const *names, int *status,
                      mbd_failure *fail);
/* Writes one row of ncols values; MBD_ENONFINITE (nothing written) if any is
 * NaN or infinite. */
int mbd_csv_row(mbd_csv *csv, const double *values);
/* Flushes and closes (stdout is flushed, not closed); MBD_EIO on a write error. */
int mbd_csv_close(mbd_csv *csv);

/* ------------------------------------------------------------------------ */
/* Aligned text tables for the stories                                       */

typedef struct mbd_table mbd_table;

/* A table with ncols columns and the given headers. */
mbd_table *mbd_table_alloc(size_t ncols, const char *const *headers);
void mbd_table_free(mbd_table *t);
/* Appends a printf-formatted cell to the current row; a row is complete after
 * ncols cells. */
int mbd_table_cell(mbd_table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends a number cell: "%.*g"-style with `digits` significant digits, or
 * "-" for a non-finite value (a table marks what does not exist; it never
 * shows "nan"). */
int mbd_table_num(mbd_table *t, double value, int digits);
/* Prints the table with `indent` leading spaces, columns right-aligned,
 * a rule under the header. */
int mbd_table_print(const mbd_table *t, FILE *out, int indent);

/* ------------------------------------------------------------------------ */
/* key = value summaries                                                     */

int mbd_summary_double(FILE *out, const char *key, double value);   /* %.17g */
int mbd_summary_long(FILE *out, const char *key, long value);
int mbd_summary_string(FILE *out, const char *key, const char *value);
/* A value that a run may not define (a fold that never came, a quantity of
 * a method that does not have it): "key = none" when `defined` is 0, else as
 * mbd_summary_double (a non-finite defined value is still refused). Every key
 * a program lists is written on every run, failed or not. */
int mbd_summary_optional(FILE *out, const char *key, double value, int defined);

/* ------------------------------------------------------------------------ */
/* Figures through gnuplot (SVG)                                             */

typedef struct {
    const char *label;       /* legend entry, or NULL */
    const double *x, *y;     /* n points; non-finite points break the line */
    size_t n;
    const char *style;       /* gnuplot style: "lines" (default), "linespoints", "points";
                                line width 2 unless the style sets lw */
    int y2;                  /* 1: plot against the right-hand axis */
} mbd_series;

typedef struct {
    const char *title;
    const char *xlabel, *ylabel, *y2label;
    int logx, logy, logy2;
    const mbd_series *series;
    size_t nseries;
    const char *extra;       /* more gnuplot commands for this panel, or NULL */
} mbd_panel;

typedef struct {
    const char *title;       /* over all panels, or NULL */
    size_t rows, cols;       /* panel grid; 0 means 1 */
    double width, height;    /* pixels; 0 picks 720 x 480 per panel row */
    const mbd_panel *panels; /* rows * cols panels, row by row */
} mbd_figure;

/* Titles, labels and legends are gnuplot enhanced text: _ and ^ make sub-
 * and superscripts ({} groups them: "C_{q}M^{-1}"); anything else, quotes
 * and primes (x''), ~, @, & and newlines included, is drawn as written. */

/* Draws the figure into an SVG file with gnuplot. MBD_EIO when the file
 * cannot be written, MBD_EEXTERNAL (with gnuplot's first error line in
 * `fail`) if gnuplot is missing or fails; a failed drawing leaves no file
 * (it is drawn beside path and renamed when whole).
 *
 * A series drawn with lines is thinned first: a point that lies within
 * MBD_PLOT_THIN_PX pixels of the segment between the points kept around it is
 * not written (mbd_plot_thin, on the points in pixels: the panel's size over
 * the range of its axes, that of the data or the one `extra` sets with
 * "set xrange [a:b]", "set yrange" or "set y2range", on a log axis in
 * decades).  The points where a series' x and y are least and greatest
 * are kept, so the axes' autoscaled ranges do not change.  A curve of 10^5
 * points becomes the few hundred or thousand the eye can tell apart, its
 * peaks and corners kept, and its SVG stays small.  Series with points
 * ("points", "linespoints") are written whole, and so are the panels whose
 * `extra` changes how data map to the screen in ways thinning does not
 * follow (a log scale, a polar or parametric plot, an origin or a size other
 * than "set size ratio"). */
int mbd_plot_svg(const char *path, const mbd_figure *fig, mbd_failure *fail);

/* How far, in pixels of the SVG, a point left out of a line may lie from it. */
#define MBD_PLOT_THIN_PX 0.1

/* Douglas-Peucker on n points (px[i], py[i]) in pixels: marks with keep[i] =
 * 1 the points a line through them needs so that no point left out (keep[i] =
 * 0) is farther than tol from the segment between the kept points on either
 * side of it.  Kept whatever their distance: the points where px and py are
 * least and greatest (so that an autoscaled axis ends where it would for the
 * whole curve), the first and last point of every unbroken run, every point
 * with a non-finite coordinate (it breaks the line), and the points marked
 * keep[i] != 0 on entry; every other entry must be 0 on entry.  *nkept (if
 * nkept is not NULL) gets the number of points kept.  GSL_ENOMEM if its work
 * space (n/2 + 1 pairs of indices) cannot be allocated. */
int mbd_plot_thin(size_t n, const double *px, const double *py, double tol, unsigned char *keep,
                  size_t *nkept);

/* Appends to buf (a panel's `extra`, NUL-terminated, of `size` bytes) the
 * gnuplot commands of a marker: a dashed grey vertical line across the panel
 * at x and `label` near its top, to the right of the line (or to its left,
 * right-aligned, when `left`). The label is gnuplot text in double quotes
 * (no " or \ in it). Returns buf. */
char *mbd_plot_marker(char *buf, size_t size, double x, const char *label, int left);

/* Builds "PREFIX-name.svg" into buf. */
const char *mbd_plot_path(char *buf, size_t size, const char *prefix, const char *name);

/* ------------------------------------------------------------------------ */
/* Messages                                                                  */

/* Prints "program: at t = T s: cause (status name)" (or without the time
 * when it is NaN) to `out`. */
void mbd_report_failure(FILE *out, const char *program, const mbd_failure *f);

#ifdef __cplusplus
}
#endif

#endif
