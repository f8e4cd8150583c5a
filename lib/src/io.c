#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "mbd/io.h"
#include "gnuplot_impl.h"

/* ------------------------------------------------------------------------ */
/* CSV                                                                       */

struct mbd_csv {
    FILE *f;
    size_t ncols;
    int is_stdout;
};

mbd_csv *mbd_csv_open(const char *path, size_t ncols, const char *const *names, int *status,
                      mbd_failure *fail)
{
    mbd_csv *c = calloc(1, sizeof *c);
    if (c == NULL) {
        *status = GSL_ENOMEM;
        return NULL;
    }
    c->ncols = ncols;
    if (strcmp(path, "-") == 0) {
        c->f = stdout;
        c->is_stdout = 1;
    } else {
        c->f = fopen(path, "w");
        if (c->f == NULL) {
            if (fail)
                mbd_failure_set(fail, MBD_EIO, NAN, "cannot write CSV file '%s': %s", path,
                                strerror(errno));
            free(c);
            *status = MBD_EIO;
            return NULL;
        }
    }
    for (size_t j = 0; j < ncols; j++)
        fprintf(c->f, "%s%s", j ? "," : "", names[j]);
    fputc('\n', c->f);
    *status = GSL_SUCCESS;
    return c;
}

int mbd_csv_row(mbd_csv *c, const double *v)
{
    for (size_t j = 0; j < c->ncols; j++)
        if (!isfinite(v[j]))
            return MBD_ENONFINITE;
    for (size_t j = 0; j < c->ncols; j++)
        fprintf(c->f, j ? ",%.17g" : "%.17g", v[j]);
    fputc('\n', c->f);
    return GSL_SUCCESS;
}

int mbd_csv_close(mbd_csv *c)
{
    if (c == NULL)
        return GSL_SUCCESS;
    int bad = ferror(c->f);
    if (c->is_stdout)
        bad |= fflush(c->f) != 0;
    else
        bad |= fclose(c->f) != 0;
    free(c);
    return bad ? MBD_EIO : GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */

struct mbd_table {
    size_t ncols, ncells, cap;
    char **cells;            /* headers first, then the rows */
};

mbd_table *mbd_table_alloc(size_t ncols, const char *const *headers)
{
    mbd_table *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->ncols = ncols;
    for (size_t j = 0; j < ncols; j++)
        if (mbd_table_cell(t, "%s", headers[j]) != GSL_SUCCESS) {
            mbd_table_free(t);
            return NULL;
        }
    return t;
}

void mbd_table_free(mbd_table *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
}

int mbd_table_cell(mbd_table *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (t->ncells == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **cells = realloc(t->cells, cap * sizeof *cells);
        if (cells == NULL)
            return GSL_ENOMEM;
        t->cells = cells;
        t->cap = cap;
    }
    char *s = malloc(strlen(buf) + 1);
    if (s == NULL)
        return GSL_ENOMEM;
    strcpy(s, buf);
    t->cells[t->ncells++] = s;
    return GSL_SUCCESS;
}

int mbd_table_num(mbd_table *t, double value, int digits)
{
    if (!isfinite(value))
        return mbd_table_cell(t, "-");
    return mbd_table_cell(t, "%.*g", digits, value);
}

int mbd_table_print(const mbd_table *t, FILE *out, int indent)
{
    size_t width[64] = {0};
    size_t nc = t->ncols < 64 ? t->ncols : 64;
    for (size_t i = 0; i < t->ncells; i++) {
        size_t j = i % t->ncols;
        if (j < nc && strlen(t->cells[i]) > width[j])
            width[j] = strlen(t->cells[i]);
    }
    size_t total = 0;
    for (size_t j = 0; j < nc; j++)
        total += width[j] + (j ? 2 : 0);
    for (size_t i = 0; i < t->ncells; i++) {
        size_t j = i % t->ncols;
        if (j == 0)
            fprintf(out, "%*s", indent, "");
        if (j < nc)
            fprintf(out, "%s%*s", j ? "  " : "", (int)width[j], t->cells[i]);
        if (j == t->ncols - 1 || i == t->ncells - 1) {
            fputc('\n', out);
            if (i == t->ncols - 1) {
                fprintf(out, "%*s", indent, "");
                for (size_t k = 0; k < total; k++)
                    fputc('-', out);
                fputc('\n', out);
            }
        }
    }
    return ferror(out) ? MBD_EIO : GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Summaries                                                                 */

int mbd_summary_double(FILE *out, const char *key, double value)
{
    if (!isfinite(value))
        return MBD_ENONFINITE;
    fprintf(out, "%s = %.17g\n", key, value);
    return GSL_SUCCESS;
}

int mbd_summary_long(FILE *out, const char *key, long value)
{
    fprintf(out, "%s = %ld\n", key, value);
    return GSL_SUCCESS;
}

int mbd_summary_optional(FILE *out, const char *key, double value, int defined)
{
    if (!defined)
        return fprintf(out, "%s = none\n", key) < 0 ? MBD_EIO : GSL_SUCCESS;
    return mbd_summary_double(out, key, value);
}

int mbd_summary_string(FILE *out, const char *key, const char *value)
{
    fprintf(out, "%s = %s\n", key, value);
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Figures                                                                   */

char *mbd_plot_marker(char *buf, size_t size, double x, const char *label, int left)
{
    const size_t used = strlen(buf);
    if (used + 1 < size)
        snprintf(buf + used, size - used,
                 "%sset arrow from %.17g, graph 0 to %.17g, graph 1 nohead dt 4 lc rgb 'gray40'\n"
                 "set label \"%s\" at %.17g, graph 0.95 %soffset %s0.5,0 tc rgb 'gray40'\n",
                 used > 0 && buf[used - 1] != '\n' ? "\n" : "", x, x, label, x,
                 left ? "right " : "", left ? "-" : "");
    return buf;
}

const char *mbd_plot_path(char *buf, size_t size, const char *prefix, const char *name)
{
    snprintf(buf, size, "%s-%s.svg", prefix, name);
    return buf;
}

/* gnuplot string literal (gnuplot_impl.h): titles, labels and legends are
 * enhanced text, a file name is not. */
static void gp_quote(FILE *g, const char *s, int enhanced) { mbd_gnuplot_quote(g, s, enhanced); }

static void gp_string(FILE *g, const char *s) { gp_quote(g, s, 1); }

/* ------------------------------------------------------------------------ */
/* Thinning: a curve of 10^5 points across a panel a few hundred pixels wide
 * has dozens of points per pixel, which make the SVG megabytes long and change
 * nothing that can be seen.  Douglas-Peucker in screen space drops them. */

/* the squared distance from p to the segment a-b (to a when a = b) */
static double seg_dist2(double ax, double ay, double bx, double by, double px, double py)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double s = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    if (s < 0)
        s = 0;
    else if (s > 1)
        s = 1;
    double ex = ax + s * dx - px, ey = ay + s * dy - py;
    return ex * ex + ey * ey;
}

int mbd_plot_thin(size_t n, const double *px, const double *py, double tol, unsigned char *keep,
                  size_t *nkept)
{
    /* the pending intervals (first, last) with points between them; they do
     * not overlap and each holds a point of its own, so n/2 + 1 suffice */
    size_t cap = n / 2 + 1;
    size_t *stack = malloc(2 * cap * sizeof *stack);
    if (stack == NULL)
        return GSL_ENOMEM;
    const double tol2 = tol > 0 ? tol * tol : 0.0;
    /* the points where x and y are least and greatest stay, so that an
     * autoscaled axis ends where it does for the whole curve */
    size_t ext[4] = {0, 0, 0, 0};
    int any = 0;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(px[k]) || !isfinite(py[k]))
            continue;
        if (!any) {
            ext[0] = ext[1] = ext[2] = ext[3] = k;
            any = 1;
        }
        if (px[k] < px[ext[0]])
            ext[0] = k;
        if (px[k] > px[ext[1]])
            ext[1] = k;
        if (py[k] < py[ext[2]])
            ext[2] = k;
        if (py[k] > py[ext[3]])
            ext[3] = k;
    }
    if (any)
        for (int k = 0; k < 4; k++)
            keep[ext[k]] = 1;
    size_t kept = 0;
    size_t i = 0;
    while (i < n) {
        if (!isfinite(px[i]) || !isfinite(py[i])) {   /* a break in the line */
            keep[i++] = 1;
            kept++;
            continue;
        }
        size_t last = i;     /* the unbroken run i..last */
        while (last + 1 < n && isfinite(px[last + 1]) && isfinite(py[last + 1]))
            last++;
        keep[i] = keep[last] = 1;
        /* the intervals between the points kept from the start */
        size_t top = 0;
        for (size_t a = i, b = i + 1; b <= last; b++) {
            if (!keep[b])
                continue;
            keep[b] = 1;     /* any non-zero mark counts: make it 1 */
            if (b > a + 1) {
                stack[2 * top] = a;
                stack[2 * top + 1] = b;
                top++;
            }
            a = b;
        }
        while (top > 0) {
            top--;
            size_t a = stack[2 * top], b = stack[2 * top + 1], far = a;
            double worst = -1;
            for (size_t k = a + 1; k < b; k++) {
                double d2 = seg_dist2(px[a], py[a], px[b], py[b], px[k], py[k]);
                if (d2 > worst) {
                    worst = d2;
                    far = k;
                }
            }
            if (worst <= tol2)
                continue;   /* every point between a and b is near the segment */
            keep[far] = 1;
            if (far > a + 1) {
                stack[2 * top] = a;
                stack[2 * top + 1] = far;
                top++;
            }
            if (b > far + 1) {
                stack[2 * top] = far;
                stack[2 * top + 1] = b;
                top++;
            }
        }
        for (size_t k = i; k <= last; k++)
            kept += keep[k];
        i = last + 1;
    }
    free(stack);
    if (nkept)
        *nkept = kept;
    return GSL_SUCCESS;
}

/* a series drawn as a plain line: its style is gnuplot's "lines" (or an
 * abbreviation of it) with options; points and other styles are drawn whole */
static int is_plain_line(const char *style)
{
    if (style == NULL)
        return 1;
    size_t len = strcspn(style, " \t");
    return len > 0 && strncmp(style, "lines", len) == 0;
}

/* an axis as the panel draws it: a coordinate on screen is scale * t(v), with
 * t = log10 on a log axis */
typedef struct {
    int log;
    double lo, hi;           /* the range of t(v), data first, NAN while empty */
} thin_axis;

static double axis_t(const thin_axis *a, double v)
{
    if (!a->log)
        return v;
    return v > 0 ? log10(v) : NAN;   /* gnuplot does not draw it: keep it */
}

static void axis_take(thin_axis *a, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double t = axis_t(a, v[i]);
        if (!isfinite(t))
            continue;
        if (!(t >= a->lo))
            a->lo = t;
        if (!(t <= a->hi))
            a->hi = t;
    }
}

/* "set NAMErange [lo:hi]" in the panel's extra commands overrides the data's
 * range at the ends it gives (a "*" or an empty end leaves the data's) */
static void axis_set_range(thin_axis *a, const char *extra, const char *name)
{
    char key[16];
    snprintf(key, sizeof key, "%srange", name);
    const char *p = extra ? strstr(extra, key) : NULL;
    if (p == NULL)
        return;
    p += strlen(key);
    p += strspn(p, " \t");
    if (*p != '[')
        return;
    p++;
    double end[2];
    int given[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        p += strspn(p, " \t");
        char *stop;
        double v = strtod(p, &stop);
        if (stop != p && isfinite(axis_t(a, v))) {
            end[k] = axis_t(a, v);
            given[k] = 1;
        }
        p = strchr(p, k == 0 ? ':' : ']');
        if (p == NULL)
            return;
        p++;
    }
    /* the range may be reversed ([0.5:-0.5]); only its length matters */
    if (given[0] && given[1]) {
        a->lo = fmin(end[0], end[1]);
        a->hi = fmax(end[0], end[1]);
    } else if (given[0]) {
        a->lo = end[0];
    } else if (given[1]) {
        a->hi = end[1];
    }
}

/* pixels per unit of t along an axis `pixels` long: the panel's whole size
 * over the range, an overestimate (the plot area is smaller, gnuplot widens
 * an autoscaled range to a tick), so thinning errs on the side of keeping */
static double axis_scale(const thin_axis *a, double pixels)
{
    double span = a->hi - a->lo;
    if (!(span > 0) || !isfinite(span))
        return 1.0;          /* one value on this axis: any scale draws it */
    return pixels / span;
}

/* Whether a panel maps data to the screen as thinning assumes: its extra
 * commands set no log scale (the mbd_panel flags do that), no polar or
 * parametric plot, no origin and no size other than a ratio (which only
 * shrinks the plot).  Otherwise the panel is drawn whole. */
static int mapping_known(const char *extra)
{
    if (extra == NULL)
        return 1;
    if (strstr(extra, "log") || strstr(extra, "polar") || strstr(extra, "parametric")
        || strstr(extra, "origin"))
        return 0;
    for (const char *p = strstr(extra, "set size"); p != NULL; p = strstr(p + 1, "set size")) {
        const char *q = p + strlen("set size");
        q += strspn(q, " \t");
        if (strncmp(q, "ratio", 5) != 0)
            return 0;
    }
    return 1;
}

/* The points of a series to write: keep[i] = 1 for each point a line through
 * them needs at the figure's resolution, or every point (keep NULL) for a
 * series drawn with points, or when the work space cannot be had. */
static const unsigned char *thin_series(const mbd_series *s, const thin_axis *ax,
                                        const thin_axis *ay, double pw, double ph,
                                        double *px, double *py, unsigned char *keep)
{
    if (keep == NULL || s->n < 3 || !is_plain_line(s->style))
        return NULL;
    double sx = axis_scale(ax, pw), sy = axis_scale(ay, ph);
    for (size_t i = 0; i < s->n; i++) {
        keep[i] = 0;
        /* a point gnuplot does not draw (non-finite, or not positive on a log
         * axis) is non-finite here: it is kept and nothing is dropped across it */
        px[i] = isfinite(s->y[i]) ? sx * axis_t(ax, s->x[i]) : NAN;
        py[i] = isfinite(s->x[i]) ? sy * axis_t(ay, s->y[i]) : NAN;
    }
    if (mbd_plot_thin(s->n, px, py, MBD_PLOT_THIN_PX, keep, NULL) != GSL_SUCCESS)
        return NULL;
    return keep;
}

static void write_panel(FILE *g, const mbd_panel *p, size_t panel_index, double pw, double ph)
{
    fprintf(g, "reset\nset grid\nset key top right\nset tics out\n");
    fprintf(g, "set format y '%%g'\nset format x '%%g'\n");
    if (p->title) {
        fprintf(g, "set title ");
        gp_string(g, p->title);
        fputc('\n', g);
    }
    if (p->xlabel) {
        fprintf(g, "set xlabel ");
        gp_string(g, p->xlabel);
        fputc('\n', g);
    }
    if (p->ylabel) {
        fprintf(g, "set ylabel ");
        gp_string(g, p->ylabel);
        fputc('\n', g);
    }
    if (p->logx)
        fprintf(g, "set logscale x\nset format x '10^{%%L}'\n");
    if (p->logy)
        fprintf(g, "set logscale y\nset format y '10^{%%L}'\n");
    int any_y2 = 0;
    for (size_t k = 0; k < p->nseries; k++)
        any_y2 |= p->series[k].y2;
    if (any_y2) {
        fprintf(g, "set ytics nomirror\nset y2tics\n");
        if (p->y2label) {
            fprintf(g, "set y2label ");
            gp_string(g, p->y2label);
            fputc('\n', g);
        }
        if (p->logy2)
            fprintf(g, "set logscale y2\nset format y2 '10^{%%L}'\n");
    }
    if (p->extra)
        fprintf(g, "%s\n", p->extra);

    /* the axes as drawn, for thinning: the data's range of the series on
     * each, or the range the extra commands set */
    thin_axis ax = {p->logx, NAN, NAN}, ay = {p->logy, NAN, NAN}, ay2 = {p->logy2, NAN, NAN};
    size_t nmax = 0;
    for (size_t k = 0; k < p->nseries; k++) {
        const mbd_series *s = &p->series[k];
        axis_take(&ax, s->x, s->n);
        axis_take(s->y2 ? &ay2 : &ay, s->y, s->n);
        if (s->n > nmax)
            nmax = s->n;
    }
    axis_set_range(&ax, p->extra, "x");
    axis_set_range(&ay, p->extra, "y");
    axis_set_range(&ay2, p->extra, "y2");
    const int thin = mapping_known(p->extra);
    double *px = thin ? malloc((nmax ? nmax : 1) * sizeof *px) : NULL;
    double *py = thin ? malloc((nmax ? nmax : 1) * sizeof *py) : NULL;
    unsigned char *keep = thin ? malloc(nmax ? nmax : 1) : NULL;
    if (px == NULL || py == NULL) {
        free(keep);
        keep = NULL;     /* no thinning: every point is written */
    }

    /* the data, as inline data blocks */
    for (size_t k = 0; k < p->nseries; k++) {
        const mbd_series *s = &p->series[k];
        const unsigned char *kept =
            thin_series(s, &ax, s->y2 ? &ay2 : &ay, pw, ph, px, py, keep);
        fprintf(g, "$d%zu_%zu << EOD\n", panel_index, k);
        for (size_t i = 0; i < s->n; i++) {
            double x = s->x[i], y = s->y[i];
            if (!isfinite(x) || !isfinite(y))
                fprintf(g, "\n");   /* a blank line breaks the curve */
            else if (kept == NULL || kept[i])
                fprintf(g, "%.10g %.10g\n", x, y);
        }
        fprintf(g, "EOD\n");
    }
    free(px);
    free(py);
    free(keep);
    fprintf(g, "plot ");
    for (size_t k = 0; k < p->nseries; k++) {
        const mbd_series *s = &p->series[k];
        const char *style = s->style ? s->style : "lines";
        /* a style that sets its own width keeps it */
        const int own_width = strstr(style, "lw") != NULL || strstr(style, "linewidth") != NULL;
        fprintf(g, "%s$d%zu_%zu using 1:2 %swith %s%s ", k ? ", " : "", panel_index, k,
                s->y2 ? "axes x1y2 " : "", style, own_width ? "" : " lw 2");
        if (s->label) {
            fprintf(g, "title ");
            gp_string(g, s->label);
        } else {
            fprintf(g, "notitle");
        }
    }
    fprintf(g, "\n");
}

int mbd_plot_svg(const char *path, const mbd_figure *fig, mbd_failure *fail)
{
    size_t rows = fig->rows ? fig->rows : 1, cols = fig->cols ? fig->cols : 1;
    double w = fig->width > 0 ? fig->width : 720.0 * (cols > 1 ? 0.75 * (double)cols : 1.0);
    double h = fig->height > 0 ? fig->height : 480.0 * (rows > 1 ? 0.75 * (double)rows : 1.0);

    /* say plainly when the file cannot be written, before gnuplot would fall
     * back to writing the SVG on standard output; draw into a temporary
     * file, renamed to path when whole */
    char part[4096];
    int st = mbd_gnuplot_partial(path, "figure", part, sizeof part, fail);
    if (st != GSL_SUCCESS)
        return st;
    mbd_gnuplot gp;
    st = mbd_gnuplot_open(&gp, fail);
    if (st != GSL_SUCCESS) {
        remove(part);
        return st;
    }
    FILE *g = gp.pipe;
    fprintf(g, "set terminal svg size %.0f,%.0f dynamic enhanced font 'Helvetica,13' "
               "background rgb 'white'\n", w, h);
    fprintf(g, "set output ");
    gp_quote(g, part, 0);   /* a file name, not enhanced text */
    fputc('\n', g);
    fprintf(g, "set encoding utf8\n");
    if (rows * cols > 1 || fig->title) {
        fprintf(g, "set multiplot layout %zu,%zu", rows, cols);
        if (fig->title) {
            fprintf(g, " title ");
            gp_string(g, fig->title);
        }
        fputc('\n', g);
    }
    for (size_t k = 0; k < rows * cols; k++)
        write_panel(g, &fig->panels[k], k, w / (double)cols, h / (double)rows);
    if (rows * cols > 1 || fig->title)
        fprintf(g, "unset multiplot\n");
    fprintf(g, "set output\n");
    st = mbd_gnuplot_close(&gp, path, fail);
    if (st == GSL_SUCCESS && rename(part, path) != 0)
        st = mbd_failure_set(fail, MBD_EIO, NAN, "cannot write figure '%s': %s", path,
                             strerror(errno));
    if (st != GSL_SUCCESS)
        remove(part);
    return st;
}

/* ------------------------------------------------------------------------ */

void mbd_report_failure(FILE *out, const char *program, const mbd_failure *f)
{
    if (isfinite(f->time))
        fprintf(out, "%s: at t = %.6g s: %s (%s)\n", program, f->time, f->cause,
                mbd_strerror(f->status));
    else
        fprintf(out, "%s: %s (%s)\n", program, f->cause, mbd_strerror(f->status));
}
