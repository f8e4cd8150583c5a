/* ch07-qrp-continuation -- minimal coordinates on the QR tangent basis,
 * singularity detection by column pivoting, continuation of the basis
 * through singular configurations, redundant constraints: document 002
 * (Quro 2023, "Projection continuation for singularity detection of
 * redundantly constrained multibody system dynamics", Chs. 2-5, App. A).
 *
 * The story: Table 5.1's census (n, m, rank, d, degrees of freedom, at the
 * start and with every bar horizontal); the 4-bar at 4 rad/s with the
 * traditional and the continued basis (singular instants against the
 * reduced equation, speeds, flips, positions); the stop at the horizontal
 * and the torque that takes the other branch; the redundant mechanisms; the
 * spatial pendulum.
 *
 * The chapter's files: model.c (the mechanisms, from planar.h), reference.c
 * (the parallelogram's reduced equation), study.c (one run and the story's
 * computations), story.c (the steps, one run's report, CSV and summary, the
 * benchmarks), figures.c, and this file, which reads the command line and
 * dispatches.
 */
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "study.h"

#define PROGRAM "ch07-qrp-continuation"

int main(int argc, char **argv)
{
    const char *continuation = "procrustes", *rank = "dynamic";
    double omega = 4.0, tol_rank = MBD_NULLSPACE_TOL_RANK, tol_sing = MBD_NULLSPACE_TOL_SING;
    int omega_given = 0, tol_rank_given = 0, tol_sing_given = 0, cont_given = 0, rank_given = 0;
    mbd_cli_choice conts[4], ranks[3], scenarios[CH07_NSCENARIOS + 1], integrators[16];
    mbd_cli_choices(ch07_continuation_names, ch07_continuation_descriptions, conts, 4);
    mbd_cli_choices(ch07_rank_names, ch07_rank_descriptions, ranks, 3);
    mbd_cli_choices(ch07_scenario_names, ch07_scenario_descriptions, scenarios,
                    CH07_NSCENARIOS + 1);
    mbd_cli_choices(mbd_ode_preset_names, mbd_ode_preset_descriptions, integrators, 16);
    const mbd_cli_extra extra[] = {
        {"continuation", MBD_ARG_CHOICE, &continuation, "MODE",
         "how the tangent basis goes from step to step", conts, 0, 0, 0, 0, &cont_given},
        {"omega", MBD_ARG_DOUBLE, &omega, "W",
         "the cranks' initial speed, rad/s (default: the scenario's: 4; -1 for the modified "
         "mechanisms; -sqrt(12 g / 5) for the stop cases)",
         NULL, -1e3, 1e3, 0, 0, &omega_given},
        {"tol-rank", MBD_ARG_DOUBLE, &tol_rank, "TOL",
         "the rank: |R_ii| > TOL |R_11| (default 1e-8)", NULL, 0.0, 1.0, 1, 1, &tol_rank_given},
        {"tol-sing", MBD_ARG_DOUBLE, &tol_sing, "TOL",
         "singular: |R_rr| < TOL |R_11| (default 1e-3)", NULL, 0.0, 1.0, 1, 1, &tol_sing_given},
        {"rank", MBD_ARG_CHOICE, &rank, "RANK", "the rank the dynamics use", ranks, 0, 0, 0, 0,
         &rank_given},
    };
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "Minimal coordinates on the QR tangent basis; singularity detection by column\n"
                   "pivoting; continuation of the basis; redundant constraints.",
        .source = "document 002 (Quro 2023, \"Projection continuation for singularity detection\n"
                  "of redundantly constrained multibody system dynamics\"), Chs. 2-5, App. A",
        .common = (MBD_OPT_OUTPUT | MBD_OPT_TIME | MBD_OPT_SCENARIO | MBD_OPT_ANIMATION)
                  & ~MBD_OPT_METHOD,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .scenarios = scenarios,
        .integrators = integrators,
        .csv_columns = "t, per bar x<i>,y<i>,theta<i> (i = 1, 2, ...; the pendulum: x,y,z), their\n"
                       "_dot, then q1..qk (the continued generalised coordinates, k the degrees\n"
                       "of freedom), qdot1..qdotk, R_min (|R_rr|, r the structural rank),\n"
                       "C_norm, E (with the torque's potential -T theta2), dof_used",
        .notes = "With --scenario, --csv, --summary or any run option: one run (default fourbar,\n"
                 "procrustes, dynamic rank, rk4 at h = 1e-4 s, t = 0 ... 2 s (stop cases 1.2 s,\n"
                 "pendulum 1 s), outputs every 1e-3 s). The singular instants are the local\n"
                 "minima of |R_rr| / |R_11| below --tol-sing over the step ends, refined by the\n"
                 "V through the neighbouring samples.\n"
                 "--summary keys: scenario, continuation, rank_mode, integrator, t_end, dt_out,\n"
                 "h (or rtol, atol), omega, tol_rank, tol_sing, t_reached, steps, fevals, outputs,\n"
                 "n, m, rank, d, dof, dof_singular, dof_max, rank_changes, singular_times,\n"
                 "basis_flips, traditional_flips, E0, max_energy_error, max_C_norm, max_qdot_jump,\n"
                 "status.\n"
                 "The story uses the document's data whatever the options say.\n"
                 "Figures (--plot PREFIX, from the story's runs): PREFIX-monitor.svg,\n"
                 "PREFIX-speeds.svg, PREFIX-angles.svg.\n"
                 "--animate FILE with a run option: that run moving (GIF; the bars from their own\n"
                 "coordinates, the first coupler's middle traced, t, |C|, the first generalised speed,\n"
                 "the basis's columns and the speed's sign changes so far in each frame). Alone: the\n"
                 "4-bar at 4 rad/s, traditional basis beside continued, 0-0.8 s at --speed 0.25\n"
                 "unless given; then the story.",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;

    ch07_program prog = {.opt = &opt};
    ch07_scenario sc = CH07_FOURBAR;
    if (opt.scenario_given)
        ch07_scenario_of(opt.scenario, &sc);
    ch07_spec_default(&prog.spec, sc);
    ch07_model_data(&prog.md, sc);
    if (omega_given && sc == CH07_SPATIAL_PENDULUM)
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--omega applies to the bar mechanisms, not to spatial-pendulum"));
    if (!(tol_rank < tol_sing))
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--tol-rank (%g) must be below --tol-sing (%g): a rank decided at "
            "the larger tolerance would call every singular window structural", tol_rank,
            tol_sing));
    if (omega_given) {
        prog.md.omega = omega;
        prog.spec.omega = omega;
        prog.spec.omega_given = 1;
    } else {
        prog.spec.omega = prog.md.omega;
    }
    ch07_continuation_of(continuation, &prog.spec.continuation);
    prog.spec.dynamic_rank = strcmp(rank, "dynamic") == 0;
    prog.spec.tol_rank = tol_rank;
    prog.spec.tol_sing = tol_sing;
    if (opt.t_end_given)
        prog.spec.t_end = opt.t_end;
    if (opt.dt_out_given)
        prog.spec.dt_out = opt.dt_out;
    prog.spec.max_steps = opt.max_steps;
    prog.spec.max_outputs = opt.max_outputs;
    int st = mbd_cli_integrator(&spec, &opt, "rk4", &prog.spec.ode, stderr);
    if (st == GSL_SUCCESS && !opt.h_given && !prog.spec.ode.adaptive)
        prog.spec.ode.h = CH07_H;
    if (st == GSL_SUCCESS)
        st = mbd_cli_check_run(&spec, &opt, 0.0, prog.spec.t_end, prog.spec.dt_out,
                               &prog.spec.ode, stderr);
    if (st == GSL_SUCCESS)
        st = mbd_cli_check_animation(&spec, &opt, 0.0, prog.spec.t_end, stderr);
    if (st != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    if (ch07_model_build(&prog.md) != GSL_SUCCESS) {
        fprintf(stderr, "%s: the mechanism could not be built\n", PROGRAM);
        ch07_model_free(&prog.md);
        return MBD_EXIT_NUMERICAL;
    }
    prog.s = ch07_study_alloc();
    if (prog.s == NULL) {
        ch07_model_free(&prog.md);
        return MBD_EXIT_NUMERICAL;
    }
    const mbd_cli_program program = {PROGRAM, &prog, ch07_program_bench, ch07_program_figures,
                                     ch07_program_run, ch07_program_story};
    const int exit_code = mbd_cli_dispatch_animated(&program, ch07_program_animate, &opt);
    ch07_study_free(prog.s);
    ch07_model_free(&prog.md);
    return exit_code;
}
