/* ch09-spatial-engine -- the 3D Euler-parameter engine: document 003
 * (Vignos 2016, "simEngine3D"). WORK IN PROGRESS (issue 19): runs a model
 * file's assembly, kinematics or inverse dynamics; the story, the figures
 * and the dynamics (issue 20) are still to come.
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
    const char *model = NULL, *analysis = NULL;
    int model_given = 0, analysis_given = 0, reactions = 0, reactions_given = 0;
    mbd_cli_choice analyses[5];
    mbd_cli_choices(ch09_analysis_names, ch09_analysis_descriptions, analyses, 5);
    const mbd_cli_extra extra[] = {
        {"model", MBD_ARG_STRING, &model, "FILE", "the model file (YAML; docs/model-format.md)",
         NULL, 0, 0, 0, 0, &model_given},
        {"analysis", MBD_ARG_CHOICE, &analysis, "A", "the analysis to run", analyses, 0, 0, 0, 0,
         &analysis_given},
        {"reactions", MBD_ARG_FLAG, &reactions, NULL,
         "the joints' reactions in the CSV (inverse dynamics)", NULL, 0, 0, 0, 0,
         &reactions_given},
    };
    const mbd_cli_spec spec = {
        .program = PROGRAM,
        .purpose = "The 3D Euler-parameter engine: model files, assembly, kinematics and inverse\n"
                   "dynamics (work in progress).",
        .source = "document 003 (Vignos 2016, simEngine3D), Secs. 3-6",
        .common = MBD_OPT_CSV | MBD_OPT_SUMMARY | MBD_OPT_PLOT | MBD_OPT_NO_TIMING | MBD_OPT_BENCH
                  | MBD_OPT_T_END | MBD_OPT_H,
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
    ch09_program p = {.opt = &opt, .model = model,
                      .analysis = analysis_given ? analysis : NULL, .reactions = reactions};
    if ((analysis_given || reactions_given || opt.csv || opt.summary || opt.t_end_given ||
         opt.h_given) && !model_given)
        return mbd_cli_exit_status(mbd_cli_usage_error(&spec, stderr, "give the model: --model FILE"));
    const mbd_cli_program prog = {PROGRAM, &p, ch09_program_bench, ch09_program_figures,
                                  model_given ? ch09_program_run : NULL, ch09_program_story};
    return mbd_cli_dispatch(&prog, &opt);
}
