/* ch03-pendulum -- the simple pendulum of document 000 (Newhart 2019,
 * Sec. 2 and 2.4.1, Table 1, Table 2, Figs. 2-13, listings A.2-A.2.g) solved
 * by every method of the document, against the exact solution.
 *
 * The story: the model and its exact solution by Jacobi elliptic functions;
 * the document's setting (MATLAB's ode23 defaults) for every method; the same
 * methods with the integration error taken away; Table 1's penalty-factor
 * study; why the alternate penalty costs more as mu grows and where it turns
 * unstable at a fixed step; the printed Baumgarte sign blowing up; the
 * listings' corrections that never run, and a post-step projection that
 * does; the index-2 penalty under a stiff integrator.
 *
 * With --method, --csv, --summary or any run option the program runs one
 * method instead and prints a short report, the CSV time history, or the
 * summary.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_vector.h>

#include "mbd/cli.h"
#include "mbd/formulation.h"
#include "mbd/io.h"
#include "study.h"

#define PROGRAM "ch03-pendulum"

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    mbd_cli_mechanism mech = {.mu = 1e5, .alpha = 20.0, .beta = 20.0};
    mbd_cli_extra extra[4];
    mbd_cli_mechanism_options(&mech, 1e15, NULL, extra);
    mbd_cli_choice methods[16], integrators[16];
    size_t nm = mbd_cli_mechanism_choices(methods, integrators, 15);
    methods[nm++] = (mbd_cli_choice){"direct", "theta'' = -(g/L) sin theta in the angle (eq. 73)"};
    methods[nm] = (mbd_cli_choice){NULL, NULL};
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The simple pendulum by projection, static penalty, Baumgarte, alternate and index-2\n"
                   "penalty and the direct angle equation, against the exact elliptic-function solution.",
        .source = "document 000 (Newhart 2019), Sec. 2 and 2.4.1, Tables 1-2, Figs. 2-13, listings A.2",
        MBD_CLI_ANIMATED_MECHANISM_SPEC(extra, methods, integrators),
        .csv_columns = "t,x,y,z,x_dot,y_dot,z_dot,C_norm,Cdot_norm,E (and h for adaptive integrators);\n"
                       "C = (x^2 + y^2 - L^2, z), E = kinetic - m g y",
        .notes = "With --method, --csv, --summary or any run option: one run (default penalty, ode23,\n"
                 "mu 1e5, alpha = beta = 20, t_end 5, outputs every 1e-4 s as Table 2). index2-penalty\n"
                 "always runs with msbdf (eq. 58 is stiff; --h, --rtol, --atol apply to it).\n"
                 "A violation |C| > --max-violation (default 1) stops the run with status 1.\n"
                 "--summary keys: method, integrator, integrator_replaced, mu, alpha, beta, project,\n"
                 "t_end, dt_out, t_reached, steps, rejected, fevals, corrections, max_C_norm,\n"
                 "max_Cdot_norm, max_energy_error, max_position_error, max_velocity_error, error_x,\n"
                 "error_y, error_x_dot, error_y_dot, max_abs_z, period_exact, status.\n"
                 "Baumgarte's weights default to the listings' alpha = beta = 20; the text has beta =\n"
                 "4.4721 (beta^2 = 20). --project does not apply to index2-penalty or direct.\n"
                 "The story uses the document's data whatever the options say.\n"
                 "Figures (--plot PREFIX, from the story's runs): PREFIX-motion.svg, PREFIX-errors.svg,\n"
                 "PREFIX-penalty-factor.svg, PREFIX-baumgarte.svg.\n"
                 "--animate FILE with a run option: that run moving (GIF; rod, bob, the circle it should\n"
                 "stay on, the bob's trace, t and |C| in each frame). Alone: the stable and the printed\n"
                 "Baumgarte sign side by side, 0-0.45 s at --speed 0.1 unless given; then the story.",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;

    /* one run: its spec from the options, checked before anything runs */
    const char *method = opt.method_given ? opt.method : "penalty";
    if (mech.project && strcmp(method, "direct") == 0)
        return mbd_cli_exit_status(mbd_cli_usage_error(
            &spec, stderr, "--project: the direct method integrates the angle theta, which has "
                           "no constraint to project onto"));
    ch03_program prog = {.opt = &opt};
    ch03_spec_default(&prog.spec);
    if (mbd_cli_study_spec(&spec, &opt, &mech, method, "ode23", &prog.spec, stderr) != GSL_SUCCESS)
        return MBD_EXIT_USAGE;
    prog.S = ch03_study_alloc();
    if (prog.S == NULL)
        return MBD_EXIT_NUMERICAL;
    const mbd_cli_program program = {PROGRAM, &prog, ch03_program_bench, ch03_program_figures,
                                     ch03_program_run, ch03_program_story};
    const int exit_code = mbd_cli_dispatch_animated(&program, ch03_program_animate, &opt);
    ch03_study_free(prog.S);
    return exit_code;
}
