/* lib/src/gnuplot_impl.h -- running gnuplot, for the library's drawing
 * modules (io.c's figures, animation.c's animations); not a public header.
 *
 * One gnuplot process per drawing: its commands go down a pipe, its standard
 * output to /dev/null and its standard error to a temporary file, from which
 * mbd_gnuplot_close takes the line that says what went wrong.
 */
#ifndef MBD_GNUPLOT_IMPL_H
#define MBD_GNUPLOT_IMPL_H

#include <signal.h>
#include <stdio.h>

#include "mbd/error.h"

typedef struct {
    FILE *pipe;              /* gnuplot's standard input: write the commands here */
    char errpath[32];        /* its standard error */
    struct sigaction sigpipe; /* the process's SIGPIPE action, ignored while gnuplot runs */
} mbd_gnuplot;

/* Starts gnuplot. While it runs, SIGPIPE is ignored: when gnuplot cannot
 * be started or stops early, writing the commands fails (EPIPE) instead of
 * killing the program, and mbd_gnuplot_close says what happened. MBD_EIO when the temporary file for its messages cannot be
 * made, MBD_EEXTERNAL when the process cannot be started. */
int mbd_gnuplot_open(mbd_gnuplot *g, mbd_failure *fail);

/* Ends the commands, waits for gnuplot and removes its message file.
 * MBD_EEXTERNAL when gnuplot failed or wrote an error ("gnuplot failed to
 * draw 'path': its first error line", or "(is gnuplot installed?)" when it
 * said nothing: the shell could not start it); warnings do not fail. */
int mbd_gnuplot_close(mbd_gnuplot *g, const char *path, mbd_failure *fail);

/* A temporary file beside path ("path.PID-N.part"), created empty, so that
 * the directory is known to be writable before anything is drawn; its name
 * in buf. The drawing goes there and is renamed to path only when it is
 * whole: a failed drawing leaves no file behind (the caller removes the
 * temporary). `what` names the drawing in the errors ("figure",
 * "animation"); MBD_EIO when no such file can be made. */
int mbd_gnuplot_partial(const char *path, const char *what, char *buf, size_t size,
                        mbd_failure *fail);

/* Writes s as a gnuplot string literal in double quotes, with \\ and "
 * escaped and a newline written as \n. With `enhanced`, the text is gnuplot's
 * enhanced text, in which _ and ^ make sub- and superscripts and {} group
 * them, while ~, @ and & (overprint, phantom, space) are written literally;
 * without it (a file name) every character stands for itself. */
void mbd_gnuplot_quote(FILE *g, const char *s, int enhanced);

#endif
