/* --animate FILE, --fps, --speed in the chapters that have them (03 to 08), run
 * as a user would: the GIF's frames and duration against --fps, --speed and
 * --t-end (read with the tests' own GIF reader), the option errors, and no
 * file left behind by a failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gif.h"

static const char *const ANIMATED[] = {"ch03-pendulum",         "ch04-scotch-yoke",
                                       "ch05-slider-crank",     "ch06-embedding",
                                       "ch07-qrp-continuation", "ch08-direct-correction",
                                       NULL};

static char dir[64];

static const char *tmp_path(const char *name)
{
    static char path[256];
    if (dir[0] == '\0') {
        snprintf(dir, sizeof dir, "/tmp/mbd-test-cli-anim-XXXXXX");
        if (mkdtemp(dir) == NULL)
            dir[0] = '\0';
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static void cleanup(void)
{
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    }
    dir[0] = '\0';
}

static int run(const char *prog, const char *args, test_run_result *r)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s", test_program(prog), args);
    return test_run(cmd, r);
}

/* frames = floor(t_end fps / speed) + 1, lasting round(100 frames / fps) cs */
static void check_gif(const char *label, const char *path, double t_end, double fps,
                      double speed)
{
    char why[256];
    CHECK_MSG(test_gif_timing(path, t_end, fps, speed, why, sizeof why) == 0, "%s: %s", label,
              why);
}

static void frames_match_options(void)
{
    const struct {
        const char *prog, *args;
        double t_end, fps, speed;
    } cases[] = {
        {"ch03-pendulum", "--t-end 1", 1.0, 25, 1},
        {"ch03-pendulum", "--method projection --t-end 0.6 --fps 30 --speed 0.5", 0.6, 30, 0.5},
        {"ch03-pendulum", "--method direct --t-end 2 --fps 10 --speed 2", 2.0, 10, 2},
        {"ch05-slider-crank", "--t-end 1", 1.0, 25, 1},
        {"ch05-slider-crank", "--method projection --t-end 2 --fps 12 --speed 0.75", 2.0, 12, 0.75},
        {"ch04-scotch-yoke", "--t-end 1 --fps 10", 1.0, 10, 1},
        {"ch04-scotch-yoke", "--method projection --t-end 0.5 --fps 30 --speed 0.5", 0.5, 30, 0.5},
        {"ch06-embedding", "--t-end 1", 1.0, 25, 1},
        {"ch06-embedding", "--scenario double-pendulum --t-end 2 --fps 12 --speed 2", 2.0, 12, 2},
        {"ch07-qrp-continuation", "--t-end 0.5 --fps 20", 0.5, 20, 1},
        {"ch07-qrp-continuation", "--scenario spatial-pendulum --t-end 1 --fps 10 --speed 0.5", 1.0,
         10, 0.5},
        {"ch08-direct-correction", "--t-end 1", 1.0, 25, 1},
        {"ch08-direct-correction", "--scenario eightbar --t-end 2 --fps 30 --speed 2", 2.0, 30, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = tmp_path("run.gif");
        char args[512], label[256];
        snprintf(args, sizeof args, "%s --summary --animate %s", cases[i].args, path);
        snprintf(label, sizeof label, "%s %s", cases[i].prog, cases[i].args);
        test_run_result r;
        run(cases[i].prog, args, &r);
        CHECK_MSG(r.status == 0, "%s: exit %d (%s)", label, r.status, r.err);
        CHECK_MSG(strstr(r.out, "status = ok") != NULL, "%s: the summary is written", label);
        check_gif(label, path, cases[i].t_end, cases[i].fps, cases[i].speed);
        test_run_free(&r);
        remove(path);
    }
    cleanup();
}

/* a run that fails is animated up to its failure, to the span asked for,
 * and exits 1 */
static void failed_run_is_animated(void)
{
    const char *path = tmp_path("printed.gif");
    char args[512];
    snprintf(args, sizeof args, "--method penalty-baumgarte-printed --t-end 1 --animate %s", path);
    test_run_result r;
    run("ch03-pendulum", args, &r);
    CHECK_MSG(r.status == 1, "exit %d, expected 1 (stderr: %s)", r.status, r.err);
    CHECK_MSG(strstr(r.err, "exceeds 1") != NULL, "stderr: %s", r.err);
    check_gif("printed sign", path, 1.0, 25, 1);
    test_run_free(&r);
    remove(path);
    /* chapter 06: x4 forced independent stops at the dead centre */
    snprintf(args, sizeof args, "--independent x4 --t-end 1 --fps 10 --animate %s", path);
    run("ch06-embedding", args, &r);
    CHECK_MSG(r.status == 1, "x4 forced: exit %d, expected 1 (stderr: %s)", r.status, r.err);
    CHECK_MSG(strstr(r.err, "singular") != NULL, "x4 forced: stderr: %s", r.err);
    check_gif("x4 forced", path, 1.0, 10, 1);
    test_run_free(&r);
    remove(path);
    cleanup();
}

static void expect_usage(const char *prog, const char *args, const char *needle)
{
    test_run_result r;
    run(prog, args, &r);
    CHECK_MSG(r.status == 2, "%s %s: exit %d, expected 2 (%s)", prog, args, r.status, r.err);
    CHECK_MSG(strstr(r.err, needle) != NULL, "%s %s: stderr should say '%s', got: %s", prog, args,
              needle, r.err);
    CHECK_MSG(r.out[0] == '\0', "%s %s: nothing on stdout, got %.200s", prog, args, r.out);
    test_run_free(&r);
}

static void option_errors(void)
{
    for (const char *const *p = ANIMATED; *p; p++) {
        expect_usage(*p, "--animate x.gif --fps 0", "option --fps: expected a number in [0.1, 50], got '0'");
        expect_usage(*p, "--animate x.gif --fps -5", "option --fps: expected a number in [0.1, 50]");
        expect_usage(*p, "--animate x.gif --fps nan", "got 'nan'");
        expect_usage(*p, "--animate x.gif --fps inf", "got 'inf'");
        expect_usage(*p, "--animate x.gif --fps 1000", "got '1000'");
        expect_usage(*p, "--animate x.gif --fps 25fps", "got '25fps'");
        expect_usage(*p, "--animate x.gif --speed 0", "option --speed: expected a number in [0.001, 1000], got '0'");
        expect_usage(*p, "--animate x.gif --speed 1e9", "option --speed");
        expect_usage(*p, "--fps 10", "--fps applies to an animation: give --animate FILE");
        expect_usage(*p, "--speed 0.5", "--speed applies to an animation");
        expect_usage(*p, "--animate", "option --animate needs a value (FILE)");
        expect_usage(*p, "--animate ''", "option --animate: expected a value");
        expect_usage(*p, "--animate x.gif --bench 1", "drop --animate");
        /* too many frames for the run: refused before it runs */
        expect_usage(*p, "--animate x.gif --t-end 10 --dt-out 0.01 --fps 50 --speed 0.01",
                     "--animate: 10 s at --fps 50 and --speed 0.01 is 5e+04 frames, more than 3000");
    }
    /* the chapters without an animation (01, 02) refuse the options */
    expect_usage("ch02-integrators", "--animate x.gif", "option --animate is not used by ch02-integrators");
    expect_usage("ch01-static-penalty", "--fps 25", "option --fps is not used by ch01-static-penalty");
    CHECK_MSG(access("x.gif", F_OK) != 0, "a refused command wrote x.gif");
}

/* an unwritable FILE and a missing gnuplot: exit 2, a message, no file */
static void failures_leave_no_file(void)
{
    for (const char *const *p = ANIMATED; *p; p++) {
        expect_usage(*p, "--t-end 0.5 --animate /nonexistent-dir/a.gif",
                     "cannot write animation '/nonexistent-dir/a.gif'");
        const char *path = tmp_path("a.gif");
        char args[512];
        /* gnuplot out of reach; the program itself by its full path */
        snprintf(args, sizeof args, "--t-end 0.5 --animate %s", path);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "PATH=/nonexistent-bin %s %s", test_program(*p), args);
        test_run_result r;
        test_run(cmd, &r);
        CHECK_MSG(r.status == 2, "%s without gnuplot: exit %d (%s)", *p, r.status, r.err);
        CHECK_MSG(strstr(r.err, "gnuplot") != NULL, "%s: stderr: %s", *p, r.err);
        test_run_free(&r);
        snprintf(cmd, sizeof cmd, "ls -A '%s'", dir);
        test_run(cmd, &r);
        CHECK_MSG(r.out[0] == '\0', "%s: files left behind: %s", *p, r.out);
        test_run_free(&r);
    }
    cleanup();
}

static CU_TestInfo tests[] = {
    {"GIF frames and duration match --fps, --speed, --t-end", frames_match_options},
    {"a failed run is animated up to its failure", failed_run_is_animated},
    {"--animate, --fps, --speed errors", option_errors},
    {"an unwritable file or no gnuplot leaves no file", failures_leave_no_file},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"animation options", NULL, NULL, NULL, NULL, tests},
    CU_SUITE_INFO_NULL,
};
