/* ch08-direct-correction -- direct correction of position, velocity and
 * energy violations after every step: document 004 (Zhang, Rui, Zhang, Gu,
 * Zhang 2023, "Exploring Energy in the Direct Correction Method for
 * Correcting Geometric Constraint Violations", Mathematics 11(6) 1510,
 * Secs. 3-6).
 *
 * The story: the 4-bar in joint coordinates with a cut joint, checked
 * against closed forms and finite differences; the four scenarios (a)-(d)
 * over 10 s beside the ranges the document quotes; the drift of (a) against
 * the step; the ranking against the tolerance; the mass metric; the rhombus
 * reading and its singular configurations; a three-loop eight-bar; the
 * library's corrections on chapter 06's slider-crank.
 *
 * The chapter's files: model.c (the mechanisms in joint coordinates and the
 * document's semi-analytic derivatives), study.c (one run and the story's
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

#define PROGRAM "ch08-direct-correction"

int main(int argc, char **argv)
{
    const char *reading = "R1", *metric = "euclidean";
    double tol = CH08_TOL;
    long max_iter = CH08_MAX_ITER;
    int reading_given = 0, metric_given = 0, tol_given = 0, iter_given = 0;
    mbd_cli_choice methods[CH08_NMETHODS + 1], scenarios[CH08_NSCENARIOS + 1], readings[3],
        metrics[3], integrators[16];
    mbd_cli_choices(ch08_method_names, ch08_method_descriptions, methods, CH08_NMETHODS + 1);
    mbd_cli_choices(ch08_scenario_names, ch08_scenario_descriptions, scenarios,
                    CH08_NSCENARIOS + 1);
    mbd_cli_choices(ch08_reading_names, ch08_reading_descriptions, readings, 3);
    mbd_cli_choices(ch08_metric_names, ch08_metric_descriptions, metrics, 3);
    mbd_cli_choices(mbd_ode_preset_names, mbd_ode_preset_descriptions, integrators, 16);
    const mbd_cli_extra extra[] = {
        {"reading", MBD_ARG_CHOICE, &reading, "R",
         "the 4-bar's geometry: R1 (default) or R2, the rhombus (see --help's notes)", readings,
         0, 0, 0, 0, &reading_given},
        {"metric", MBD_ARG_CHOICE, &metric, "METRIC", "the corrections' minimum-norm metric",
         metrics, 0, 0, 0, 0, &metric_given},
        {"tol", MBD_ARG_DOUBLE, &tol, "TOL",
         "the corrections stop when |C|, |C'| <= TOL (and |E - E0| <= TOL max(1, |E0|)) "
         "or a step is round-off; 1e-16 ... 1 (the residuals' round-off is about 1e-16; "
         "default 1e-14)",
         NULL, 1e-16, 1.0, 0, 0, &tol_given},
        {"max-iter", MBD_ARG_LONG, &max_iter, "N",
         "Newton iterations allowed per correction (default 10); more is a failure", NULL, 1.0,
         1000.0, 0, 0, &iter_given},
    };
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "Direct correction of position, velocity and energy violations after every\n"
                   "step: none (a), sequential (b), simultaneous (c), with the energy (d).",
        .source = "document 004 (Zhang et al. 2023, \"Exploring Energy in the Direct Correction\n"
                  "Method for Correcting Geometric Constraint Violations\"), Secs. 3-6",
        .common = MBD_OPT_OUTPUT | MBD_OPT_TIME | MBD_OPT_SCENARIO | MBD_OPT_ANIMATION,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .methods = methods,
        .scenarios = scenarios,
        .integrators = integrators,
        .csv_columns = "t,q1..qn,q1_dot..qn_dot, then per cut joint j = 1, 2, ...\n"
                       "phi_x<j>,phi_y<j>,phidot_x<j>,phidot_y<j>, then E",
        .notes = "With --method, --scenario, --csv, --summary or any run option: one run (default\n"
                 "fourbar R1, method d, RK4 at h = 1e-3 s, t = 0 ... 10 s, outputs every 0.01 s),\n"
                 "the equations of motion in joint coordinates solved with the cut joints'\n"
                 "multipliers at every stage, the correction after every step. (The rk4\n"
                 "preset's own step is 1e-4; this chapter's default is the document's 1e-3.)\n"
                 "R1: links 1 m, 1 kg, J = 1/12, q0 = (pi/3, pi/3, pi/3), the tip of link 3 pinned\n"
                 "to (-1, sqrt 3). R2: a rhombus of four 1 m links; it passes singular\n"
                 "configurations (the chapter shows what that does). eightbar: a three-loop\n"
                 "stand-in for the document's Fig. 9 system, which its text does not define.\n"
                 "A correction that does not converge in --max-iter iterations ends the run with\n"
                 "status no-convergence (exit 1), the time and the residuals named.\n"
                 "--summary keys: scenario, reading, method, metric, tol, max_iter, integrator,\n"
                 "h (or rtol, atol), t_end, dt_out, t_reached, steps, fevals, outputs, n, cuts,\n"
                 "max_phi, max_phidot, max_phi_x<j>, max_phi_y<j>, max_phidot_x<j>,\n"
                 "max_phidot_y<j>, E0, max_energy_error, newton_iterations,\n"
                 "max_newton_iterations, status.\n"
                 "The story uses its own settings whatever the options say.\n"
                 "Figures (--plot PREFIX, from the story's runs): PREFIX-violations.svg,\n"
                 "PREFIX-energy.svg, PREFIX-eightbar.svg.\n"
                 "--animate FILE with a run option: that run moving (GIF; the bars from the joint\n"
                 "coordinates, the cut joints with their gaps drawn 10^6 times their size, a bar's centre\n"
                 "traced, t, |Phi| and |E - E0| in each frame). Alone: the four-bar uncorrected (a)\n"
                 "beside energy-corrected (d), 0-10 s at --speed 2.5 unless given; then the story.",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;

    ch08_program prog = {.opt = &opt};
    ch08_scenario sc = CH08_FOURBAR;
    ch08_reading rd = CH08_R1;
    if (opt.scenario_given)
        ch08_scenario_of(opt.scenario, &sc);
    ch08_reading_of(reading, &rd);
    if (reading_given && sc != CH08_FOURBAR)
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--reading applies to the fourbar, not to %s", ch08_scenario_names[sc]));
    ch08_spec_default(&prog.spec);
    if (opt.method_given)
        ch08_method_of(opt.method, &prog.spec.method);
    if ((metric_given || tol_given || iter_given) && prog.spec.method == CH08_A)
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--%s applies to a correction (--method b, c or d), not to a",
            metric_given ? "metric" : tol_given ? "tol" : "max-iter"));
    prog.spec.mass_metric = strcmp(metric, "mass") == 0;
    prog.spec.tol = tol;
    prog.spec.max_iter = (unsigned)max_iter;
    mbd_study_spec *run = &prog.spec.run;
    if (opt.t_end_given)
        run->t_end = opt.t_end;
    if (opt.dt_out_given)
        run->dt_out = opt.dt_out;
    run->max_steps = opt.max_steps;
    run->max_outputs = opt.max_outputs;
    run->max_violation = opt.max_violation;   /* the common default unless given */
    int st = mbd_cli_integrator(&spec, &opt, "rk4", &run->ode, stderr);
    if (st == GSL_SUCCESS && !opt.h_given && !run->ode.adaptive)
        run->ode.h = CH08_H;
    if (st == GSL_SUCCESS)
        st = mbd_cli_check_run(&spec, &opt, 0.0, run->t_end, run->dt_out, &run->ode, stderr);
    if (st == GSL_SUCCESS)
        st = mbd_cli_check_animation(&spec, &opt, 0.0, run->t_end, stderr);
    if (st != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    ch08_model_data(&prog.md, sc, rd);
    if (ch08_model_build(&prog.md) != GSL_SUCCESS) {
        fprintf(stderr, "%s: the mechanism could not be built\n", PROGRAM);
        return MBD_EXIT_NUMERICAL;
    }
    prog.s = ch08_study_alloc();
    if (prog.s == NULL)
        return MBD_EXIT_NUMERICAL;
    const mbd_cli_program program = {PROGRAM, &prog, ch08_program_bench, ch08_program_figures,
                                     ch08_program_run, ch08_program_story};
    const int exit_code = mbd_cli_dispatch_animated(&program, ch08_program_animate, &opt);
    ch08_study_free(prog.s);
    ch08_model_free(&prog.md);
    return exit_code;
}
