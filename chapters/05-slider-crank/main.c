/* ch05-slider-crank -- penalty against projection on the slider-crank of
 * document 000 (Newhart 2019, Sec. 2.4.3, Table 4, Figs. 20-26, listings A.4).
 *
 * The story: the model and its data; the derivative check that finds the
 * printed gamma's sign; the reduced one-degree-of-freedom reference of each
 * mass matrix; the document's runs (penalty and projection with Baumgarte,
 * ode23) beside it; every formulation with and without Baumgarte at the
 * document's and at tight tolerances; the energy that only the consistent mass
 * matrix conserves; the fold th1 = 0, where the constraints' Jacobian loses
 * rank, what each formulation does there and on which branch it goes on; and
 * the printed Baumgarte sign, which diverges.
 *
 * With --method, --csv, --summary or any run option it makes one run instead.
 *
 * The chapter's files: model.c (the mechanism), reference.c (the reduced
 * equation of each mass matrix), study.c (one run and its measures, and the
 * story's computations), story.c (the steps, one run from the command line,
 * the benchmarks), figures.c, and this file, which reads the command line and
 * dispatches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "mbd/simulate.h"
#include "study.h"

#define PROGRAM "ch05-slider-crank"

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    const char *mass = "document";
    int mass_given = 0;
    mbd_cli_mechanism mech = {.mu = 1e5, .alpha = 20.0, .beta = 20.0};
    static const mbd_cli_choice masses[] = {
        {"document", "diag(m1 L1^2/3, m2 L2^2/3, m3), as the document (default)"},
        {"consistent", "the two-rod chain's own mass matrix (coupling and cos th2 terms)"},
        {NULL, NULL},
    };
    mbd_cli_extra extra[5] = {
        {"mass", MBD_ARG_CHOICE, &mass, "KIND",
         "the mass matrix that drives the motion: document (default) or consistent", masses, 0, 0,
         0, 0, &mass_given},
    };
    mbd_cli_mechanism_options(&mech, 1e20, NULL, extra + 1);
    mbd_cli_choice methods[16], integrators[16];
    mbd_cli_mechanism_choices(methods, integrators, 16);
    const mbd_cli_spec spec_cli = {
        .program = PROGRAM,
        .purpose = "Penalty against projection on the slider-crank; the fold singularity; the "
                   "mass-matrix erratum.",
        .source = "document 000 (Newhart 2019), Sec. 2.4.3, Table 4, Figs. 20-26, listings A.4",
        MBD_CLI_ANIMATED_MECHANISM_SPEC(extra, methods, integrators),
        .csv_columns = "t,theta1,theta2,x3,theta1_dot,theta2_dot,x3_dot,C_norm,Cdot_norm,E (+ h for "
                       "adaptive integrators); E is the true energy (consistent kinetic energy + "
                       "gravity, zero at the pivot's height) whatever --mass says",
        .notes = "Without options the program tells the chapter's story (the document's data, "
                 "fixed runs).\n"
                 "--method, --csv, --summary or any run option (--mass, --mu, --alpha, --beta, "
                 "--project,\n--integrator, --t-end, --h, --dt-out, --rtol, --atol, "
                 "--max-violation, --max-steps,\n--max-outputs) make one run instead:\n"
                 "default method penalty-baumgarte, integrator ode23, --t-end 1.8, --dt-out 1e-4, "
                 "mu 1e5,\nalpha = beta = 20, document mass matrix (what the document ran). "
                 "It prints the summary\nunless --csv alone is given; --plot PREFIX then draws "
                 "PREFIX-motion.svg.\n"
                 "--summary keys: mass, method, integrator, project, mu, alpha, beta, t_end, "
                 "t_reached, steps,\nrejected, fevals, corrections, max_C_norm, max_Cdot_norm, E0, "
                 "max_energy_error,\nmax_position_error, max_velocity_error (against the reduced "
                 "reference of the run's mass\nmatrix; for an adaptive run at rtol >= 1e-6 read "
                 "from one Dormand-Prince 5(4) run at\n1e-13 with dense output, within 1e-8 of the "
                 "stepped reference), max_invariant_error (before the fold), "
                 "max_x3, t_max_x3, fold_time (when th1 = 0\nis reached), fold_time_reference, "
                 "branch_after_fold (none, same, folded, undecided),\nclosest_theta1 and "
                 "closest_condition (the smallest |th1| the model was evaluated at, and\ncond(S) "
                 "there), max_schur_condition (at the outputs), max_method_condition (the largest condition\n"
                 "number of the matrix the method solves with, at the outputs: S for the projection,\n"
                 "M + mu C_q^T C_q for the static penalty), status (ok, singular, step-size,\n"
                 "violation, non-finite, step-limit, ...). A value a run does not define (no fold\n"
                 "reached) is written as 'none'.\n"
                 "Figures of the story (--plot PREFIX): PREFIX-mechanism, -penalty, -projection, "
                 "-difference,\n-energy, -condition, -branches (.svg). The document's model reaches "
                 "the fold th1 = 0 just\nafter 1.8 s: try --t-end 2.\n"
                 "--animate FILE with a run option: that run moving (GIF; crank, rod, slider, the rod's\n"
                 "middle traced, t and |C| in each frame). Alone: the consistent model through its fold,\n"
                 "penalty beside penalty-baumgarte, 1-2 s at --speed 0.25 unless given; then the story.",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec_cli, argc, argv, &opt, &code))
        return code;

    /* one run: its spec from the options, checked before anything runs */
    ch05_program prog = {.opt = &opt};
    ch05_spec *spec = &prog.spec;
    ch05_spec_document(spec);
    spec->mass = strcmp(mass, "consistent") == 0 ? CH05_MASS_CONSISTENT : CH05_MASS_DOCUMENT;
    spec->run.record_condition = 1;
    if (mbd_cli_study_spec(&spec_cli, &opt, &mech, opt.method_given ? opt.method
                                                                     : "penalty-baumgarte",
                           "ode23", &spec->run, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    /* a loose run's errors against the reference computed once (dense output) */
    spec->reference_dense = spec->run.ode.adaptive && spec->run.ode.rtol >= 1e-6;

    prog.s = ch05_study_alloc();
    if (prog.s == NULL) {
        fprintf(stderr, "%s: out of memory\n", PROGRAM);
        return MBD_EXIT_NUMERICAL;
    }
    const mbd_cli_program program = {PROGRAM, &prog, ch05_program_bench, ch05_program_figures,
                                     ch05_program_run, ch05_program_story};
    const int exit_code = mbd_cli_dispatch_animated(&program, ch05_program_animate, &opt);
    ch05_study_free(prog.s);
    return exit_code;
}
