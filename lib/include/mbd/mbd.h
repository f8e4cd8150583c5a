/* mbd/mbd.h -- everything in libmbd, for programs that want one include. */
#ifndef MBD_MBD_H
#define MBD_MBD_H

#include "mbd/error.h"
#include "mbd/system.h"
#include "mbd/constraints.h"
#include "mbd/formulation.h"
#include "mbd/correction.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "mbd/history.h"
#include "mbd/simulate.h"
#include "mbd/cli.h"
#include "mbd/io.h"

#endif
