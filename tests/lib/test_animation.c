/* animation: frames on recorded rows at t0 + k speed / fps, each GIF frame's
 * delay, the fixed view, the size cap, and the errors that leave no file,
 * read back with the tests' own GIF reader (tests/support/gif.c). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "gif.h"
#include "mbd/animation.h"

/* a point on a circle of radius 1 (q = angle), its rod from the origin */
static int draw_rod(void *ctx, double t, const double q[], const double qd[], mbd_scene *s)
{
    (void)t;
    (void)qd;
    int *calls = ctx;
    if (calls)
        (*calls)++;
    const double x = cos(q[0]), y = sin(q[0]);
    mbd_scene_circle(s, MBD_SCENE_GUIDE, 0, 0, 1);
    mbd_scene_line(s, MBD_SCENE_BODY, 0, 0, x, y);
    mbd_scene_box(s, MBD_SCENE_MASS, x, y, 0.1, 0.05, q[0]);
    mbd_scene_circle(s, MBD_SCENE_JOINT, 0, 0, 0.03);
    mbd_scene_trace(s, x, y);
    return GSL_SUCCESS;
}

/* rows every dt from 0 to t_end (q = t rad/s, |C| = t) */
static void history(mbd_history *h, double dt, double t_end)
{
    mbd_history_init(h);
    mbd_history_reset(h, 1, 0, 0);
    const long n = lround(t_end / dt);
    for (long k = 0; k <= n; k++) {
        const double t = (double)k * dt, q = t, qd = 1.0;
        mbd_history_append(h, t, &q, &qd, t, 0.0, NAN, dt);
    }
}

static char dir[64];

static const char *tmp_path(const char *name)
{
    static char path[256];
    if (dir[0] == '\0') {
        snprintf(dir, sizeof dir, "/tmp/mbd-test-anim-XXXXXX");
        if (mkdtemp(dir) == NULL)
            dir[0] = '\0';
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* the test's directory, empty by now, removed (each test makes its own) */
static void cleanup(void)
{
    if (dir[0])
        rmdir(dir);
    dir[0] = '\0';
}

/* the files in the test directory (a .part left behind counts) */
static int files_in_dir(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (d == NULL)
        return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void frames_and_delays(void)
{
    CHECK_MSG(mbd_animation_frames(0, 5, 25, 1) == 126, "5 s at 25 fps");
    CHECK_MSG(mbd_animation_frames(0, 0.45, 25, 0.1) == 113, "0.45 s at 25 fps, speed 0.1");
    CHECK_MSG(mbd_animation_frames(1, 2, 25, 0.25) == 101, "1 ... 2 s at 25 fps, speed 0.25");
    CHECK_MSG(mbd_animation_frames(0, 0.3, 10, 1) == 4, "t_end on a frame time counts");
    CHECK_MSG(mbd_animation_frames(0, 1, 0, 1) == 0 && mbd_animation_frames(0, NAN, 25, 1) == 0,
              "no frames for fps 0 or a non-finite span");
    /* 30 fps: 3, 4, 3, 3, 4, 3 cs ...; the sum is round(100 K / fps) */
    const long want[6] = {3, 4, 3, 3, 4, 3};
    for (size_t k = 0; k < 6; k++)
        CHECK_MSG(mbd_animation_delay(k, 100, 1, 30) == want[k], "30 fps frame %zu: %ld cs", k,
                  mbd_animation_delay(k, 100, 1, 30));
    const double fps[] = {25, 30, 7, 50, 0.1};
    for (size_t i = 0; i < sizeof fps / sizeof fps[0]; i++)
        for (size_t stride = 1; stride <= 3; stride++) {
            const size_t K = 77;
            long sum = 0;
            for (size_t k = 0; k < K; k += stride)
                sum += mbd_animation_delay(k, K, stride, fps[i]);
            CHECK_MSG(sum == lround(100.0 * (double)K / fps[i]),
                      "fps %g, one frame in %zu: %ld cs, expected %ld", fps[i], stride, sum,
                      lround(100.0 * (double)K / fps[i]));
        }
}

/* the GIF's frame count and every delay against fps, speed and the span */
static void gif_matches_fps_speed_span(void)
{
    mbd_history h;
    history(&h, 1e-3, 2.0);
    const struct {
        double fps, speed, t_end;
    } cases[] = {{25, 1, 2.0}, {30, 1, 1.0}, {7, 0.5, 1.0}, {50, 2, 2.0}, {25, 0.1, 0.2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mbd_animation a;
        mbd_animation_init(&a);
        a.fps = cases[i].fps;
        a.speed = cases[i].speed;
        a.t_end = cases[i].t_end;
        a.width = 240;
        const mbd_animation_panel p = {.title = "rod", .hist = &h, .draw = draw_rod};
        mbd_animation_report rep;
        mbd_failure fail;
        const char *path = tmp_path("case.gif");
        int st = mbd_animation_gif(path, &a, &p, 1, &rep, &fail);
        CHECK_MSG(st == GSL_SUCCESS, "case %zu: %s", i, fail.cause);
        if (st != GSL_SUCCESS)
            continue;
        const size_t K = (size_t)floor(cases[i].t_end * cases[i].fps / cases[i].speed + 1e-9) + 1;
        test_gif g;
        char why[200];
        REQUIRE_STATUS(test_gif_read(path, &g, why, sizeof why), 0);
        CHECK_MSG(g.frames == K && rep.frames == K && rep.stride == 1,
                  "fps %g speed %g t_end %g: %zu frames in the GIF, expected %zu", cases[i].fps,
                  cases[i].speed, cases[i].t_end, g.frames, K);
        const long total = lround(100.0 * (double)K / cases[i].fps);
        CHECK_MSG(g.duration == total, "fps %g: %ld cs in all, expected %ld", cases[i].fps,
                  g.duration, total);
        for (size_t k = 0; k < g.frames && k < K; k++) {
            const long d = lround(100.0 * (double)(k + 1) / cases[i].fps)
                           - lround(100.0 * (double)k / cases[i].fps);
            if (g.delays[k] != d) {
                CHECK_MSG(0, "fps %g frame %zu: delay %ld cs, expected %ld", cases[i].fps, k,
                          g.delays[k], d);
                break;
            }
        }
        CHECK_MSG(g.loops, "the animation loops");
        CHECK_MSG(g.width == (unsigned)rep.width && g.height == (unsigned)rep.height,
                  "screen %ux%u, report %gx%g", g.width, g.height, rep.width, rep.height);
        CHECK_MSG(rep.repeated_rows == 0, "1e-3 s rows: no frame repeats a row");
        test_gif_free(&g);
        remove(path);
    }
    mbd_history_free(&h);
    cleanup();
}

/* frames show recorded rows only: a coarse grid repeats them, and the view
 * holds every row (the unit circle, the box at its corners) */
static void rows_view_and_pixels(void)
{
    mbd_history h;
    history(&h, 0.1, 6.283185307179586);
    mbd_animation a;
    mbd_animation_init(&a);
    a.t_end = 1.0;   /* frames every 0.04 s on rows every 0.1 s */
    a.width = 300;
    int calls = 0;
    const mbd_animation_panel p = {.hist = &h, .draw = draw_rod, .ctx = &calls};
    mbd_animation_report rep;
    mbd_failure fail;
    const char *path = tmp_path("coarse.gif");
    REQUIRE_STATUS(mbd_animation_gif(path, &a, &p, 1, &rep, &fail), GSL_SUCCESS);
    /* frames at 0, 0.04, ..., 1.0: rows 0, 0, 0, 0.1, 0.1, 0.2, ... */
    size_t repeated = 0, prev = (size_t)-1;
    for (size_t k = 0; k < 26; k++) {
        const size_t r = (size_t)floor(k * 0.04 / 0.1 + 1e-9);
        repeated += r == prev;
        prev = r;
    }
    CHECK_MSG(rep.repeated_rows == repeated, "%zu repeated rows, expected %zu",
              rep.repeated_rows, repeated);
    CHECK_MSG(rep.frames == 26, "%zu frames", rep.frames);
    /* the rows drawn: the survey (rows 0 ... 10) and each frame's */
    CHECK_MSG(calls == 11 + 26, "the drawing was called %d times, expected 37", calls);
    /* the view holds the guide circle (radius 1) with a margin, and no more */
    CHECK_MSG(rep.view[0] < -1 && rep.view[1] > 1 && rep.view[2] < -1 && rep.view[3] > 1
                  && rep.view[1] < 1.3 && rep.view[3] < 1.3,
              "view [%g, %g] x [%g, %g]", rep.view[0], rep.view[1], rep.view[2], rep.view[3]);
    /* a decoded frame: white paper with the drawing on it */
    unsigned w, hh;
    unsigned char *rgb = test_gif_frame_rgb(path, 10, &w, &hh);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rgb);
    size_t white = 0, ink = 0;
    for (size_t i = 0; i < (size_t)w * hh; i++) {
        const unsigned char *c = rgb + 3 * i;
        if (c[0] > 240 && c[1] > 240 && c[2] > 240)
            white++;
        else
            ink++;
    }
    CHECK_MSG(white > ink && ink > 500, "frame 10: %zu drawn pixels of %zu", ink, white + ink);
    free(rgb);
    remove(path);
    mbd_history_free(&h);
    cleanup();
}

/* over the size limit: a smaller canvas, then fewer frames, the timing kept */
static void size_cap(void)
{
    mbd_history h;
    history(&h, 1e-3, 4.0);
    mbd_animation a;
    mbd_animation_init(&a);
    a.max_bytes = 60000;
    const mbd_animation_panel p[2] = {{.hist = &h, .draw = draw_rod},
                                      {.hist = &h, .draw = draw_rod, .colour = "#c00000"}};
    mbd_animation_report rep;
    mbd_failure fail;
    const char *path = tmp_path("small.gif");
    REQUIRE_STATUS(mbd_animation_gif(path, &a, p, 2, &rep, &fail), GSL_SUCCESS);
    test_gif g;
    char why[200];
    REQUIRE_STATUS(test_gif_read(path, &g, why, sizeof why), 0);
    CHECK_MSG(rep.bytes <= 60000 && rep.bytes > 0, "%ld bytes", rep.bytes);
    CHECK_MSG(rep.width < 2 * MBD_ANIMATION_WIDTH, "the canvas shrank: %g px", rep.width);
    CHECK_MSG(rep.stride > 1 && g.frames == (101 + rep.stride - 1) / rep.stride,
              "one frame in %zu: %zu frames", rep.stride, g.frames);
    CHECK_MSG(g.duration == 404, "the timing is kept: %ld cs, expected 404", g.duration);
    test_gif_free(&g);
    remove(path);
    mbd_history_free(&h);
    cleanup();
}

/* errors: a status, a sentence, and no file (nor an existing one touched) */
static void errors_leave_no_file(void)
{
    mbd_history h;
    history(&h, 1e-2, 1.0);
    mbd_animation a;
    mbd_animation_init(&a);
    const mbd_animation_panel p = {.hist = &h, .draw = draw_rod};
    mbd_failure fail;
    (void)tmp_path("x");
    const int before = files_in_dir();

    CHECK_STATUS(mbd_animation_gif("/nonexistent-dir/a.gif", &a, &p, 1, NULL, &fail), MBD_EIO);
    CHECK_MSG(strstr(fail.cause, "cannot write animation '/nonexistent-dir/a.gif'") != NULL,
              "cause: %s", fail.cause);

    a.fps = 0;
    CHECK_STATUS(mbd_animation_gif(tmp_path("a.gif"), &a, &p, 1, NULL, &fail), MBD_EINPUT);
    a.fps = 60;
    CHECK_STATUS(mbd_animation_gif(tmp_path("a.gif"), &a, &p, 1, NULL, &fail), MBD_EINPUT);
    a.fps = 25;
    a.speed = 1e-3;
    a.t_end = 1.0;   /* 25 001 frames */
    CHECK_STATUS(mbd_animation_gif(tmp_path("a.gif"), &a, &p, 1, NULL, &fail), MBD_EINPUT);
    CHECK_MSG(strstr(fail.cause, "more than") != NULL, "cause: %s", fail.cause);
    a.speed = 1;

    /* gnuplot missing: an existing file is left as it was */
    FILE *f = fopen(tmp_path("old.gif"), "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("old", f);
    fclose(f);
    const char *path_env = getenv("PATH");
    char *saved = path_env ? strdup(path_env) : NULL;
    setenv("PATH", "/nonexistent-bin", 1);
    const int st = mbd_animation_gif(tmp_path("old.gif"), &a, &p, 1, NULL, &fail);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
    CHECK_STATUS(st, MBD_EEXTERNAL);
    CHECK_MSG(strstr(fail.cause, "gnuplot") != NULL, "cause: %s", fail.cause);
    char *text = test_read_file(tmp_path("old.gif"));
    CHECK_MSG(text && strcmp(text, "old") == 0, "the existing file was changed");
    free(text);
    remove(tmp_path("old.gif"));
    CHECK_MSG(files_in_dir() == before, "a failed animation left a file behind (%d files, %d "
              "before)", files_in_dir(), before);
    mbd_history_free(&h);
    cleanup();
}

/* a label without text, or at a point that is not finite: both refused */
static int draw_bad_label(void *ctx, double t, const double q[], const double qd[],
                          mbd_scene *s)
{
    int st = draw_rod(ctx, t, q, qd, s);
    if (st == GSL_SUCCESS && mbd_scene_label(s, NAN, 0, "x") != GSL_EINVAL)
        return GSL_EFAILED;
    return st == GSL_SUCCESS ? mbd_scene_label(s, 0, 0, NULL) : st;
}

/* draw_rod with a label in the empty quarter below the rod's start, saying
 * the row's time (the quote and the backslash must reach gnuplot as text) */
static int draw_rod_label(void *ctx, double t, const double q[], const double qd[],
                          mbd_scene *s)
{
    int st = draw_rod(ctx, t, q, qd, s);
    char text[64];
    snprintf(text, sizeof text, "\"row\" \\ %.2f", t);
    if (st == GSL_SUCCESS)
        st = mbd_scene_label(s, 0.2, -0.6, text);
    return st;
}

/* a label is drawn in its frame, inside the same view, and refused without
 * text or at a point that is not finite */
static void labels(void)
{
    mbd_history h;
    history(&h, 0.04, 0.4);
    mbd_animation a;
    mbd_animation_init(&a);
    a.width = 300;
    mbd_animation_panel p = {.hist = &h, .draw = draw_rod};
    mbd_animation_report plain, labelled;
    mbd_failure fail;
    char path0[256], path1[256];
    snprintf(path0, sizeof path0, "%s", tmp_path("plain.gif"));
    snprintf(path1, sizeof path1, "%s", tmp_path("label.gif"));
    REQUIRE_STATUS(mbd_animation_gif(path0, &a, &p, 1, &plain, &fail), GSL_SUCCESS);
    p.draw = draw_rod_label;
    REQUIRE_STATUS(mbd_animation_gif(path1, &a, &p, 1, &labelled, &fail), GSL_SUCCESS);
    CHECK_MSG(labelled.frames == plain.frames && labelled.width == plain.width
                  && labelled.height == plain.height,
              "a label changed the frames or the canvas");
    CHECK_MSG(plain.view[2] == labelled.view[2], "the label's anchor is inside the view: %g, %g",
              plain.view[2], labelled.view[2]);
    unsigned w0, h0, w1, h1;
    unsigned char *f0 = test_gif_frame_rgb(path0, 3, &w0, &h0);
    unsigned char *f1 = test_gif_frame_rgb(path1, 3, &w1, &h1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f1);
    size_t differ = 0;
    if (w0 == w1 && h0 == h1)
        for (size_t i = 0; i < 3 * (size_t)w0 * h0; i++)
            differ += f0[i] != f1[i];
    CHECK_MSG(differ > 50, "the label changed %zu pixel values of frame 3", differ);
    free(f0);
    free(f1);
    remove(path0);
    remove(path1);
    cleanup();
    mbd_history_free(&h);

    /* refusals, on a scene the library hands out: through a drawing */
    p.draw = draw_bad_label;
    history(&h, 0.04, 0.4);
    p.hist = &h;
    const char *bad = tmp_path("bad.gif");
    CHECK_MSG(mbd_animation_gif(bad, &a, &p, 1, NULL, &fail) == GSL_EINVAL,
              "a label without text was accepted");
    CHECK_MSG(files_in_dir() == 0, "a refused label left a file");
    mbd_history_free(&h);
    cleanup();
}

static CU_TestInfo tests[] = {
    {"frames and delays from fps and speed", frames_and_delays},
    {"GIF frames and delays match fps, speed and span", gif_matches_fps_speed_span},
    {"recorded rows only, the view, a drawn frame", rows_view_and_pixels},
    {"size cap: smaller canvas, fewer frames, same timing", size_cap},
    {"errors leave no file", errors_leave_no_file},
    {"labels: drawn, in the view, refused without text", labels},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"animation", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
