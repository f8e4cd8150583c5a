/* ch09-spatial-engine -- the 3D Euler-parameter engine of document 003
 * (Vignos 2016, "Development and Validation of MATLAB-Based 3D Multibody
 * Kinematics and Dynamics Simulation Engine", Secs. 3-6), part 1: model
 * files, assembly, initial velocities, kinematics, inverse dynamics with the
 * joints' reactions. (Dynamics is part 2.)
 *
 * The story: Euler parameters; the four basic constraints against
 * differences; one model per joint; the driven slider-crank against its
 * closed form, with and without the document's driver offset; the driven
 * pendulum's torque and hinge force; a redundant planar four-bar; initial
 * velocities; an assembly that fails; the reader's messages.
 *
 * The chapter's files: model.c (a model file built into the spatial
 * module), reference.c (the closed forms), study.c (one analysis of a model:
 * record, CSV, summary), story.c (the steps, one run of --model, the
 * benchmarks), figures.c, the model files in models/, and this file, which reads the
 * command line and dispatches.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "study.h"

#define PROGRAM "ch09-spatial-engine"

int main(int argc, char **argv)
{
    const char *model = NULL, *analysis = NULL, *generate = NULL;
    long n_bars = 2;
    int model_given = 0, analysis_given = 0, reactions = 0, reactions_given = 0,
        generate_given = 0, n_given = 0;
    static const char *const generators[] = {"n-four-bar", NULL};
    static const char *const generator_descriptions[] = {
        "the IFToMM A02 N four-bar (--n N four-bars) as a model file", NULL};
    mbd_cli_choice gens[2];
    mbd_cli_choices(generators, generator_descriptions, gens, 2);
    mbd_cli_choice analyses[5], integrators[8], newtons[4], solvers[3];
    mbd_cli_choices(ch09_analysis_names, ch09_analysis_descriptions, analyses, 5);
    mbd_cli_choices(ch09_integrator_names, ch09_integrator_descriptions, integrators, 8);
    static const char *const newton_names[] = {"quasi", "full", "modified", NULL};
    static const char *const newton_descriptions[] = {
        "the matrix [M Phi_q^T; Phi_q 0] once per step (the document's)",
        "the whole Newton matrix at every iteration",
        "the quasi matrix kept across steps until Newton slows", NULL};
    mbd_cli_choices(newton_names, newton_descriptions, newtons, 4);
    static const char *const solver_names[] = {"dense", "sparse", NULL};
    static const char *const solver_descriptions[] = {"GSL's LU", "SuiteSparse's KLU (the default)", NULL};
    mbd_cli_choices(solver_names, solver_descriptions, solvers, 3);
    const char *newton = NULL, *solver = NULL;
    int newton_given = 0, solver_given = 0, governor_c_given = 0;
    double governor_c = CH09_GOVERNOR_C;
    const mbd_cli_extra extra[] = {
        {"model", MBD_ARG_STRING, &model, "FILE",
         "the model file to run (YAML; the book's model-format page)",
         NULL, 0, 0, 0, 0, &model_given},
        {"analysis", MBD_ARG_CHOICE, &analysis, "A",
         "the analysis to run (default: the file's)", analyses, 0, 0, 0, 0,
         &analysis_given},
        {"reactions", MBD_ARG_FLAG, &reactions, NULL,
         "the joints' and constraints' reactions in the CSV (inverse dynamics)", NULL, 0, 0, 0,
         0,
         &reactions_given},
        {"newton", MBD_ARG_CHOICE, &newton, "KIND",
         "dynamics: quasi (default), full or modified Newton", newtons, 0, 0, 0, 0,
         &newton_given},
        {"linear-solver", MBD_ARG_CHOICE, &solver, "KIND",
         "dynamics: the matrix's solver, sparse (default) or dense", solvers, 0, 0, 0, 0,
         &solver_given},
        {"generate", MBD_ARG_CHOICE, &generate, "NAME",
         "write a model file to standard output and exit", gens, 0, 0, 0, 0, &generate_given},
        {"n", MBD_ARG_LONG, &n_bars, "N", "--generate n-four-bar: the number of four-bars "
         "(1 ... 1000; default 2)", NULL, 1.0, CH09_MAX_FOUR_BARS, 0, 0, &n_given},
        {"governor-c", MBD_ARG_DOUBLE, &governor_c, "C", "the governor's spring constant, N m/m "
         "(default 12500, at most 1e6)",
         NULL, 0.0, CH09_GOVERNOR_C_MAX, 1, 0, &governor_c_given},
    };
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The 3D Euler-parameter engine: model files, assembly, initial velocities,\n"
                   "kinematics, inverse dynamics with reactions, BDF dynamics.",
        .source = "document 003 (Vignos 2016, simEngine3D), Secs. 3-6",
        .notes = "With --model FILE: one analysis of the file's model, the one its `analysis`\n"
                 "names (its t_end, h, tolerance, max_iterations, assemble) unless --analysis,\n"
                 "--t-end or --h say otherwise; a file without one gets kinematics when the\n"
                 "model is fully driven and an assembly otherwise. Defaults t_end = 1 s,\n"
                 "h = 1e-2 s. The initial velocities the file does not give are solved for\n"
                 "(minimum norm). Without --csv the summary is printed.\n"
                 "--summary keys (a value a run does not define is `none`): model, name,\n"
                 "analysis, bodies, coordinates, rows, rank, dof, redundant_rows,\n"
                 "redundant_row_names, assembled (yes, no or failed), assembly_iterations,\n"
                 "assembly_residual, velocities_known, velocity_rank, t_start, t_end, h,\n"
                 "outputs, t_reached, max_C_norm, E0, max_energy_change, integrator, newton,\n"
                 "linear_solver, steps, rejected, newton_iterations, max_euler_norm_error,\n"
                 "max_velocity_drift, status. With --reactions and a file without an analysis,\n"
                 "a fully driven model gets inverse dynamics.\n"
                 "Dynamics: --integrator bdf1 ... bdf5 (index-3 BDF up to that order),\n"
                 "tight or rk8pd (index 1 with projection; default the file's, else bdf2),\n"
                 "--newton, --linear-solver, --h (the fixed step, or the first of an adaptive\n"
                 "BDF run), --rtol/--atol (BDF: an adaptive step; tight, rk8pd: their\n"
                 "tolerances; a file's rtol/atol go with the file's integrator, not with\n"
                 "another --integrator), --dt-out (outputs by the step's interpolant;\n"
                 "default: every step).\n"
                 "A model the reader or the analysis refuses exits with status 2 and writes\n"
                 "nothing; a failed solve (no assembly, a singular Jacobian) exits with 1 after\n"
                 "the rows up to it. The chapter's models are in chapters/09-spatial-engine/\n"
                 "models/ ($MBD_CH09_MODELS overrides where the story looks).\n"
                 "Torque callbacks a model file may name: governor_spring (Ts = C (0.05 -\n"
                 "y_collar) about y, the body named collar; C from --governor-c) and load_ramp\n"
                 "(Te = 0 until 1 s, then down to -25 N m at 2 s), the flyball governor's.\n"
                 "Figures (--plot PREFIX, from the story's runs): PREFIX-slider.svg,\n"
                 "PREFIX-pendulum.svg, PREFIX-smd.svg, PREFIX-governor.svg, PREFIX-a01.svg,\n"
                 "PREFIX-a02.svg.\n"
                 "--animate FILE with --model: that run moving (GIF) in a fixed perspective with\n"
                 "the ground frame's axes: each body a star from its origin to the points the file\n"
                 "names on it, d constraints as rods, joints as circles, the first output point\n"
                 "traced, t and |C| in each frame. Alone: the flyball governor, 0-10 s; then the\n"
                 "story.",
        .common = MBD_OPT_OUTPUT | MBD_OPT_T_END | MBD_OPT_H | MBD_OPT_INTEGRATOR
                  | MBD_OPT_DT_OUT | MBD_OPT_RTOL | MBD_OPT_ATOL | MBD_OPT_ANIMATION,
        .integrators = integrators,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .csv_columns = "t, per moving body <name>.x,y,z,e0,e1,e2,e3, then their _dot, then per\n"
                       "output point <point>.x,y,z, then C_norm,E; with --reactions per joint\n"
                       "<joint>.Fx,Fy,Fz,Tx,Ty,Tz for every joint, then every basic and driving\n"
                       "constraint, in file order (global, on its first body, about its point)",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;
    if (n_given && !generate_given)
        return mbd_cli_exit_status(
            mbd_cli_usage_error(&spec, stderr, "--n goes with --generate n-four-bar"));
    if (generate_given) {
        if (model_given || analysis_given || reactions_given || opt.csv || opt.summary ||
            governor_c_given)
            return mbd_cli_exit_status(mbd_cli_usage_error(
                &spec, stderr, "--generate writes a model file and runs nothing: give it alone "
                               "(with --n)"));
        if (ch09_write_n_four_bar(stdout, (int)n_bars) != GSL_SUCCESS || fflush(stdout) != 0) {
            fprintf(stderr, "%s: --generate: writing the model failed\n", PROGRAM);
            return MBD_EXIT_NUMERICAL;
        }
        return 0;
    }
    ch09_program p = {.opt = &opt, .model = model,
                      .analysis = analysis_given ? analysis : NULL, .reactions = reactions,
                      .newton = newton_given ? newton : NULL,
                      .linear_solver = solver_given ? solver : NULL,
                      .params = {governor_c, governor_c_given}};
    if ((analysis_given || reactions_given || opt.csv || opt.summary || opt.t_end_given ||
         opt.h_given || opt.integrator_given || opt.dt_out_given || opt.rtol_given ||
         opt.atol_given || newton_given || solver_given) && !model_given)
        return mbd_cli_exit_status(mbd_cli_usage_error(&spec, stderr, "give the model: --model FILE"));
    if (governor_c_given && !model_given)
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--governor-c goes with --model FILE, a model with the governor's "
                           "torque (models/flyball-governor.yaml)"));
    /* the governor's C reaches the model as it is built (model.c refuses a
     * model without the governor_spring torque when it is given) */
    if (ch09_model_params_check(&p.params) != GSL_SUCCESS)
        return mbd_cli_exit_status(
            mbd_cli_usage_error(&spec, stderr, "--governor-c %g: out of range", governor_c));
    const mbd_cli_program prog = {PROGRAM, &p, ch09_program_bench, ch09_program_figures,
                                  model_given ? ch09_program_run : NULL, ch09_program_story};
    return mbd_cli_dispatch_animated(&prog, ch09_program_animate, &opt);
}
