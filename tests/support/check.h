/* tests/support/check.h -- numeric assertions for CUnit, and program runs.
 *
 * Each test source defines the suites it registers:
 *
 *     static CU_TestInfo tests[] = { {"name", fn}, CU_TEST_INFO_NULL };
 *     CU_SuiteInfo mbd_test_suites[] = {
 *         {"suite", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL };
 *
 * and links tests/support (runner.c provides main). The runner:
 *
 *     test_x                 run every test; exit 1 if any failed
 *     test_x --list          print "suite<TAB>test" per test
 *     test_x --run S T       run test T of suite S only (the grader's isolation)
 *
 * Failed numeric checks say what was observed, what was expected and the
 * tolerance, e.g.
 *     Q[0] (mm): observed 0.4871, expected 0.4876, tolerance 5e-05 (|diff| 0.0005)
 */
#ifndef MBD_TEST_CHECK_H
#define MBD_TEST_CHECK_H

#include <math.h>
#include <stddef.h>

#include <CUnit/CUnit.h>

extern CU_SuiteInfo mbd_test_suites[];

/* |observed - expected| <= tol (absolute); a NaN fails */
#define CHECK_CLOSE(obs, exp, tol) \
    mbd_check_close((obs), (exp), (tol), 0, #obs, __FILE__, __LINE__, CU_FALSE)
/* |observed - expected| <= rtol * |expected| */
#define CHECK_REL(obs, exp, rtol) \
    mbd_check_close((obs), (exp), (rtol), 1, #obs, __FILE__, __LINE__, CU_FALSE)
/* lo <= observed <= hi */
#define CHECK_IN(obs, lo, hi) \
    mbd_check_in((obs), (lo), (hi), #obs, __FILE__, __LINE__, CU_FALSE)
/* observed <= bound */
#define CHECK_LE(obs, bound) CHECK_IN((obs), -HUGE_VAL, (bound))
/* observed >= bound */
#define CHECK_GE(obs, bound) CHECK_IN((obs), (bound), HUGE_VAL)
/* a status equals the expected one (names both on failure) */
#define CHECK_STATUS(st, exp) \
    mbd_check_status((st), (exp), #st, __FILE__, __LINE__, CU_FALSE)
/* the same, stopping the test on failure (use before dereferencing results) */
#define REQUIRE_STATUS(st, exp) \
    do { if (!mbd_check_status((st), (exp), #st, __FILE__, __LINE__, CU_TRUE)) return; } while (0)
/* a condition, with a printf-style explanation on failure */
#define CHECK_MSG(cond, ...) \
    mbd_check_msg((cond) ? 1 : 0, __FILE__, __LINE__, CU_FALSE, __VA_ARGS__)

int mbd_check_close(double obs, double exp, double tol, int relative, const char *what,
                    const char *file, unsigned line, CU_BOOL fatal);
int mbd_check_in(double obs, double lo, double hi, const char *what, const char *file,
                 unsigned line, CU_BOOL fatal);
int mbd_check_status(int st, int exp, const char *what, const char *file, unsigned line,
                     CU_BOOL fatal);
int mbd_check_msg(int ok, const char *file, unsigned line, CU_BOOL fatal, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* ------------------------------------------------------------------------ */
/* Running programs                                                          */

typedef struct {
    int status;        /* exit status, or 128 + signal */
    char *out, *err;   /* everything written to stdout / stderr (NUL-terminated) */
} test_run_result;

/* The whole of a file as a NUL-terminated string (to free), or NULL. */
char *test_read_file(const char *path);

/* Runs a shell command line (from the repository root), capturing its output. */
int test_run(const char *cmdline, test_run_result *r);
void test_run_free(test_run_result *r);

/* The path of a chapter program, e.g. test_program("ch01-static-penalty"). */
const char *test_program(const char *name);

/* The value of "key = value" in a program's --summary text; a missing key is
 * a failed check (and NAN). */
double test_summary(const char *text, const char *key);

/* Finds "key = value" in summary text; 0 on success. */
int test_summary_value(const char *text, const char *key, double *value);

#endif
