/* mbd/animation.h -- the output end of the pipeline, moving: a run's recorded
 * time history drawn frame by frame into an animated GIF through gnuplot.
 *
 * A chapter says what one state looks like (a drawing callback that turns
 * the positions q into lines, circles and filled shapes in model coordinates,
 * and names the point whose path is traced); this module does the rest, the
 * same way for every chapter: which recorded row each frame shows, the fixed
 * view, the time and the constraint violation in the frame, the trace, the
 * GIF's frame delays, its size, and its errors.
 *
 * Frames. At F frames per second of real time and speed S (simulated seconds
 * per real second; S < 1 is slow motion), frame k stands for the simulated
 * time t_k = t0 + k S / F, k = 0 ... K - 1, with K = floor((t_end - t0) F / S)
 * + 1 (mbd_animation_frames): the animation lasts K / F seconds and each
 * frame appears at its own simulated time divided by S.
 *
 * Frames and recorded rows. Frame k shows, in each panel, the recorded row of
 * that panel's history at t_k: the last row with t <= t_k (1e-9 of a frame's
 * spacing is allowed for rounding; mbd_history_row_at). Nothing is
 * interpolated: every mechanism drawn is a state the run computed and
 * recorded, and the time written in the frame is that row's. The run's rows
 * come from the run driver (run.h), on its output grid by the integrator's
 * dense output where a step spans several outputs, so a run whose output
 * spacing divides the frames' spacing S / F (the chapters' 1e-4 s or 1e-3 s
 * for 0.04 s) has a row at every frame time exactly. Where the output grid is
 * finer than the frames, the rows between frames are not drawn as mechanisms
 * but their trace points are in the trace; where it is coarser (a large
 * --dt-out), consecutive frames show the same row: the mechanism moves in the
 * run's own steps, and the report counts those frames (repeated_rows) and
 * `notes` says so. A panel whose history ends before the animation does (a
 * run stopped by a violation) keeps its last row, marked as where it stopped.
 *
 * Timing. A GIF holds one delay per frame, in hundredths of a second (cs).
 * Frame k starts at round(100 k / F) cs, so its delay is
 * round(100 (k + 1) / F) - round(100 k / F): 100 / F for every frame when F
 * divides 100 (25 fps: 4 cs), else alternating (30 fps: 3, 3, 4, 3, 3, 4 ...
 * cs), so that no frame appears more than half a hundredth early or late and
 * the whole lasts round(100 K / F) cs. gnuplot's `gif animate` writes one
 * delay for all frames; mbd_animation_gif then sets each frame's own in the
 * file. F is at most MBD_ANIMATION_FPS_MAX = 50: browsers play a delay below
 * 2 cs as 10 cs.
 *
 * The view is fixed: the smallest box, with a margin, that holds every
 * shape drawn and every trace point at every recorded row up to the last
 * frame, in every panel (the panels share it), with equal scales on both
 * axes. 3D models project into the plane first (a fixed perspective is the
 * drawing callback's own: the view does not move with the motion).
 *
 * Size. A GIF over `max_bytes` (default MBD_ANIMATION_MAX_BYTES, 1 MB) is
 * drawn again, first on a smaller canvas (down to MBD_ANIMATION_MIN_WIDTH
 * pixels per panel), then with every s-th frame only (frames k = 0, s, 2s,
 * ..., each shown for s frames' time, so that the timing above holds); what
 * was done is said on `notes`.
 *
 * Errors. The GIF is written to a temporary file beside `path` and renamed
 * onto it only when complete: a failure leaves no file behind (and an
 * existing `path` as it was). MBD_EIO when the file cannot be written (its
 * directory missing or not writable), MBD_EEXTERNAL when gnuplot is missing
 * or fails, MBD_EINPUT for parameters out of range (fps, speed, a span with no
 * frame or more than MBD_ANIMATION_MAX_FRAMES), each with a sentence in
 * `fail`.
 */
#ifndef MBD_ANIMATION_H
#define MBD_ANIMATION_H

#include <stddef.h>
#include <stdio.h>

#include "mbd/error.h"
#include "mbd/history.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MBD_ANIMATION_FPS_DEFAULT 25.0
#define MBD_ANIMATION_FPS_MIN 0.1          /* a frame every 10 s */
#define MBD_ANIMATION_FPS_MAX 50.0         /* 2 cs per frame */
#define MBD_ANIMATION_SPEED_MIN 1e-3
#define MBD_ANIMATION_SPEED_MAX 1e3
#define MBD_ANIMATION_MAX_FRAMES 3000      /* 2 minutes at 25 fps */
#define MBD_ANIMATION_MAX_BYTES 1000000    /* 1 MB */
#define MBD_ANIMATION_WIDTH 480.0          /* pixels per panel */
#define MBD_ANIMATION_MIN_WIDTH 300.0

/* ------------------------------------------------------------------------ */
/* A scene: what one state looks like                                        */

/* What a shape is, which decides how it is drawn. Shapes are drawn in this
 * order, each over the ones before. */
typedef enum {
    MBD_SCENE_GUIDE,    /* where the motion should stay: thin dashed grey (a circle, a rail) */
    MBD_SCENE_GROUND,   /* the ground: dark grey (a pivot's base, a slider's rail) */
    MBD_SCENE_BODY,     /* a body: thick lines in the panel's colour (a rod, a crank) */
    MBD_SCENE_MASS,     /* a filled shape in the panel's colour (a bob, a slider block) */
    MBD_SCENE_JOINT     /* a joint: white inside a black outline, over the bodies it joins */
} mbd_scene_kind;
#define MBD_SCENE_KINDS 5

/* The shapes of one frame of one panel, in model coordinates (the view's
 * units: metres in every chapter). Allocated by mbd_animation_gif and
 * passed to the drawing callback empty. */
typedef struct mbd_scene mbd_scene;

/* n points (xy[2i], xy[2i+1]) joined by straight lines (n >= 2). */
int mbd_scene_polyline(mbd_scene *s, mbd_scene_kind kind, size_t n, const double xy[]);
/* One straight line. */
int mbd_scene_line(mbd_scene *s, mbd_scene_kind kind, double x0, double y0, double x1,
                   double y1);
/* A closed polygon of n points (n >= 3), filled (GUIDE: an outline). */
int mbd_scene_polygon(mbd_scene *s, mbd_scene_kind kind, size_t n, const double xy[]);
/* A circle of radius r > 0 about (x, y): filled for MASS, GROUND and JOINT,
 * an outline for BODY and GUIDE. */
int mbd_scene_circle(mbd_scene *s, mbd_scene_kind kind, double x, double y, double r);
/* A rectangle of half-widths (a, b) about (x, y), turned by `angle`
 * (radians, counter-clockwise): a slider block. */
int mbd_scene_box(mbd_scene *s, mbd_scene_kind kind, double x, double y, double a, double b,
                  double angle);
/* A line of text (enhanced text, as the titles) starting at (x, y), over
 * everything else in the panel: what this state shows that the shapes do
 * not ("independent: theta2"). Its anchor is in the view; the text itself
 * is not, so a chapter anchors it where the text has room. */
int mbd_scene_label(mbd_scene *s, double x, double y, const char *text);
/* The point whose path the animation traces (at most one per state; the
 * last one set counts). */
void mbd_scene_trace(mbd_scene *s, double x, double y);

/* Draws the state (q, q') recorded at time t into s. Returns GSL_SUCCESS or
 * a status that stops the animation (the scene's own calls record an
 * allocation failure themselves). It is called for every recorded row up to
 * the last frame (for the view and the trace) and again for each frame's
 * row, so it must depend on the row only. */
typedef int (*mbd_draw_fn)(void *ctx, double t, const double q[], const double qd[],
                           mbd_scene *s);

/* ------------------------------------------------------------------------ */
/* The animation                                                             */

/* One panel: one run. Several panels stand side by side, in one row, on the
 * same time and the same view (a run beside another). */
typedef struct {
    const char *title;          /* over the panel (enhanced text), or NULL */
    const mbd_history *hist;    /* the run's recorded rows */
    mbd_draw_fn draw;
    void *ctx;                  /* the callback's */
    const char *colour;         /* bodies and masses: a gnuplot colour ("#d55e00"), or NULL
                                   for dark blue */
    const char *stop_note;      /* written under the time once the history has ended before
                                   the animation ("|C| > 1: the run stopped"), or NULL */
} mbd_animation_panel;

typedef struct {
    const char *title;          /* over all panels, or NULL */
    double fps;                 /* frames per second of real time: (0, 50] */
    double speed;               /* simulated seconds per real second (1: real time) */
    double t0, t_end;           /* the simulated span; NAN: the histories' first and last
                                   rows (the earliest start, the latest end) */
    double width;               /* pixels per panel; 0: MBD_ANIMATION_WIDTH. The height
                                   follows the view's shape */
    const char *xlabel, *ylabel; /* axis labels ("x [m]"), or NULL */
    const char *violation;      /* the name written before the violation value: NULL for
                                   "|C|" (the history's C_norm) */
    size_t max_bytes;           /* 0: MBD_ANIMATION_MAX_BYTES */
    FILE *notes;                /* where a smaller canvas, thinned frames or repeated rows are
                                   said (stderr), or NULL */
    const char *program;        /* names the notes ("ch03-pendulum: ..."), or NULL */
} mbd_animation;

/* fps 25, speed 1, the histories' span, the default width and size limit,
 * no notes. */
void mbd_animation_init(mbd_animation *a);

/* What mbd_animation_gif made. */
typedef struct {
    size_t frames_nominal;      /* K: frames at the asked rate */
    size_t frames;              /* frames in the file (K / stride, rounded up) */
    size_t stride;              /* every stride-th frame kept (1: all) */
    double t0, t_end;           /* the span */
    double duration;            /* seconds of real time: round(100 K / fps) / 100 */
    double width, height;       /* the GIF's pixels */
    long bytes;                 /* the file's size */
    size_t repeated_rows;       /* frames that show the row of the frame before while its
                                   run goes on (an output grid coarser than the frames) */
    double view[4];             /* xmin, xmax, ymin, ymax of the fixed view */
} mbd_animation_report;

/* Draws the panels into the GIF `path` (see the top of this header). `rep`
 * (may be NULL) receives what was made. */
int mbd_animation_gif(const char *path, const mbd_animation *a, const mbd_animation_panel *panels,
                      size_t npanels, mbd_animation_report *rep, mbd_failure *fail);

/* K = floor((t_end - t0) fps / speed) + 1, with 1e-9 of a frame allowed for
 * rounding (t_end on a frame time counts); 0 for a span that is not finite
 * or negative, or fps or speed not positive. */
size_t mbd_animation_frames(double t0, double t_end, double fps, double speed);

/* The delay of frame k of K (in 1/100 s) when every stride-th frame is
 * kept: round(100 min(k + stride, K) / fps) - round(100 k / fps). */
long mbd_animation_delay(size_t k, size_t K, size_t stride, double fps);

#ifdef __cplusplus
}
#endif

#endif
