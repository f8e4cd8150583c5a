/* tests/support/runner.c -- main() of every CUnit test binary.
 *
 *   test_x                 run every suite; exit 1 if any test failed
 *   test_x --list          list "suite<TAB>test", one per line
 *   test_x --run S T       run only test T of suite S; exit 0 pass, 1 fail, 3 not found
 *
 * When the grader runs a test it sets MBD_TEST_TOKEN to a random token. The
 * runner takes it out of the environment before any test code runs and, once
 * the test has finished, prints "mbd-result TOKEN pass|fail": the grader
 * counts a pass only with that line, so code under test that prints an "ok"
 * line and exits early does not pass.
 *
 * CUnit's basic interface returns 0 even when tests fail; this runner counts
 * the failures itself and prints each failed assertion with its location.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include <CUnit/CUnit.h>
#include <CUnit/TestRun.h>

#include "check.h"

static unsigned tests_failed, tests_run;

static void on_test_complete(const CU_pTest test, const CU_pSuite suite,
                             const CU_pFailureRecord failures)
{
    tests_run++;
    if (failures == NULL) {
        printf("  ok    %s / %s\n", suite->pName, test->pName);
        return;
    }
    tests_failed++;
    printf("  FAIL  %s / %s\n", suite->pName, test->pName);
    for (CU_pFailureRecord f = failures; f != NULL; f = f->pNext)
        printf("        %s:%u: %s\n", f->strFileName ? f->strFileName : "?", f->uiLineNumber,
               f->strCondition ? f->strCondition : "");
}

static void on_suite_init_failure(const CU_pSuite suite)
{
    tests_failed++;
    printf("  FAIL  %s: suite set-up failed\n", suite->pName);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    char token[64] = "";
    const char *tk = getenv("MBD_TEST_TOKEN");
    if (tk != NULL) {
        snprintf(token, sizeof token, "%s", tk);
        unsetenv("MBD_TEST_TOKEN");
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (CU_initialize_registry() != CUE_SUCCESS || CU_register_suites(mbd_test_suites) != CUE_SUCCESS) {
        fprintf(stderr, "%s: cannot register the tests: %s\n", argv[0], CU_get_error_msg());
        return 2;
    }
    CU_set_test_complete_handler(on_test_complete);
    CU_set_suite_init_failure_handler(on_suite_init_failure);

    int rc = 0;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (CU_pSuite s = CU_get_registry()->pSuite; s != NULL; s = s->pNext)
            for (CU_pTest t = s->pTest; t != NULL; t = t->pNext)
                printf("%s\t%s\n", s->pName, t->pName);
    } else if (argc == 4 && strcmp(argv[1], "--run") == 0) {
        CU_pSuite s = CU_get_suite(argv[2]);
        CU_pTest t = s ? CU_get_test(s, argv[3]) : NULL;
        if (t == NULL) {
            printf("no test '%s' in suite '%s'\n", argv[3], argv[2]);
            rc = 3;
        } else {
            CU_run_test(s, t);
            rc = tests_failed ? 1 : 0;
            if (token[0])
                printf("mbd-result %s %s\n", token, rc ? "fail" : "pass");
        }
    } else if (argc == 1) {
        CU_run_all_tests();
        printf("%s: %u tests, %u failed\n", argv[0], tests_run, tests_failed);
        rc = tests_failed ? 1 : 0;
    } else {
        fprintf(stderr, "usage: %s [--list | --run SUITE TEST]\n", argv[0]);
        rc = 2;
    }
    CU_cleanup_registry();
    return rc;
}
