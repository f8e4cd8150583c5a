/* ch06-embedding -- planar bodies and joints, embedding by coordinate
 * partitioning against the augmented form with Lagrange multipliers and
 * Baumgarte's stabilisation: document 001 (Chandramouli 2023, "Constrained
 * Dynamics", Secs. 1-4).
 *
 * The story: three mechanisms assembled from planar parts, their Jacobians
 * checked; the pendulum rod against its closed form and its pin reaction;
 * the slider-crank's embedded and augmented accelerations and multipliers
 * side by side; the embedding's energy and constraints against step size;
 * the augmented form's drift with and without Baumgarte; a forced
 * independent coordinate failing at a dead centre; the double pendulum's
 * 2 x 2 embedded mass matrix and its re-selections; the cost of each.
 *
 * The chapter's files: model.c (the mechanisms, from planar.h), reference.c
 * (each in its minimal coordinates, by hand), study.c (one run and the
 * story's computations), story.c (the steps, one run's report and summary,
 * the benchmarks), figures.c, and this file, which reads the command line
 * and dispatches.
 */
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "study.h"

#define PROGRAM "ch06-embedding"

int main(int argc, char **argv)
{
    const char *independent = "auto";
    double alpha = CH06_ALPHA, beta = CH06_BETA, ratio = 0.5;
    int independent_given = 0, alpha_given = 0, beta_given = 0, reselect = 0, ratio_given = 0;
    const mbd_cli_extra extra[] = {
        {"independent", MBD_ARG_STRING, &independent, "NAMES",
         "the embedding's independent coordinates: auto (pivoting; default) or names held "
         "throughout, e.g. x4 or theta1,theta2",
         NULL, 0, 0, 0, 0, &independent_given},
        {"reselect", MBD_ARG_FLAG, &reselect, NULL,
         "with --independent NAMES: start with them and re-select by pivoting when they degrade",
         NULL, 0, 0, 0, 0, NULL},
        {"reselect-ratio", MBD_ARG_DOUBLE, &ratio, "R",
         "re-select when the independent set's smallest pivot falls below R times the best "
         "set's, 0 < R <= 1 (default 0.5)",
         NULL, 0.0, 1.0, 1, 0, &ratio_given},
        {"alpha", MBD_ARG_DOUBLE, &alpha, "A", "Baumgarte's alpha (augmented-baumgarte; default 5)",
         NULL, 0.0, 1e6, 0, 0, &alpha_given},
        {"beta", MBD_ARG_DOUBLE, &beta, "B", "Baumgarte's beta (augmented-baumgarte; default 5)",
         NULL, 0.0, 1e6, 0, 0, &beta_given},
    };
    mbd_cli_choice methods[8], scenarios[8], integrators[16];
    mbd_cli_choices(ch06_method_names, ch06_method_descriptions, methods, 8);
    mbd_cli_choices(ch06_scenario_names, ch06_scenario_descriptions, scenarios, 8);
    mbd_cli_choices(mbd_ode_preset_names, mbd_ode_preset_descriptions, integrators, 16);
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "Planar bodies and joints; embedding by coordinate partitioning against the\n"
                   "augmented form with Lagrange multipliers and Baumgarte's stabilisation.",
        .source = "document 001 (Chandramouli 2023, \"Constrained Dynamics\"), Secs. 1-4",
        .common = MBD_OPT_OUTPUT | MBD_OPT_TIME | MBD_OPT_SCENARIO | MBD_OPT_ANIMATION,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .methods = methods,
        .scenarios = scenarios,
        .integrators = integrators,
        .csv_columns = "t, then per moving body x<k>,y<k>,theta<k> (k: 2, 3, 4 for the slider-crank;\n"
                       "1 for the pendulum; 1, 2 for the double pendulum), then their _dot, then\n"
                       "C_norm,Cdot_norm,E (and h for adaptive integrators)",
        .notes = "With --method, --scenario, --csv, --summary or any run option: one run (default\n"
                 "slider-crank, embedding, rk4 at h = 0.001 s, t = 0 ... 2 s, outputs every\n"
                 "0.01 s), measured against the mechanism's own minimal-coordinate equation\n"
                 "integrated at 1e-13 (Dormand-Prince 5(4), dense output).\n"
                 "A forced --independent set that stops determining the others (a dead centre)\n"
                 "ends the run with status singular (exit 1), the time and the coordinates named.\n"
                 "--summary keys: scenario, method, integrator, integrator_replaced, project, mu,\n"
                 "alpha, beta, t_end, dt_out, h (or rtol, atol), t_reached, steps, rejected,\n"
                 "fevals, corrections, outputs, max_C_norm, max_Cdot_norm, independent,\n"
                 "independent_end, reselections, E0, max_energy_error, max_state_error, status.\n"
                 "The story uses its own data (the slides have none) whatever the options say.\n"
                 "Figures (--plot PREFIX, from the story's runs): PREFIX-motion.svg,\n"
                 "PREFIX-drift.svg, PREFIX-independent.svg.\n"
                 "--animate FILE with a run option: that run moving (GIF; the bodies from their own\n"
                 "coordinates, the joints, the last rod's end traced, t and |C| in each frame, and for\n"
                 "the embedding the independent coordinates at that time). Alone: the slider-crank\n"
                 "with x4 held independent, x4 at the start re-selected at ratio 0.1, and the set\n"
                 "chosen by pivoting, 0-1 s at --speed 0.25 unless given; then the story.",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;

    /* one run: its spec from the options, checked before anything runs */
    ch06_program prog = {.opt = &opt};
    ch06_scenario sc = CH06_SLIDER_CRANK;
    if (opt.scenario_given)
        ch06_scenario_of(opt.scenario, &sc);
    const char *method = opt.method_given ? opt.method : "embedding";
    const int baumgarte = strcmp(method, "augmented-baumgarte") == 0;
    if ((alpha_given || beta_given) && !baumgarte)
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--%s applies to --method augmented-baumgarte, not to %s",
            alpha_given ? "alpha" : "beta", method));
    if ((independent_given || reselect || ratio_given) && strcmp(method, "embedding") != 0)
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--%s applies to --method embedding, not to %s",
            independent_given ? "independent" : reselect ? "reselect" : "reselect-ratio",
            method));
    ch06_model_data(&prog.md, sc);
    if (ch06_model_build(&prog.md) != GSL_SUCCESS) {
        fprintf(stderr, "%s: %s\n", PROGRAM, mbd_planar_failure(prog.md.pm)->cause);
        ch06_model_free(&prog.md);
        return MBD_EXIT_NUMERICAL;
    }
    char why[256];
    ch06_spec_default(&prog.spec, sc);
    mbd_cli_mechanism mech = {.alpha = alpha, .beta = beta, .alpha_given = alpha_given,
                              .beta_given = beta_given};
    int st = ch06_parse_independent(&prog.md, independent, prog.spec.independent,
                                    &prog.spec.n_independent, why, sizeof why);
    if (st != GSL_SUCCESS)
        st = mbd_cli_usage_error(&spec, stderr, "%s", why);
    else if (reselect && prog.spec.n_independent == 0)
        st = mbd_cli_usage_error(&spec, stderr, "--reselect needs --independent NAMES (the set "
                                                "to start with; auto re-selects anyway)");
    else if (ratio_given && prog.spec.n_independent > 0 && !reselect)
        st = mbd_cli_usage_error(&spec, stderr, "--reselect-ratio: the set --independent names "
                                                "is held throughout (add --reselect to start "
                                                "with it and re-select)");
    prog.spec.reselect = reselect;
    if (st == GSL_SUCCESS)
        st = mbd_cli_study_spec(&spec, &opt, &mech, ch06_library_method(method), "rk4",
                                &prog.spec.run, stderr);
    if (st != GSL_SUCCESS) {
        ch06_model_free(&prog.md);
        return MBD_EXIT_USAGE;
    }
    prog.spec.run.method = method;   /* the chapter's name; ch06_run_spec maps it */
    prog.spec.run.reselect_ratio = ratio_given ? ratio : 0.0;
    if (!opt.h_given && !prog.spec.run.ode.adaptive)
        prog.spec.run.ode.h = CH06_H;

    prog.s = ch06_study_alloc();
    if (prog.s == NULL) {
        ch06_model_free(&prog.md);
        return MBD_EXIT_NUMERICAL;
    }
    const mbd_cli_program program = {PROGRAM, &prog, ch06_program_bench, ch06_program_figures,
                                     ch06_program_run, ch06_program_story};
    const int exit_code = mbd_cli_dispatch_animated(&program, ch06_program_animate, &opt);
    ch06_study_free(prog.s);
    ch06_model_free(&prog.md);
    return exit_code;
}
