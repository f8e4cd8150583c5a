/* mbd/cli.h -- the command line every chapter program shares.
 *
 * One parser knows all the common options of the plan. A program declares
 * which of them it uses (a bit mask) and its own options (a table); an option
 * it does not use is refused by name. Numbers must be finite and inside the
 * declared range; a bad value names the option and what was expected.
 *
 *   --help --version --list --scenario NAME --method NAME --integrator NAME
 *   --t-end T --h H --dt-out DT --rtol R --atol A --max-violation V
 *   --max-steps N --max-outputs N
 *   --csv FILE --summary --plot PREFIX --no-timing --bench N
 *   --animate FILE --fps F --speed S
 *
 * Options take their value as the next argument or after '=' (--h=1e-3).
 * Like io, this module writes (help, version, usage errors) to the stream it is
 * given; the rest of the library never prints.
 */
#ifndef MBD_CLI_H
#define MBD_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "mbd/animation.h"
#include "mbd/ode.h"
#include "mbd/run.h"
#include "mbd/study.h"
#include "mbd/system.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MBD_VERSION "0.1.0"

/* The common options, as bits of mbd_cli_spec.common. --help and --version
 * are always accepted. */
enum {
    MBD_OPT_LIST          = 1u << 0,
    MBD_OPT_SCENARIO      = 1u << 1,
    MBD_OPT_METHOD        = 1u << 2,
    MBD_OPT_INTEGRATOR    = 1u << 3,
    MBD_OPT_T_END         = 1u << 4,
    MBD_OPT_H             = 1u << 5,
    MBD_OPT_DT_OUT        = 1u << 6,
    MBD_OPT_RTOL          = 1u << 7,
    MBD_OPT_ATOL          = 1u << 8,
    MBD_OPT_MAX_VIOLATION = 1u << 9,
    MBD_OPT_CSV           = 1u << 10,
    MBD_OPT_SUMMARY       = 1u << 11,
    MBD_OPT_PLOT          = 1u << 12,
    MBD_OPT_NO_TIMING     = 1u << 13,
    MBD_OPT_BENCH         = 1u << 14,
    MBD_OPT_MAX_STEPS     = 1u << 15,
    MBD_OPT_MAX_OUTPUTS   = 1u << 16,
    MBD_OPT_ANIMATE       = 1u << 17,
    MBD_OPT_FPS           = 1u << 18,
    MBD_OPT_SPEED         = 1u << 19,
    /* what a chapter with an animation adds (animation.h): --animate FILE, its
     * frame rate --fps (default 25, at most 50) and its --speed (simulated
     * seconds per real second, default 1; below 1 slow motion). Like --plot,
     * --animate alone draws the chapter's own animation (the story's runs,
     * mbd_cli_dispatch_animated) and then tells the story; with run options it
     * draws that run. --fps and --speed need --animate. */
    MBD_OPT_ANIMATION     = MBD_OPT_ANIMATE | MBD_OPT_FPS | MBD_OPT_SPEED,
    /* what every chapter program has */
    MBD_OPT_OUTPUT        = MBD_OPT_CSV | MBD_OPT_SUMMARY | MBD_OPT_PLOT | MBD_OPT_NO_TIMING
                            | MBD_OPT_BENCH | MBD_OPT_LIST,
    /* what every time-history chapter adds */
    MBD_OPT_TIME          = MBD_OPT_METHOD | MBD_OPT_INTEGRATOR | MBD_OPT_T_END | MBD_OPT_H
                            | MBD_OPT_DT_OUT | MBD_OPT_RTOL | MBD_OPT_ATOL
                            | MBD_OPT_MAX_VIOLATION | MBD_OPT_MAX_STEPS | MBD_OPT_MAX_OUTPUTS
};

/* Return codes of mbd_cli_parse() besides GSL_SUCCESS and MBD_EUSAGE. */
#define MBD_CLI_DONE 1   /* --help, --version or --list was answered: exit 0 */

/* Process exit statuses of the plan. */
enum { MBD_EXIT_OK = 0, MBD_EXIT_NUMERICAL = 1, MBD_EXIT_USAGE = 2 };

/* The exit status for a failure: bad usage or input (MBD_EUSAGE, MBD_EINPUT,
 * a file that cannot be written, gnuplot missing) is 2, everything numerical
 * (a singular matrix, no convergence, a non-finite state, a violation) is 1,
 * and GSL_SUCCESS is 0. */
int mbd_cli_exit_status(int status);

/* A named choice (a method, a scenario, an integrator preset) and its one-line
 * description for --list and --help. Arrays end with {NULL, NULL}. */
typedef struct {
    const char *name;
    const char *description;
} mbd_cli_choice;

typedef enum {
    MBD_ARG_DOUBLE,    /* dest: double*       */
    MBD_ARG_LONG,      /* dest: long*         */
    MBD_ARG_STRING,    /* dest: const char**  */
    MBD_ARG_CHOICE,    /* dest: const char**, value one of `choices` */
    MBD_ARG_FLAG       /* dest: int*, set to 1 */
} mbd_arg_type;

/* A chapter's own option. min/max bound numeric values (inclusive unless
 * the matching *_open flag is set). `given`, when not NULL, is set to 1 when
 * the option appears. */
typedef struct {
    const char *name;              /* without the leading dashes: "mu" */
    mbd_arg_type type;
    void *dest;
    const char *metavar;           /* "MU" in the help text */
    const char *help;
    const mbd_cli_choice *choices; /* MBD_ARG_CHOICE */
    double min, max;
    int min_open, max_open;
    int *given;
} mbd_cli_extra;

/* The values of the common options. A *_given flag is 1 when the option was
 * on the command line (so presets can tell a default from a choice). */
typedef struct {
    const char *scenario, *method, *integrator;
    double t_end, h, dt_out, rtol, atol, max_violation;
    int t_end_given, h_given, dt_out_given, rtol_given, atol_given;
    int max_violation_given, method_given, scenario_given, integrator_given;
    const char *csv;               /* NULL: no CSV; "-": stdout */
    const char *plot;              /* NULL: no figures */
    int summary, no_timing;
    long bench;                    /* 0: off; else repetitions */
    long max_steps, max_outputs;   /* the run's limits (default MBD_RUN_MAX_STEPS, _OUTPUTS) */
    int max_steps_given, max_outputs_given;
    const char *animate;           /* NULL: no animation */
    double fps, speed;             /* the animation's (MBD_ANIMATION_FPS_DEFAULT, 1) */
    int fps_given, speed_given;
    int run_options;               /* 1 when an option that shapes one run was given: anything
                                      but --plot, --animate, --fps, --speed, --no-timing,
                                      --bench (and --help, --version, --list); such a program
                                      makes that run, not its story */
} mbd_cli_common;

typedef struct {
    const char *program;           /* "ch01-static-penalty" */
    const char *purpose;           /* one line for --help */
    const char *source;            /* the document and section it reproduces */
    unsigned common;               /* MBD_OPT_* bits this program uses */
    const mbd_cli_extra *extra;    /* its own options */
    size_t n_extra;
    const mbd_cli_choice *methods;     /* NULL-terminated, or NULL */
    const mbd_cli_choice *scenarios;   /* NULL-terminated, or NULL */
    const mbd_cli_choice *integrators; /* NULL-terminated, or NULL */
    const char *csv_columns;       /* what --csv writes, for --help */
    const char *notes;             /* more help text, or NULL */
} mbd_cli_spec;

/* Fills `out` with defaults (t_end, h, ... as given by the caller beforehand
 * are kept: initialize `out` with the program's defaults first) and parses
 * argv. Prints help/version/list to `out_stream` and usage errors to
 * `err_stream`. Returns GSL_SUCCESS, MBD_CLI_DONE or MBD_EUSAGE. */
int mbd_cli_parse(const mbd_cli_spec *spec, int argc, char **argv, mbd_cli_common *out,
                  FILE *out_stream, FILE *err_stream);

/* The exit status after mbd_cli_parse returned st other than GSL_SUCCESS: 0
 * when it answered --help, --version or --list (MBD_CLI_DONE), 2 for bad
 * usage. Every main: if (st != GSL_SUCCESS) return mbd_cli_parse_exit(st); */
int mbd_cli_parse_exit(int st);

/* Every main's first step: GSL's error handler off (every failure is a
 * status), the defaults (mbd_cli_defaults), then mbd_cli_parse with stdout
 * and stderr. 1 to go on; 0 when the process should end (after --help,
 * --version or --list, or a usage error), with *exit_code its status:
 *     mbd_cli_common opt;
 *     int code;
 *     if (!mbd_cli_start(&spec, argc, argv, &opt, &code))
 *         return code;                                                    */
int mbd_cli_start(const mbd_cli_spec *spec, int argc, char **argv, mbd_cli_common *opt,
                  int *exit_code);

/* Says a usage error the way the parser does: "program: MESSAGE" and a line
 * pointing to --help, on `err`. Returns MBD_EUSAGE. For the checks a chapter
 * makes itself (options that do not go together). */
int mbd_cli_usage_error(const mbd_cli_spec *spec, FILE *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ------------------------------------------------------------------------ */
/* The chapter program: every main dispatches the same way                   */

/* A chapter program's parts, each with its own context; each returns a status
 * and says a failure in `fail` (time and cause). Any may be NULL. */
typedef struct {
    const char *program;
    void *ctx;
    int (*bench)(void *ctx, long repeats, mbd_failure *fail);        /* --bench N */
    int (*figures)(void *ctx, const char *prefix, mbd_failure *fail);   /* --plot PREFIX */
    int (*run)(void *ctx, mbd_failure *fail);       /* one run: the options asked for it */
    int (*story)(void *ctx, FILE *out, int no_timing, mbd_failure *fail);
} mbd_cli_program;

/* Does what the options ask, in the one order of every chapter: --bench
 * alone (its CSV rows, below); else the figures first (a bad --plot path must
 * not leave a story half printed), then one run when run options were given
 * (c->run_options), or the story. A failure is reported on stderr after
 * stdout is flushed ("program: at t = ...: cause"). Returns the exit status
 * (mbd_cli_exit_status). */
int mbd_cli_dispatch(const mbd_cli_program *p, const mbd_cli_common *c);

/* A chapter's own animation (--animate FILE without run options): the
 * story's runs that teach something, drawn into `path` (animation.h). */
typedef int (*mbd_cli_animate_fn)(void *ctx, const char *path, mbd_failure *fail);

/* mbd_cli_dispatch for a program with an animation: without run options,
 * --animate FILE draws animate(p->ctx, FILE) after the figures and before
 * the story (a bad FILE must not leave a story half printed); with run
 * options the run part draws its own run (c->animate). mbd_cli_dispatch is
 * this with animate NULL. */
int mbd_cli_dispatch_animated(const mbd_cli_program *p, mbd_cli_animate_fn animate,
                              const mbd_cli_common *c);

/* The animation of one run as the options ask for it: fps and speed from
 * --fps and --speed, notes on stderr under the program's name, the rest
 * mbd_animation_init's. */
void mbd_cli_animation(const mbd_cli_common *c, const char *program, mbd_animation *a);

/* --fps and --speed against the span a run's animation will cover: at most
 * MBD_ANIMATION_MAX_FRAMES frames, or a usage error on `err` naming the
 * options (MBD_EUSAGE); GSL_SUCCESS without --animate. mbd_cli_study_spec
 * calls it for t0 ... t_end. */
int mbd_cli_check_animation(const mbd_cli_spec *spec, const mbd_cli_common *c, double t0,
                            double t_end, FILE *err);

/* Fills out[0 .. cap-2] with the NULL-terminated parallel lists `names` and
 * `descriptions` (e.g. mbd_ode_preset_names, mbd_formulation_method_names)
 * and ends it with {NULL, NULL}; returns the number of choices copied. */
size_t mbd_cli_choices(const char *const *names, const char *const *descriptions,
                       mbd_cli_choice *out, size_t cap);

/* The fields every mechanism chapter's spec shares, inside its initializer:
 * the output and time options, its extra options (an array), and the
 * --method and --integrator choices (mbd_cli_mechanism_choices). */
#define MBD_CLI_MECHANISM_SPEC(extra_, methods_, integrators_)                              \
    .common = MBD_OPT_OUTPUT | MBD_OPT_TIME, .extra = (extra_),                             \
    .n_extra = sizeof(extra_) / sizeof((extra_)[0]), .methods = (methods_),                 \
    .integrators = (integrators_)

/* The same for a mechanism chapter with an animation (--animate, --fps,
 * --speed; animation.h). */
#define MBD_CLI_ANIMATED_MECHANISM_SPEC(extra_, methods_, integrators_)                     \
    .common = MBD_OPT_OUTPUT | MBD_OPT_TIME | MBD_OPT_ANIMATION, .extra = (extra_),         \
    .n_extra = sizeof(extra_) / sizeof((extra_)[0]), .methods = (methods_),                 \
    .integrators = (integrators_)

/* The mechanism chapters' --method and --integrator choices: the library's
 * formulation methods and integrator presets (methods[] and integrators[]
 * of `cap` entries each); returns the number of methods, so a chapter can
 * append one of its own (chapter 03's direct angle equation). */
size_t mbd_cli_mechanism_choices(mbd_cli_choice *methods, mbd_cli_choice *integrators,
                                 size_t cap);

/* The integrator of a time-history chapter: the ode.h preset named by
 * --integrator (or `fallback` when it was not given), then --h, --rtol and
 * --atol where given. --rtol or --atol for a fixed-step preset is a usage
 * error, said on `err` with the program's name: MBD_EUSAGE. */
int mbd_cli_integrator(const mbd_cli_spec *spec, const mbd_cli_common *c, const char *fallback,
                       mbd_ode_params *p, FILE *err);

/* The run a program is about to make from t0 to t_end with outputs every
 * dt_out (<= 0: after every step) and the integrator `ode` (NULL when it has
 * none), checked before it starts, so that every option value is honoured
 * exactly or refused:
 *   - the output grid must be countable and within --max-outputs;
 *   - a fixed step must reach t_end within --max-steps;
 *   - --dt-out and --h, when given, must not be longer than the run (the
 *     run would not honour them: no output between start and end, a step
 *     cut to the span).
 * A refusal is a usage error on `err` naming the options and the limit
 * (MBD_EUSAGE); GSL_SUCCESS otherwise. */
int mbd_cli_check_run(const mbd_cli_spec *spec, const mbd_cli_common *c, double t0,
                      double t_end, double dt_out, const mbd_ode_params *ode, FILE *err);

/* The options every mechanism chapter shares, --mu, --alpha, --beta and
 * --project, bound to m: out[0 .. 3] for the program's extra options table.
 * The defaults are m's values when called (the help text shows them);
 * mu_max bounds --mu; `mu_help`, when not NULL, replaces --mu's help (a
 * default that depends on another option). */
typedef struct {
    double mu, alpha, beta;
    int project;
    int mu_given, alpha_given, beta_given, project_given;
    char help[3][96];
} mbd_cli_mechanism;
void mbd_cli_mechanism_options(mbd_cli_mechanism *m, double mu_max, const char *mu_help,
                               mbd_cli_extra out[4]);

/* The mechanism chapters' own options against the --method they go with,
 * the same in every chapter: --mu only for the penalty methods, --alpha and
 * --beta only for the Baumgarte ones, --project not for the index-2 penalty
 * (its state is (q, v), not (q, q')). A method that is not a formulation
 * (formulation.h) takes none of them. MBD_EUSAGE, said on `err`, for a
 * combination that would be ignored; GSL_SUCCESS otherwise. */
int mbd_cli_check_method_options(const mbd_cli_spec *spec, const char *method, int mu_given,
                                 int alpha_given, int beta_given, int project, FILE *err);

/* One method run's spec from the command line, as every mechanism chapter
 * reads it: spec->method = method, checked against --mu, --alpha, --beta and
 * --project (mbd_cli_check_method_options); the integrator --integrator, or
 * `integrator` when it is not given, with --h, --rtol and --atol; a method
 * that is stiff by construction (the index-2 penalty) runs with msbdf, the
 * step options applying to it, spec->integrator_asked naming the integrator
 * it replaced, and a note on `err` when that one was asked for by name;
 * --mu, --t-end and --dt-out when given; --alpha, --beta, --project,
 * --max-violation, --max-steps and --max-outputs; then the run is checked
 * (mbd_cli_check_run, from spec->t0), and with --animate its frames
 * (mbd_cli_check_animation). Fields that no option names keep their
 * values. A refusal is written on `err` (MBD_EUSAGE); GSL_SUCCESS otherwise. */
int mbd_cli_study_spec(const mbd_cli_spec *cli, const mbd_cli_common *opt,
                       const mbd_cli_mechanism *mech, const char *method, const char *integrator,
                       mbd_study_spec *spec, FILE *err);

/* Parses a finite double from the whole of `text`; 0 on success. */
int mbd_cli_parse_double(const char *text, double *value);

/* The default common values: t_end etc. NAN (the program sets its own),
 * max_violation 1, everything else off. */
void mbd_cli_defaults(mbd_cli_common *c);

/* Monotonic wall-clock seconds, for timings inside a program. */
double mbd_cli_seconds(void);

/* Writes seconds as "%.4g s" into buf, or "-" when no_timing is set. */
const char *mbd_cli_format_seconds(char *buf, size_t size, double seconds, int no_timing);

/* ------------------------------------------------------------------------ */
/* Benchmarks (--bench N)                                                    */

/* What `make bench` measures is defined once, here, the same way in every
 * chapter. A benchmark case is a function that does its work once; it is
 * timed inside the program in `repeats` repetitions, each calling it as many
 * times as fill MBD_CLI_BENCH_MIN_SECONDS (found once, after a warm-up
 * call), and the minimum, median and maximum over the repetitions of the
 * time per call are reported. A case whose warm-up call alone takes
 * MBD_CLI_BENCH_LONG_SECONDS or more (a story) counts that call as its first
 * repetition and is repeated at most MBD_CLI_BENCH_LONG_REPEATS times (its
 * row's `repeats` says how many: the min and the max of two): cases of half
 * a second or more vary little, and make bench stays within its minute.
 * Times are the process's CPU seconds
 * (CLOCK_PROCESS_CPUTIME_ID), which other programs on the machine disturb
 * less than wall-clock time.
 *
 * `--bench N` runs the program's bench part N times (mbd_cli_bench_passes):
 * each pass times one repetition of every case, and the rows are written
 * after the last. A moment when the machine is slow then spoils one
 * repetition of the cases it falls on, which the median leaves out, rather
 * than every repetition of one case. Called outside the passes (a test),
 * mbd_cli_bench and mbd_cli_bench_pipeline time all their repetitions at
 * once and write their rows at once.
 *
 * Every case is of one kind:
 *
 *   whole-run    everything one invocation of the program does for the case
 *                but start and print: for a mechanism chapter what
 *                `--integrator ode23 --dt-out 1e-4 --summary` does (the run,
 *                the reference, the errors, the summary, written to
 *                /dev/null); for the others a solve, a sweep, or the story
 *   integration  the time integration alone (mbd_study_run, mbd_simulate, or
 *                a chapter's own integrator), its history included, no
 *                reference and no errors
 *   rhs          one evaluation of the formulation's right-hand side
 *                (mbd_formulation_rhs) at typical states: the two middle
 *                outputs of the case's run, in turn; beside it, a bare GSL LU
 *                solve (gsl_linalg_LU_decomp + gsl_linalg_LU_solve of a
 *                copy) of the KKT matrix [M C_q^T; C_q 0] of the same size
 *                n + m at the first of them, timed in alternate repetitions,
 *                and the overhead factor rhs / LU (of the medians)
 *   output       one output of the pipeline: (the integration with its output
 *                grid) minus (the same integration with outputs at t0 and
 *                t_end only), per extra output, the two timed in alternate
 *                repetitions and subtracted repetition by repetition;
 *                whatever an output costs the run (interpolation, recording,
 *                the constraint measures, a step cut short) is in it; a run
 *                with fewer than 10 000 outputs is timed on a grid of 10 000
 *                (the difference of two timings needs many outputs to stand
 *                above their noise); beside it, in alternate repetitions,
 *                the model callbacks one output's measures need (C_q, C,
 *                C_t if the model has it, the energy: what
 *                mbd_formulation_measure_q calls) at the run's two middle
 *                outputs in turn, and the difference: the pipeline's own
 *                work per output (interpolation, unpacking, the norms, the
 *                statistics, the history)
 *
 * A static chapter (no time integration) calls its solve the integration:
 * the method alone, without the checks and the summary around it.
 *
 * The rows of build/bench/results.csv, one per case and kind:
 *
 *   commit,date,program,case,method,kind,repeats,calls,min_s,median_s,max_s,
 *   steps,fevals,outputs,per_step_s,per_rhs_s,per_output_s,kkt_size,kkt_lu_s,
 *   overhead,output_model_s,output_own_s
 *
 *   commit, date   $MBD_BENCH_COMMIT (default "unknown") and $MBD_BENCH_DATE
 *                  (default: now, ISO 8601 UTC); `make bench` sets both
 *   repeats, calls the repetitions, and the calls in each
 *   min_s, median_s, max_s
 *                  seconds per unit of the kind: a run (whole-run,
 *                  integration), an evaluation (rhs), an output (output)
 *   steps, fevals, outputs
 *                  the case's counts of one call (outputs: for an output row
 *                  the extra outputs of the difference); empty where none
 *   per_step_s     median / steps (whole-run, integration)
 *   per_rhs_s      median (rhs)
 *   per_output_s   median (output)
 *   kkt_size, kkt_lu_s, overhead
 *                  n + m, the median bare LU solve, per_rhs_s / kkt_lu_s (rhs)
 *   output_model_s, output_own_s
 *                  the median model callbacks of one output, and
 *                  per_output_s minus it (output)
 *
 * A field that does not apply is empty; every row has every column. A failing
 * case returns its status and writes nothing. */

#define MBD_CLI_BENCH_MIN_SECONDS 0.02
#define MBD_CLI_BENCH_LONG_SECONDS 0.5
#define MBD_CLI_BENCH_LONG_REPEATS 2

typedef enum {
    MBD_CLI_BENCH_WHOLE_RUN,
    MBD_CLI_BENCH_INTEGRATION,
    MBD_CLI_BENCH_RHS,
    MBD_CLI_BENCH_OUTPUT
} mbd_cli_bench_kind;

/* "whole-run", "integration", "rhs", "output" */
const char *mbd_cli_bench_kind_name(mbd_cli_bench_kind kind);

/* What one call of a case did; the caller zeroes it before each call, so a
 * case sets only the counts that apply (0 leaves the field empty). */
typedef struct {
    long steps, fevals, outputs;
} mbd_cli_bench_counts;

typedef int (*mbd_cli_bench_fn)(void *ctx, mbd_cli_bench_counts *counts);

/* The CSV header line above. */
void mbd_cli_bench_header(FILE *out);

/* --bench N for mbd_cli_dispatch: p->bench in `repeats` passes (its cases
 * must be the same, in the same order, in every pass), then the header and
 * the rows on `out`, so that each program's output is a CSV file of its own.
 * A case that fails stops it: nothing is written and `fail` says why. */
int mbd_cli_bench_passes(const mbd_cli_program *p, long repeats, FILE *out, mbd_failure *fail);

/* A stream that discards what is written to it (/dev/null), opened once for
 * the process: where the benchmarks send the stories and summaries they
 * time. NULL when it cannot be opened. */
FILE *mbd_cli_bench_sink(void);

/* Times fn (as above) and writes its row with the given kind (whole-run or
 * integration: a case that is not of the pipeline's other kinds). */
int mbd_cli_bench(FILE *out, const char *program, const char *case_name, const char *method,
                  mbd_cli_bench_kind kind, long repeats, mbd_cli_bench_fn fn, void *ctx);

/* The pipeline's kinds of a mechanism chapter's method run, the same for
 * every chapter: spec run on sys from (q0, q'0), timed as `kinds` asks (bits
 * 1u << MBD_CLI_BENCH_INTEGRATION, _OUTPUT, _RHS; in that order), one row
 * each, with `method` in the method column (NULL: spec->method). The chapter
 * times its whole run itself (mbd_cli_bench, MBD_CLI_BENCH_WHOLE_RUN). A run
 * that fails (a violation, a singular matrix) fails the case with its
 * status. */
#define MBD_CLI_BENCH_PIPELINE ((1u << MBD_CLI_BENCH_INTEGRATION) | (1u << MBD_CLI_BENCH_OUTPUT) \
                                | (1u << MBD_CLI_BENCH_RHS))
int mbd_cli_bench_pipeline(FILE *out, const char *program, const char *case_name,
                           const char *method, long repeats, const mbd_system *sys,
                           const mbd_study_spec *spec, const double q0[], const double qd0[],
                           unsigned kinds);

#ifdef __cplusplus
}
#endif

#endif
