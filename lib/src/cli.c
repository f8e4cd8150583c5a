#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "mbd/cli.h"
#include "mbd/error.h"
#include "mbd/formulation.h"
#include "mbd/io.h"

/* ------------------------------------------------------------------------ */
/* The common options                                                        */

/* C_RANGE: a finite number in [min, max] */
typedef enum { C_FLAG, C_DOUBLE, C_POSITIVE, C_LONG_POSITIVE, C_STRING, C_NAME, C_RANGE } common_kind;

typedef struct {
    const char *name;
    unsigned bit;
    common_kind kind;
    const char *metavar;
    const char *help;
} common_option;

static const common_option COMMON[] = {
    {"list", MBD_OPT_LIST, C_FLAG, NULL, "list the scenarios, methods and integrators, then exit"},
    {"scenario", MBD_OPT_SCENARIO, C_NAME, "NAME", "run one scenario (see --list)"},
    {"method", MBD_OPT_METHOD, C_NAME, "NAME", "the method to run (see --list)"},
    {"integrator", MBD_OPT_INTEGRATOR, C_NAME, "NAME", "the time integrator preset (see --list)"},
    {"t-end", MBD_OPT_T_END, C_POSITIVE, "T", "final time [s]"},
    {"h", MBD_OPT_H, C_POSITIVE, "H", "integration step, or the initial step of an adaptive method"},
    {"dt-out", MBD_OPT_DT_OUT, C_POSITIVE, "DT", "output spacing [s]"},
    {"rtol", MBD_OPT_RTOL, C_POSITIVE, "R", "relative error tolerance of adaptive methods"},
    {"atol", MBD_OPT_ATOL, C_POSITIVE, "A", "absolute error tolerance of adaptive methods"},
    {"max-violation", MBD_OPT_MAX_VIOLATION, C_POSITIVE, "V",
     "stop with status 1 when the constraint violation |C| exceeds V (default 1)"},
    {"max-steps", MBD_OPT_MAX_STEPS, C_LONG_POSITIVE, "N",
     "refuse or stop a run that needs more than N integration steps (default 1000000)"},
    {"max-outputs", MBD_OPT_MAX_OUTPUTS, C_LONG_POSITIVE, "N",
     "refuse a run with more than N output times (default 1000000)"},
    {"csv", MBD_OPT_CSV, C_STRING, "FILE", "write the results as CSV to FILE ('-' for stdout)"},
    {"summary", MBD_OPT_SUMMARY, C_FLAG, NULL, "print only 'key = value' lines"},
    {"plot", MBD_OPT_PLOT, C_STRING, "PREFIX", "write the figures as PREFIX-<figure>.svg (gnuplot)"},
    {"no-timing", MBD_OPT_NO_TIMING, C_FLAG, NULL, "print timings as '-' so the output is reproducible"},
    {"bench", MBD_OPT_BENCH, C_LONG_POSITIVE, "N",
     "time each benchmark case in N repetitions (min, median, max); print CSV rows"},
    {"animate", MBD_OPT_ANIMATE, C_STRING, "FILE",
     "write the run as an animated GIF (alone: the chapter's animation)"},
    {"fps", MBD_OPT_FPS, C_RANGE, "F",
     "the animation's frames per second, 0.1 to 50 (default 25)"},
    {"speed", MBD_OPT_SPEED, C_RANGE, "S",
     "simulated seconds per second shown, 0.001 to 1000 (default 1)"},
};
#define N_COMMON (sizeof COMMON / sizeof COMMON[0])

/* the bounds of a C_RANGE option (animation.h's) */
static void common_range(unsigned bit, double *min, double *max)
{
    if (bit == MBD_OPT_FPS) {
        *min = MBD_ANIMATION_FPS_MIN;
        *max = MBD_ANIMATION_FPS_MAX;
    } else {
        *min = MBD_ANIMATION_SPEED_MIN;
        *max = MBD_ANIMATION_SPEED_MAX;
    }
}

void mbd_cli_defaults(mbd_cli_common *c)
{
    memset(c, 0, sizeof *c);
    c->t_end = NAN;
    c->h = NAN;
    c->dt_out = NAN;
    c->rtol = NAN;
    c->atol = NAN;
    c->max_violation = 1.0;
    c->max_steps = MBD_RUN_MAX_STEPS;
    c->max_outputs = MBD_RUN_MAX_OUTPUTS;
    c->fps = MBD_ANIMATION_FPS_DEFAULT;
    c->speed = 1.0;
}

int mbd_cli_parse_double(const char *text, double *value)
{
    if (text == NULL || *text == '\0')
        return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || errno == ERANGE)
        return -1;
    *value = v;
    return 0;
}

static int parse_long(const char *text, long *value)
{
    if (text == NULL || *text == '\0')
        return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE)
        return -1;
    *value = v;
    return 0;
}

int mbd_cli_exit_status(int status)
{
    switch (status) {
    case GSL_SUCCESS:
        return MBD_EXIT_OK;
    case MBD_EUSAGE:
    case MBD_EINPUT:
    case MBD_EIO:
    case MBD_EEXTERNAL:
        return MBD_EXIT_USAGE;
    default:
        return MBD_EXIT_NUMERICAL;
    }
}

double mbd_cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *mbd_cli_format_seconds(char *buf, size_t size, double seconds, int no_timing)
{
    if (no_timing || !isfinite(seconds))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.4g s", seconds);
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Help                                                                      */

/* A name longer than the column gets its description on the next line, as
 * GNU tools do, so that no line runs into the next column. */
static void print_entry(FILE *f, const char *left, const char *text)
{
    if (strlen(left) > 24)
        fprintf(f, "  %s\n  %-24s %s\n", left, "", text);
    else
        fprintf(f, "  %-24s %s\n", left, text);
}

static void print_choices(FILE *f, const char *title, const mbd_cli_choice *c)
{
    if (c == NULL || c->name == NULL)
        return;
    fprintf(f, "%s:\n", title);
    for (; c->name != NULL; c++)
        print_entry(f, c->name, c->description ? c->description : "");
}

static void print_option(FILE *f, const char *name, const char *metavar, const char *help)
{
    char left[64];
    if (metavar)
        snprintf(left, sizeof left, "--%s %s", name, metavar);
    else
        snprintf(left, sizeof left, "--%s", name);
    print_entry(f, left, help);
}

static void print_help(const mbd_cli_spec *spec, FILE *f)
{
    fprintf(f, "Usage: %s [OPTION]...\n", spec->program);
    if (spec->purpose)
        fprintf(f, "%s\n", spec->purpose);
    if (spec->source)
        fprintf(f, "Reproduces: %s\n", spec->source);
    fprintf(f, "\nWith no options, runs the chapter's story step by step.\n\nOptions:\n");
    print_option(f, "help", NULL, "show this help and exit");
    print_option(f, "version", NULL, "show the version and exit");
    for (size_t i = 0; i < N_COMMON; i++)
        if (spec->common & COMMON[i].bit)
            print_option(f, COMMON[i].name, COMMON[i].metavar, COMMON[i].help);
    if (spec->n_extra > 0) {
        fprintf(f, "\nOptions of this chapter:\n");
        for (size_t i = 0; i < spec->n_extra; i++)
            print_option(f, spec->extra[i].name, spec->extra[i].metavar, spec->extra[i].help);
    }
    if (spec->csv_columns && (spec->common & MBD_OPT_CSV))
        fprintf(f, "\nCSV columns: %s\n", spec->csv_columns);
    /* one blank line before each section that is there, never two */
    const mbd_cli_choice *lists[3] = {spec->scenarios, spec->methods, spec->integrators};
    const char *titles[3] = {"Scenarios", "Methods", "Integrators"};
    for (int k = 0; k < 3; k++)
        if (lists[k] && lists[k]->name) {
            fprintf(f, "\n");
            print_choices(f, titles[k], lists[k]);
        }
    if (spec->notes)
        fprintf(f, "\n%s\n", spec->notes);
    fprintf(f, "\nExit status: 0 success, 1 numerical failure, 2 bad usage or bad input.\n");
}

static void print_list(const mbd_cli_spec *spec, FILE *f)
{
    int any = 0;
    const mbd_cli_choice *lists[3] = {spec->scenarios, spec->methods, spec->integrators};
    const char *titles[3] = {"Scenarios", "Methods", "Integrators"};
    for (int k = 0; k < 3; k++) {
        if (lists[k] && lists[k]->name) {
            if (any)
                fprintf(f, "\n");
            print_choices(f, titles[k], lists[k]);
            any = 1;
        }
    }
    /* the chapter's own choices (--variant, --mass, ...) */
    for (size_t i = 0; i < spec->n_extra; i++) {
        const mbd_cli_extra *e = &spec->extra[i];
        if (e->type != MBD_ARG_CHOICE || e->choices == NULL || e->choices->name == NULL)
            continue;
        char title[80];
        snprintf(title, sizeof title, "--%s", e->name);
        if (any)
            fprintf(f, "\n");
        print_choices(f, title, e->choices);
        any = 1;
    }
    if (!any)
        fprintf(f, "%s has a single story: no scenarios, methods or integrators to choose.\n",
                spec->program);
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */

static int usage_error(const mbd_cli_spec *spec, FILE *err, const char *fmt, const char *a,
                       const char *b)
{
    fprintf(err, "%s: ", spec->program);
    fprintf(err, fmt, a, b);
    fprintf(err, "\nTry '%s --help' for more information.\n", spec->program);
    return MBD_EUSAGE;
}

int mbd_cli_parse_exit(int st)
{
    return st == MBD_CLI_DONE ? MBD_EXIT_OK : MBD_EXIT_USAGE;
}

int mbd_cli_start(const mbd_cli_spec *spec, int argc, char **argv, mbd_cli_common *opt,
                  int *exit_code)
{
    gsl_set_error_handler_off();
    mbd_cli_defaults(opt);
    const int st = mbd_cli_parse(spec, argc, argv, opt, stdout, stderr);
    *exit_code = st == GSL_SUCCESS ? MBD_EXIT_OK : mbd_cli_parse_exit(st);
    return st == GSL_SUCCESS;
}

int mbd_cli_usage_error(const mbd_cli_spec *spec, FILE *err, const char *fmt, ...)
{
    va_list ap;
    fprintf(err, "%s: ", spec->program);
    va_start(ap, fmt);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fprintf(err, "\nTry '%s --help' for more information.\n", spec->program);
    return MBD_EUSAGE;
}

static const mbd_cli_choice *find_choice(const mbd_cli_choice *c, const char *name)
{
    for (; c != NULL && c->name != NULL; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static void choice_names(const mbd_cli_choice *c, char *buf, size_t size)
{
    buf[0] = '\0';
    size_t used = 0;
    for (; c != NULL && c->name != NULL; c++) {
        int k = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", c->name);
        if (k < 0 || (size_t)k >= size - used)
            break;
        used += (size_t)k;
    }
}

static int check_choice(const mbd_cli_spec *spec, FILE *err, const char *opt,
                        const mbd_cli_choice *list, const char *value)
{
    if (list == NULL || list->name == NULL)
        return GSL_SUCCESS;
    if (find_choice(list, value))
        return GSL_SUCCESS;
    char names[512];
    choice_names(list, names, sizeof names);
    char what[600];
    snprintf(what, sizeof what, "one of: %s", names);
    fprintf(err, "%s: option --%s: unknown value '%s'; expected %s\n", spec->program, opt, value,
            what);
    fprintf(err, "Try '%s --list'.\n", spec->program);
    return MBD_EUSAGE;
}

static void describe_range(char *buf, size_t size, const mbd_cli_extra *x)
{
    int lo = isfinite(x->min), hi = isfinite(x->max);
    if (lo && hi)
        snprintf(buf, size, "a number in %s%g, %g%s", x->min_open ? "(" : "[", x->min, x->max,
                 x->max_open ? ")" : "]");
    else if (lo)
        snprintf(buf, size, "a number %s %g", x->min_open ? ">" : ">=", x->min);
    else if (hi)
        snprintf(buf, size, "a number %s %g", x->max_open ? "<" : "<=", x->max);
    else
        snprintf(buf, size, "a finite number");
}

static int in_range(const mbd_cli_extra *x, double v)
{
    if (isfinite(x->min) && (x->min_open ? !(v > x->min) : !(v >= x->min)))
        return 0;
    if (isfinite(x->max) && (x->max_open ? !(v < x->max) : !(v <= x->max)))
        return 0;
    return 1;
}

static int set_common(const mbd_cli_spec *spec, FILE *err, const common_option *o,
                      const char *value, mbd_cli_common *out)
{
    double v = 0.0;
    long lv = 0;
    if (o->kind == C_POSITIVE) {
        if (mbd_cli_parse_double(value, &v) != 0)
            return usage_error(spec, err, "option --%s: expected a finite number, got '%s'",
                               o->name, value);
        if (!(v > 0))
            return usage_error(spec, err, "option --%s: expected a positive number, got '%s'",
                               o->name, value);
    } else if (o->kind == C_RANGE) {
        double lo, hi;
        common_range(o->bit, &lo, &hi);
        if (mbd_cli_parse_double(value, &v) != 0 || !(v >= lo && v <= hi))
            return mbd_cli_usage_error(spec, err, "option --%s: expected a number in [%g, %g], "
                                       "got '%s'", o->name, lo, hi, value);
    } else if (o->kind == C_LONG_POSITIVE) {
        if (parse_long(value, &lv) != 0 || lv < 1)
            return usage_error(spec, err, "option --%s: expected a positive whole number, got '%s'",
                               o->name, value);
    } else if ((o->kind == C_STRING || o->kind == C_NAME) && *value == '\0') {
        return usage_error(spec, err, "option --%s: expected a value, got an empty string%s",
                           o->name, "");
    }

    switch (o->bit) {
    case MBD_OPT_SCENARIO:
        out->scenario = value;
        out->scenario_given = 1;
        return check_choice(spec, err, o->name, spec->scenarios, value);
    case MBD_OPT_METHOD:
        out->method = value;
        out->method_given = 1;
        return check_choice(spec, err, o->name, spec->methods, value);
    case MBD_OPT_INTEGRATOR:
        out->integrator = value;
        out->integrator_given = 1;
        return check_choice(spec, err, o->name, spec->integrators, value);
    case MBD_OPT_T_END: out->t_end = v; out->t_end_given = 1; break;
    case MBD_OPT_H: out->h = v; out->h_given = 1; break;
    case MBD_OPT_DT_OUT: out->dt_out = v; out->dt_out_given = 1; break;
    case MBD_OPT_RTOL: out->rtol = v; out->rtol_given = 1; break;
    case MBD_OPT_ATOL: out->atol = v; out->atol_given = 1; break;
    case MBD_OPT_MAX_VIOLATION: out->max_violation = v; out->max_violation_given = 1; break;
    case MBD_OPT_CSV: out->csv = value; break;
    case MBD_OPT_PLOT: out->plot = value; break;
    case MBD_OPT_ANIMATE: out->animate = value; break;
    case MBD_OPT_FPS: out->fps = v; out->fps_given = 1; break;
    case MBD_OPT_SPEED: out->speed = v; out->speed_given = 1; break;
    case MBD_OPT_BENCH: out->bench = lv; break;
    case MBD_OPT_MAX_STEPS: out->max_steps = lv; out->max_steps_given = 1; break;
    case MBD_OPT_MAX_OUTPUTS: out->max_outputs = lv; out->max_outputs_given = 1; break;
    default: break;
    }
    return GSL_SUCCESS;
}

static int set_extra(const mbd_cli_spec *spec, FILE *err, const mbd_cli_extra *x,
                     const char *value)
{
    double v;
    long lv;
    char what[128];
    switch (x->type) {
    case MBD_ARG_DOUBLE:
        describe_range(what, sizeof what, x);
        if (mbd_cli_parse_double(value, &v) != 0 || !in_range(x, v)) {
            fprintf(err, "%s: option --%s: expected %s, got '%s'\n", spec->program, x->name, what,
                    value);
            fprintf(err, "Try '%s --help' for more information.\n", spec->program);
            return MBD_EUSAGE;
        }
        *(double *)x->dest = v;
        break;
    case MBD_ARG_LONG:
        describe_range(what, sizeof what, x);
        if (parse_long(value, &lv) != 0 || !in_range(x, (double)lv)) {
            fprintf(err, "%s: option --%s: expected a whole number (%s), got '%s'\n",
                    spec->program, x->name, what, value);
            fprintf(err, "Try '%s --help' for more information.\n", spec->program);
            return MBD_EUSAGE;
        }
        *(long *)x->dest = lv;
        break;
    case MBD_ARG_STRING:
        if (*value == '\0')
            return usage_error(spec, err, "option --%s: expected a value, got an empty string%s",
                               x->name, "");
        *(const char **)x->dest = value;
        break;
    case MBD_ARG_CHOICE:
        if (check_choice(spec, err, x->name, x->choices, value) != GSL_SUCCESS)
            return MBD_EUSAGE;
        *(const char **)x->dest = value;
        break;
    case MBD_ARG_FLAG:
        *(int *)x->dest = 1;
        break;
    }
    if (x->given)
        *x->given = 1;
    return GSL_SUCCESS;
}

int mbd_cli_parse(const mbd_cli_spec *spec, int argc, char **argv, mbd_cli_common *out,
                  FILE *out_stream, FILE *err_stream)
{
    int want_help = 0, want_version = 0, want_list = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
            return usage_error(spec, err_stream, "unexpected argument '%s'%s (options start with --)",
                               arg, "");
        char name[64];
        const char *eq = strchr(arg + 2, '=');
        size_t len = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
        if (len >= sizeof name)
            return usage_error(spec, err_stream, "unknown option '%s'%s", arg, "");
        memcpy(name, arg + 2, len);
        name[len] = '\0';

        if (strcmp(name, "help") == 0 || strcmp(name, "version") == 0) {
            if (eq)
                return usage_error(spec, err_stream, "option --%s takes no value%s", name, "");
            if (name[0] == 'h')
                want_help = 1;
            else
                want_version = 1;
            continue;
        }

        /* a chapter's own option, then a common one */
        const mbd_cli_extra *x = NULL;
        for (size_t k = 0; k < spec->n_extra; k++)
            if (strcmp(spec->extra[k].name, name) == 0)
                x = &spec->extra[k];
        const common_option *o = NULL;
        if (x == NULL) {
            for (size_t k = 0; k < N_COMMON; k++)
                if (strcmp(COMMON[k].name, name) == 0)
                    o = &COMMON[k];
            if (o == NULL)
                return usage_error(spec, err_stream, "unknown option '--%s'%s", name, "");
            if (!(spec->common & o->bit))
                return usage_error(spec, err_stream,
                                   "option --%s is not used by %s (see --help for its options)",
                                   name, spec->program);
        }

        int is_flag = x ? x->type == MBD_ARG_FLAG : o->kind == C_FLAG;
        const char *value = NULL;
        if (is_flag) {
            if (eq)
                return usage_error(spec, err_stream, "option --%s takes no value%s", name, "");
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            const char *metavar = x ? x->metavar : o->metavar;
            return usage_error(spec, err_stream, "option --%s needs a value (%s)", name,
                               metavar ? metavar : "VALUE");
        }

        if (x != NULL || (o->bit != MBD_OPT_PLOT && o->bit != MBD_OPT_NO_TIMING
                          && o->bit != MBD_OPT_BENCH && o->bit != MBD_OPT_LIST
                          && !(o->bit & MBD_OPT_ANIMATION)))
            out->run_options = 1;
        int st;
        if (x) {
            st = set_extra(spec, err_stream, x, value ? value : "");
        } else if (o->bit == MBD_OPT_LIST) {
            want_list = 1;
            st = GSL_SUCCESS;
        } else if (o->bit == MBD_OPT_SUMMARY) {
            out->summary = 1;
            st = GSL_SUCCESS;
        } else if (o->bit == MBD_OPT_NO_TIMING) {
            out->no_timing = 1;
            st = GSL_SUCCESS;
        } else {
            st = set_common(spec, err_stream, o, value, out);
        }
        if (st != GSL_SUCCESS)
            return MBD_EUSAGE;
    }

    if (want_help) {
        print_help(spec, out_stream);
        return MBD_CLI_DONE;
    }
    if (want_version) {
        fprintf(out_stream, "%s (mbd) %s\n", spec->program, MBD_VERSION);
        return MBD_CLI_DONE;
    }
    if (want_list) {
        print_list(spec, out_stream);
        return MBD_CLI_DONE;
    }
    if (out->summary && out->csv && strcmp(out->csv, "-") == 0)
        return usage_error(spec, err_stream,
                           "--summary and --csv - both write to standard output; give --csv a file%s%s",
                           "", "");
    if ((out->fps_given || out->speed_given) && out->animate == NULL)
        return usage_error(spec, err_stream, "--%s applies to an animation: give --animate FILE%s",
                           out->fps_given ? "fps" : "speed", "");
    if (out->bench && out->animate)
        return usage_error(spec, err_stream, "--bench prints its own CSV rows; drop --animate%s%s",
                           "", "");
    if (out->bench && (out->summary || out->csv))
        return usage_error(spec, err_stream, "--bench prints its own CSV rows; drop --summary and --csv%s%s",
                           "", "");
    return GSL_SUCCESS;
}

int mbd_cli_dispatch(const mbd_cli_program *p, const mbd_cli_common *c)
{
    return mbd_cli_dispatch_animated(p, NULL, c);
}

int mbd_cli_dispatch_animated(const mbd_cli_program *p, mbd_cli_animate_fn animate,
                              const mbd_cli_common *c)
{
    mbd_failure fail;
    mbd_failure_clear(&fail);
    int st = GSL_SUCCESS;
    if (c->bench) {
        st = mbd_cli_bench_passes(p, c->bench, stdout, &fail);
    } else {
        if (c->plot && p->figures)
            st = p->figures(p->ctx, c->plot, &fail);
        if (st == GSL_SUCCESS && c->animate && animate && !c->run_options)
            st = animate(p->ctx, c->animate, &fail);
        if (st == GSL_SUCCESS) {
            if (c->run_options && p->run)
                st = p->run(p->ctx, &fail);
            else if (p->story)
                st = p->story(p->ctx, stdout, c->no_timing, &fail);
        }
    }
    if (st == GSL_SUCCESS)
        return MBD_EXIT_OK;
    if (fail.status == GSL_SUCCESS)
        mbd_failure_set(&fail, st, NAN, "%s", mbd_strerror(st));
    fflush(stdout);
    mbd_report_failure(stderr, p->program, &fail);
    return mbd_cli_exit_status(fail.status);
}

size_t mbd_cli_mechanism_choices(mbd_cli_choice *methods, mbd_cli_choice *integrators,
                                 size_t cap)
{
    mbd_cli_choices(mbd_ode_preset_names, mbd_ode_preset_descriptions, integrators, cap);
    return mbd_cli_choices(mbd_formulation_method_names, mbd_formulation_method_descriptions,
                           methods, cap);
}

size_t mbd_cli_choices(const char *const *names, const char *const *descriptions,
                       mbd_cli_choice *out, size_t cap)
{
    size_t k = 0;
    if (cap == 0)
        return 0;
    for (; names[k] != NULL && k + 1 < cap; k++) {
        out[k].name = names[k];
        out[k].description = descriptions[k];
    }
    out[k].name = NULL;
    out[k].description = NULL;
    return k;
}

/* a count for a message: "5e+04", or words where it overflows a double */
static const char *count_text(char *buf, size_t size, double v)
{
    if (isfinite(v))
        snprintf(buf, size, "%.3g", v);
    else
        snprintf(buf, size, "more than 1e308 (too many to count)");
    return buf;
}

void mbd_cli_animation(const mbd_cli_common *c, const char *program, mbd_animation *a)
{
    mbd_animation_init(a);
    a->fps = c->fps;
    a->speed = c->speed;
    a->notes = stderr;
    a->program = program;
}

int mbd_cli_check_animation(const mbd_cli_spec *spec, const mbd_cli_common *c, double t0,
                            double t_end, FILE *err)
{
    if (c->animate == NULL)
        return GSL_SUCCESS;
    const size_t k = mbd_animation_frames(t0, t_end, c->fps, c->speed);
    if (k > MBD_ANIMATION_MAX_FRAMES) {
        char buf[64];
        return mbd_cli_usage_error(spec, err, "--animate: %g s at --fps %g and --speed %g is %s "
                                   "frames, more than %d: lower --fps or raise --speed",
                                   t_end - t0, c->fps, c->speed,
                                   count_text(buf, sizeof buf, k == (size_t)-1 ? HUGE_VAL
                                                                               : (double)k),
                                   MBD_ANIMATION_MAX_FRAMES);
    }
    return GSL_SUCCESS;
}

int mbd_cli_check_run(const mbd_cli_spec *spec, const mbd_cli_common *c, double t0,
                      double t_end, double dt_out, const mbd_ode_params *ode, FILE *err)
{
    char buf[64];
    const double span = t_end - t0;
    if (!(span > 0) || !isfinite(span))
        return mbd_cli_usage_error(spec, err, "--t-end %g: the run must end a finite time after "
                                   "its start t = %g", t_end, t0);
    if (c->dt_out_given && dt_out > span)
        return mbd_cli_usage_error(spec, err, "--dt-out %g is longer than the run (t = %g ... %g): "
                                   "no output would fall between its start and its end",
                                   dt_out, t0, t_end);
    if (c->h_given && ode != NULL && ode->h > span)
        return mbd_cli_usage_error(spec, err, "--h %g is longer than the run (t = %g ... %g): "
                                   "the step would be cut to %g", ode->h, t0, t_end, span);
    const double hmin = 16.0 * DBL_EPSILON * fmax(fmax(fabs(t0), fabs(t_end)), span);
    if (c->h_given && ode != NULL && ode->h < hmin)
        return mbd_cli_usage_error(spec, err, "--h %g is below the smallest step that can advance "
                                   "this run (%.3g: 16 units of round-off of t = %g ... %g)",
                                   ode->h, hmin, t0, t_end);
    if (dt_out > 0) {
        long count = 0;
        const double r = span / dt_out;
        int st = mbd_run_output_count(t0, t_end, dt_out, &count, NULL);
        if (st != GSL_SUCCESS || count > c->max_outputs)
            return mbd_cli_usage_error(spec, err,
                                       "outputs every %g s (--dt-out) from t = %g to %g (--t-end) "
                                       "would be %s rows, more than --max-outputs %ld; choose a "
                                       "larger --dt-out or a shorter --t-end (or raise "
                                       "--max-outputs)",
                                       dt_out, t0, t_end,
                                       count_text(buf, sizeof buf,
                                                  st == GSL_SUCCESS ? (double)count : r + 1),
                                       c->max_outputs);
    }
    if (ode != NULL && !ode->adaptive && ode->h > 0) {
        const double steps = mbd_run_fixed_steps(t0, t_end, ode->h);
        if (!(steps <= (double)c->max_steps))
            return mbd_cli_usage_error(spec, err,
                                       "the fixed step %g (--h) of integrator %s takes %s steps "
                                       "from t = %g to %g (--t-end), more than --max-steps %ld; "
                                       "choose a larger --h or a shorter --t-end (or raise "
                                       "--max-steps)",
                                       ode->h, ode->name ? ode->name : "the integrator",
                                       count_text(buf, sizeof buf, steps), t0, t_end,
                                       c->max_steps);
    }
    return GSL_SUCCESS;
}

void mbd_cli_mechanism_options(mbd_cli_mechanism *m, double mu_max, const char *mu_help,
                               mbd_cli_extra out[4])
{
    snprintf(m->help[0], sizeof m->help[0], "penalty factor of the penalty methods (default %g)",
             m->mu);
    snprintf(m->help[1], sizeof m->help[1],
             "Baumgarte's velocity weight in C'' + 2 alpha C' + beta^2 C = 0 (default %g)", m->alpha);
    snprintf(m->help[2], sizeof m->help[2], "Baumgarte's position weight, used squared (default %g)",
             m->beta);
    out[0] = (mbd_cli_extra){"mu", MBD_ARG_DOUBLE, &m->mu, "MU", mu_help ? mu_help : m->help[0],
                             NULL, 0.0, mu_max, 1, 0, &m->mu_given};
    out[1] = (mbd_cli_extra){"alpha", MBD_ARG_DOUBLE, &m->alpha, "A", m->help[1], NULL, 0.0, 1e6,
                             0, 0, &m->alpha_given};
    out[2] = (mbd_cli_extra){"beta", MBD_ARG_DOUBLE, &m->beta, "B", m->help[2], NULL, 0.0, 1e6, 0,
                             0, &m->beta_given};
    out[3] = (mbd_cli_extra){"project", MBD_ARG_FLAG, &m->project, NULL,
                             "project positions and velocities back onto the constraints after "
                             "every step (correction.h; not for index2-penalty)",
                             NULL, 0, 0, 0, 0, &m->project_given};
}

int mbd_cli_check_method_options(const mbd_cli_spec *spec, const char *method, int mu_given,
                                 int alpha_given, int beta_given, int project, FILE *err)
{
    mbd_formulation_params fp = {0};
    const int known = mbd_formulation_method(method, &fp) == GSL_SUCCESS;
    if (project && (!known || !mbd_formulation_correctable(&fp)))
        return mbd_cli_usage_error(spec, err, "--project: %s",
                                   !known ? "this method has no constraint state to project"
                                   : mbd_formulation_is_stiff(&fp)
                                       ? "index2-penalty carries (q, v) with v not dq/dt; a "
                                         "projection of (q, q') does not apply to it"
                                       : fp.kind == MBD_FORMULATION_EMBEDDING
                                           ? "the embedding keeps the constraints by "
                                             "construction (its dependent coordinates solve "
                                             "C = 0): there is nothing to project"
                                           : "the null-space formulation corrects its own "
                                             "state onto C = 0 and C' = 0 after every step: "
                                             "there is nothing more to project");
    if (mu_given && (!known || !mbd_formulation_uses_mu(&fp)))
        return mbd_cli_usage_error(spec, err, "--mu applies to the penalty methods, not to %s",
                                   method);
    if ((alpha_given || beta_given) && (!known || !fp.baumgarte))
        return mbd_cli_usage_error(spec, err,
                                   "--%s applies to the Baumgarte methods (projection-baumgarte, "
                                   "penalty-baumgarte,\npenalty-baumgarte-printed), not to %s",
                                   alpha_given ? "alpha" : "beta", method);
    return GSL_SUCCESS;
}

/* >> study-spec */
int mbd_cli_study_spec(const mbd_cli_spec *cli, const mbd_cli_common *opt,
                       const mbd_cli_mechanism *mech, const char *method, const char *integrator,
                       mbd_study_spec *spec, FILE *err)
{
    int st = mbd_cli_check_method_options(cli, method, mech->mu_given, mech->alpha_given,
                                          mech->beta_given, mech->project, err);
    if (st != GSL_SUCCESS)
        return st;
    spec->method = method;
    /* eq. (58)'s rates ~ mu |C_q|^2 are stiff: msbdf, with the step options */
    mbd_formulation_params fp = {0};
    const int stiff = mbd_formulation_method(method, &fp) == GSL_SUCCESS
                      && mbd_formulation_is_stiff(&fp);
    const char *asked = opt->integrator_given ? opt->integrator : integrator;
    if (stiff && strcmp(asked, "msbdf") != 0) {
        if (mbd_ode_preset(asked, &spec->ode) != GSL_SUCCESS)
            return mbd_cli_usage_error(cli, err, "--integrator: unknown integrator '%s' (see "
                                       "--list)", asked);
        mbd_cli_common o = *opt;
        o.integrator_given = 0;
        st = mbd_cli_integrator(cli, &o, "msbdf", &spec->ode, err);
        spec->integrator_asked = asked;
        if (st == GSL_SUCCESS && opt->integrator_given)
            fprintf(err, "%s: note: %s is stiff (rates ~ mu |C_q|^2): integrated with msbdf, not "
                         "%s\n", cli->program, method, asked);
    } else {
        st = mbd_cli_integrator(cli, opt, integrator, &spec->ode, err);
        spec->integrator_asked = NULL;
    }
    if (st != GSL_SUCCESS)
        return st;
    if (mech->mu_given)
        spec->mu = mech->mu;
    spec->alpha = mech->alpha;
    spec->beta = mech->beta;
    spec->project = mech->project;
    if (opt->t_end_given)
        spec->t_end = opt->t_end;
    if (opt->dt_out_given)
        spec->dt_out = opt->dt_out;
    spec->max_violation = opt->max_violation;
    spec->max_steps = opt->max_steps;
    spec->max_outputs = opt->max_outputs;
    st = mbd_cli_check_run(cli, opt, spec->t0, spec->t_end, spec->dt_out, &spec->ode, err);
    if (st != GSL_SUCCESS)
        return st;
    return mbd_cli_check_animation(cli, opt, spec->t0, spec->t_end, err);
}
/* << study-spec */

int mbd_cli_integrator(const mbd_cli_spec *spec, const mbd_cli_common *c, const char *fallback,
                       mbd_ode_params *p, FILE *err)
{
    const char *name = c->integrator_given ? c->integrator : fallback;
    if (mbd_ode_preset(name, p) != GSL_SUCCESS)
        return mbd_cli_usage_error(spec, err, "--integrator: unknown integrator '%s' (see --list)",
                                   name);
    if ((c->rtol_given || c->atol_given) && !p->adaptive)
        return mbd_cli_usage_error(spec, err,
                                   "--%s: the integrator '%s' takes fixed steps and has no "
                                   "tolerance (use --h, or an adaptive integrator)",
                                   c->rtol_given ? "rtol" : "atol", name);
    if (c->h_given)
        p->h = c->h;
    if (c->rtol_given)
        p->rtol = c->rtol;
    if (c->atol_given)
        p->atol = c->atol;
    return GSL_SUCCESS;
}
