/* mbd/error.h -- status codes and the failure record.
 *
 * Every libmbd function that can fail returns an int status: GSL_SUCCESS (0),
 * one of GSL's own codes (GSL_EDOM, GSL_ESING, ...), or one of the project codes
 * below, which start well above GSL's range so the two never collide.
 * mbd_strerror() names any of them.
 *
 * A solver that runs over time keeps an mbd_failure: the status, the time at
 * which it happened and a sentence saying what failed ("Schur complement
 * C_q M^-1 C_q^T is singular"). The library fills it in; the program prints it.
 */
#ifndef MBD_ERROR_H
#define MBD_ERROR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    MBD_EUNIMPL = 1001,    /* not implemented (an exercise stub) */
    MBD_ESINGULAR,         /* a matrix that must be invertible is singular */
    MBD_ENOCONV,           /* an iteration (Newton, fixed point) did not converge */
    MBD_ENONFINITE,        /* a NaN or an infinity appeared in a state or result */
    MBD_EVIOLATION,        /* a constraint violation exceeded its limit */
    MBD_ESTEPSIZE,         /* the step size fell below its minimum */
    MBD_EUSAGE,            /* bad command-line usage */
    MBD_EINPUT,            /* bad input data (a model file, a parameter) */
    MBD_EIO,               /* a file could not be read or written */
    MBD_EEXTERNAL,         /* an external program (gnuplot) failed */
    MBD_ESTEPLIMIT         /* a run took as many steps as it was allowed without finishing */
};

/* The name of a status: the project's own text for MBD_* codes, gsl_strerror()
 * for GSL codes. Never NULL. */
const char *mbd_strerror(int status);

/* What failed, and when. time is NAN when the failure is not tied to a time. */
typedef struct {
    int status;            /* GSL_SUCCESS when nothing failed */
    double time;
    char cause[256];
} mbd_failure;

/* The one-word status of a run, for `status = ...` in every summary: ok,
 * violation, non-finite, step-size, step-limit, singular, no-convergence,
 * bad-input, io-error, or failed (anything else). */
const char *mbd_status_word(int status);

void mbd_failure_clear(mbd_failure *f);

/* Records status, time and a printf-style cause; returns status so a caller can
 * write  return mbd_failure_set(&w->fail, GSL_ESING, t, "...");  */
int mbd_failure_set(mbd_failure *f, int status, double time, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

int mbd_failure_vset(mbd_failure *f, int status, double time, const char *fmt, va_list ap);

#ifdef __cplusplus
}
#endif

#endif
