#include <math.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>

#include "mbd/error.h"

const char *mbd_strerror(int status)
{
    switch (status) {
    case MBD_EUNIMPL:    return "not implemented";
    case MBD_ESINGULAR:  return "singular matrix";
    case MBD_ENOCONV:    return "iteration did not converge";
    case MBD_ENONFINITE: return "non-finite value";
    case MBD_EVIOLATION: return "constraint violation above its limit";
    case MBD_ESTEPSIZE:  return "step size below its minimum";
    case MBD_ESTEPLIMIT: return "step limit reached";
    case MBD_EUSAGE:     return "bad usage";
    case MBD_EINPUT:     return "bad input";
    case MBD_EIO:        return "input/output error";
    case MBD_EEXTERNAL:  return "external program failed";
    default:             return gsl_strerror(status);
    }
}

const char *mbd_status_word(int status)
{
    switch (status) {
    case GSL_SUCCESS:    return "ok";
    case MBD_EVIOLATION: return "violation";
    case MBD_ENONFINITE: return "non-finite";
    case MBD_ESTEPSIZE:  return "step-size";
    case MBD_ESTEPLIMIT: return "step-limit";
    case MBD_ESINGULAR:  return "singular";
    case MBD_ENOCONV:    return "no-convergence";
    case MBD_EINPUT:     return "bad-input";
    case MBD_EIO:        return "io-error";
    default:             return "failed";
    }
}

void mbd_failure_clear(mbd_failure *f)
{
    f->status = GSL_SUCCESS;
    f->time = NAN;
    f->cause[0] = '\0';
}

int mbd_failure_vset(mbd_failure *f, int status, double time, const char *fmt, va_list ap)
{
    f->status = status;
    f->time = time;
    vsnprintf(f->cause, sizeof f->cause, fmt, ap);
    return status;
}

int mbd_failure_set(mbd_failure *f, int status, double time, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mbd_failure_vset(f, status, time, fmt, ap);
    va_end(ap);
    return status;
}
