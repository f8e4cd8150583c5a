/* lib/src/gnuplot.c -- running gnuplot (gnuplot_impl.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "gnuplot_impl.h"

int mbd_gnuplot_open(mbd_gnuplot *g, mbd_failure *fail)
{
    snprintf(g->errpath, sizeof g->errpath, "/tmp/mbd-gnuplot-XXXXXX");
    g->pipe = NULL;
    int fd = mkstemp(g->errpath);
    if (fd < 0)
        return mbd_failure_set(fail, MBD_EIO, NAN, "cannot create a temporary file: %s",
                               strerror(errno));
    close(fd);

    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &g->sigpipe);

    char cmd[512];
    snprintf(cmd, sizeof cmd, "gnuplot >/dev/null 2>'%s'", g->errpath);
    g->pipe = popen(cmd, "w");
    if (g->pipe == NULL) {
        sigaction(SIGPIPE, &g->sigpipe, NULL);
        remove(g->errpath);
        return mbd_failure_set(fail, MBD_EEXTERNAL, NAN, "cannot run gnuplot: %s",
                               strerror(errno));
    }
    return GSL_SUCCESS;
}

int mbd_gnuplot_close(mbd_gnuplot *g, const char *path, mbd_failure *fail)
{
    int rc = pclose(g->pipe);
    g->pipe = NULL;
    sigaction(SIGPIPE, &g->sigpipe, NULL);

    /* gnuplot reports errors on stderr; warnings (e.g. a log axis with no
     * positive data) do not make it fail, errors do. */
    /* the first line that says what went wrong: an error if there is one,
     * else (when gnuplot failed) the first line it wrote at all */
    char first[200] = "", any[200] = "";
    FILE *e = fopen(g->errpath, "r");
    if (e != NULL) {
        char line[200];
        while (fgets(line, sizeof line, e)) {
            if (any[0] == '\0' && strspn(line, " \t\r\n^") < strlen(line))
                snprintf(any, sizeof any, "%s", line);
            if (strstr(line, "rror") != NULL || strstr(line, "not found") != NULL
                || strstr(line, "unrecognized") != NULL) {
                snprintf(first, sizeof first, "%s", line);
                break;
            }
        }
        fclose(e);
    }
    if (first[0] == '\0' && rc != 0)
        snprintf(first, sizeof first, "%s", any);
    remove(g->errpath);
    size_t len = strlen(first);
    while (len > 0 && (first[len - 1] == '\n' || first[len - 1] == '\r'))
        first[--len] = '\0';
    if (rc != 0 || first[0] != '\0') {
        if (rc == 127 * 256 || (rc != 0 && first[0] == '\0'))
            return mbd_failure_set(fail, MBD_EEXTERNAL, NAN,
                                   "gnuplot failed to draw '%s' (is gnuplot installed?)", path);
        return mbd_failure_set(fail, MBD_EEXTERNAL, NAN, "gnuplot failed to draw '%s': %s", path,
                               first);
    }
    return GSL_SUCCESS;
}

int mbd_gnuplot_partial(const char *path, const char *what, char *buf, size_t size,
                        mbd_failure *fail)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        if ((size_t)snprintf(buf, size, "%s.%ld-%d.part", path, (long)getpid(), attempt) >= size)
            return mbd_failure_set(fail, MBD_EIO, NAN, "cannot write %s '%s': the name is too long",
                                   what, path);
        FILE *f = fopen(buf, "wx");
        if (f != NULL) {
            fclose(f);
            return GSL_SUCCESS;
        }
        if (errno != EEXIST)
            return mbd_failure_set(fail, MBD_EIO, NAN, "cannot write %s '%s': %s", what, path,
                                   strerror(errno));
    }
    return mbd_failure_set(fail, MBD_EIO, NAN, "cannot write %s '%s': no free temporary name",
                           what, path);
}

void mbd_gnuplot_quote(FILE *g, const char *s, int enhanced)
{
    fputc('"', g);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', g);
        if (*s == '\n')
            fputs("\\n", g);
        else if (enhanced && (*s == '~' || *s == '@' || *s == '&'))
            fprintf(g, "\\\\%c", *s);   /* literal in enhanced text: "\\~" */
        else
            fputc(*s, g);
    }
    fputc('"', g);
}
