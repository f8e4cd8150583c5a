/* ch04-scotch-yoke -- penalty against projection on a forced mechanism: the
 * Scotch yoke of document 000 (Newhart 2019, Sec. 2.4.2, Table 3, Figs. 14-19,
 * listing A.3).
 *
 * The story: write the model, settle what Table 3's units mean (two readings
 * of the same numbers give two different mechanisms), build an independent
 * reference from the reduced one-degree-of-freedom equation, run the
 * document's two methods (projection and static penalty, both with
 * Baumgarte's stabilisation) and both without, measure every run against the
 * reference and the penalty against the projection (Fig. 19), then sweep the
 * penalty factor against the mechanism's own mass scale.
 *
 * The chapter's files: model.c (the mechanism), reference.c (the reduced
 * equation it is checked against), study.c (the computing the story, the
 * figures and the tests share), story.c (the numbered steps, one run's
 * report, the benchmarks), figures.c, and this file, which only reads the
 * command line and dispatches.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "study.h"

#define PROGRAM "ch04-scotch-yoke"

int main(int argc, char **argv)
{
    const char *variant = "table";
    int variant_given = 0;
    mbd_cli_mechanism mech = {.mu = 0.0, .alpha = CH04_ALPHA, .beta = CH04_BETA};
    static const mbd_cli_choice variants[] = {
        {"table", "Table 3 read as masses: m1 = 0.5, m2 = 5, b = 2 in, mu = 1e7 (the text)"},
        {"listing", "listing A.3: m1 = 0.5/g, m2 = 5/g, b = 0.05 in, mu = 1e5"},
        {NULL, NULL}};
    mbd_cli_extra extra[5] = {
        {"variant", MBD_ARG_CHOICE, &variant, "NAME",
         "table (default) or listing: which reading of the document's parameters", variants, 0, 0,
         0, 0, &variant_given},
    };
    mbd_cli_mechanism_options(&mech, 1e20, "penalty factor (default: the variant's, 1e7 or 1e5)",
                              extra + 1);
    mbd_cli_choice methods[16], integrators[16];
    mbd_cli_mechanism_choices(methods, integrators, 16);
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The Scotch yoke: static penalty against projection on a forced mechanism, with an\n"
                   "independent reference from the reduced one-degree-of-freedom equation.",
        .source = "document 000 (Newhart 2019), Sec. 2.4.2, Table 3, Figs. 14-19, listing A.3",
        MBD_CLI_ANIMATED_MECHANISM_SPEC(extra, methods, integrators),
        .csv_columns = "t,theta1,x2,theta1_dot,x2_dot,C_norm,Cdot_norm, then h for adaptive integrators",
        .notes = "With --method, --csv, --summary or any option of a run (--variant, --integrator, --mu,\n"
                 "--alpha, --beta, --project, --t-end, --h, --dt-out, --rtol, --atol, --max-violation,\n"
                 "--max-steps, --max-outputs): one run (default penalty-baumgarte, ode23, table reading,\n"
                 "t = 0 ... 4 s, outputs every 1e-4 s, as the document ran it), measured against the\n"
                 "reduced-equation reference: for an adaptive run at rtol >= 1e-6 integrated once by\n"
                 "Dormand-Prince 5(4) at 1e-13 and read from its dense output (within 1e-8 of the\n"
                 "exact reference), for a tighter or fixed-step run stepped onto every output by\n"
                 "GSL's rk8pd at 1e-13.\n"
                 "index2-penalty is stiff and runs with msbdf whatever --integrator says. A run stops\n"
                 "at --max-steps steps and says whether stiffness or the tolerance held its step.\n"
                 "--summary keys: variant, m1, m2, b, M11, method, integrator, integrator_replaced,\n"
                 "project, mu, alpha, beta, t_end, dt_out, rtol, atol (or h), t_reached, steps,\n"
                 "rejected, fevals, corrections, outputs, max_C_norm, max_Cdot_norm, max_theta1_error,\n"
                 "max_x2_error, max_theta1_dot_error, max_x2_dot_error, theta1_end, x2_end,\n"
                 "theta1_dot_end, x2_dot_end, status (ok, violation, step-limit, step-size, singular, ...).\n"
                 "Figures (--plot PREFIX): PREFIX-motion.svg, PREFIX-difference.svg, PREFIX-error.svg.\n"
                 "--animate FILE with a run option: that run moving (GIF; rod, yoke, the tip's path, the\n"
                 "force on the yoke, t and |C| in each frame). Alone: the two readings side by side\n"
                 "(penalty-baumgarte, ode23, 0-4 s in real time unless --speed); then the story.",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;

    /* one run: its spec from the options, checked before anything runs */
    ch04_program prog = {.opt = &opt};
    ch04_variant var = CH04_TABLE;
    ch04_variant_of(variant, &var);
    ch04_params_init(&prog.p, var);
    const char *method = opt.method_given ? opt.method : "penalty-baumgarte";
    ch04_config_default(&prog.c, &prog.p, method, "ode23");
    if (mbd_cli_study_spec(&spec, &opt, &mech, method, "ode23", &prog.c, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    /* one run has no step floor of its own: the step limit stops a crawl and
     * says whether stiffness or the tolerance holds the step */
    prog.c.ode.hmin = 0.0;

    prog.s = calloc(1, sizeof *prog.s);
    if (prog.s == NULL)
        return MBD_EXIT_NUMERICAL;
    const mbd_cli_program program = {PROGRAM, &prog, ch04_program_bench, ch04_program_figures,
                                     ch04_program_run, ch04_program_story};
    const int exit_code = mbd_cli_dispatch_animated(&program, ch04_program_animate, &opt);
    ch04_study_free(prog.s);
    free(prog.s);
    return exit_code;
}
