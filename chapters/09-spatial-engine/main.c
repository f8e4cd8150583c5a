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
    const char *analysis;        /* --analysis, or NULL: the file's */
    int reactions;
} program;

/* --csv: the file is opened only after the model has been read and run, so
 * that a refused model writes nothing */
static int write_csv(const char *path, const ch09_model *md, const ch09_run *r, int reactions,
                     mbd_failure *fail)
{
    FILE *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (out == NULL)
        return mbd_failure_set(fail, MBD_EIO, NAN, "--csv %s: cannot write the file", path);
    int st = ch09_write_csv(out, md, r, reactions);
    if (out != stdout && fclose(out) != 0)
        st = GSL_EFAILED;
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, MBD_EIO, NAN, "--csv %s: writing failed", path);
    return GSL_SUCCESS;
}

static int run(void *ctx, mbd_failure *fail)
{
    program *p = ctx;
    ch09_model md;
    int st = ch09_model_load(&md, p->model, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch09_spec spec;
    st = ch09_spec_of_model(&md, &spec, fail);
    if (st == GSL_SUCCESS && p->analysis != NULL) {
        for (int k = 0; ch09_analysis_names[k]; k++)
            if (strcmp(p->analysis, ch09_analysis_names[k]) == 0)
                spec.analysis = (ch09_analysis)k;
        spec.auto_analysis = 0;
    }
    if (p->opt->t_end_given)
        spec.t_end = p->opt->t_end;
    if (p->opt->h_given)
        spec.h = p->opt->h;
    spec.reactions = p->reactions;
    if (st == GSL_SUCCESS && spec.analysis != CH09_ASSEMBLY && !(spec.t_end > spec.t0))
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--t-end %g: expected a time after the start, %g (%s)", spec.t_end,
                             spec.t0, md.desc->source);
    if (st == GSL_SUCCESS && spec.analysis != CH09_ASSEMBLY && spec.h > spec.t_end - spec.t0)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--h %g: expected a step no longer than the run, %g s", spec.h,
                             spec.t_end - spec.t0);
    if (st == GSL_SUCCESS && spec.reactions && spec.analysis != CH09_INVERSE_DYNAMICS &&
        !spec.auto_analysis)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--reactions: the reactions come from an inverse-dynamics analysis, "
                             "not from %s", ch09_analysis_names[spec.analysis]);
    ch09_run r;
    ch09_run_init(&r);
    if (st == GSL_SUCCESS)
        st = ch09_run_spec(&md, &spec, &r);
    if (st == GSL_SUCCESS && r.status == MBD_EINPUT) {
        *fail = r.fail;   /* a model the analysis cannot run: nothing is written */
        st = r.status;
    }
    if (st == GSL_SUCCESS && spec.reactions && r.analysis != CH09_INVERSE_DYNAMICS)
        st = mbd_failure_set(fail, MBD_EINPUT, NAN,
                             "--reactions: the model is not fully driven, so the file's analysis "
                             "is an assembly; the reactions need an inverse-dynamics analysis");
    if (st == GSL_SUCCESS && p->opt->csv != NULL)
        st = write_csv(p->opt->csv, &md, &r, spec.reactions, fail);
    if (st == GSL_SUCCESS && (p->opt->summary || p->opt->csv == NULL))
        ch09_write_summary(stdout, &md, &spec, &r);
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
        .common = MBD_OPT_CSV | MBD_OPT_SUMMARY | MBD_OPT_T_END | MBD_OPT_H | MBD_OPT_NO_TIMING,
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
    program p = {.opt = &opt, .model = model, .analysis = analysis_given ? analysis : NULL,
                 .reactions = reactions};
    if ((analysis_given || reactions_given || opt.csv || opt.summary || opt.t_end_given ||
         opt.h_given) && !model_given)
        return mbd_cli_exit_status(mbd_cli_usage_error(&spec, stderr, "give the model: --model FILE"));
    const mbd_cli_program prog = {PROGRAM, &p, NULL, NULL, model_given ? run : NULL, story};
    return mbd_cli_dispatch(&prog, &opt);
}
