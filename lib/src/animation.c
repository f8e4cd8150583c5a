/* lib/src/animation.c -- recorded time histories as animated GIFs (animation.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "mbd/animation.h"
#include "mbd/io.h"
#include "gnuplot_impl.h"

/* ------------------------------------------------------------------------ */
/* Scenes                                                                    */

typedef enum { SHAPE_POLYLINE, SHAPE_POLYGON, SHAPE_CIRCLE } shape_type;

typedef struct {
    unsigned char kind, type;
    size_t first, n;            /* n points at pts[2 first ...]; a circle: x, y, r at pts[2 first] */
} shape;

struct mbd_scene {
    shape *shapes;
    size_t nshapes, cap_shapes;
    double *pts;                /* pairs */
    size_t npts, cap_pts;
    double tx, ty;              /* the traced point */
    int has_trace;
    double *label_xy;           /* the labels' anchors (pairs) */
    size_t *label_at;           /* each label's text at text[label_at[i]] */
    size_t nlabels, cap_labels;
    char *text;                 /* the labels' texts, each ended by '\0' */
    size_t ntext, cap_text;
    int status;                 /* GSL_ENOMEM once an addition failed */
};

static void scene_reset(mbd_scene *s)
{
    s->nshapes = s->npts = 0;
    s->has_trace = 0;
    s->nlabels = s->ntext = 0;
}

static int scene_add(mbd_scene *s, mbd_scene_kind kind, shape_type type, size_t n,
                     const double xy[], size_t ncoords)
{
    if (s->status != GSL_SUCCESS)
        return s->status;
    if ((unsigned)kind >= MBD_SCENE_KINDS)
        return s->status = GSL_EINVAL;
    const size_t pairs = (ncoords + 1) / 2;
    if (s->nshapes == s->cap_shapes) {
        size_t cap = s->cap_shapes ? 2 * s->cap_shapes : 32;
        shape *p = realloc(s->shapes, cap * sizeof *p);
        if (p == NULL)
            return s->status = GSL_ENOMEM;
        s->shapes = p;
        s->cap_shapes = cap;
    }
    if (s->npts + pairs > s->cap_pts) {
        size_t cap = s->cap_pts ? s->cap_pts : 128;
        while (cap < s->npts + pairs)
            cap *= 2;
        double *p = realloc(s->pts, 2 * cap * sizeof *p);
        if (p == NULL)
            return s->status = GSL_ENOMEM;
        s->pts = p;
        s->cap_pts = cap;
    }
    for (size_t i = 0; i < ncoords; i++)
        s->pts[2 * s->npts + i] = xy[i];
    if (ncoords % 2)
        s->pts[2 * s->npts + ncoords] = 0.0;
    s->shapes[s->nshapes++] = (shape){(unsigned char)kind, (unsigned char)type, s->npts, n};
    s->npts += pairs;
    return GSL_SUCCESS;
}

int mbd_scene_polyline(mbd_scene *s, mbd_scene_kind kind, size_t n, const double xy[])
{
    if (n < 2)
        return GSL_EINVAL;
    return scene_add(s, kind, SHAPE_POLYLINE, n, xy, 2 * n);
}

int mbd_scene_line(mbd_scene *s, mbd_scene_kind kind, double x0, double y0, double x1, double y1)
{
    const double xy[4] = {x0, y0, x1, y1};
    return mbd_scene_polyline(s, kind, 2, xy);
}

int mbd_scene_polygon(mbd_scene *s, mbd_scene_kind kind, size_t n, const double xy[])
{
    if (n < 3)
        return GSL_EINVAL;
    return scene_add(s, kind, SHAPE_POLYGON, n, xy, 2 * n);
}

int mbd_scene_circle(mbd_scene *s, mbd_scene_kind kind, double x, double y, double r)
{
    if (!(r > 0))
        return GSL_EINVAL;
    const double c[3] = {x, y, r};
    return scene_add(s, kind, SHAPE_CIRCLE, 1, c, 3);
}

int mbd_scene_box(mbd_scene *s, mbd_scene_kind kind, double x, double y, double a, double b,
                  double angle)
{
    const double c = cos(angle), sn = sin(angle);
    const double u[4][2] = {{-a, -b}, {a, -b}, {a, b}, {-a, b}};
    double xy[8];
    for (int i = 0; i < 4; i++) {
        xy[2 * i] = x + c * u[i][0] - sn * u[i][1];
        xy[2 * i + 1] = y + sn * u[i][0] + c * u[i][1];
    }
    return mbd_scene_polygon(s, kind, 4, xy);
}

/* >> scene-label */
int mbd_scene_label(mbd_scene *s, double x, double y, const char *text)
{
    if (s->status != GSL_SUCCESS)
        return s->status;
    if (text == NULL || !isfinite(x) || !isfinite(y))
        return GSL_EINVAL;
    const size_t len = strlen(text) + 1;
    if (s->nlabels == s->cap_labels) {
        const size_t cap = s->cap_labels ? 2 * s->cap_labels : 4;
        double *xy = realloc(s->label_xy, 2 * cap * sizeof *xy);
        if (xy == NULL)
            return s->status = GSL_ENOMEM;
        s->label_xy = xy;
        size_t *at = realloc(s->label_at, cap * sizeof *at);
        if (at == NULL)
            return s->status = GSL_ENOMEM;
        s->label_at = at;
        s->cap_labels = cap;
    }
    if (s->ntext + len > s->cap_text) {
        size_t cap = s->cap_text ? s->cap_text : 256;
        while (cap < s->ntext + len)
            cap *= 2;
        char *p = realloc(s->text, cap);
        if (p == NULL)
            return s->status = GSL_ENOMEM;
        s->text = p;
        s->cap_text = cap;
    }
    memcpy(s->text + s->ntext, text, len);
    s->label_xy[2 * s->nlabels] = x;
    s->label_xy[2 * s->nlabels + 1] = y;
    s->label_at[s->nlabels++] = s->ntext;
    s->ntext += len;
    return GSL_SUCCESS;
}
/* << scene-label */

void mbd_scene_trace(mbd_scene *s, double x, double y)
{
    s->tx = x;
    s->ty = y;
    s->has_trace = 1;
}

/* the box [b0, b1] x [b2, b3] grown to hold the scene's shapes */
static void scene_bounds(const mbd_scene *s, double b[4])
{
    for (size_t i = 0; i < s->nshapes; i++) {
        const shape *sh = &s->shapes[i];
        const double *p = s->pts + 2 * sh->first;
        if (sh->type == SHAPE_CIRCLE) {
            b[0] = fmin(b[0], p[0] - p[2]);
            b[1] = fmax(b[1], p[0] + p[2]);
            b[2] = fmin(b[2], p[1] - p[2]);
            b[3] = fmax(b[3], p[1] + p[2]);
            continue;
        }
        for (size_t k = 0; k < sh->n; k++) {
            if (!isfinite(p[2 * k]) || !isfinite(p[2 * k + 1]))
                continue;
            b[0] = fmin(b[0], p[2 * k]);
            b[1] = fmax(b[1], p[2 * k]);
            b[2] = fmin(b[2], p[2 * k + 1]);
            b[3] = fmax(b[3], p[2 * k + 1]);
        }
    }
    for (size_t i = 0; i < s->nlabels; i++) {   /* a label's anchor is in the view */
        b[0] = fmin(b[0], s->label_xy[2 * i]);
        b[1] = fmax(b[1], s->label_xy[2 * i]);
        b[2] = fmin(b[2], s->label_xy[2 * i + 1]);
        b[3] = fmax(b[3], s->label_xy[2 * i + 1]);
    }
    if (s->has_trace && isfinite(s->tx) && isfinite(s->ty)) {
        b[0] = fmin(b[0], s->tx);
        b[1] = fmax(b[1], s->tx);
        b[2] = fmin(b[2], s->ty);
        b[3] = fmax(b[3], s->ty);
    }
}

/* ------------------------------------------------------------------------ */
/* Frames and delays                                                         */

size_t mbd_animation_frames(double t0, double t_end, double fps, double speed)
{
    const double span = t_end - t0;
    if (!isfinite(span) || span < 0 || !(fps > 0) || !(speed > 0) || !isfinite(fps)
        || !isfinite(speed))
        return 0;
    const double k = floor(span * fps / speed + 1e-9);
    if (!(k < 1e15))
        return (size_t)-1;   /* too many to count: over any limit */
    return (size_t)k + 1;
}

long mbd_animation_delay(size_t k, size_t K, size_t stride, double fps)
{
    size_t next = k + (stride ? stride : 1);
    if (next > K)
        next = K;
    return lround(100.0 * (double)next / fps) - lround(100.0 * (double)k / fps);
}

void mbd_animation_init(mbd_animation *a)
{
    memset(a, 0, sizeof *a);
    a->fps = MBD_ANIMATION_FPS_DEFAULT;
    a->speed = 1.0;
    a->t0 = NAN;
    a->t_end = NAN;
}

/* ------------------------------------------------------------------------ */
/* The GIF's blocks: frames counted, delays set                              */

/* Walks the GIF in buf (len bytes): counts its images (*frames) and sets the
 * delay of the i-th graphic control extension to delays[i] (i < ndelays;
 * delays may be NULL). -1 when the data are not a well-formed GIF. */
static int gif_walk(unsigned char *buf, size_t len, const long *delays, size_t ndelays,
                    size_t *frames)
{
    size_t at = 13, ngce = 0;
    *frames = 0;
    if (len < 13 || (memcmp(buf, "GIF89a", 6) != 0 && memcmp(buf, "GIF87a", 6) != 0))
        return -1;
    if (buf[10] & 0x80)
        at += 3u * (1u << ((buf[10] & 7) + 1));
    while (at < len) {
        const unsigned char b = buf[at++];
        if (b == 0x3B)
            return 0;   /* the trailer */
        if (b == 0x21) {
            if (at >= len)
                return -1;
            const unsigned char label = buf[at++];
            if (label == 0xF9 && at + 5 < len && buf[at] == 4) {
                if (delays != NULL && ngce < ndelays) {
                    buf[at + 2] = (unsigned char)(delays[ngce] & 0xFF);
                    buf[at + 3] = (unsigned char)((delays[ngce] >> 8) & 0xFF);
                }
                ngce++;
            }
        } else if (b == 0x2C) {
            if (at + 9 > len)
                return -1;
            const unsigned char packed = buf[at + 8];
            at += 9;
            if (packed & 0x80)
                at += 3u * (1u << ((packed & 7) + 1));
            at++;   /* the LZW minimum code size */
            (*frames)++;
        } else {
            return -1;
        }
        /* the data sub-blocks, up to the empty one */
        while (at < len && buf[at] != 0)
            at += (size_t)buf[at] + 1;
        if (at >= len)
            return -1;
        at++;
    }
    return -1;   /* no trailer */
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */

#define DEFAULT_COLOUR "#1f4e79"
#define TRACE_STYLE "lines lw 2 lc rgb '#e69f00'"
#define TRACE_THIN_PX 0.25

/* the gnuplot style of a kind's shapes (colour: the panel's) */
static void shape_style(char *buf, size_t size, unsigned kind, shape_type type, const char *colour)
{
    switch (kind) {
    case MBD_SCENE_GUIDE:
        if (type == SHAPE_CIRCLE)
            snprintf(buf, size, "circles fs empty lw 1 dt 2 lc rgb 'gray55'");
        else if (type == SHAPE_POLYGON)
            snprintf(buf, size, "lines lw 1 dt 2 lc rgb 'gray55'");
        else
            snprintf(buf, size, "lines lw 1 dt 2 lc rgb 'gray55'");
        break;
    case MBD_SCENE_GROUND:
        if (type == SHAPE_POLYLINE)
            snprintf(buf, size, "lines lw 3 lc rgb 'gray35'");
        else if (type == SHAPE_POLYGON)
            snprintf(buf, size, "filledcurves closed fs solid 1.0 noborder fc rgb 'gray35'");
        else
            snprintf(buf, size, "circles fs solid 1.0 noborder fc rgb 'gray35'");
        break;
    case MBD_SCENE_BODY:
        if (type == SHAPE_POLYLINE)
            snprintf(buf, size, "lines lw 4 lc rgb '%s'", colour);
        else if (type == SHAPE_POLYGON)
            snprintf(buf, size, "filledcurves closed fs solid 1.0 noborder fc rgb '%s'", colour);
        else
            snprintf(buf, size, "circles fs empty lw 3 lc rgb '%s'", colour);
        break;
    case MBD_SCENE_MASS:
        if (type == SHAPE_POLYLINE)
            snprintf(buf, size, "lines lw 2 lc rgb '%s'", colour);
        else if (type == SHAPE_POLYGON)
            snprintf(buf, size, "filledcurves closed fs solid 1.0 noborder fc rgb '%s'", colour);
        else
            snprintf(buf, size, "circles fs solid 1.0 noborder fc rgb '%s'", colour);
        break;
    default:   /* MBD_SCENE_JOINT */
        if (type == SHAPE_POLYLINE)
            snprintf(buf, size, "lines lw 1.5 lc rgb 'black'");
        else if (type == SHAPE_POLYGON)
            snprintf(buf, size, "filledcurves closed fs solid 1.0 border lc rgb 'black' "
                                "fc rgb 'white'");
        else
            snprintf(buf, size, "circles fs solid 1.0 border lc rgb 'black' fc rgb 'white' "
                                "lw 1.5");
        break;
    }
}

/* the data of one kind and type: blank lines between shapes (each polygon
 * filled on its own) */
static void write_shapes(FILE *g, const mbd_scene *s, unsigned kind, shape_type type)
{
    int first = 1;
    for (size_t i = 0; i < s->nshapes; i++) {
        const shape *sh = &s->shapes[i];
        if (sh->kind != kind || sh->type != type)
            continue;
        const double *p = s->pts + 2 * sh->first;
        if (!first && type != SHAPE_CIRCLE)
            fputc('\n', g);
        first = 0;
        if (type == SHAPE_CIRCLE) {
            fprintf(g, "%.9g %.9g %.9g\n", p[0], p[1], p[2]);
            continue;
        }
        for (size_t k = 0; k < sh->n; k++)
            fprintf(g, "%.9g %.9g\n", p[2 * k], p[2 * k + 1]);
        if (type == SHAPE_POLYGON && kind == MBD_SCENE_GUIDE)   /* an outline: closed */
            fprintf(g, "%.9g %.9g\n", p[0], p[1]);
    }
    fprintf(g, "e\n");
}

static int has_shapes(const mbd_scene *s, unsigned kind, shape_type type)
{
    for (size_t i = 0; i < s->nshapes; i++)
        if (s->shapes[i].kind == kind && s->shapes[i].type == type)
            return 1;
    return 0;
}

/* One panel's work: its rows, its trace. */
typedef struct {
    const mbd_animation_panel *p;
    size_t first, last;         /* the rows drawn: t0 <= t <= the last frame */
    double *tr;                 /* trace points (pairs) of rows first ... last; NAN: none */
    size_t *upto;               /* kept trace points up to and including each row */
    unsigned char *keep;
    size_t nkept;
} panel_work;

static double row_tol(double dt_frame) { return 1e-9 * dt_frame; }

/* A number for a frame's text: enough digits to tell frames apart. */
static int time_digits(double dt_frame)
{
    int d = (int)ceil(-log10(dt_frame)) + 1;
    return d < 2 ? 2 : d > 6 ? 6 : d;
}

typedef struct {
    const mbd_animation *a;
    const mbd_animation_panel *panels;
    size_t np;
    panel_work *w;
    mbd_scene *scene;
    size_t K;
    double t0, dt_frame;
    double view[4];
} job;

/* The frames into `out` through gnuplot, width w per panel, height h,
 * every stride-th frame. */
static int draw_gif(const job *J, const char *out, const char *path, double w, double h,
                    size_t stride, mbd_failure *fail)
{
    mbd_gnuplot gp;
    int st = mbd_gnuplot_open(&gp, fail);
    if (st != GSL_SUCCESS)
        return st;
    FILE *g = gp.pipe;
    const double fps = J->a->fps;
    const int multi = J->np > 1 || J->a->title != NULL;
    fprintf(g, "set terminal gif animate delay %ld size %.0f,%.0f enhanced "
               "font 'DejaVu Sans,9' loop 0\n",
            mbd_animation_delay(0, J->K, stride, fps), w * (double)J->np, h);
    fprintf(g, "set output ");
    mbd_gnuplot_quote(g, out, 0);
    fprintf(g, "\nset encoding utf8\nunset key\nset size ratio -1\n");
    fprintf(g, "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", J->view[0], J->view[1],
            J->view[2], J->view[3]);
    fprintf(g, "set tics font ',8' nomirror out\nset border 3 lc rgb 'gray50'\n");
    if (J->a->xlabel) {
        fprintf(g, "set xlabel ");
        mbd_gnuplot_quote(g, J->a->xlabel, 1);
        fprintf(g, " font ',8' offset 0,0.5\n");
    }
    if (J->a->ylabel) {
        fprintf(g, "set ylabel ");
        mbd_gnuplot_quote(g, J->a->ylabel, 1);
        fprintf(g, " font ',8' offset 1,0\n");
    }
    /* each panel's trace, once */
    for (size_t j = 0; j < J->np; j++) {
        const panel_work *pw = &J->w[j];
        if (pw->nkept == 0)
            continue;
        fprintf(g, "$trace%zu << EOD\n", j);
        for (size_t r = 0; r <= pw->last - pw->first; r++)
            if (pw->keep[r]) {
                if (isfinite(pw->tr[2 * r]) && isfinite(pw->tr[2 * r + 1]))
                    fprintf(g, "%.9g %.9g\n", pw->tr[2 * r], pw->tr[2 * r + 1]);
                else
                    fprintf(g, "NaN NaN\n");
            }
        fprintf(g, "EOD\n");
    }

    const double tol = row_tol(J->dt_frame);
    const int digits = time_digits(J->dt_frame);
    const char *vname = J->a->violation ? J->a->violation : "|C|";
    for (size_t k = 0; k < J->K && st == GSL_SUCCESS; k += stride) {
        const double tk = J->t0 + (double)k * J->dt_frame;
        if (multi) {
            fprintf(g, "set multiplot layout 1,%zu", J->np);
            if (J->a->title) {
                fprintf(g, " title ");
                mbd_gnuplot_quote(g, J->a->title, 1);
                fprintf(g, " font ',10'");
            }
            fputc('\n', g);
        }
        for (size_t j = 0; j < J->np && st == GSL_SUCCESS; j++) {
            const panel_work *pw = &J->w[j];
            const mbd_history *hist = pw->p->hist;
            size_t r = mbd_history_row_at(hist, tk + tol);
            if (r < pw->first)
                r = pw->first;
            if (r > pw->last)
                r = pw->last;
            const int stopped = hist->t[hist->rows - 1] < tk - tol;
            scene_reset(J->scene);
            st = pw->p->draw(pw->p->ctx, hist->t[r], mbd_history_q(hist, r),
                             mbd_history_qd(hist, r), J->scene);
            if (st == GSL_SUCCESS)
                st = J->scene->status;
            if (st != GSL_SUCCESS) {
                mbd_failure_set(fail, st, hist->t[r], "drawing the state at t = %g failed: %s",
                                hist->t[r], mbd_strerror(st));
                break;
            }
            /* the title: the panel's, then the row's time and violation (always
             * the same number of lines, so the view never moves) */
            char text[512];
            snprintf(text, sizeof text, "%s%st = %.*f s    %s = %.2e%s%s", pw->p->title ? pw->p->title : "",
                     pw->p->title ? "\n" : "", digits, hist->t[r], vname, hist->C_norm[r],
                     stopped ? "    stopped" : "",
                     stopped && pw->p->stop_note ? ": " : "");
            if (stopped && pw->p->stop_note) {
                const size_t used = strlen(text);
                snprintf(text + used, sizeof text - used, "%s", pw->p->stop_note);
            }
            fprintf(g, "set title ");
            mbd_gnuplot_quote(g, text, 1);
            fprintf(g, "%s\n", stopped ? " tc rgb '#c00000'" : " tc rgb 'black'");

            /* the clauses, then their data */
            const char *colour = pw->p->colour ? pw->p->colour : DEFAULT_COLOUR;
            char style[160];
            int any = 0;
            const size_t row = r - pw->first;
            const int cur = J->scene->has_trace && isfinite(J->scene->tx)
                            && isfinite(J->scene->ty);
            /* the scene's labels, over everything, for this panel only */
            for (size_t i = 0; i < J->scene->nlabels; i++) {
                fprintf(g, "set label %zu ", i + 1);
                mbd_gnuplot_quote(g, J->scene->text + J->scene->label_at[i], 1);
                fprintf(g, " at %.9g,%.9g left front tc rgb 'black'\n", J->scene->label_xy[2 * i],
                        J->scene->label_xy[2 * i + 1]);
            }
            fprintf(g, "plot ");
            for (unsigned kind = 0; kind < MBD_SCENE_KINDS; kind++) {
                if (kind == MBD_SCENE_BODY) {   /* the trace, under the bodies */
                    if (pw->nkept > 0 && pw->upto[row] > 0) {
                        fprintf(g, "%s$trace%zu every ::0::%zu with " TRACE_STYLE, any ? ", " : "",
                                j, pw->upto[row] - 1);
                        any = 1;
                    }
                    if (cur && pw->nkept > 0 && pw->upto[row] > 0) {
                        fprintf(g, "%s'-' with " TRACE_STYLE, any ? ", " : "");
                        any = 1;
                    }
                }
                for (int type = 0; type < 3; type++)
                    if (has_shapes(J->scene, kind, (shape_type)type)) {
                        shape_style(style, sizeof style, kind, (shape_type)type, colour);
                        fprintf(g, "%s'-' with %s", any ? ", " : "", style);
                        any = 1;
                    }
            }
            if (!any)   /* nothing to draw: an empty frame all the same */
                fprintf(g, "NaN notitle");
            fputc('\n', g);
            for (unsigned kind = 0; kind < MBD_SCENE_KINDS; kind++) {
                if (kind == MBD_SCENE_BODY && cur && pw->nkept > 0 && pw->upto[row] > 0) {
                    /* from the last trace point written to this row's */
                    size_t last = 0;
                    for (size_t i = row + 1; i-- > 0;)
                        if (pw->keep[i]) {
                            last = i;
                            break;
                        }
                    if (isfinite(pw->tr[2 * last]) && isfinite(pw->tr[2 * last + 1]))
                        fprintf(g, "%.9g %.9g\n", pw->tr[2 * last], pw->tr[2 * last + 1]);
                    fprintf(g, "%.9g %.9g\ne\n", J->scene->tx, J->scene->ty);
                }
                for (int type = 0; type < 3; type++)
                    if (has_shapes(J->scene, kind, (shape_type)type))
                        write_shapes(g, J->scene, kind, (shape_type)type);
            }
            if (J->scene->nlabels > 0)
                fprintf(g, "unset label\n");
        }
        if (multi)
            fprintf(g, "unset multiplot\n");
    }
    fprintf(g, "set output\n");
    mbd_failure gfail;
    const int cst = mbd_gnuplot_close(&gp, path, &gfail);
    if (st != GSL_SUCCESS)
        return st;   /* the drawing's own failure, said already */
    if (cst != GSL_SUCCESS)
        *fail = gfail;
    return cst;
}

/* Reads the GIF gnuplot wrote, sets each frame's delay, writes it back;
 * *bytes gets its size. */
static int set_delays(const char *out, const char *path, const job *J, size_t stride,
                      long *bytes, mbd_failure *fail)
{
    FILE *f = fopen(out, "rb");
    if (f == NULL)
        return mbd_failure_set(fail, MBD_EEXTERNAL, NAN, "gnuplot wrote no animation for '%s'",
                               path);
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : (size_t)1 << 20;
            unsigned char *nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
            }
            buf = nb;
        }
        const size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    fclose(f);
    const size_t nframes = (J->K + stride - 1) / stride;
    long *delays = malloc(nframes * sizeof *delays);
    if (delays == NULL) {
        free(buf);
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    }
    int st = GSL_SUCCESS;
    for (size_t j = 0; j < nframes; j++) {
        delays[j] = mbd_animation_delay(j * stride, J->K, stride, J->a->fps);
        if (delays[j] < 1 || delays[j] > 65535)
            st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                                 "animation '%s': a frame delay of %ld cs does not fit a GIF", path,
                                 delays[j]);
    }
    size_t frames = 0;
    if (st == GSL_SUCCESS && gif_walk(buf, len, delays, nframes, &frames) != 0)
        st = mbd_failure_set(fail, MBD_EEXTERNAL, NAN, "gnuplot wrote a malformed GIF for '%s'",
                             path);
    if (st == GSL_SUCCESS && frames != nframes)
        st = mbd_failure_set(fail, MBD_EEXTERNAL, NAN,
                             "gnuplot wrote %zu frames for '%s', not the %zu drawn", frames, path,
                             nframes);
    if (st == GSL_SUCCESS) {
        f = fopen(out, "wb");
        if (f == NULL || fwrite(buf, 1, len, f) != len)
            st = mbd_failure_set(fail, MBD_EIO, NAN, "cannot write animation '%s': %s", path,
                                 strerror(errno));
        if (f != NULL && fclose(f) != 0 && st == GSL_SUCCESS)
            st = mbd_failure_set(fail, MBD_EIO, NAN, "cannot write animation '%s': %s", path,
                                 strerror(errno));
    }
    *bytes = (long)len;
    free(delays);
    free(buf);
    return st;
}

/* Finds the rows each panel draws, the view over all of them and the trace
 * points. */
static int survey(job *J, mbd_failure *fail)
{
    const double t_last = J->t0 + (double)(J->K - 1) * J->dt_frame, tol = row_tol(J->dt_frame);
    double b[4] = {HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
    for (size_t j = 0; j < J->np; j++) {
        panel_work *pw = &J->w[j];
        const mbd_history *h = pw->p->hist;
        pw->first = mbd_history_row_at(h, J->t0 + tol);
        if (h->t[pw->first] < J->t0 - tol && pw->first + 1 < h->rows)
            pw->first++;
        pw->last = mbd_history_row_at(h, t_last + tol);
        if (pw->last < pw->first)
            pw->last = pw->first;
        const size_t n = pw->last - pw->first + 1;
        pw->tr = malloc(2 * n * sizeof *pw->tr);
        pw->upto = malloc(n * sizeof *pw->upto);
        pw->keep = calloc(n, 1);
        if (pw->tr == NULL || pw->upto == NULL || pw->keep == NULL)
            return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
        int any_trace = 0;
        for (size_t r = 0; r < n; r++) {
            const size_t row = pw->first + r;
            scene_reset(J->scene);
            int st = pw->p->draw(pw->p->ctx, h->t[row], mbd_history_q(h, row),
                                 mbd_history_qd(h, row), J->scene);
            if (st == GSL_SUCCESS)
                st = J->scene->status;
            if (st != GSL_SUCCESS)
                return mbd_failure_set(fail, st, h->t[row], "drawing the state at t = %g failed: %s",
                                       h->t[row], mbd_strerror(st));
            scene_bounds(J->scene, b);
            pw->tr[2 * r] = J->scene->has_trace ? J->scene->tx : NAN;
            pw->tr[2 * r + 1] = J->scene->has_trace ? J->scene->ty : NAN;
            any_trace |= J->scene->has_trace;
        }
        pw->nkept = any_trace ? 1 : 0;   /* thinned once the view is known */
    }
    if (!(b[1] >= b[0]) || !(b[3] >= b[2]))
        return mbd_failure_set(fail, MBD_EINPUT, NAN, "the animation has nothing to draw");
    /* a margin of 6% of the larger side; a point alone gets a unit box */
    double span = fmax(b[1] - b[0], b[3] - b[2]);
    if (!(span > 0))
        span = 1.0;
    const double m = 0.06 * span;
    J->view[0] = b[0] - m;
    J->view[1] = b[1] + m;
    J->view[2] = b[2] - m;
    J->view[3] = b[3] + m;
    return GSL_SUCCESS;
}

/* The trace points the eye can tell apart at `scale` pixels per unit. */
static int thin_traces(job *J, double scale, mbd_failure *fail)
{
    for (size_t j = 0; j < J->np; j++) {
        panel_work *pw = &J->w[j];
        if (pw->nkept == 0)
            continue;
        const size_t n = pw->last - pw->first + 1;
        double *px = malloc(2 * n * sizeof *px);
        if (px == NULL)
            return mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
        for (size_t r = 0; r < n; r++) {
            px[r] = (pw->tr[2 * r] - J->view[0]) * scale;
            px[n + r] = (pw->tr[2 * r + 1] - J->view[2]) * scale;
        }
        int st = mbd_plot_thin(n, px, px + n, TRACE_THIN_PX, pw->keep, &pw->nkept);
        free(px);
        if (st != GSL_SUCCESS)
            return mbd_failure_set(fail, st, NAN, "out of memory");
        size_t c = 0;
        for (size_t r = 0; r < n; r++) {
            c += pw->keep[r] != 0;
            pw->upto[r] = c;
        }
    }
    return GSL_SUCCESS;
}

/* The canvas height for width w per panel: the plot's area takes the view's
 * shape; the title lines, tics and labels take the rest. */
static double canvas_height(const job *J, double w)
{
    const double aspect = (J->view[3] - J->view[2]) / (J->view[1] - J->view[0]);
    double h = (w - 70.0) * aspect + 95.0 + (J->np > 1 || J->a->title ? 18.0 : 0.0);
    if (h < 0.5 * w)
        h = 0.5 * w;
    if (h > 1.6 * w)
        h = 1.6 * w;
    return floor(h);
}

static void free_job(job *J)
{
    if (J->scene) {
        free(J->scene->shapes);
        free(J->scene->pts);
        free(J->scene->label_xy);
        free(J->scene->label_at);
        free(J->scene->text);
        free(J->scene);
    }
    if (J->w)
        for (size_t j = 0; j < J->np; j++) {
            free(J->w[j].tr);
            free(J->w[j].upto);
            free(J->w[j].keep);
        }
    free(J->w);
}

int mbd_animation_gif(const char *path, const mbd_animation *a, const mbd_animation_panel *panels,
                      size_t npanels, mbd_animation_report *rep, mbd_failure *fail)
{
    mbd_failure local;
    if (fail == NULL)
        fail = &local;
    if (!(a->fps >= MBD_ANIMATION_FPS_MIN && a->fps <= MBD_ANIMATION_FPS_MAX))
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "animation: %g frames per second is outside [%g, %g]", a->fps,
                               MBD_ANIMATION_FPS_MIN, MBD_ANIMATION_FPS_MAX);
    if (!(a->speed >= MBD_ANIMATION_SPEED_MIN && a->speed <= MBD_ANIMATION_SPEED_MAX))
        return mbd_failure_set(fail, MBD_EINPUT, NAN, "animation: speed %g is outside [%g, %g]",
                               a->speed, MBD_ANIMATION_SPEED_MIN, MBD_ANIMATION_SPEED_MAX);
    if (npanels == 0 || npanels > 4)
        return mbd_failure_set(fail, MBD_EINPUT, NAN, "animation: %zu panels (1 to 4)", npanels);
    double t0 = HUGE_VAL, t1 = -HUGE_VAL;
    for (size_t j = 0; j < npanels; j++) {
        const mbd_history *h = panels[j].hist;
        if (h == NULL || h->rows == 0 || panels[j].draw == NULL)
            return mbd_failure_set(fail, MBD_EINPUT, NAN, "animation: panel %zu has no %s", j + 1,
                                   panels[j].draw == NULL ? "drawing" : "recorded rows");
        t0 = fmin(t0, h->t[0]);
        t1 = fmax(t1, h->t[h->rows - 1]);
    }
    if (isfinite(a->t0))
        t0 = a->t0;
    if (isfinite(a->t_end))
        t1 = a->t_end;
    job J = {.a = a, .panels = panels, .np = npanels, .t0 = t0, .dt_frame = a->speed / a->fps};
    J.K = mbd_animation_frames(t0, t1, a->fps, a->speed);
    if (J.K == 0)
        return mbd_failure_set(fail, MBD_EINPUT, NAN, "animation: no frame in t = %g ... %g s", t0,
                               t1);
    if (J.K > MBD_ANIMATION_MAX_FRAMES)
        return mbd_failure_set(fail, MBD_EINPUT, NAN,
                               "animation: %g s at %g frames per second and speed %g would be "
                               "%.3g frames, more than %d",
                               t1 - t0, a->fps, a->speed,
                               J.K == (size_t)-1 ? HUGE_VAL : (double)J.K,
                               MBD_ANIMATION_MAX_FRAMES);

    char out[4096];
    int st = mbd_gnuplot_partial(path, "animation", out, sizeof out, fail);
    if (st != GSL_SUCCESS)
        return st;
    J.w = calloc(npanels, sizeof *J.w);
    J.scene = calloc(1, sizeof *J.scene);
    if (J.w == NULL || J.scene == NULL)
        st = mbd_failure_set(fail, GSL_ENOMEM, NAN, "out of memory");
    for (size_t j = 0; st == GSL_SUCCESS && j < npanels; j++)
        J.w[j].p = &panels[j];
    if (st == GSL_SUCCESS)
        st = survey(&J, fail);

    double w = a->width > 0 ? a->width : MBD_ANIMATION_WIDTH;
    const double w_asked = w;
    if (st == GSL_SUCCESS)
        st = thin_traces(&J, (w - 70.0) / (J.view[1] - J.view[0]), fail);

    /* draw; over the size limit, again smaller, then with fewer frames */
    const size_t max_bytes = a->max_bytes ? a->max_bytes : MBD_ANIMATION_MAX_BYTES;
    size_t stride = 1;
    long bytes = 0, first_bytes = 0;
    double h = 0;
    for (int attempt = 0; st == GSL_SUCCESS; attempt++) {
        h = canvas_height(&J, w);
        st = draw_gif(&J, out, path, w, h, stride, fail);
        if (st == GSL_SUCCESS)
            st = set_delays(out, path, &J, stride, &bytes, fail);
        if (st != GSL_SUCCESS)
            break;
        if (attempt == 0)
            first_bytes = bytes;
        if ((size_t)bytes <= max_bytes)
            break;
        if (attempt >= 8 || (size_t)(J.K + stride - 1) / stride <= 1) {
            st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                                 "animation '%s': %ld bytes even at %.0f px and every %zu-th "
                                 "frame, more than %zu", path, bytes, w, stride, max_bytes);
            break;
        }
        /* the size goes roughly with the pixels drawn and with the frames */
        const double ratio = 0.85 * (double)max_bytes / (double)bytes;
        if (w > MBD_ANIMATION_MIN_WIDTH) {
            w = fmax(MBD_ANIMATION_MIN_WIDTH, floor(w * sqrt(ratio)));
        } else {
            stride = (size_t)ceil((double)stride / ratio);
        }
    }

    size_t repeated = 0;
    if (st == GSL_SUCCESS) {
        /* frames that show the row of the frame before while its run went on */
        const double tol = row_tol(J.dt_frame);
        for (size_t j = 0; j < npanels; j++) {
            const mbd_history *hist = panels[j].hist;
            size_t prev = (size_t)-1;
            for (size_t k = 0; k < J.K; k += stride) {
                const double tk = J.t0 + (double)k * J.dt_frame;
                const size_t r = mbd_history_row_at(hist, tk + tol);
                if (r == prev && hist->t[hist->rows - 1] >= tk - tol)
                    repeated++;
                prev = r;
            }
        }
        if (rename(out, path) != 0)
            st = mbd_failure_set(fail, MBD_EIO, NAN, "cannot write animation '%s': %s", path,
                                 strerror(errno));
    }
    if (st != GSL_SUCCESS) {
        remove(out);
        free_job(&J);
        return st;
    }
    const char *who = a->program ? a->program : "animation";
    if (a->notes && (w != w_asked || stride > 1))
        fprintf(a->notes,
                "%s: animation '%s' would be %.2f MB at %.0f px per panel, over the %.2f MB "
                "limit: drawn at %.0fx%.0f px%s",
                who, path, 1e-6 * (double)first_bytes, w_asked, 1e-6 * (double)max_bytes,
                w * (double)npanels, h, stride > 1 ? ", " : " (");
    if (a->notes && stride > 1)
        fprintf(a->notes, "one frame in %zu (%.3g frames per second, the timing kept; %.2f MB)\n",
                stride, a->fps / (double)stride, 1e-6 * (double)bytes);
    else if (a->notes && w != w_asked)
        fprintf(a->notes, "%.2f MB)\n", 1e-6 * (double)bytes);
    if (a->notes && repeated > 0)
        fprintf(a->notes,
                "%s: animation '%s': %zu frames repeat the row before: the run's outputs are "
                "farther apart than a frame's %g s of simulated time (a finer output spacing "
                "gives every frame its own)\n",
                who, path, repeated, J.dt_frame);
    if (rep) {
        rep->frames_nominal = J.K;
        rep->frames = (J.K + stride - 1) / stride;
        rep->stride = stride;
        rep->t0 = t0;
        rep->t_end = t1;
        rep->duration = 0.01 * (double)lround(100.0 * (double)J.K / a->fps);
        rep->width = w * (double)npanels;
        rep->height = h;
        rep->bytes = bytes;
        rep->repeated_rows = repeated;
        memcpy(rep->view, J.view, sizeof J.view);
    }
    free_job(&J);
    return GSL_SUCCESS;
}
