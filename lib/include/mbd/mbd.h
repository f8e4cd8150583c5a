/* mbd/mbd.h -- everything in libmbd, for programs that want one include.
 *
 * The pipeline, one header per stage, and what sits beside it:
 *
 *   system.h        the model: a constrained system in generalized coordinates
 *   planar.h        planar bodies, joints, drivers and forces assembled into
 *                   a system (reference coordinates x, y, theta per body)
 *   spatial.h       spatial bodies with Euler parameters, the basic
 *                   constraints and joints, forces, and the 3D analyses
 *                   (assembly, velocities, kinematics, inverse dynamics,
 *                   BDF dynamics)
 *   linsolve.h      square solves with a fixed pattern: dense (GSL's LU) or
 *                   sparse (SuiteSparse's KLU)
 *   constraints.h   the one constraint solver (Schur complement, augmented
 *                   solve, Newton, velocity and acceleration solves, rank)
 *   formulation.h   the method: a table of operations that turns a state into
 *                   its time derivative, owning its state layout
 *   nullspace.h     the tangent basis by QR with column pivoting: rank,
 *                   singularity monitor, continuation of the basis
 *   ode.h, run.h    the integrators, and the one run loop that drives them
 *                   through a stepper interface
 *   correction.h    the post-step projection of (q, q')
 *   history.h       recorded time histories and their comparisons
 *   simulate.h      the pipeline assembled for one time history
 *   study.h         a method run as the chapters use it, and its summary
 *   cli.h, io.h     the command line and every program's output
 *   error.h         status codes, the failure record, the status words
 *
 * Names: every function and type starts with mbd_ and then the module's name
 * (mbd_history_append in history.h, mbd_constraints_newton in
 * constraints.h), or, where a module holds more than one kind of object, the
 * name of the object it acts on: mbd_projection_* (correction.h),
 * mbd_sim_params and mbd_simulate (simulate.h), mbd_tableau_* (ode.h),
 * mbd_stepper (run.h), mbd_csv_*, mbd_table_*, mbd_summary_*, mbd_plot_*
 * (io.h), mbd_failure_* and mbd_status_word (error.h). Macros start with
 * MBD_. The private kernels of lib/src (dense.h: small dense linear algebra)
 * follow the same rule and are not installed. */
#ifndef MBD_MBD_H
#define MBD_MBD_H

#include "mbd/error.h"
#include "mbd/system.h"
#include "mbd/planar.h"
#include "mbd/linsolve.h"
#include "mbd/spatial.h"
#include "mbd/model_file.h"
#include "mbd/constraints.h"
#include "mbd/nullspace.h"
#include "mbd/formulation.h"
#include "mbd/correction.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "mbd/history.h"
#include "mbd/simulate.h"
#include "mbd/cli.h"
#include "mbd/io.h"
#include "mbd/animation.h"

#endif
