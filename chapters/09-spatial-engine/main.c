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
#include "story.h"
#include "study.h"

#define PROGRAM "ch09-spatial-engine"

typedef struct {
    const mbd_cli_common *opt;
    const char *model;
    ch09_spec spec;
} program;

static int run(void *ctx, mbd_failure *fail)
{
    program *p = ctx;
    ch09_model md;
    int st = ch09_model_load(&md, p->model, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch09_run r;
    ch09_run_init(&r);
    st = ch09_run_spec(&md, &p->spec, &r);
    if (st != GSL_SUCCESS)
        *fail = r.fail;
    if (st == GSL_SUCCESS && p->opt->csv != NULL) {
        FILE *out = strcmp(p->opt->csv, "-") == 0 ? stdout : fopen(p->opt->csv, "w");
        if (out == NULL) {
            st = mbd_failure_set(fail, MBD_EINPUT, NAN, "cannot write %s", p->opt->csv);
        } else {
            st = ch09_write_csv(out, &md, &r, p->spec.reactions);
            if (out != stdout)
                fclose(out);
        }
    }
    if (st == GSL_SUCCESS && (p->opt->summary || p->opt->csv == NULL))
        ch09_write_summary(stdout, &md, &p->spec, &r);
    if (st == GSL_SUCCESS && r.status != GSL_SUCCESS) {
        *fail = r.fail;
        st = r.status;
    }
    ch09_run_free(&r);
    ch09_model_free(&md);
    return st;
}

static int story(void *ctx, FILE *out, int no_timing, mbd_failure *fail)
{
    (void)ctx;
    return ch09_story(out, no_timing, fail);
}

int main(int argc, char **argv)
{
    const char *model = NULL, *analysis = "kinematics";
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
        .common = MBD_OPT_CSV | MBD_OPT_SUMMARY | MBD_OPT_T_END | MBD_OPT_H | MBD_OPT_NO_TIMING,
        .extra = extra,
        .n_extra = sizeof extra / sizeof extra[0],
        .csv_columns = "t, per moving body <name>.x,y,z,e0,e1,e2,e3, then their _dot, then per\n"
                       "output point <point>.x,y,z, then C_norm,E; with --reactions per joint\n"
                       "<joint>.Fx,Fy,Fz,Tx,Ty,Tz (global, on its first body, about its point)",
    };
    mbd_cli_common opt;
    int code;
    if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
        return code;
    program p = {.opt = &opt, .model = model};
    p.spec.analysis = CH09_KINEMATICS;
    for (int k = 0; ch09_analysis_names[k]; k++)
        if (strcmp(analysis, ch09_analysis_names[k]) == 0)
            p.spec.analysis = (ch09_analysis)k;
    p.spec.t0 = 0.0;
    p.spec.t_end = opt.t_end_given ? opt.t_end : 1.0;
    p.spec.h = opt.h_given ? opt.h : 1e-2;
    p.spec.reactions = reactions;
    if ((analysis_given || reactions_given || opt.csv || opt.summary) && !model_given)
        return mbd_cli_exit_status(mbd_cli_usage_error(&spec, stderr, "give the model: --model FILE"));
    const mbd_cli_program prog = {PROGRAM, &p, NULL, NULL, model_given ? run : NULL, story};
    return mbd_cli_dispatch(&prog, &opt);
}
