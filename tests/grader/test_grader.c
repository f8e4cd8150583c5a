/* The grader's own tests (make check-grader, part of make check-exercises).
 *
 * Prepared submissions for chapter 01 are made at test time: a copy of
 * solutions/01-static-penalty/ with one small edit (a wrong value, a segfault,
 * an endless loop, a compile error, a NaN, ...). Each is graded by
 * $(BUILD)/tools/mbd-grade with the settings make wrote to
 * $(BUILD)/tools/grade.conf, and the test checks the score, the per-exercise
 * verdicts and the messages, and that results.json is valid JSON.
 * Then the stub generator's and the manifest reader's error messages, and
 * mbd-stubs --check against trees with something stale or wrong.
 *
 * Work files go to $(BUILD)/tests/grader/work/.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define GRADER MBD_BUILD_DIR "/tools/mbd-grade"
#define STUBS MBD_BUILD_DIR "/tools/mbd-stubs"
#define CONF MBD_BUILD_DIR "/tools/grade.conf"
#define WORK MBD_BUILD_DIR "/tests/grader/work"
#define CH01 "01-static-penalty"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static int spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Runs a shell command that must succeed. */
static int sh(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    test_run_result r;
    test_run(cmd, &r);
    int ok = r.status == 0;
    CHECK_MSG(ok, "command failed (status %d): %s\n%s%s", r.status, cmd, r.out, r.err);
    test_run_free(&r);
    return ok;
}

/* Replaces the first occurrence of `old` in a file by `new`; the edit must
 * change the file. */
static int edit(const char *path, const char *old, const char *new)
{
    char *text = test_read_file(path);
    char *at = text ? strstr(text, old) : NULL;
    CHECK_MSG(at != NULL, "%s: the text to replace is not there: %s", path, old);
    if (at == NULL) {
        free(text);
        return 0;
    }
    size_t n = strlen(text) - strlen(old) + strlen(new) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
    int ok = spit(path, out) == 0;
    CHECK_MSG(ok, "cannot write %s", path);
    free(out);
    free(text);
    return ok;
}

/* A submission named `name`: WORK/name/src/01-static-penalty/ holding the
 * solutions (or the stubs). Returns its file path prefix in path. */
static int prepare(const char *name, const char *from, char *path, size_t size)
{
    snprintf(path, size, WORK "/%s/src/" CH01, name);
    return sh("rm -rf " WORK "/%s && mkdir -p %s && cp -p %s/" CH01 "/* %s/", name, path, from,
              path);
}

static char *file_in(const char *dir, const char *file)
{
    static char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    return p;
}

typedef struct {
    int status;
    char *out, *err, *json, *junit;
} graded;

/* Grades WORK/name/src with extra options. */
static void grade(const char *name, const char *extra, graded *g)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             GRADER " --config " CONF " --src " WORK "/%s/src --out " WORK "/%s/out"
                    " --solutions solutions --chapter 01 %s",
             name, name, extra ? extra : "");
    test_run_result r;
    test_run(cmd, &r);
    g->status = r.status;
    g->out = r.out;
    g->err = r.err;
    char path[1024];
    snprintf(path, sizeof path, WORK "/%s/out/results.json", name);
    g->json = test_read_file(path);
    snprintf(path, sizeof path, WORK "/%s/out/junit.xml", name);
    g->junit = test_read_file(path);
}

static void graded_free(graded *g)
{
    free(g->out);
    free(g->err);
    free(g->json);
    free(g->junit);
}

/* The report line of an exercise: "  01.2  title (file)   FAIL  0/10". */
static void expect_exercise(const graded *g, const char *id, const char *verdict,
                            const char *score)
{
    char key[32], v[32], sc[32];
    snprintf(key, sizeof key, "\n  %s  ", id);
    snprintf(v, sizeof v, "  %s ", verdict);
    snprintf(sc, sizeof sc, " %s\n", score);
    const char *line = g->out ? strstr(g->out, key) : NULL;
    const char *eol = line ? strchr(line + 1, '\n') : NULL;
    int ok = 0;
    if (line && eol) {
        char *l = strndup(line, (size_t)(eol - line) + 1);
        ok = strstr(l, v) != NULL && strstr(l, sc) != NULL;
        free(l);
    }
    CHECK_MSG(ok, "exercise %s: expected %s and %s on its line; the report:\n%s%s", id, verdict,
              score, g->out, g->err);
}

static void expect_text(const char *text, const char *needle, const char *where)
{
    CHECK_MSG(text && strstr(text, needle) != NULL, "%s should contain '%s'; it is:\n%s", where,
              needle, text ? text : "(missing)");
}

static void expect_no_text(const char *text, const char *needle, const char *where)
{
    CHECK_MSG(text && strstr(text, needle) == NULL, "%s should not contain '%s'; it is:\n%s",
              where, needle, text ? text : "(missing)");
}

/* how often needle occurs in text */
static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text ? strstr(text, needle) : NULL; p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* ------------------------------------------------------------------------ */
/* A minimal JSON checker (RFC 8259 syntax), so every results.json is known
 * to parse. Returns the position after the value, or NULL.                 */

static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static const char *json_value(const char *p, int depth);

static const char *json_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    while (*p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c == '\0' || c < 0x20)
            return NULL;
        if (c == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!isxdigit((unsigned char)p[i]))
                        return NULL;
                p += 5;
                continue;
            }
            if (!strchr("\"\\/bfnrt", *p) || *p == '\0')
                return NULL;
        }
        p++;
    }
    return p + 1;
}

static const char *json_number(const char *p)
{
    const char *s = p;
    if (*p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return NULL;
    if (*p == '0')
        p++;
    else
        while (isdigit((unsigned char)*p))
            p++;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return p > s ? p : NULL;
}

static const char *json_value(const char *p, int depth)
{
    if (depth > 64)
        return NULL;
    p = json_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int object = *p == '{';
        p = json_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (object) {
                p = json_string(json_ws(p));
                if (p == NULL)
                    return NULL;
                p = json_ws(p);
                if (*p++ != ':')
                    return NULL;
            }
            p = json_value(p, depth + 1);
            if (p == NULL)
                return NULL;
            p = json_ws(p);
            if (*p == close)
                return p + 1;
            if (*p++ != ',')
                return NULL;
        }
    }
    if (*p == '"')
        return json_string(p);
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
        return p + 4;
    if (strncmp(p, "false", 5) == 0)
        return p + 5;
    return json_number(p);
}

static int json_valid(const char *text)
{
    if (text == NULL)
        return 0;
    const char *end = json_value(text, 0);
    return end != NULL && *json_ws(end) == '\0';
}

/* What every graded run must have: exit status 0, valid results.json with
 * this score, a JUnit file, and the score line. */
static void expect_score(const graded *g, const char *score, const char *max)
{
    char line[64], json[64], jmax[64];
    snprintf(line, sizeof line, "Score: %s/%s\n", score, max);
    snprintf(json, sizeof json, "\"score\": %s,", score);
    snprintf(jmax, sizeof jmax, "\"max_score\": %s,", max);
    CHECK_MSG(g->status == 0, "the grader exited with %d (expected 0):\n%s%s", g->status, g->out,
              g->err);
    expect_text(g->out, line, "the report");
    CHECK_MSG(json_valid(g->json), "results.json is not valid JSON:\n%s",
              g->json ? g->json : "(missing)");
    expect_text(g->json, json, "results.json");
    expect_text(g->json, jmax, "results.json");
    expect_text(g->junit, "<testsuites name=\"mbd-grade\"", "junit.xml");
}

/* ------------------------------------------------------------------------ */
/* Prepared submissions                                                     */

static void all_correct(void)
{
    char dir[512];
    if (!prepare("correct", "solutions", dir, sizeof dir))
        return;
    graded g;
    grade("correct", NULL, &g);
    expect_score(&g, "35", "35");
    expect_exercise(&g, "01.1", "OK", "5/5");
    expect_exercise(&g, "01.2", "OK", "10/10");
    expect_exercise(&g, "01.3", "OK", "10/10");
    expect_exercise(&g, "01.4", "OK", "10/10");
    expect_text(g.junit, "tests=\"16\" failures=\"0\" errors=\"0\"", "junit.xml");
    expect_text(g.json, "\"status\": \"passed\"", "results.json");
    expect_no_text(g.json, "\"status\": \"failed\"", "results.json");
    graded_free(&g);
}

static void untouched_stubs(void)
{
    char dir[512];
    if (!prepare("stubs", "exercises", dir, sizeof dir))
        return;
    graded g;
    grade("stubs", NULL, &g);
    expect_score(&g, "0", "35");
    expect_exercise(&g, "01.1", "FAIL", "0/5");
    expect_exercise(&g, "01.2", "FAIL", "0/10");
    expect_exercise(&g, "01.3", "FAIL", "0/10");
    expect_exercise(&g, "01.4", "FAIL", "0/10");
    CHECK_MSG(count(g.out, "not implemented yet") == 4, "each stub should be 'not implemented "
              "yet':\n%s", g.out);
    expect_text(g.junit, "tests=\"16\" failures=\"16\" errors=\"0\"", "junit.xml");
    graded_free(&g);
}

/* a wrong value, with output that needs escaping in JSON and XML */
static void wrong_value(void)
{
    char dir[512];
    if (!prepare("wrong", "solutions", dir, sizeof dir))
        return;
    const char *f = file_in(dir, "rigid_bar.c");
    edit(f, "#include <gsl/gsl_errno.h>", "#include <stdio.h>\n#include <gsl/gsl_errno.h>");
    edit(f, "gsl_vector_set(Q, 4, r5 * theta);",
         "gsl_vector_set(Q, 4, 1.01 * r5 * theta);\n"
         "    printf(\"quote\\\" back\\\\ tab\\t ctl\\001 amp& lt< bad\\377 end\\n\");");
    graded g;
    grade("wrong", NULL, &g);
    expect_score(&g, "30", "35");
    expect_exercise(&g, "01.1", "FAIL", "0/5");
    expect_exercise(&g, "01.2", "OK", "10/10");
    expect_exercise(&g, "01.3", "OK", "10/10");
    expect_exercise(&g, "01.4", "OK", "10/10");
    /* check.c's message: observed, expected, tolerance */
    expect_text(g.out, "document_bar: failed", "the report");
    expect_text(g.out, "gsl_vector_get(Q, 4): observed 1.47738", "the report");
    expect_text(g.out, "expected 1.462754, absolute tolerance 1e-06", "the report");
    expect_text(g.out, "output:", "the report");
    /* escaped: quote, backslash, tab, a control character, invalid UTF-8 */
    expect_text(g.json, "quote\\\" back\\\\ tab\\t ctl\\u0001 amp& lt< bad\\ufffd end",
                "results.json");
    expect_text(g.junit, "quote&quot; back\\ tab\t ctl? amp&amp; lt&lt; bad? end", "junit.xml");
    expect_text(g.junit, "<failure message=\"failed: tests/exercises/" CH01 "/test_rigid_bar.c",
                "junit.xml");
    graded_free(&g);
}

/* partial credit: one of the four tests of 01.4 fails */
static void partial_credit(void)
{
    char dir[512];
    if (!prepare("partial", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "sweep.c"), "if (error[i] < error[*kbest - kmin])",
         "if (error[i] > error[*kbest - kmin])");
    graded g;
    grade("partial", NULL, &g);
    expect_score(&g, "32.5", "35");
    expect_exercise(&g, "01.4", "FAIL", "7.5/10");
    expect_text(g.out, "best_exponent: failed", "the report");
    expect_text(g.json, "\"score\": 7.5,", "results.json");
    expect_text(g.json, "3 of 4 tests passed", "results.json");
    graded_free(&g);
}

static void segfault(void)
{
    char dir[512];
    if (!prepare("segfault", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "penalty.c"), "/* EXERCISE 01.2 BEGIN */",
         "/* EXERCISE 01.2 BEGIN */\n"
         "    { volatile double *bad = (volatile double *)(size_t)64; *bad = 1.0; }");
    graded g;
    grade("segfault", NULL, &g);
    expect_score(&g, "25", "35");
    expect_exercise(&g, "01.1", "OK", "5/5");
    expect_exercise(&g, "01.2", "FAIL", "0/10");
    expect_exercise(&g, "01.3", "OK", "10/10");
    expect_exercise(&g, "01.4", "OK", "10/10");
    CHECK_MSG(count(g.out, "crashed (signal 11") == 5, "each of 01.2's five tests should have "
              "'crashed (signal 11':\n%s", g.out);
    expect_text(g.junit, "type=\"crash\"", "junit.xml");
    graded_free(&g);
}

static void endless_loop(void)
{
    char dir[512];
    if (!prepare("loop", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "lagrange.c"), "/* EXERCISE 01.3 BEGIN */",
         "/* EXERCISE 01.3 BEGIN */\n    for (volatile int spin = 1; spin;) {}");
    graded g;
    grade("loop", "--timeout 1", &g);
    expect_score(&g, "25", "35");
    expect_exercise(&g, "01.3", "FAIL", "0/10");
    expect_exercise(&g, "01.2", "OK", "10/10");
    CHECK_MSG(count(g.out, "timed out: no result within 1 s") == 4,
              "each of 01.3's four tests should have timed out:\n%s", g.out);
    expect_text(g.junit, "type=\"timeout\"", "junit.xml");
    graded_free(&g);
}

static void compile_error(void)
{
    char dir[512];
    if (!prepare("compile", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "sweep.c"), "const size_t n = K->size1;", "const size_t n = K->size1 +;");
    graded g;
    grade("compile", NULL, &g);
    expect_score(&g, "25", "35");
    expect_exercise(&g, "01.4", "FAIL", "0/10");
    expect_exercise(&g, "01.1", "OK", "5/5");
    expect_exercise(&g, "01.3", "OK", "10/10");
    expect_text(g.out, "sweep.c does not compile:", "the report");
    expect_text(g.out, "sweep.c:", "the report");
    expect_text(g.out, "error: expected expression", "the report");
    expect_text(g.junit, "<error message=\"sweep.c does not compile:\" type=\"build\">",
                "junit.xml");
    graded_free(&g);
}

static void nan_result(void)
{
    char dir[512];
    if (!prepare("nan", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "rigid_bar.c"), "double theta = (", "double theta = (0.0 / 0.0) * (");
    graded g;
    grade("nan", NULL, &g);
    expect_score(&g, "30", "35");
    expect_exercise(&g, "01.1", "FAIL", "0/5");
    expect_exercise(&g, "01.4", "OK", "10/10");
    expect_text(g.out, "nan, expected 0.487585", "the report");
    graded_free(&g);
}

/* a warning is shown, and costs nothing */
static void warning_not_fatal(void)
{
    char dir[512];
    if (!prepare("warning", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "rigid_bar.c"), "/* EXERCISE 01.1 BEGIN */",
         "/* EXERCISE 01.1 BEGIN */\n    int unused_variable;");
    graded g;
    grade("warning", NULL, &g);
    expect_score(&g, "35", "35");
    expect_exercise(&g, "01.1", "OK", "5/5");
    expect_text(g.out, "rigid_bar.c: 1 warning (not fatal", "the report");
    expect_text(g.out, "unused_variable", "the report");
    graded_free(&g);
}

/* exit(0) inside the student's code does not pass the test; a function with
 * the wrong name fails the link; both cost only that file */
static void exit_and_link_error(void)
{
    char dir[512];
    if (!prepare("exit", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "rigid_bar.c"), "#include <gsl/gsl_errno.h>",
         "#include <stdlib.h>\n#include <gsl/gsl_errno.h>");
    edit(file_in(dir, "rigid_bar.c"), "/* EXERCISE 01.1 BEGIN */", "/* EXERCISE 01.1 BEGIN */\n    exit(0);");
    edit(file_in(dir, "lagrange.c"), "int ex01_lagrange_solve(", "int ex01_lagrange_solver(");
    graded g;
    grade("exit", NULL, &g);
    expect_score(&g, "20", "35");
    expect_exercise(&g, "01.1", "FAIL", "0/5");
    expect_exercise(&g, "01.3", "FAIL", "0/10");
    expect_text(g.out, "the program ended (status 0) before the test finished", "the report");
    expect_text(g.out, "lagrange.c compiles, but its test program does not link", "the report");
    expect_text(g.out, "undefined reference to `ex01_lagrange_solve'", "the report");
    graded_free(&g);
}

/* Code that prints the runner's own "ok" lines and exits does not pass: a
 * pass needs the runner's verdict with the grader's token, printed only after
 * the test has run to its end. */
static void forged_ok_lines(void)
{
    char dir[512];
    if (!prepare("forge", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "rigid_bar.c"), "#include <gsl/gsl_errno.h>",
         "#include <stdio.h>\n#include <stdlib.h>\n#include <gsl/gsl_errno.h>");
    edit(file_in(dir, "rigid_bar.c"), "/* EXERCISE 01.1 BEGIN */",
         "/* EXERCISE 01.1 BEGIN */\n"
         "    printf(\"  ok    ex01.1 / document_bar\\n  ok    ex01.1 / equilibrium_with_misfits\\n"
         "  ok    ex01.1 / misfit_document_bar\\nmbd-result 0 pass\\n\");\n"
         "    fflush(stdout);\n    exit(0);");
    graded g;
    grade("forge", NULL, &g);
    expect_score(&g, "30", "35");
    expect_exercise(&g, "01.1", "FAIL", "0/5");
    graded_free(&g);
}

/* --exercise and --file select; a missing file is reported, not fatal */
static void selection_and_missing_file(void)
{
    char dir[512];
    if (!prepare("select", "solutions", dir, sizeof dir))
        return;
    graded g;
    grade("select", "--exercise 2", &g);
    expect_score(&g, "10", "10");
    expect_exercise(&g, "01.2", "OK", "10/10");
    expect_no_text(g.out, "01.1", "the report");
    graded_free(&g);

    grade("select", "--file sweep.c", &g);
    expect_score(&g, "10", "10");
    expect_exercise(&g, "01.4", "OK", "10/10");
    graded_free(&g);

    sh("rm -f %s", file_in(dir, "rigid_bar.c"));
    grade("select", NULL, &g);
    expect_score(&g, "30", "35");
    expect_text(g.out, "rigid_bar.c: missing (nothing to grade)", "the report");
    graded_free(&g);

    grade("select", "--exercise 9", &g);
    CHECK_MSG(g.status == 2, "an unknown exercise: status %d, expected 2", g.status);
    expect_text(g.err, "no exercise matches chapter 01, exercise 9", "stderr");
    graded_free(&g);
}

/* under AddressSanitizer (make memcheck), a heap overflow is named as such */
static void sanitizer_report(void)
{
    char *conf = test_read_file(CONF);
    int asan = conf && strstr(conf, "-fsanitize=address");
    free(conf);
    if (!asan)
        return;   /* only meaningful in a sanitized build */
    char dir[512];
    if (!prepare("asan", "solutions", dir, sizeof dir))
        return;
    edit(file_in(dir, "rigid_bar.c"), "/* EXERCISE 01.1 BEGIN */",
         "/* EXERCISE 01.1 BEGIN */\n"
         "    { gsl_vector *tiny = gsl_vector_alloc(1); tiny->data[1] = 0; gsl_vector_free(tiny); }");
    graded g;
    grade("asan", NULL, &g);
    expect_score(&g, "30", "35");
    expect_text(g.out, "stopped by AddressSanitizer (memory error)", "the report");
    expect_text(g.out, "heap-buffer-overflow", "the report");
    graded_free(&g);
}

/* A chapter that `uses` chapter 01: its tests link chapter 01's files from
 * --solutions when there, else the student's own. */
static void uses_earlier_chapter(void)
{
    const char *base = WORK "/uses";
    if (!sh("rm -rf %s && mkdir -p %s/src/02-later %s/tests/02-later %s/ref && "
            "cp -pr exercises/" CH01 " %s/src/ && cp -pr solutions/" CH01 " %s/ref/",
            base, base, base, base, base, base))
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/manifest.yaml", base);
    spit(path, "chapters:\n"
               "  - chapter: \"01\"\n    slug: static-penalty\n    title: One\n    exercises:\n"
               "      - {id: \"01.1\", title: Bar, file: rigid_bar.c, functions: [ex01_rigid_bar], points: 5}\n"
               "  - chapter: \"02\"\n    slug: later\n    title: Two\n    uses: [\"01\"]\n    exercises:\n"
               "      - {id: \"02.1\", title: Tip, file: tip.c, functions: [ex02_tip], points: 4}\n");
    snprintf(path, sizeof path, "%s/src/02-later/tip.c", base);
    spit(path, "#include \"ex01.h\"\n"
               "double ex02_tip(void);\n"
               "double ex02_tip(void)\n{\n"
               "    gsl_vector *Q = gsl_vector_alloc(5);\n"
               "    int st = ex01_rigid_bar(200e3 * 1200.0 / 4500.0, 70e3 * 900.0 / 3000.0, 30e3,"
               " 2, 5, 6, 0, 0, Q);\n"
               "    double tip = st ? -1.0 : gsl_vector_get(Q, 4);\n"
               "    gsl_vector_free(Q);\n    return tip;\n}\n");
    snprintf(path, sizeof path, "%s/tests/02-later/test_tip.c", base);
    spit(path, "#include \"check.h\"\n"
               "double ex02_tip(void);\n"
               "static void tip(void) { CHECK_CLOSE(ex02_tip(), 1.462754, 1e-6); }\n"
               "static void twice(void) { CHECK_CLOSE(2 * ex02_tip(), 2 * 1.462754, 2e-6); }\n"
               "static CU_TestInfo tests[] = {{\"tip\", tip}, {\"twice\", twice}, CU_TEST_INFO_NULL};\n"
               "CU_SuiteInfo mbd_test_suites[] = {{\"ex02.1\", NULL, NULL, NULL, NULL, tests},"
               " CU_SUITE_INFO_NULL};\n");
    /* the reference solutions of chapter 01 (the autograder bundle) */
    test_run_result r;
    test_run(GRADER " --config " CONF " --manifest " WORK "/uses/manifest.yaml --src " WORK
                   "/uses/src --tests " WORK "/uses/tests --solutions " WORK "/uses/ref --out "
                   WORK "/uses/out --chapter 02", &r);
    CHECK_MSG(r.status == 0, "status %d:\n%s%s", r.status, r.out, r.err);
    expect_text(r.out, "Score: 4/4\n", "the report (chapter 01 from the reference solutions)");
    test_run_free(&r);
    /* no reference solutions (the student release): the student's own stub */
    test_run(GRADER " --config " CONF " --manifest " WORK "/uses/manifest.yaml --src " WORK
                   "/uses/src --tests " WORK "/uses/tests --solutions " WORK "/uses/none --out "
                   WORK "/uses/out --chapter 02", &r);
    CHECK_MSG(r.status == 0, "status %d:\n%s%s", r.status, r.out, r.err);
    expect_text(r.out, "Score: 0/4\n", "the report (chapter 01 from the student's stubs)");
    test_run_free(&r);
    /* what the autograder copies from a submission: the used chapter's files too */
    test_run(GRADER " --manifest " WORK "/uses/manifest.yaml --list-files --chapter 02", &r);
    CHECK_MSG(r.status == 0, "--list-files: status %d:\n%s%s", r.status, r.out, r.err);
    expect_text(r.out, "01-static-penalty/rigid_bar.c\n02-later/tip.c\n", "--list-files --chapter 02");
    test_run_free(&r);
}

/* --user (the autograder's sandbox) is refused where it could not keep its
 * promise: not root, root's own uid, or with reference solutions that would
 * be linked into code the submission controls. (The sandbox at work, with a
 * hostile submission, is tested as root by tests/grader/release.sh.) */
static void user_refusals(void)
{
    test_run_result r;
    if (geteuid() != 0) {
        test_run(GRADER " --config " CONF " --user 61000 --chapter 01", &r);
        CHECK_MSG(r.status == 2, "--user, not root: status %d, expected 2", r.status);
        expect_text(r.err, "--user 61000 needs root", "stderr");
        test_run_free(&r);
        return;
    }
    test_run(GRADER " --config " CONF " --user 0 --chapter 01", &r);
    CHECK_MSG(r.status == 2, "--user 0: status %d, expected 2", r.status);
    expect_text(r.err, "that is root's user or group", "stderr");
    test_run_free(&r);
    test_run(GRADER " --config " CONF " --user 61000:0 --chapter 01", &r);
    CHECK_MSG(r.status == 2, "--user 61000:0: status %d, expected 2", r.status);
    expect_text(r.err, "that is root's user or group", "stderr");
    test_run_free(&r);
    test_run(GRADER " --config " CONF " --user 61000 --solutions solutions --chapter 01", &r);
    CHECK_MSG(r.status == 2, "--user with --solutions: status %d, expected 2", r.status);
    expect_text(r.err, "--solutions cannot go with --user", "stderr");
    test_run_free(&r);
    test_run(GRADER " --config " CONF " --user 'no such user' --chapter 01", &r);
    CHECK_MSG(r.status == 2, "--user 'no such user': status %d, expected 2", r.status);
    expect_text(r.err, "there is no user 'no such user'", "stderr");
    test_run_free(&r);
}

/* ------------------------------------------------------------------------ */
/* The stub generator                                                       */

/* Runs mbd-stubs --stub on a file with the given text. */
static void stub_of(const char *text, test_run_result *r)
{
    sh("mkdir -p " WORK "/markers");
    spit(WORK "/markers/x.c", text);
    test_run(STUBS " --stub " WORK "/markers/x.c", r);
}

static void expect_marker_error(const char *text, const char *message)
{
    test_run_result r;
    stub_of(text, &r);
    CHECK_MSG(r.status == 1, "malformed markers: status %d, expected 1", r.status);
    expect_text(r.err, message, "mbd-stubs' message");
    test_run_free(&r);
}

static void stub_generation(void)
{
    test_run_result r;
    /* the STUB lines hold what the stub needs besides its return, which the
     * generator adds itself */
    stub_of("int f(int a)\n{\n        /* EXERCISE 07.2 BEGIN */\n        return 42 + a;\n"
            "        /* EXERCISE 07.2 STUB\n        (void)a;\n"
            "        EXERCISE 07.2 END */\n}\n/* EXERCISE 07.2 -- prose is not a marker */\n", &r);
    CHECK_MSG(r.status == 0, "status %d: %s", r.status, r.err);
    const char *want = "int f(int a)\n{\n        /* EXERCISE 07.2: your code here (see README.md) */\n"
                       "        (void)a;\n        return MBD_EUNIMPL;\n}\n"
                       "/* EXERCISE 07.2 -- prose is not a marker */\n";
    CHECK_MSG(strcmp(r.out, want) == 0, "the stub:\n%s\nexpected:\n%s", r.out, want);
    /* a stub is its own stub */
    char *stub = strdup(r.out);
    test_run_free(&r);
    stub_of(stub, &r);
    CHECK_MSG(r.status == 0 && strcmp(r.out, stub) == 0, "the stub of a stub changed:\n%s", r.out);
    test_run_free(&r);
    free(stub);
    /* a file without markers is copied unchanged */
    stub_of("#define X 1\n", &r);
    CHECK_MSG(r.status == 0 && strcmp(r.out, "#define X 1\n") == 0, "unchanged: %s", r.out);
    test_run_free(&r);
}

static void malformed_markers(void)
{
    expect_marker_error("a\n/* EXERCISE 01.1 BEGIN */\nx\n/* EXERCISE 01.1 STUB\ny\n",
                        "x.c:2: EXERCISE 01.1 BEGIN has no END: expected 'EXERCISE 01.1 END */'");
    expect_marker_error("/* EXERCISE 01.1 BEGIN */\nx\n",
                        "x.c:1: EXERCISE 01.1 BEGIN has no STUB: expected '/* EXERCISE 01.1 STUB'");
    expect_marker_error("/* EXERCISE 01.1 BEGIN */\nx\n/* EXERCISE 01.2 STUB\ny\nEXERCISE 01.2 END */\n",
                        "x.c:3: expected '/* EXERCISE 01.1 STUB' (EXERCISE 01.1 BEGIN is at line 1), "
                        "found 'EXERCISE 01.2 STUB'");
    expect_marker_error("/* EXERCISE 01.1 BEGIN */\nx\n/* EXERCISE 01.1 STUB\ny\nEXERCISE 01.3 END */\n",
                        "x.c:5: expected 'EXERCISE 01.1 END */'");
    expect_marker_error("/* EXERCISE 01.1 BEGIN */\n/* EXERCISE 01.2 BEGIN */\n",
                        "x.c:2: nested region: 'EXERCISE 01.2 BEGIN' inside EXERCISE 01.1");
    expect_marker_error("x\nEXERCISE 01.1 END */\n",
                        "x.c:2: 'EXERCISE 01.1 END' outside a region: expected '/* EXERCISE 01.1 BEGIN */'");
    expect_marker_error("/* EXERCISE 01.1 BEGIN\n",
                        "x.c:1: malformed marker: expected the line to be '/* EXERCISE 01.1 BEGIN */'");
    expect_marker_error("/* EXERCISE 01.1 BEGIN */\nx\n/* EXERCISE 01.1 STUB\nreturn 1; /* no */\n"
                        "EXERCISE 01.1 END */\n",
                        "x.c:4: a stub line must not contain '*/'");
}

/* ------------------------------------------------------------------------ */
/* The manifest                                                             */

static void expect_manifest_error(const char *text, const char *message)
{
    sh("mkdir -p " WORK "/manifest");
    spit(WORK "/manifest/m.yaml", text);
    test_run_result r;
    test_run(GRADER " --manifest " WORK "/manifest/m.yaml --list-files", &r);
    CHECK_MSG(r.status == 2, "a bad manifest: status %d, expected 2", r.status);
    expect_text(r.err, message, "mbd-grade's message");
    test_run_free(&r);
}

#define GOOD_CHAPTER "chapters:\n  - chapter: \"01\"\n    slug: s\n    title: T\n    exercises:\n"

static void manifest_errors(void)
{
    expect_manifest_error(GOOD_CHAPTER "      - id: \"01.1\"\n        title: [x\n",
                          "m.yaml:8:1: YAML syntax error: did not find expected ',' or ']' "
                          "(while parsing a flow sequence, started at line 7, column 16)");
    expect_manifest_error(GOOD_CHAPTER "      - id: \"01.1\"\n        title: x\n  bad: indentation\n",
                          "YAML syntax error");
    expect_manifest_error(GOOD_CHAPTER "      - {id: \"01.1\", title: t, file: a.c, functions: [f], points: ten}\n",
                          "m.yaml:6:67: 'points': expected a number greater than 0, found 'ten'");
    expect_manifest_error(GOOD_CHAPTER "      - {id: \"01.1\", title: t, file: a.c, functions: [f], pionts: 1}\n",
                          "m.yaml:6:59: chapter 01: an exercise: unknown key 'pionts' (expected one of: "
                          "id, title, file, functions, points, timeout)");
    expect_manifest_error(GOOD_CHAPTER "      - {id: \"01.1\", title: t, file: a.c, functions: [f]}\n",
                          "m.yaml:6:9: chapter 01: an exercise: missing key 'points'");
    expect_manifest_error(GOOD_CHAPTER "      - {id: \"02.1\", title: t, file: a.c, functions: [f], points: 1}\n",
                          "m.yaml:6:14: 'id': expected 01.K (chapter 01, K = 1, 2, ...), found '02.1'");
    expect_manifest_error(GOOD_CHAPTER "      - {id: \"01.1\", title: t, file: a/b.c, functions: [f], points: 1}\n",
                          "'file': expected a C file name like rigid_bar.c (no directory), found 'a/b.c'");
    expect_manifest_error("chapters:\n  - chapter: 1\n    slug: s\n    title: T\n    uses: [\"03\"]\n"
                          "    exercises:\n"
                          "      - {id: \"01.1\", title: t, file: a.c, functions: [f], points: 1}\n",
                          "m.yaml:2:14: 'chapter': expected two digits in quotes, like \"01\", found '1'");
    expect_manifest_error(GOOD_CHAPTER "      - {id: \"01.1\", title: t, file: a.c, functions: [f], points: 1}\n"
                          "  - chapter: \"02\"\n    slug: s\n    title: T\n    uses: [\"03\"]\n"
                          "    exercises:\n"
                          "      - {id: \"02.1\", title: t, file: a.c, functions: [f], points: 1}\n",
                          "m.yaml:10:11: 'uses': chapter 03 is not a chapter listed before this one");
    expect_manifest_error("", "m.yaml:1:1: the manifest is empty");
}

/* ------------------------------------------------------------------------ */
/* mbd-stubs --check against a copy of the tree                             */

#define CS WORK "/check"
#define CS_ARGS " --manifest " CS "/manifest.yaml --solutions " CS "/solutions --exercises " CS \
                "/exercises --tests " CS "/tests"

static void reset_check_tree(void)
{
    /* every chapter: the manifest names them all */
    sh("rm -rf " CS " && mkdir -p " CS "/solutions " CS "/exercises " CS "/tests && "
       "cp -pr solutions/. " CS "/solutions/ && cp -pr exercises/[0-9][0-9]-* " CS "/exercises/ && "
       "cp -pr tests/exercises/[0-9][0-9]-* " CS "/tests/ && cp exercises/manifest.yaml " CS "/");
}

static void expect_check(int status, const char *message)
{
    test_run_result r;
    test_run(STUBS " --check" CS_ARGS, &r);
    CHECK_MSG(r.status == status, "mbd-stubs --check: status %d, expected %d:\n%s%s", r.status,
              status, r.out, r.err);
    if (message)
        expect_text(r.out, message, "mbd-stubs --check");
    test_run_free(&r);
}

static void check_stubs(void)
{
    reset_check_tree();
    expect_check(0, "matches");

    /* an edited stub: named, with a diff; --write repairs it */
    edit(CS "/exercises/" CH01 "/penalty.c", "return MBD_EUNIMPL;", "return 0;");
    expect_check(1, "exercises/" CH01 "/penalty.c: differs from the stub generated from its solution");
    expect_check(1, "-    return 0;\n+    return MBD_EUNIMPL;");
    sh(STUBS " --write" CS_ARGS " > /dev/null");
    expect_check(0, "matches");

    /* a stale points table */
    edit(CS "/manifest.yaml", "points: 5", "points: 6");
    expect_check(1, "README.md: its points table is stale");
    expect_check(1, "+| 01.1 | The rigid-bar closed form | `rigid_bar.c` | `ex01_rigid_bar` | 6 |");

    /* the manifest names what does not exist */
    reset_check_tree();
    edit(CS "/manifest.yaml", "functions: [ex01_rigid_bar]", "functions: [ex01_rigid_beam]");
    expect_check(1, "exercise 01.1: function ex01_rigid_beam is not in");
    reset_check_tree();
    edit(CS "/manifest.yaml", "file: sweep.c", "file: sweeps.c");
    expect_check(1, "exercise 01.4: no file");
    reset_check_tree();
    edit(CS "/tests/" CH01 "/test_lagrange.c", "{\"ex01.3\",", "{\"ex01.33\",");
    expect_check(1, "registers no suite \"ex01.3\"");

    /* a STUB block that returns MBD_EUNIMPL itself (the generator does), a
     * missing region */
    reset_check_tree();
    edit(CS "/solutions/" CH01 "/rigid_bar.c", "    EXERCISE 01.1 END",
         "    return MBD_EUNIMPL;\n    EXERCISE 01.1 END");
    expect_check(1, "the stub of EXERCISE 01.1 returns MBD_EUNIMPL itself");
    reset_check_tree();
    edit(CS "/solutions/" CH01 "/lagrange.c", "/* EXERCISE 01.3 BEGIN */", "/* solution */");
    edit(CS "/solutions/" CH01 "/lagrange.c", "/* EXERCISE 01.3 STUB", "/*");
    edit(CS "/solutions/" CH01 "/lagrange.c", "EXERCISE 01.3 END */", "*/");
    expect_check(1, "no region '/* EXERCISE 01.3 BEGIN */'");

    /* malformed markers in a solution, with file and line */
    reset_check_tree();
    edit(CS "/solutions/" CH01 "/sweep.c", "EXERCISE 01.4 END */", "EXERCISE 01.5 END */");
    expect_check(1, "solutions/" CH01 "/sweep.c:");
    expect_check(1, "expected 'EXERCISE 01.4 END */'");
}

static CU_TestInfo grading_tests[] = {
    {"all_correct", all_correct},
    {"untouched_stubs", untouched_stubs},
    {"wrong_value", wrong_value},
    {"partial_credit", partial_credit},
    {"segfault", segfault},
    {"endless_loop", endless_loop},
    {"compile_error", compile_error},
    {"nan_result", nan_result},
    {"warning_not_fatal", warning_not_fatal},
    {"exit_and_link_error", exit_and_link_error},
    {"forged_ok_lines", forged_ok_lines},
    {"selection_and_missing_file", selection_and_missing_file},
    {"sanitizer_report", sanitizer_report},
    {"uses_earlier_chapter", uses_earlier_chapter},
    {"user_refusals", user_refusals},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo tool_tests[] = {
    {"stub_generation", stub_generation},
    {"malformed_markers", malformed_markers},
    {"manifest_errors", manifest_errors},
    {"check_stubs", check_stubs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo mbd_test_suites[] = {
    {"grading", NULL, NULL, NULL, NULL, grading_tests},
    {"tools", NULL, NULL, NULL, NULL, tool_tests},
    CU_SUITE_INFO_NULL,
};
