#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "mbd/error.h"

#ifndef MBD_BUILD_DIR
#define MBD_BUILD_DIR "build"
#endif

/* CUnit copies the condition text into its failure record, so one buffer
 * serves every assertion. */
static char message[1024];

int mbd_check_close(double obs, double exp, double tol, int relative, const char *what,
                    const char *file, unsigned line, CU_BOOL fatal)
{
    double diff = fabs(obs - exp);
    double bound = relative ? tol * fabs(exp) : tol;
    int ok = isfinite(obs) && diff <= bound;
    if (!ok)
        snprintf(message, sizeof message,
                 "%s: observed %.10g, expected %.10g, %s tolerance %.3g (|diff| %.3g)", what, obs,
                 exp, relative ? "relative" : "absolute", tol, diff);
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, ok ? what : message, file, "", fatal);
    return ok;
}

int mbd_check_in(double obs, double lo, double hi, const char *what, const char *file,
                 unsigned line, CU_BOOL fatal)
{
    int ok = isfinite(obs) && obs >= lo && obs <= hi;
    if (!ok)
        snprintf(message, sizeof message, "%s: observed %.10g, expected in [%.10g, %.10g]", what,
                 obs, lo, hi);
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, ok ? what : message, file, "", fatal);
    return ok;
}

int mbd_check_status(int st, int exp, const char *what, const char *file, unsigned line,
                     CU_BOOL fatal)
{
    int ok = st == exp;
    if (!ok)
        snprintf(message, sizeof message, "%s: returned %d (%s), expected %d (%s)", what, st,
                 mbd_strerror(st), exp, mbd_strerror(exp));
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, ok ? what : message, file, "", fatal);
    return ok;
}

int mbd_check_msg(int ok, const char *file, unsigned line, CU_BOOL fatal, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, message, file, "", fatal);
    return ok;
}

/* ------------------------------------------------------------------------ */

char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += k;
        if (cap - len - 1 == 0) {
            char *b = realloc(buf, 2 * cap);
            if (b == NULL)
                break;
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

int test_run(const char *cmdline, test_run_result *r)
{
    char out_path[] = "/tmp/mbd-test-out-XXXXXX", err_path[] = "/tmp/mbd-test-err-XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    if (fo >= 0)
        close(fo);
    if (fe >= 0)
        close(fe);
    size_t len = strlen(cmdline) + 2 * sizeof out_path + 32;
    char *cmd = malloc(len);
    snprintf(cmd, len, "( %s ) >%s 2>%s", cmdline, out_path, err_path);
    int ws = system(cmd);
    free(cmd);
    if (ws == -1)
        r->status = -1;
    else if (WIFEXITED(ws))
        r->status = WEXITSTATUS(ws);
    else if (WIFSIGNALED(ws))
        r->status = 128 + WTERMSIG(ws);
    else
        r->status = -1;
    r->out = test_read_file(out_path);
    r->err = test_read_file(err_path);
    if (r->out == NULL)
        r->out = calloc(1, 1);
    if (r->err == NULL)
        r->err = calloc(1, 1);
    remove(out_path);
    remove(err_path);
    return GSL_SUCCESS;
}

void test_run_free(test_run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

const char *test_program(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/bin/%s", MBD_BUILD_DIR, name);
    return path;
}

int test_summary_value(const char *text, const char *key, double *value)
{
    size_t klen = strlen(key);
    const char *p = text;
    while (p && *p) {
        if (strncmp(p, key, klen) == 0 && strncmp(p + klen, " = ", 3) == 0) {
            char *end;
            *value = strtod(p + klen + 3, &end);
            return end == p + klen + 3 ? -1 : 0;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return -1;
}

double test_summary(const char *text, const char *key)
{
    double v = NAN;
    mbd_check_msg(test_summary_value(text, key, &v) == 0, __FILE__, __LINE__, CU_FALSE,
                  "summary has no key '%s'", key);
    return v;
}
