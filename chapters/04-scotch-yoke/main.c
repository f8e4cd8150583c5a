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
    gsl_set_error_handler_off();

    const char *variant = "table";
    double mu = 0.0, alpha = CH04_ALPHA, beta = CH04_BETA;
    int variant_given = 0, mu_given = 0, alpha_given = 0, beta_given = 0, project = 0,
        project_given = 0;
    static const mbd_cli_choice variants[] = {
        {"table", "Table 3 read as masses: m1 = 0.5, m2 = 5, b = 2 in, mu = 1e7 (the text)"},
        {"listing", "listing A.3: m1 = 0.5/g, m2 = 5/g, b = 0.05 in, mu = 1e5"},
        {NULL, NULL}};
    const mbd_cli_extra extra[] = {
        {"variant", MBD_ARG_CHOICE, &variant, "NAME",
         "table (default) or listing: which reading of the document's parameters", variants, 0, 0,
         0, 0, &variant_given},
        {"mu", MBD_ARG_DOUBLE, &mu, "MU",
         "penalty factor (default: the variant's, 1e7 or 1e5)", NULL, 0.0, 1e20, 1, 0, &mu_given},
        {"alpha", MBD_ARG_DOUBLE, &alpha, "ALPHA", "Baumgarte velocity weight (default 20)", NULL,
         0.0, 1e6, 0, 0, &alpha_given},
        {"beta", MBD_ARG_DOUBLE, &beta, "BETA",
         "Baumgarte position weight, used squared (default 20)", NULL, 0.0, 1e6, 0, 0, &beta_given},
        {"project", MBD_ARG_FLAG, &project, NULL,
         "project positions and velocities back onto the constraint after every step "
         "(correction.h; not for index2-penalty)",
         NULL, 0, 0, 0, 0, &project_given},
    };
    mbd_cli_choice methods[16], integrators[16];
    mbd_cli_choices(mbd_formulation_method_names, mbd_formulation_method_descriptions, methods, 16);
    mbd_cli_choices(mbd_ode_preset_names, mbd_ode_preset_descriptions, integrators, 16);
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The Scotch yoke: static penalty against projection on a forced mechanism, with an\n"
                   "independent reference from the reduced one-degree-of-freedom equation.",
        .source = "document 000 (Newhart 2019), Sec. 2.4.2, Table 3, Figs. 14-19, listing A.3",
        .common = MBD_OPT_OUTPUT | MBD_OPT_TIME,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .methods = methods,
        .integrators = integrators,
        .csv_columns = "t,theta1,x2,theta1_dot,x2_dot,C_norm,Cdot_norm, then h for adaptive integrators",
        .notes = "With --method, --csv, --summary or any option of a run (--variant, --integrator, --mu,\n"
                 "--alpha, --beta, --project, --t-end, --h, --dt-out, --rtol, --atol, --max-violation):\n"
                 "one run (default penalty-baumgarte, ode23, table reading, t = 0 ... 4 s, outputs every\n"
                 "1e-4 s, as the document ran it), measured against the reduced-equation reference.\n"
                 "index2-penalty is stiff and runs with msbdf whatever --integrator says. A run stops\n"
                 "at --max-steps steps and says whether stiffness or the tolerance held its step.\n"
                 "--summary keys: variant, method, integrator, project, mu, alpha, beta, m1, m2, b, M11,\n"
                 "rtol, atol (or h), dt_out, t_end, t_reached, steps, rejected, fevals, corrections,\n"
                 "outputs, max_C_norm, max_Cdot_norm, max_theta1_error, max_x2_error,\n"
                 "max_theta1_dot_error, max_x2_dot_error, theta1_end, x2_end, theta1_dot_end,\n"
                 "x2_dot_end, status (ok, violation, step-limit, step-size, singular, ...).\n"
                 "Figures (--plot PREFIX): PREFIX-motion.svg, PREFIX-difference.svg, PREFIX-error.svg.",
    };
    mbd_cli_common opt;
    mbd_cli_defaults(&opt);
    int st = mbd_cli_parse(&spec, argc, argv, &opt, stdout, stderr);
    if (st == MBD_CLI_DONE)
        return MBD_EXIT_OK;
    if (st != GSL_SUCCESS)
        return MBD_EXIT_USAGE;

    const char *method = opt.method_given ? opt.method : "penalty-baumgarte";
    if (mbd_cli_check_method_options(&spec, method, mu_given, alpha_given, beta_given, project,
                                     stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    ch04_params p;
    ch04_variant var = CH04_TABLE;
    ch04_variant_of(variant, &var);
    ch04_params_init(&p, var);
    ch04_config c;
    ch04_config_default(&c, &p, method, "ode23");
    if (mbd_cli_integrator(&spec, &opt, "ode23", &c.ode, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    /* the index-2 penalty is stiff: it runs with msbdf whatever --integrator says
     * (as in chapter 03) */
    mbd_formulation_params fp = {0};
    const char *asked = c.ode.name;
    const int replaced = !project && mbd_formulation_method(method, &fp) == GSL_SUCCESS
                         && mbd_formulation_stiff_integrator(&fp, &c.ode);
    if (replaced)
        fprintf(stderr, "%s: %s is stiff (rates ~ mu |C_q|^2): msbdf replaces %s\n", PROGRAM,
                method, asked);
    /* one run has no step floor of its own: the step limit stops a crawl and
     * says whether stiffness or the tolerance holds the step */
    c.ode.hmin = 0.0;
    c.max_steps = opt.max_steps;
    c.max_outputs = opt.max_outputs;
    c.project = project;
    if (mu_given)
        c.mu = mu;
    c.alpha = alpha;
    c.beta = beta;
    if (opt.t_end_given)
        c.t_end = opt.t_end;
    if (opt.dt_out_given)
        c.dt_out = opt.dt_out;
    c.max_violation = opt.max_violation;
    if (mbd_cli_check_run(&spec, &opt, 0.0, c.t_end, c.dt_out, &c.ode, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    const int run_mode = opt.method_given || opt.csv || opt.summary || variant_given || mu_given
                         || alpha_given || beta_given || project_given || opt.integrator_given
                         || opt.t_end_given || opt.h_given || opt.dt_out_given || opt.rtol_given
                         || opt.atol_given || opt.max_violation_given;

    ch04_study *s = calloc(1, sizeof *s);
    if (s == NULL)
        return MBD_EXIT_NUMERICAL;
    mbd_failure fail;
    mbd_failure_clear(&fail);
    int exit_code = MBD_EXIT_OK;
    ch04_run r;
    mbd_history_init(&r.h);

    if (opt.bench) {
        st = ch04_bench(opt.bench, s);
        if (st != GSL_SUCCESS) {
            mbd_failure_set(&fail, st, NAN, "a benchmark case failed");
            goto failed;
        }
        goto done;
    }

    /* figures first: a bad --plot path must not leave a story half printed */
    if (opt.plot) {
        st = ch04_write_figures(opt.plot, s, &fail);
        if (st != GSL_SUCCESS)
            goto failed;
    }
    if (run_mode) {
        st = ch04_run_case(&p, &c, NULL, &r);
        r.res.integrator_replaced |= replaced;
        if (st != GSL_SUCCESS) {
            fail = r.res.fail;
            goto failed;
        }
        if (opt.csv) {
            mbd_failure cf;
            st = mbd_history_csv(&r.h, opt.csv, ch04_names, 0, &cf);
            if (st != GSL_SUCCESS) {
                fail = cf;   /* it names the file and the system's reason */
                goto failed;
            }
        }
        /* a failed run is reported by its own cause, whatever else went wrong */
        int sum_st = GSL_SUCCESS;
        if (opt.summary)
            sum_st = ch04_write_summary(stdout, &p, &c, &r);
        if (!opt.csv && !opt.summary)
            ch04_write_report(stdout, &p, &c, &r);
        if (r.res.status != GSL_SUCCESS) {
            fail = r.res.fail;
            goto failed;
        }
        if (sum_st != GSL_SUCCESS) {
            mbd_failure_set(&fail, sum_st, r.res.stats.run.t_reached, "a summary value is not finite");
            goto failed;
        }
    } else {
        st = ch04_story(stdout, s, opt.no_timing, &fail);
        if (st != GSL_SUCCESS) {
            if (fail.status == GSL_SUCCESS)
                mbd_failure_set(&fail, st, NAN, "the story failed: %s", mbd_strerror(st));
            goto failed;
        }
    }
    goto done;

failed:
    fflush(stdout);
    mbd_report_failure(stderr, PROGRAM, &fail);
    exit_code = mbd_cli_exit_status(fail.status);
done:
    mbd_history_free(&r.h);
    ch04_study_free(s);
    free(s);
    return exit_code;
}
