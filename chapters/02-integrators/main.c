/* ch02-integrators -- the integration schemes of document 001 (Chandramouli
 * 2023, slides "Constrained Dynamics", Sec. "Numerical Methods").
 *
 * The story: the schemes and the slides' coefficient tables, checked; explicit
 * and implicit Euler on y' = -10 y (the slides' three alpha = 10 figures);
 * implicit Euler by fixed-point iteration and by Newton; the step at which
 * each scheme turns unstable, found by running it, beside the theory; runs
 * just below and just above; observed orders of convergence; energy on the
 * undamped oscillator; step-size control on a problem with a fast transient;
 * and the slides' errata.
 *
 * With --method or --problem (or any run option) it runs one scheme on one
 * problem instead: a short report, --csv the time history, --summary the
 * results as key = value lines. --summary alone gives every scheme's order
 * and stability limit.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/io.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "study.h"

#define PROGRAM "ch02-integrators"

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    const char *problem = "decay";
    double alpha = ALPHA, omega = OMEGA;
    long order = 4, corrections = 1;
    int problem_given = 0, alpha_given = 0, omega_given = 0, order_given = 0, corr_given = 0;
    static const mbd_cli_choice problems[] = {
        {"decay", "y' = -alpha y, y(0) = 1"},
        {"oscillator", "x'' = -omega^2 x, x(0) = 1, x_dot(0) = 0"},
        {"transient", "y' = -100 (y - cos t) - sin t, y(0) = 0"},
        {NULL, NULL}};
    const mbd_cli_extra extra[] = {
        {"problem", MBD_ARG_CHOICE, &problem, "NAME",
         "decay (default), oscillator or transient", problems, 0, 0, 0, 0, &problem_given},
        {"alpha", MBD_ARG_DOUBLE, &alpha, "ALPHA", "decay rate of --problem decay (default 10)",
         NULL, 0.0, 1e6, 1, 0, &alpha_given},
        {"omega", MBD_ARG_DOUBLE, &omega, "OMEGA", "angular frequency of --problem oscillator (default 1)",
         NULL, 0.0, 1e6, 1, 0, &omega_given},
        {"order", MBD_ARG_LONG, &order, "K",
         "--method pece: AB_K predictor, AM_K corrector, K = 2..4 (default 4)", NULL, 2, 4, 0, 0,
         &order_given},
        {"corrections", MBD_ARG_LONG, &corrections, "M",
         "--method pece: M corrections, P(EC)^M E (default 1)", NULL, 1, 10, 0, 0, &corr_given},
    };
    mbd_cli_choice methods[32];
    size_t nm = 0;
    for (const ch02_scheme *sc = ch02_schemes; sc->name && nm + 1 < 32; sc++)
        methods[nm++] = (mbd_cli_choice){sc->name, sc->description};
    methods[nm] = (mbd_cli_choice){NULL, NULL};
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "Integrators of document 001: Euler, implicit Euler, Runge-Kutta, Adams, P(EC)^m,\n"
                   "step doubling, Fehlberg 2(3), Cash-Karp; stability, order, energy, step-size control.",
        .source = "document 001 (Chandramouli 2023, slides \"Constrained Dynamics\"), Sec. 3 \"Numerical Methods\"",
        .common = MBD_OPT_OUTPUT | MBD_OPT_METHOD | MBD_OPT_T_END | MBD_OPT_H | MBD_OPT_DT_OUT
                  | MBD_OPT_RTOL | MBD_OPT_ATOL | MBD_OPT_MAX_STEPS | MBD_OPT_MAX_OUTPUTS,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .methods = methods,
        .csv_columns = "t,y (decay, transient) or t,x,x_dot,E (oscillator); then h for adaptive "
                       "methods (rk4-doubling, rkf23, cash-karp)",
        .notes = "With --method, --problem or any run option: one run (default rk4 on decay; t_end\n"
                 "1, 20, 2 and h 0.01, 0.1, 0.01 (or t_end if shorter) for decay, oscillator,\n"
                 "transient; adaptive methods start from --h if given, rtol = atol = 1e-6; outputs\n"
                 "after every step unless --dt-out). A run that would need more than --max-steps\n"
                 "steps (for an adaptive method: at its stability limit on the problem) or more than\n"
                 "--max-outputs outputs is refused before it starts; one that reaches a limit stops\n"
                 "with exit status 1 and says what held its step.\n"
                 "--summary alone: every scheme's order_<m>, observed_order_<m>, limit_<m> (theory,\n"
                 "h alpha on y' = -alpha y) and limit_measured_<m>, or a_stable_<m> and stable_to_<m>;\n"
                 "energy_factor_<m>, transient_error_<m>. With a run, the same keys on every run,\n"
                 "failed or not, 'none' where a value does not exist: method, problem, order,\n"
                 "pece_order, corrections, a_stable, limit, limit_measured, stable_to, h_limit, rtol,\n"
                 "atol, h, h_min, h_max, t_end, t_reached, steps, rejected, fevals, outputs; y_end,\n"
                 "y_exact (decay, transient) or x_end, x_dot_end, x_exact, E_end, E_ratio,\n"
                 "energy_factor, energy_factor_theory (oscillator); error_end, max_error, and status\n"
                 "(ok, step-limit, step-size, non-finite, ...).\n"
                 "The story uses the slides' alpha = 10 and omega = 1 whatever the options say.\n"
                 "Figures (--plot PREFIX): PREFIX-stability.svg, PREFIX-euler.svg, PREFIX-energy.svg,\n"
                 "PREFIX-steps.svg.",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;

#define USAGE(...) return mbd_cli_exit_status(mbd_cli_usage_error(&spec, stderr, __VA_ARGS__))
    const char *method = opt.method_given ? opt.method : "rk4";
    const ch02_scheme *scheme = ch02_scheme_find(method);
    if ((order_given || corr_given) && scheme->kind != MBD_ODE_PECE)
        USAGE("option --%s applies to --method pece only", order_given ? "order" : "corrections");
    ch02_problem_kind kind = CH02_DECAY;
    ch02_problem_kind_of(problem, &kind);
    if (alpha_given && kind != CH02_DECAY)
        USAGE("option --alpha applies to --problem decay only");
    if (omega_given && kind != CH02_OSCILLATOR)
        USAGE("option --omega applies to --problem oscillator only");
    if (omega * omega < DBL_MIN)   /* the energy omega^2 x^2 / 2 would underflow to 0 */
        USAGE("option --omega %g: omega^2 underflows to zero; the oscillator needs omega >= %.3g",
              omega, sqrt(DBL_MIN));
    if ((opt.rtol_given || opt.atol_given) && !scheme->adaptive)
        USAGE("options --rtol and --atol apply to the adaptive methods (rk4-doubling, rkf23, "
              "cash-karp), not to %s", method);
#undef USAGE
    const int run_mode = opt.method_given || problem_given || alpha_given || omega_given
                         || order_given || corr_given || opt.h_given || opt.t_end_given
                         || opt.dt_out_given || opt.rtol_given || opt.atol_given || opt.csv
                         || opt.max_steps_given || opt.max_outputs_given;

    /* one run: its spec from the options, checked before anything runs */
    ch02_program prog = {.opt = &opt, .run_mode = run_mode};
    if (run_mode) {
        prog.rs.scheme = scheme;
        ch02_settings_default(&prog.rs.set);
        prog.rs.set.pece_order = (unsigned)order;
        prog.rs.set.corrections = (unsigned)corrections;
        ch02_problem_init(&prog.rs.pr, kind, alpha, omega);
        static const double t_end_default[] = {1.0, 20.0, 2.0}, h_default[] = {0.01, 0.1, 0.01};
        prog.rs.t_end = opt.t_end_given ? opt.t_end : t_end_default[kind];
        /* the default step, or the whole run when that is shorter: the step taken */
        prog.rs.set.h = opt.h_given ? opt.h
                   : scheme->adaptive ? 0.0 : fmin(h_default[kind], prog.rs.t_end);
        if (opt.rtol_given)
            prog.rs.set.rtol = opt.rtol;
        if (opt.atol_given)
            prog.rs.set.atol = opt.atol;
        prog.rs.dt_out = opt.dt_out_given ? opt.dt_out : 0.0;
        prog.rs.lim.max_steps = opt.max_steps;
        prog.rs.lim.max_outputs = opt.max_outputs;
        prog.rs.lim.error_every_step = 1;
        ch02_params(prog.rs.scheme, &prog.rs.set, &prog.p);
        int st = ch02_check_run(&spec, &opt, &prog.rs, &prog.p);
        if (st != GSL_SUCCESS)
            return mbd_cli_exit_status(st);
    }


    prog.s = calloc(1, sizeof *prog.s);
    if (prog.s == NULL)
        return MBD_EXIT_NUMERICAL;
    const mbd_cli_program program = {PROGRAM, &prog, ch02_program_bench, ch02_program_figures,
                                     ch02_program_run, ch02_program_story};
    const int exit_code = mbd_cli_dispatch(&program, &opt);
    ch02_free_steps(prog.s);
    free(prog.s);
    return exit_code;
}
