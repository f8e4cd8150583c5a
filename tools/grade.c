/* tools/grade.c -- mbd-grade: grades exercise files against their CUnit tests.
 *
 * For every exercise file of the selected chapters (exercises/NN-slug/<stem>.c,
 * or the same under --src) it builds one test binary:
 *
 *     tests/exercises/NN-slug/test_<stem>.c      project flags, with -Werror
 *   + <src>/NN-slug/<stem>.c                     the student's file: warnings shown,
 *                                                not fatal (--strict makes them fatal)
 *   + the exercise files of the chapters it `uses` (from --solutions when there,
 *     else from <src>)
 *   + tests/support, libmbd, CUnit, GSL, libyaml (--libs)
 *
 * Each file is compiled on its own, so a compile error costs only the exercises
 * of that file. Then every test of suite "exNN.K" runs in its own process
 * (`test_<stem> --run exNN.K TEST`) in its own process group, with a time limit,
 * its output captured (at most OUTPUT_CAP bytes), so a crash, an endless loop or
 * a failed assertion costs that test only. An exercise's points are split evenly
 * over its tests.
 *
 * --user USER (the autograder, run as root): whatever the submission's code can
 * steer runs as USER - compiling the graded files (an #include or .incbin reads
 * files), linking, and the tests - while the tests' sources are compiled by
 * root. USER's processes get no descriptor of the grader's, a filtered
 * environment, at most SANDBOX_NPROC processes and files of SANDBOX_FSIZE
 * bytes; USER writes only to <out>/sandbox, and every process of USER is killed
 * after each step (and before the first). Logs, results.json and junit.xml are
 * root's, made with umask 077. The grader refuses to start when USER can read
 * the configuration, the manifest or a test source, or cannot read a graded
 * file. --solutions is refused with --user: solutions linked into a test
 * program are readable by the code under test.
 *
 * Output: per exercise OK or FAIL with the failing tests and why, then
 * "Score: X/Y"; <out>/results.json (Gradescope's format) and <out>/junit.xml.
 * Exit status: 0 when grading ran, whatever the score (with --require-full:
 * 1 unless full marks); 2 when the grader cannot do its job (bad usage, bad
 * manifest, a test suite the manifest names is missing, fork failed).
 */
#define _DEFAULT_SOURCE   /* setgroups() */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "manifest.h"
#include "tool.h"

#define OUTPUT_CAP (256 * 1024)   /* bytes of a test's output kept */
#define COMPILE_LIMIT 300.0       /* seconds for compiling and linking one file */
#define LIST_LIMIT 10.0           /* seconds for `test_x --list` */
#define MAX_MESSAGE_LINES 6       /* failed assertions shown per test */
#define MAX_OUTPUT_LINES 6        /* other output lines shown per test */
#define MAX_COMPILER_LINES 12     /* compiler lines shown per file */

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

typedef struct {
    char *cc, *cflags, *werror, *ldflags, *libs;   /* from --config or the options */
    const char *manifest, *src, *solutions, *tests, *out;
    const char *chapter, *exercise, *file;
    double timeout;     /* > 0: overrides the manifest */
    int jobs;
    int strict, require_full, list_files;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mbd-grade [options]\n"
            "  --config FILE      compiler settings, 'key = value' lines (cc, cflags, werror,\n"
            "                     ldflags, libs); `make` writes $(BUILD)/tools/grade.conf\n"
            "  --cc CC --cflags FLAGS --werror FLAGS --ldflags FLAGS --libs LIBS\n"
            "                     the same settings one by one (they override --config)\n"
            "  --manifest FILE    the exercises and their points (exercises/manifest.yaml)\n"
            "  --src DIR          the files to grade, DIR/NN-slug/*.c (exercises)\n"
            "  --solutions DIR    reference solutions for the chapters an exercise uses\n"
            "                     (solutions, when it exists and there is no --user; else --src)\n"
            "  --tests DIR        the CUnit tests, DIR/NN-slug/test_<stem>.c (tests/exercises)\n"
            "  --out DIR          objects, logs, results.json, junit.xml (build/grade)\n"
            "  --chapter NN       grade chapter NN only\n"
            "  --exercise K       grade exercise NN.K only (K with --chapter, or NN.K)\n"
            "  --file NAME        grade only the exercises of file NAME (e.g. penalty.c)\n"
            "  --timeout S        seconds per test, overriding the manifest (default 10)\n"
            "  --jobs N           processes at a time (default: the number of CPUs)\n"
            "  --strict           compile the graded files with the warning flags too\n"
            "  --require-full     exit 1 unless the score is full marks\n"
            "  --list-files       list NN-slug/<file> of the selected exercises and of the\n"
            "                     chapters they use (what grading reads from --src) and stop\n"
            "  --user USER        as root: compile the graded files, link and run the tests as\n"
            "                     USER (a name, or UID[:GID]); the autograder's sandbox\n"
            "  --preface FILE     text to put at the top of the report (and results.json)\n");
}

/* Reads "key = value" lines; '#' starts a comment line. */
static int read_config(const char *path, options *o)
{
    char *text = read_file(path, NULL);
    if (text == NULL) {
        fprintf(stderr, "mbd-grade: cannot read the configuration %s\n", path);
        return -1;
    }
    int rc = 0;
    unsigned lineno = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        while (isspace((unsigned char)*line))
            line++;
        if (*line && *line != '#') {
            char *eq = strchr(line, '=');
            if (eq == NULL) {
                fprintf(stderr, "%s:%u: expected 'key = value', found '%s'\n", path, lineno, line);
                rc = -1;
            } else {
                char *k = line, *ke = eq, *v = eq + 1;
                while (ke > k && isspace((unsigned char)ke[-1]))
                    ke--;
                *ke = '\0';
                while (isspace((unsigned char)*v))
                    v++;
                char *ve = v + strlen(v);
                while (ve > v && isspace((unsigned char)ve[-1]))
                    ve--;
                *ve = '\0';
                char **slot = strcmp(k, "cc") == 0        ? &o->cc
                              : strcmp(k, "cflags") == 0  ? &o->cflags
                              : strcmp(k, "werror") == 0  ? &o->werror
                              : strcmp(k, "ldflags") == 0 ? &o->ldflags
                              : strcmp(k, "libs") == 0    ? &o->libs
                                                          : NULL;
                if (slot == NULL) {
                    fprintf(stderr, "%s:%u: unknown key '%s' (expected cc, cflags, werror, "
                                    "ldflags or libs)\n", path, lineno, k);
                    rc = -1;
                } else if (*slot == NULL) {   /* options given before --config win */
                    *slot = xstrdup(v);
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The sandbox (--user)                                                     */

#define SANDBOX_NPROC 512   /* processes USER may have at a time: a fork bomb stops there */
#define SANDBOX_FSIZE (512L * 1024 * 1024)   /* bytes of one file USER writes (.incbin /dev/zero) */

extern char **environ;

static struct {
    int on;
    uid_t uid;
    gid_t gid;
    const char *name;     /* as given, for messages */
    char *area;           /* <out>/sandbox: the one place USER writes to */
    char *home, *tmpdir;  /* "HOME=<area>", "TMPDIR=<area>/tmp", absolute */
} sandbox;

/* In a child, before exec as the sandbox user: of the grader's environment,
 * only what compilers and sanitizers read, and HOME and TMPDIR in the area. */
static void sandbox_environment(void)
{
    static const char *const keep[] = {"PATH", "LANG", "LANGUAGE", "TZ", "ASAN_OPTIONS",
                                       "UBSAN_OPTIONS", "LSAN_OPTIONS", "MBD_TEST_TOKEN",
                                       "CPATH", "C_INCLUDE_PATH", "LIBRARY_PATH",
                                       "COMPILER_PATH", "GCC_EXEC_PREFIX", "LD_LIBRARY_PATH"};
    size_t n = 0;
    for (char **e = environ; *e; e++)
        n++;
    char **env = xcalloc(n + 3, sizeof *env);
    size_t k = 0;
    for (char **e = environ; *e; e++) {
        size_t len = strcspn(*e, "=");
        int ok = strncmp(*e, "LC_", 3) == 0;
        for (size_t i = 0; !ok && i < sizeof keep / sizeof *keep; i++)
            ok = strlen(keep[i]) == len && strncmp(*e, keep[i], len) == 0;
        if (ok)
            env[k++] = *e;
    }
    env[k++] = sandbox.home;
    env[k++] = sandbox.tmpdir;
    env[k] = NULL;
    environ = env;
}

/* In a child: becomes the sandbox user for good (no groups, no way back, no
 * set-user-ID programs). 0 on success. */
static int become_user(void)
{
    if (setgroups(0, NULL) != 0 || setgid(sandbox.gid) != 0 || setuid(sandbox.uid) != 0)
        return -1;
    if (setuid(0) == 0 || getuid() != sandbox.uid || geteuid() != sandbox.uid
        || getgid() != sandbox.gid || getegid() != sandbox.gid)
        return -1;
#if defined(__linux__)
    prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L);
#endif
    return 0;
}

/* Whether a live process (not a zombie) of the sandbox user is left; where
 * /proc cannot tell, no. */
static int user_processes_left(void)
{
    DIR *d = opendir("/proc");
    if (d == NULL)
        return 0;
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[64], line[256];
        snprintf(path, sizeof path, "/proc/%.20s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        int zombie = 0;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "State:", 6) == 0)
                zombie = strchr(line, 'Z') != NULL;
            else if (strncmp(line, "Uid:", 4) == 0) {
                found = !zombie && strtoul(line + 4, NULL, 10) == (unsigned long)sandbox.uid;
                break;
            }
        }
        fclose(f);
    }
    closedir(d);
    return found;
}

/* Kills every process of the sandbox user, until none is left (a test that
 * left its process group, or a daemon it started, does not outlive the step
 * it ran in). Runs only while none of the grader's jobs runs. */
static void sandbox_sweep(void)
{
    if (!sandbox.on)
        return;
    for (int round = 0; round < 50; round++) {
        fflush(NULL);
        pid_t p = fork();
        if (p == 0) {
            if (become_user() != 0)
                _exit(2);
            /* every process this user may signal, but not itself */
            kill(-1, SIGKILL);
            _exit(0);
        }
        if (p < 0)
            return;
        while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
            ;
        /* the killed orphans are the grader's to reap (it is their subreaper) */
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (round > 0 && !user_processes_left())
            return;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
}

/* In a child: closes every descriptor above 2, so that the code under test
 * holds nothing of the grader's (nor of a make above it). */
static void close_other_fds(void)
{
    int fds[1024];
    size_t n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL)
        d = opendir("/dev/fd");
    if (d != NULL) {
        int self = dirfd(d);
        struct dirent *e;
        while ((e = readdir(d)) != NULL && n < sizeof fds / sizeof *fds) {
            char *end;
            long fd = strtol(e->d_name, &end, 10);
            if (end != e->d_name && *end == '\0' && fd > 2 && fd != self)
                fds[n++] = (int)fd;
        }
        closedir(d);
        for (size_t i = 0; i < n; i++)
            close(fds[i]);
        if (n < sizeof fds / sizeof *fds)
            return;
    }
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (long fd = 3; fd < max; fd++)
        close((int)fd);
}

/* Parses --user: a name, or UID[:GID]. 0 on success. */
static int sandbox_user(const char *spec)
{
    if (geteuid() != 0) {
        fprintf(stderr, "mbd-grade: --user %s needs root: the grader runs as root and the "
                        "submission's code as that user\n", spec);
        return -1;
    }
    sandbox.name = spec;
    if (isdigit((unsigned char)spec[0])) {
        char *end;
        unsigned long u = strtoul(spec, &end, 10), gr = u;
        if (*end == ':')
            gr = strtoul(end + 1, &end, 10);
        if (*end != '\0' || u > 0x7fffffffUL || gr > 0x7fffffffUL) {
            fprintf(stderr, "mbd-grade: --user: expected a user name or UID[:GID], got '%s'\n",
                    spec);
            return -1;
        }
        sandbox.uid = (uid_t)u;
        sandbox.gid = (gid_t)gr;
    } else {
        struct passwd *pw = getpwnam(spec);
        if (pw == NULL) {
            fprintf(stderr, "mbd-grade: --user: there is no user '%s' (the autograder's "
                            "setup.sh creates one)\n", spec);
            return -1;
        }
        sandbox.uid = pw->pw_uid;
        sandbox.gid = pw->pw_gid;
    }
    if (sandbox.uid == 0 || sandbox.gid == 0) {
        fprintf(stderr, "mbd-grade: --user %s: that is root's user or group; give an "
                        "unprivileged user\n", spec);
        return -1;
    }
    sandbox.on = 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Processes: one spawner and one pool with time limits                     */

typedef struct {
    char **argv;          /* NULL-terminated; argv[0] is a path */
    const char *log;      /* stdout and stderr go here */
    double limit;         /* seconds; 0 = none */
    int cap_output;       /* limit the log to OUTPUT_CAP bytes */
    int as_user;          /* run as the sandbox user (--user) */
    char token[40];       /* non-empty: passed as MBD_TEST_TOKEN (see runner.c) */
    /* results */
    pid_t pid;
    double start, seconds;
    int status;           /* wait status */
    int timed_out, spawn_failed;
} job;

static pid_t spawn(job *j)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* the child: its own process group (so a time-out kills everything it
     * started), output to the log, no core files, stdin from /dev/null */
    setpgid(0, 0);
    int fd = open(j->log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    int nul = open("/dev/null", O_RDONLY);
    if (fd < 0 || nul < 0)
        _exit(126);
    dup2(nul, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    close(nul);
    struct rlimit rl = {0, 0};
    setrlimit(RLIMIT_CORE, &rl);
    if (j->cap_output) {
        /* writes beyond the cap fail quietly (EFBIG) instead of filling the
         * disk; an ignored SIGXFSZ stays ignored across exec */
        rl.rlim_cur = rl.rlim_max = OUTPUT_CAP;
        setrlimit(RLIMIT_FSIZE, &rl);
        signal(SIGXFSZ, SIG_IGN);
    }
    if (j->token[0])
        setenv("MBD_TEST_TOKEN", j->token, 1);
    close_other_fds();
    if (j->as_user) {
        /* the log is open already (root's file, in root's directory): from
         * here on, nothing of root's */
        rl.rlim_cur = rl.rlim_max = SANDBOX_NPROC;
        setrlimit(RLIMIT_NPROC, &rl);
        if (!j->cap_output) {
            rl.rlim_cur = rl.rlim_max = SANDBOX_FSIZE;
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        sandbox_environment();
        if (become_user() != 0) {
            static const char no[] = "mbd-grade: cannot switch to the sandbox user\n";
            if (write(2, no, sizeof no - 1) < 0)
                _exit(126);
            _exit(126);
        }
    }
    execv(j->argv[0], j->argv);
    static const char msg[] = "mbd-grade: cannot execute the program\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(127);
    _exit(127);
}

/* Runs the jobs, at most maxpar at a time, killing each that outlives its
 * limit. Returns 0, or -1 if a process could not be started. */
static int run_jobs(job *jobs, size_t n, int maxpar)
{
    size_t next = 0, running = 0, done = 0;
    int rc = 0;
    while (done < n) {
        while (running < (size_t)maxpar && next < n) {
            job *j = &jobs[next++];
            j->start = now_seconds();
            j->pid = spawn(j);
            if (j->pid < 0) {
                j->spawn_failed = 1;
                rc = -1;
                done++;
                continue;
            }
            setpgid(j->pid, j->pid);   /* also here, so kill(-pid) works at once */
            running++;
        }
        int ws;
        pid_t p = waitpid(-1, &ws, WNOHANG);
        if (p > 0) {
            for (size_t i = 0; i < next; i++)
                if (jobs[i].pid == p && !jobs[i].spawn_failed) {
                    jobs[i].status = ws;
                    jobs[i].seconds = now_seconds() - jobs[i].start;
                    jobs[i].pid = -p;       /* mark as finished */
                    kill(-p, SIGKILL);      /* anything it left behind */
                    running--;
                    done++;
                    break;
                }
            continue;
        }
        if (p < 0 && errno == ECHILD && running > 0) {   /* cannot happen; do not spin */
            fprintf(stderr, "mbd-grade: lost track of %zu processes\n", running);
            return -1;
        }
        double t = now_seconds();
        for (size_t i = 0; i < next; i++) {
            job *j = &jobs[i];
            if (j->pid > 0 && j->limit > 0 && !j->timed_out && t - j->start > j->limit) {
                j->timed_out = 1;
                kill(-j->pid, SIGKILL);
                kill(j->pid, SIGKILL);
            }
        }
        struct timespec ts = {0, 2000000};   /* 2 ms */
        nanosleep(&ts, NULL);
    }
    for (size_t i = 0; i < n; i++)
        if (jobs[i].as_user) {
            sandbox_sweep();
            break;
        }
    return rc;
}

static void job_free(job *j)
{
    if (j->argv)
        for (char **a = j->argv; *a; a++)
            free(*a);
    free(j->argv);
}

static char **argv_of(int n, ...)
{
    char **v = xcalloc((size_t)n + 1, sizeof *v);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        v[i] = xstrdup(va_arg(ap, const char *));
    va_end(ap);
    return v;
}

/* ------------------------------------------------------------------------ */
/* Text helpers                                                             */


/* Iterates over the lines of a text:
 *     lines it = {text, NULL, 0};  while (next_line(&it)) use(it.s, it.len); */
typedef struct {
    const char *p;
    const char *s;      /* the line (not NUL-terminated) */
    size_t len;
} lines;

static int next_line(lines *it)
{
    if (it->p == NULL || *it->p == '\0')
        return 0;
    const char *nl = strchr(it->p, '\n');
    it->s = it->p;
    it->len = nl ? (size_t)(nl - it->p) : strlen(it->p);
    it->p = nl ? nl + 1 : it->p + it->len;
    return 1;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && strncmp(s, prefix, n) == 0;
}

static int line_contains(const char *s, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (strncmp(s + i, needle, n) == 0)
            return 1;
    return 0;
}

static int line_equals(const char *s, size_t len, const char *text)
{
    return len == strlen(text) && strncmp(s, text, len) == 0;
}

/* Adds a line to b with an indentation. */
static void add_line(strbuf *b, const char *indent, const char *s, size_t len)
{
    sb_add(b, indent);
    sb_addn(b, s, len);
    sb_addc(b, '\n');
}

/* Every line of text, indented. */
static void add_indented(strbuf *b, const char *indent, const char *text)
{
    lines it = {text, NULL, 0};
    while (next_line(&it))
        add_line(b, indent, it.s, it.len);
}

/* The first diagnostics of a compiler log: each line that reports `kind`
 * ("error" or "warning") with the source and caret lines gcc prints after it,
 * at most MAX_COMPILER_LINES lines in all. *count receives how many such
 * diagnostics there are. For errors without a recognisable diagnostic, the
 * log's first lines. */
static char *compiler_lines(const char *log, const char *kind, int *count)
{
    strbuf b;
    sb_init(&b);
    int shown = 0, in_diag = 0, errors = strcmp(kind, "error") == 0;
    char *tag = xasprintf(": %s:", kind);
    *count = 0;
    lines it = {log, NULL, 0};
    while (next_line(&it)) {
        int diag = line_contains(it.s, it.len, tag)
                   || (errors && (line_contains(it.s, it.len, ": fatal error:")
                                  || line_contains(it.s, it.len, "undefined reference")
                                  || line_contains(it.s, it.len, "multiple definition")));
        if (diag) {
            (*count)++;
            in_diag = 1;
        } else if (it.len == 0 || it.s[0] != ' ') {
            in_diag = 0;   /* gcc's context lines (source, caret) start with a blank */
        }
        if (in_diag && shown < MAX_COMPILER_LINES) {
            add_line(&b, "", it.s, it.len);
            shown++;
        }
    }
    if (*count == 0 && errors) {
        it = (lines){log, NULL, 0};
        while (next_line(&it) && shown < MAX_COMPILER_LINES) {
            add_line(&b, "", it.s, it.len);
            shown++;
        }
    }
    free(tag);
    return b.s;
}

/* ------------------------------------------------------------------------ */
/* Units (one exercise file, one test binary) and test runs                 */

typedef enum { U_OK, U_COMPILE, U_TEST_COMPILE, U_LINK, U_LIST, U_USES } unit_state;

typedef struct {
    const mx_chapter *ch;
    const char *file;             /* "penalty.c" */
    char *stem;                   /* "penalty" */
    char *src, *test_src;         /* the graded file and its test source */
    char *obj, *test_obj, *bin;
    char *log_compile, *log_test_compile, *log_link, *log_list;
    unit_state state;
    int nwarnings;
    char *warnings;               /* the student's warnings (shown, not fatal) */
    char *problem;                /* why its tests cannot run */
    const char *problem_owner;    /* the exercise whose report shows it in full */
} unit;

typedef enum { T_NOTRUN, T_PASS, T_FAIL, T_CRASH, T_TIMEOUT, T_SANITIZER, T_EXIT } test_state;

typedef struct {
    char *suite, *name;
    unit *u;
    double limit;
    test_state state;
    double seconds;
    char *summary;                /* "failed", "crashed (signal 11: Segmentation fault)" */
    char *details;                /* lines, each ending in '\n' */
} test_run;

/* A chapter the graded chapter `uses`: its exercise files, compiled once. */
typedef struct {
    const mx_chapter *ch;
    char *dir;                    /* <solutions or src>/NN-slug */
    int from_solutions;
    int built, ok;
    strlist objs;
    char *problem;
} used_chapter;

typedef struct {
    const mx_chapter *ch;
    const mx_exercise *e;
    unit *u;
    test_run **tests;
    size_t ntests;
    size_t passed;
    double score;
    char *report;                 /* the lines under the exercise in the report */
    char *output;                 /* the exercise's text in results.json */
} exercise_result;

typedef struct {
    options o;
    mx_manifest m;
    int broken;                   /* the grader could not do its job */
    used_chapter *used;
    size_t nused;
    exercise_result *res;
    size_t nres;
    test_run *runs;               /* every test of the run (each chapter appends) */
    size_t nruns, capruns;
    unit **units;
    size_t nunits;
    strbuf report;                /* the whole report (results.json's output) */
    size_t report_printed;        /* how much of it is on stdout already */
    double started;
} grader;

/* A random token for one test run. The runner prints it with the verdict only
 * after the test has run to its end (tests/support/runner.c), so test code
 * that prints an "ok" line of its own and exits early is not taken for a pass. */
static void make_token(char *buf, size_t size)
{
    unsigned char raw[12] = {0};
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(raw, 1, sizeof raw, f) : 0;
    if (f)
        fclose(f);
    if (got != sizeof raw) {   /* no /dev/urandom: time and address bits will do */
        unsigned long v = (unsigned long)now_seconds() * 1000003UL ^ (unsigned long)(size_t)buf;
        for (size_t i = 0; i < sizeof raw; i++, v = v * 6364136223846793005UL + 1442695040888963407UL)
            raw[i] = (unsigned char)(v >> 56);
    }
    size_t k = 0;
    for (size_t i = 0; i < sizeof raw && k + 2 < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%02x", raw[i]);
}

/* Reads a job's log; "" when there is none. */
static char *read_log(const char *path)
{
    char *t = read_file(path, NULL);
    return t ? t : xstrdup("");
}

/* Decides what happened in one test run, from its exit and its output (the
 * runner prints "  ok    SUITE / TEST", or "  FAIL  SUITE / TEST" followed by
 * one line per failed assertion, indented by 8 blanks). */
static void classify(grader *g, test_run *t, const job *j)
{
    char *log = read_log(j->log);
    char *ok = xasprintf("  ok    %s / %s", t->suite, t->name);
    char *fail = xasprintf("  FAIL  %s / %s", t->suite, t->name);
    char *verdict_pass = xasprintf("mbd-result %s pass", j->token);
    char *verdict_fail = xasprintf("mbd-result %s fail", j->token);
    int saw_ok = 0, saw_fail = 0, after_fail = 0, verdict = 0;
    size_t nmsg = 0, nother = 0;
    strbuf msgs, other, san;
    sb_init(&msgs);
    sb_init(&other);
    sb_init(&san);
    const char *san_kind = NULL;
    lines it = {log, NULL, 0};
    while (next_line(&it)) {
        const char *s = it.s;
        size_t len = it.len;
        if (line_equals(s, len, verdict_pass) || line_equals(s, len, verdict_fail)) {
            verdict = line_equals(s, len, verdict_pass) ? 1 : -1;
            continue;
        }
        if (line_equals(s, len, ok)) {
            saw_ok = 1;
            after_fail = 0;
            continue;
        }
        if (line_equals(s, len, fail)) {
            saw_fail = 1;
            after_fail = 1;
            continue;
        }
        if (after_fail && starts_with(s, len, "        ")) {
            if (nmsg++ < MAX_MESSAGE_LINES)
                add_line(&msgs, "    ", s + 8, len - 8);
            continue;
        }
        after_fail = 0;
        /* sanitizer reports: the error, the first stack frame, the summary */
        const char *kind = line_contains(s, len, "ERROR: AddressSanitizer") ? "AddressSanitizer"
                           : line_contains(s, len, "ERROR: LeakSanitizer")  ? "LeakSanitizer"
                           : line_contains(s, len, "runtime error:")        ? "UBSan"
                                                                            : NULL;
        if (kind && !san_kind) {
            san_kind = kind;
            add_line(&san, "    ", s, len);
            continue;
        }
        if (san_kind) {
            size_t k = 0;
            while (k < len && s[k] == ' ')
                k++;
            if ((starts_with(s + k, len - k, "#0 ") && san.len < 2000)
                || starts_with(s, len, "SUMMARY:"))
                add_line(&san, "    ", s + k, len - k);
            continue;
        }
        if (len == 0)
            continue;
        if (nother++ < MAX_OUTPUT_LINES)
            add_line(&other, "    | ", s, len);
    }
    if (nmsg > MAX_MESSAGE_LINES)
        sb_printf(&msgs, "    ... and %zu more failed checks\n", nmsg - MAX_MESSAGE_LINES);
    if (nother > MAX_OUTPUT_LINES)
        sb_printf(&other, "    | ... (%zu more lines of output)\n", nother - MAX_OUTPUT_LINES);

    int code = WIFEXITED(j->status) ? WEXITSTATUS(j->status) : -1;
    strbuf d;
    sb_init(&d);
    char lim[32];
    if (j->timed_out) {
        t->state = T_TIMEOUT;
        t->summary = xasprintf("timed out: no result within %s s (an endless loop?)",
                               fmt_points(lim, t->limit));
    } else if (WIFSIGNALED(j->status)) {
        int sig = WTERMSIG(j->status);
        t->state = T_CRASH;
        t->summary = xasprintf("crashed (signal %d: %s)", sig, strsignal(sig));
    } else if (code == 0 && saw_ok && verdict == 1) {
        t->state = T_PASS;
        t->summary = xstrdup("passed");
    } else if (san_kind) {
        t->state = T_SANITIZER;
        t->summary = xasprintf("stopped by %s (%s)", san_kind,
                               strcmp(san_kind, "LeakSanitizer") == 0 ? "memory leak"
                               : strcmp(san_kind, "UBSan") == 0       ? "undefined behaviour"
                                                                      : "memory error");
        sb_add(&d, san.s);
    } else if (code == 1 && saw_fail) {
        t->state = T_FAIL;
        t->summary = xstrdup("failed");
        sb_add(&d, msgs.s);
    } else {
        t->state = T_EXIT;
        if (code == 3 && strstr(log, "no test '")) {
            g->broken = 1;   /* it was listed a moment ago: the grader's fault */
            t->summary = xstrdup("the test program does not know this test (grader error)");
        } else if (code == 0) {
            t->summary = xstrdup("the program ended (status 0) before the test finished "
                                 "(is there an exit() in your code?)");
        } else {
            t->summary = xasprintf("the program ended with status %d before the test finished",
                                   code);
        }
    }
    if (t->state != T_PASS && other.len > 0) {
        sb_add(&d, "    output:\n");
        sb_add(&d, other.s);
    }
    t->details = sb_take(&d);
    t->seconds = j->seconds;
    sb_free(&d);
    sb_free(&msgs);
    sb_free(&other);
    sb_free(&san);
    free(ok);
    free(fail);
    free(verdict_pass);
    free(verdict_fail);
    free(log);
}

/* ------------------------------------------------------------------------ */
/* Building                                                                 */

static int selected(const options *o, const mx_chapter *ch, const mx_exercise *e)
{
    if (o->chapter && strcmp(o->chapter, ch->number) != 0)
        return 0;
    if (o->exercise) {
        if (strchr(o->exercise, '.') ? strcmp(o->exercise, e->id) != 0
                                     : strcmp(o->exercise, mx_exercise_number(e)) != 0)
            return 0;
    }
    if (o->file && strcmp(o->file, e->file) != 0)
        return 0;
    return 1;
}

static char *stem_of(const char *file)
{
    return xstrndup(file, strlen(file) - 2);   /* the manifest checked the ".c" */
}

/* where the graded code's objects and test programs go */
static const char *graded_out(const options *o)
{
    return sandbox.on ? sandbox.area : o->out;
}

static unit *unit_for(grader *g, const mx_chapter *ch, const char *file)
{
    for (size_t i = 0; i < g->nunits; i++)
        if (g->units[i]->ch == ch && strcmp(g->units[i]->file, file) == 0)
            return g->units[i];
    const options *o = &g->o;
    unit *u = xcalloc(1, sizeof *u);
    u->ch = ch;
    u->file = file;
    u->stem = stem_of(file);
    u->src = xasprintf("%s/%s/%s", o->src, ch->dir, file);
    u->test_src = xasprintf("%s/%s/test_%s.c", o->tests, ch->dir, u->stem);
    /* what the submission's code makes goes where it may write: the sandbox
     * area with --user; the tests' objects are root's */
    u->obj = xasprintf("%s/obj/%s/%s.o", graded_out(o), ch->dir, u->stem);
    u->test_obj = xasprintf("%s/obj/%s/test_%s.o", o->out, ch->dir, u->stem);
    u->bin = xasprintf("%s/bin/%s/test_%s", graded_out(o), ch->dir, u->stem);
    u->log_compile = xasprintf("%s/log/%s/%s.compile.log", o->out, ch->dir, u->stem);
    u->log_test_compile = xasprintf("%s/log/%s/test_%s.compile.log", o->out, ch->dir, u->stem);
    u->log_link = xasprintf("%s/log/%s/test_%s.link.log", o->out, ch->dir, u->stem);
    u->log_list = xasprintf("%s/log/%s/test_%s.list.log", o->out, ch->dir, u->stem);
    g->units = xrealloc(g->units, (g->nunits + 1) * sizeof *g->units);
    g->units[g->nunits++] = u;
    return u;
}

static void unit_free(unit *u)
{
    free(u->stem);
    free(u->src);
    free(u->test_src);
    free(u->obj);
    free(u->test_obj);
    free(u->bin);
    free(u->log_compile);
    free(u->log_test_compile);
    free(u->log_link);
    free(u->log_list);
    free(u->warnings);
    free(u->problem);
    free(u);
}

/* The chapters a chapter uses, directly or through others, earliest first. */
static void uses_closure(const mx_manifest *m, const mx_chapter *ch, const mx_chapter **out,
                         size_t *n)
{
    for (size_t k = 0; k < ch->nuses; k++) {
        const mx_chapter *c = mx_find_chapter(m, ch->uses[k]);
        if (c == NULL)
            continue;
        int seen = 0;
        for (size_t i = 0; i < *n; i++)
            seen |= out[i] == c;
        if (seen)
            continue;
        uses_closure(m, c, out, n);
        out[(*n)++] = c;
    }
}

static used_chapter *used_for(grader *g, const mx_chapter *c)
{
    for (size_t i = 0; i < g->nused; i++)
        if (g->used[i].ch == c)
            return &g->used[i];
    g->used = xrealloc(g->used, (g->nused + 1) * sizeof *g->used);
    used_chapter *uc = &g->used[g->nused++];
    memset(uc, 0, sizeof *uc);
    uc->ch = c;
    char *sol = g->o.solutions ? xasprintf("%s/%s", g->o.solutions, c->dir) : NULL;
    if (sol && is_dir(sol)) {
        uc->dir = sol;
        uc->from_solutions = 1;
    } else {
        free(sol);
        uc->dir = xasprintf("%s/%s", g->o.src, c->dir);
    }
    return uc;
}

/* the flags for a graded file */
static char *student_flags(const options *o, int strict)
{
    return xasprintf("%s%s%s", o->cflags, strict ? " " : "", strict ? o->werror : "");
}

/* a job that ran to its end with status 0 */
static int job_ok(const job *j)
{
    return !j->spawn_failed && !j->timed_out && WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0;
}

/* a job whose program could not be started at all (the shell's 126 or 127):
 * the grader's problem, not the student's */
static int job_not_run(const job *j)
{
    return j->spawn_failed
           || (!j->timed_out && WIFEXITED(j->status)
               && (WEXITSTATUS(j->status) == 126 || WEXITSTATUS(j->status) == 127));
}

/* A shell command that makes the directory of `out` and removes an old `out`
 * first (as the user that runs it: with --user, root never touches the
 * sandbox area), then runs `tail`, whose words are already quoted. */
static char *fresh_output_cmd(const char *out, const char *tail)
{
    const char *slash = strrchr(out, '/');
    char *dir = slash ? xstrndup(out, (size_t)(slash - out)) : xstrdup(".");
    char *qdir = shell_quote(dir), *qout = shell_quote(out);
    char *cmd = xasprintf("mkdir -p %s && rm -f %s && exec %s", qdir, qout, tail);
    free(dir);
    free(qdir);
    free(qout);
    return cmd;
}

/* With --user: the sandbox user may read what root compiled for its link
 * (an object of the course's tests), and search the directories above it
 * up to <out>. */
static void open_to_sandbox(const options *o, const char *path)
{
    if (!sandbox.on)
        return;
    chmod(path, 0644);
    char *d = xstrdup(path);
    size_t top = strlen(o->out);
    for (char *slash = strrchr(d, '/'); slash && (size_t)(slash - d) >= top;
         slash = strrchr(d, '/')) {
        *slash = '\0';
        chmod(d, 0711);
    }
    free(d);
}

/* Compiles the exercise files of a used chapter (once per run). */
static void build_used(grader *g, used_chapter *uc)
{
    if (uc->built)
        return;
    uc->built = 1;
    const options *o = &g->o;
    strlist files = {0};
    for (size_t i = 0; i < uc->ch->nex; i++)
        if (!sl_contains(&files, uc->ch->ex[i].file))
            sl_push(&files, xstrdup(uc->ch->ex[i].file));
    job *jobs = xcalloc(files.n, sizeof *jobs);
    strlist logs = {0};
    char *flags = student_flags(o, uc->from_solutions || o->strict);
    char *qdir = shell_quote(uc->dir);
    /* the student's own files are the submission's code: the sandbox's */
    int as_user = sandbox.on && !uc->from_solutions;
    for (size_t i = 0; i < files.n; i++) {
        char *stem = stem_of(files.v[i]);
        char *obj = xasprintf("%s/obj/uses/%s/%s.o", as_user ? graded_out(o) : o->out,
                              uc->ch->dir, stem);
        char *log = xasprintf("%s/log/uses/%s/%s.compile.log", o->out, uc->ch->dir, stem);
        char *src = xasprintf("%s/%s", uc->dir, files.v[i]);
        char *d2 = xasprintf("%s/log/uses/%s", o->out, uc->ch->dir);
        mkdir_p(d2);
        char *qobj = shell_quote(obj), *qsrc = shell_quote(src);
        char *tail = xasprintf("%s %s -I%s -c %s -o %s", o->cc, flags, qdir, qsrc, qobj);
        char *cmd = fresh_output_cmd(obj, tail);
        jobs[i].argv = argv_of(3, "/bin/sh", "-c", cmd);
        jobs[i].log = log;
        jobs[i].limit = COMPILE_LIMIT;
        jobs[i].as_user = as_user;
        sl_push(&uc->objs, obj);
        sl_push(&logs, log);
        free(cmd);
        free(tail);
        free(qobj);
        free(qsrc);
        free(src);
        free(stem);
        free(d2);
    }
    if (run_jobs(jobs, files.n, g->o.jobs) != 0)
        g->broken = 1;
    strbuf p;
    sb_init(&p);
    uc->ok = 1;
    for (size_t i = 0; i < files.n; i++) {
        if (job_ok(&jobs[i])) {
            if (!as_user)
                open_to_sandbox(o, uc->objs.v[i]);
            continue;
        }
        uc->ok = 0;
        char *log = read_log(jobs[i].log);
        if (job_not_run(&jobs[i])) {
            g->broken = 1;
            sb_printf(&p, "the compiler could not be run (%s):\n", o->cc);
            add_indented(&p, "    ", log);
        } else {
            int n;
            char *errs = compiler_lines(log, "error", &n);
            sb_printf(&p, "%s/%s (chapter %s, which this chapter uses) does not compile:\n",
                      uc->dir, files.v[i], uc->ch->number);
            add_indented(&p, "    ", errs);
            free(errs);
        }
        free(log);
    }
    uc->problem = sb_take(&p);
    sb_free(&p);
    for (size_t i = 0; i < files.n; i++)
        job_free(&jobs[i]);
    free(jobs);
    sl_free(&logs);
    sl_free(&files);
    free(flags);
    free(qdir);
}

/* Says why a build step of a unit failed: the compiler's errors (from the
 * step's log) under `what`; a time-out; or a compiler that could not be run
 * (the grader's problem). */
static void build_failed(grader *g, unit *u, const job *j, unit_state state, const char *what)
{
    strbuf p;
    sb_init(&p);
    char *log = read_log(j->log);
    u->state = state;
    if (j->timed_out) {
        sb_printf(&p, "%s %s took longer than %g s\n",
                  state == U_LINK ? "linking the test program of" : "compiling", u->file,
                  COMPILE_LIMIT);
    } else if (job_not_run(j)) {
        g->broken = 1;
        sb_printf(&p, "the compiler could not be run (%s):\n", g->o.cc);
        add_indented(&p, "    ", log);
    } else {
        int ne;
        char *errs = compiler_lines(log, "error", &ne);
        sb_add(&p, what);
        add_indented(&p, "    ", errs);
        free(errs);
    }
    u->problem = sb_take(&p);
    sb_free(&p);
    free(log);
}

/* Compiles and links the test programs of the units, in parallel: first each
 * unit's graded file (the submission's code: as the sandbox user with --user)
 * and its tests (the course's: as the grader), then the links (sandbox user). */
static void build_units(grader *g, unit **us, size_t n, const char *incs, const char *uses_objs)
{
    const options *o = &g->o;
    job *jobs = xcalloc(2 * n, sizeof *jobs);   /* per unit: its file, its tests */
    unit **ju = xcalloc(n, sizeof *ju);
    size_t nu = 0;
    char *sflags = student_flags(o, o->strict), *tflags = student_flags(o, 1);
    for (size_t i = 0; i < n; i++) {
        unit *u = us[i];
        char *d;
        mkdir_p(d = xasprintf("%s/obj/%s", o->out, u->ch->dir));
        free(d);
        mkdir_p(d = xasprintf("%s/log/%s", o->out, u->ch->dir));
        free(d);
        if (!sandbox.on)
            remove(u->bin);   /* never run an old binary (the sandbox area starts empty) */
        if (!is_file(u->test_src)) {
            fprintf(stderr, "mbd-grade: %s: missing (the tests of %s)\n", u->test_src, u->src);
            g->broken = 1;
            u->state = U_TEST_COMPILE;
            u->problem = xasprintf("the tests of %s are missing (%s): the course's setup is "
                                   "broken, not your code\n", u->file, u->test_src);
            continue;
        }
        if (!is_file(u->src)) {
            u->state = U_COMPILE;
            u->problem = xasprintf("%s: missing (nothing to grade)\n", u->src);
            continue;
        }
        char *qsrc = shell_quote(u->src), *qtsrc = shell_quote(u->test_src);
        char *qobj = shell_quote(u->obj), *qtobj = shell_quote(u->test_obj);
        char *t1 = xasprintf("%s %s %s -c %s -o %s", o->cc, sflags, incs, qsrc, qobj);
        char *t2 = xasprintf("%s %s %s -c %s -o %s", o->cc, tflags, incs, qtsrc, qtobj);
        char *c1 = fresh_output_cmd(u->obj, t1), *c2 = fresh_output_cmd(u->test_obj, t2);
        job *a = &jobs[2 * nu], *b = &jobs[2 * nu + 1];
        a->argv = argv_of(3, "/bin/sh", "-c", c1);
        a->log = u->log_compile;
        a->limit = COMPILE_LIMIT;
        a->as_user = sandbox.on;
        b->argv = argv_of(3, "/bin/sh", "-c", c2);
        b->log = u->log_test_compile;
        b->limit = COMPILE_LIMIT;
        ju[nu++] = u;
        free(qsrc);
        free(qtsrc);
        free(qobj);
        free(qtobj);
        free(t1);
        free(t2);
        free(c1);
        free(c2);
    }
    if (run_jobs(jobs, 2 * nu, o->jobs) != 0)
        g->broken = 1;

    job *links = xcalloc(nu, sizeof *links);
    unit **lu = xcalloc(nu, sizeof *lu);
    size_t nl = 0;
    for (size_t k = 0; k < nu; k++) {
        unit *u = ju[k];
        const job *a = &jobs[2 * k], *b = &jobs[2 * k + 1];
        char *log = read_log(u->log_compile);
        int nw;
        char *warn = compiler_lines(log, "warning", &nw);
        if (nw > 0) {
            u->nwarnings = nw;
            u->warnings = warn;
        } else {
            free(warn);
        }
        free(log);
        if (!job_ok(a)) {
            char *what = xasprintf("%s does not compile:\n", u->file);
            build_failed(g, u, a, U_COMPILE, what);
            free(what);
            continue;
        }
        if (!job_ok(b)) {
            char *what = xasprintf("the tests of %s do not compile with your files (was a header "
                                   "such as the chapter's exNN.h changed?):\n", u->file);
            build_failed(g, u, b, U_TEST_COMPILE, what);
            free(what);
            continue;
        }
        open_to_sandbox(o, u->test_obj);
        char *qbin = shell_quote(u->bin), *qobj = shell_quote(u->obj);
        char *qtobj = shell_quote(u->test_obj);
        char *tail = xasprintf("%s %s -o %s %s %s %s %s", o->cc, o->ldflags, qbin, qtobj, qobj,
                               uses_objs, o->libs);
        char *cmd = fresh_output_cmd(u->bin, tail);
        links[nl].argv = argv_of(3, "/bin/sh", "-c", cmd);
        links[nl].log = u->log_link;
        links[nl].limit = COMPILE_LIMIT;
        links[nl].as_user = sandbox.on;
        lu[nl++] = u;
        free(qbin);
        free(qobj);
        free(qtobj);
        free(tail);
        free(cmd);
    }
    if (run_jobs(links, nl, o->jobs) != 0)
        g->broken = 1;
    for (size_t k = 0; k < nl; k++)
        if (!job_ok(&links[k])) {
            char *what = xasprintf("%s compiles, but its test program does not link (a function "
                                   "missing, misnamed or defined twice?):\n", lu[k]->file);
            build_failed(g, lu[k], &links[k], U_LINK, what);
            free(what);
        }

    for (size_t k = 0; k < 2 * nu; k++)
        job_free(&jobs[k]);
    for (size_t k = 0; k < nl; k++)
        job_free(&links[k]);
    free(jobs);
    free(links);
    free(ju);
    free(lu);
    free(sflags);
    free(tflags);
}

/* Runs `test_x --list` and gives each exercise of the unit its tests. */
static void list_tests(grader *g, unit *u, exercise_result *res, size_t nres)
{
    job j = {0};
    j.argv = argv_of(2, u->bin, "--list");
    j.log = u->log_list;
    j.limit = LIST_LIMIT;
    j.cap_output = 1;
    j.as_user = sandbox.on;
    if (run_jobs(&j, 1, 1) != 0)
        g->broken = 1;
    char *log = read_log(u->log_list);
    if (j.timed_out || !WIFEXITED(j.status) || WEXITSTATUS(j.status) != 0) {
        strbuf p;
        sb_init(&p);
        sb_printf(&p, "the test program of %s does not start (%s)%s\n", u->file,
                  j.timed_out ? "it hangs" : WIFSIGNALED(j.status) ? "it crashes" : "it fails",
                  *log ? ":" : "");
        int shown = 0;
        lines it = {log, NULL, 0};
        while (next_line(&it) && shown++ < MAX_OUTPUT_LINES)
            add_line(&p, "    | ", it.s, it.len);
        u->state = U_LIST;
        u->problem = sb_take(&p);
        sb_free(&p);
    } else {
        for (size_t r = 0; r < nres; r++) {
            if (res[r].u != u)
                continue;
            char *suite = xasprintf("ex%s", res[r].e->id);
            lines it = {log, NULL, 0};
            while (next_line(&it)) {
                const char *tab = memchr(it.s, '\t', it.len);
                if (!tab || (size_t)(tab - it.s) != strlen(suite)
                    || strncmp(it.s, suite, strlen(suite)) != 0)
                    continue;
                res[r].tests = xrealloc(res[r].tests, (res[r].ntests + 1) * sizeof *res[r].tests);
                test_run *t = xcalloc(1, sizeof *t);
                t->suite = xstrdup(suite);
                t->name = xstrndup(tab + 1, it.len - (size_t)(tab + 1 - it.s));
                t->u = u;
                t->limit = g->o.timeout > 0 ? g->o.timeout : mx_timeout(&g->m, res[r].ch, res[r].e);
                res[r].tests[res[r].ntests++] = t;
            }
            if (res[r].ntests == 0) {
                fprintf(stderr, "mbd-grade: %s registers no tests in suite %s (exercise %s, %s:%lu)\n",
                        u->test_src, suite, res[r].e->id, g->m.path, res[r].e->line);
                g->broken = 1;
            }
            free(suite);
        }
    }
    free(log);
    job_free(&j);
}

/* Runs every test of the chapter's exercises, each in its own process. */
static void run_tests(grader *g, exercise_result *res, size_t nres)
{
    size_t n = 0;
    for (size_t r = 0; r < nres; r++)
        if (res[r].u->state == U_OK)
            n += res[r].ntests;
    job *jobs = xcalloc(n, sizeof *jobs);
    test_run **tr = xcalloc(n, sizeof *tr);
    strlist logs = {0};
    size_t k = 0;
    for (size_t r = 0; r < nres; r++) {
        if (res[r].u->state != U_OK)
            continue;
        for (size_t i = 0; i < res[r].ntests; i++) {
            test_run *t = res[r].tests[i];
            char *log = xasprintf("%s/log/%s/test_%s.%s.%s.log", g->o.out, t->u->ch->dir,
                                  t->u->stem, t->suite, t->name);
            /* a test name is the tests' choice: keep the file name plain */
            for (char *c = log + strlen(g->o.out) + strlen("/log/") + strlen(t->u->ch->dir) + 1;
                 *c; c++)
                if (!(isalnum((unsigned char)*c) || *c == '.' || *c == '_' || *c == '-'))
                    *c = '_';
            sl_push(&logs, log);
            jobs[k].argv = argv_of(4, t->u->bin, "--run", t->suite, t->name);
            jobs[k].log = log;
            jobs[k].limit = t->limit;
            jobs[k].cap_output = 1;
            jobs[k].as_user = sandbox.on;
            make_token(jobs[k].token, sizeof jobs[k].token);
            tr[k++] = t;
        }
    }
    if (run_jobs(jobs, n, g->o.jobs) != 0)
        g->broken = 1;
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].spawn_failed) {
            tr[i]->state = T_EXIT;
            tr[i]->summary = xstrdup("could not be started (grader error)");
            tr[i]->details = xstrdup("");
        } else {
            classify(g, tr[i], &jobs[i]);
        }
        job_free(&jobs[i]);
    }
    free(jobs);
    free(tr);
    sl_free(&logs);
}

/* ------------------------------------------------------------------------ */
/* Scores and the report                                                    */

static void score_chapter(grader *g, const mx_chapter *ch, exercise_result *res, size_t nres)
{
    char a[32], b[32];
    size_t width = 0;
    for (size_t r = 0; r < nres; r++) {
        size_t w = strlen(res[r].e->id) + 2 + strlen(res[r].e->title) + 3 + strlen(res[r].e->file);
        if (w > width)
            width = w;
    }
    if (width > 64)
        width = 64;
    sb_printf(&g->report, "\nChapter %s: %s (%s/%s)\n", ch->number, ch->title, g->o.src, ch->dir);

    for (size_t r = 0; r < nres; r++) {
        exercise_result *x = &res[r];
        unit *u = x->u;
        strbuf rep, out;
        sb_init(&rep);
        sb_init(&out);
        if (u->nwarnings > 0) {
            char *w = xasprintf("%s: %d warning%s (not fatal, but worth fixing):\n", u->file,
                                u->nwarnings, u->nwarnings == 1 ? "" : "s");
            sb_add(&out, w);
            add_indented(&out, "    ", u->warnings);
            /* the report shows them once per file */
            if (u->problem_owner == NULL && u->state == U_OK) {
                sb_add(&rep, w);
                add_indented(&rep, "    ", u->warnings);
                u->problem_owner = x->e->id;
            }
            free(w);
        }
        if (u->state != U_OK) {
            x->score = 0;
            sb_add(&out, u->problem);
            if (u->problem_owner == NULL) {
                u->problem_owner = x->e->id;
                sb_add(&rep, u->problem);
            } else if (strcmp(u->problem_owner, x->e->id) != 0) {
                sb_printf(&rep, "%s: see exercise %s above\n", u->file, u->problem_owner);
            }
        } else {
            strbuf tl;
            sb_init(&tl);
            for (size_t i = 0; i < x->ntests; i++) {
                test_run *t = x->tests[i];
                x->passed += t->state == T_PASS;
                sb_printf(&tl, "%s: %s\n", t->name, t->summary);
                sb_add(&tl, t->details);
                if (t->state != T_PASS) {
                    sb_printf(&rep, "%s: %s\n", t->name, t->summary);
                    sb_add(&rep, t->details);
                }
            }
            x->score = x->ntests ? x->e->points * (double)x->passed / (double)x->ntests : 0.0;
            /* an untouched stub: one line instead of one per test */
            size_t unimpl = 0;
            for (size_t i = 0; i < x->ntests; i++)
                unimpl += x->tests[i]->state == T_FAIL
                          && strstr(x->tests[i]->details, "(not implemented)") != NULL;
            if (x->ntests > 0 && unimpl == x->ntests) {
                rep.len = 0;
                rep.s[0] = '\0';
                sb_printf(&rep, "not implemented yet: all %zu tests got MBD_EUNIMPL (the stub's "
                                "status)\n", x->ntests);
            }
            sb_printf(&out, "%zu of %zu tests passed\n", x->passed, x->ntests);
            sb_add(&out, tl.s);
            sb_free(&tl);
        }
        int full = u->state == U_OK && x->ntests > 0 && x->passed == x->ntests;
        char *label = xasprintf("%s  %s (%s)", x->e->id, x->e->title, x->e->file);
        sb_printf(&g->report, "  %-*s  %-4s  %s/%s\n", (int)width, label, full ? "OK" : "FAIL",
                  fmt_points(a, x->score), fmt_points(b, x->e->points));
        add_indented(&g->report, "        ", rep.s);
        free(label);
        x->report = sb_take(&rep);
        x->output = sb_take(&out);
        sb_free(&rep);
        sb_free(&out);
    }
}

/* ------------------------------------------------------------------------ */
/* results.json (Gradescope) and junit.xml                                  */

/* the length of a valid UTF-8 sequence at p, 0 if it is not one */
static int utf8_length(const unsigned char *p)
{
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        return (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (p[0] >= 0xE0 && p[0] <= 0xEF) {
        unsigned lo = p[0] == 0xE0 ? 0xA0 : 0x80, hi = p[0] == 0xED ? 0x9F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (p[0] >= 0xF0 && p[0] <= 0xF4) {
        unsigned lo = p[0] == 0xF0 ? 0x90 : 0x80, hi = p[0] == 0xF4 ? 0x8F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80 ? 4 : 0;
    }
    return 0;
}

/* A JSON string: quotes, backslashes and control characters escaped, invalid
 * UTF-8 (a test may print anything) replaced by U+FFFD. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p++, f);
        } else if (*p < 0x20) {
            switch (*p) {
            case '\n': fputs("\\n", f); break;
            case '\t': fputs("\\t", f); break;
            case '\r': fputs("\\r", f); break;
            default: fprintf(f, "\\u%04x", *p); break;
            }
            p++;
        } else if (*p < 0x80) {
            fputc(*p++, f);
        } else {
            int n = utf8_length(p);
            if (n > 0) {
                fwrite(p, 1, (size_t)n, f);
                p += n;
            } else {
                fputs("\\ufffd", f);
                p++;
            }
        }
    }
    fputc('"', f);
}

/* XML text or attribute value: the five entities; control characters that
 * XML 1.0 does not allow and invalid UTF-8 become '?'. */
static void xml_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        switch (*p) {
        case '&': fputs("&amp;", f); p++; continue;
        case '<': fputs("&lt;", f); p++; continue;
        case '>': fputs("&gt;", f); p++; continue;
        case '"': fputs("&quot;", f); p++; continue;
        case '\'': fputs("&apos;", f); p++; continue;
        default: break;
        }
        if (*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') {
            fputc('?', f);
            p++;
        } else if (*p < 0x80) {
            fputc(*p++, f);
        } else {
            int n = utf8_length(p);
            if (n > 0) {
                fwrite(p, 1, (size_t)n, f);
                p += n;
            } else {
                fputc('?', f);
                p++;
            }
        }
    }
}

static int write_results_json(grader *g, const char *path, double score, double max)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    char a[32];
    fprintf(f, "{\n  \"score\": %s,\n", fmt_points(a, score));
    fprintf(f, "  \"max_score\": %s,\n", fmt_points(a, max));
    fprintf(f, "  \"execution_time\": %.3f,\n", now_seconds() - g->started);
    fprintf(f, "  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"visible\",\n");
    fprintf(f, "  \"output\": ");
    json_string(f, g->report.s);
    fprintf(f, ",\n  \"tests\": [");
    for (size_t r = 0; r < g->nres; r++) {
        exercise_result *x = &g->res[r];
        char *name = xasprintf("%s %s (%s)", x->e->id, x->e->title, x->e->file);
        fprintf(f, "%s\n    {\n      \"number\": ", r ? "," : "");
        json_string(f, x->e->id);
        fprintf(f, ",\n      \"name\": ");
        json_string(f, name);
        fprintf(f, ",\n      \"score\": %s,\n", fmt_points(a, x->score));
        fprintf(f, "      \"max_score\": %s,\n", fmt_points(a, x->e->points));
        fprintf(f, "      \"status\": \"%s\",\n",
                x->score >= x->e->points && x->ntests > 0 ? "passed" : "failed");
        fprintf(f, "      \"visibility\": \"visible\",\n      \"output\": ");
        json_string(f, x->output);
        fprintf(f, "\n    }");
        free(name);
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

static int write_junit(grader *g, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    size_t tests = 0, failures = 0, errors = 0;
    double total = 0;
    for (size_t r = 0; r < g->nres; r++) {
        exercise_result *x = &g->res[r];
        if (x->u->state != U_OK) {
            tests++;
            errors++;
            continue;
        }
        for (size_t i = 0; i < x->ntests; i++) {
            tests++;
            failures += x->tests[i]->state == T_FAIL;
            errors += x->tests[i]->state != T_FAIL && x->tests[i]->state != T_PASS;
            total += x->tests[i]->seconds;
        }
    }
    char a[32];
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"mbd-grade\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
               "time=\"%.3f\">\n", tests, failures, errors, total);
    for (size_t r = 0; r < g->nres; r++) {
        exercise_result *x = &g->res[r];
        size_t fl = 0, er = 0, n = x->u->state == U_OK ? x->ntests : 1;
        double t = 0;
        if (x->u->state != U_OK)
            er = 1;
        else
            for (size_t i = 0; i < x->ntests; i++) {
                fl += x->tests[i]->state == T_FAIL;
                er += x->tests[i]->state != T_FAIL && x->tests[i]->state != T_PASS;
                t += x->tests[i]->seconds;
            }
        fprintf(f, "  <testsuite name=\"ex%s\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
                   "time=\"%.3f\">\n", x->e->id, n, fl, er, t);
        fprintf(f, "    <properties>\n      <property name=\"title\" value=\"");
        xml_text(f, x->e->title);
        fprintf(f, "\"/>\n      <property name=\"file\" value=\"");
        xml_text(f, x->u->src);
        fprintf(f, "\"/>\n      <property name=\"points\" value=\"%s\"/>\n",
                fmt_points(a, x->e->points));
        fprintf(f, "      <property name=\"score\" value=\"%s\"/>\n    </properties>\n",
                fmt_points(a, x->score));
        if (x->u->state != U_OK) {
            fprintf(f, "    <testcase classname=\"ex%s\" name=\"build\" time=\"0\">\n"
                       "      <error message=\"", x->e->id);
            const char *nl = strchr(x->u->problem, '\n');
            char *first = xstrndup(x->u->problem, nl ? (size_t)(nl - x->u->problem)
                                                     : strlen(x->u->problem));
            xml_text(f, first);
            fprintf(f, "\" type=\"build\">");
            xml_text(f, x->u->problem);
            fprintf(f, "</error>\n    </testcase>\n");
            free(first);
        } else {
            for (size_t i = 0; i < x->ntests; i++) {
                test_run *tr = x->tests[i];
                fprintf(f, "    <testcase classname=\"ex%s\" name=\"", x->e->id);
                xml_text(f, tr->name);
                fprintf(f, "\" time=\"%.3f\"", tr->seconds);
                if (tr->state == T_PASS) {
                    fprintf(f, "/>\n");
                    continue;
                }
                const char *tag = tr->state == T_FAIL ? "failure" : "error";
                const char *type = tr->state == T_FAIL      ? "assertion"
                                   : tr->state == T_CRASH   ? "crash"
                                   : tr->state == T_TIMEOUT ? "timeout"
                                   : tr->state == T_SANITIZER ? "sanitizer"
                                                            : "exit";
                fprintf(f, ">\n      <%s message=\"", tag);
                /* the message: the summary and the first line that says why */
                const char *d = tr->details;
                while (*d == ' ')
                    d++;
                const char *nl = strchr(d, '\n');
                char *why = *d ? xasprintf("%s: %.*s", tr->summary,
                                           (int)(nl ? (size_t)(nl - d) : strlen(d)), d)
                               : xstrdup(tr->summary);
                xml_text(f, why);
                free(why);
                fprintf(f, "\" type=\"%s\">", type);
                xml_text(f, tr->details);
                fprintf(f, "</%s>\n    </testcase>\n", tag);
            }
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------------------ */

/* In a child, as the sandbox user: fails (saying why) when the user can
 * read one of `secret` or cannot read one of `needed`, or cannot write to
 * the sandbox area. Returns 0 when all is as it must be. */
static int sandbox_check(const strlist *secret, const strlist *needed)
{
    fflush(NULL);
    pid_t p = fork();
    if (p < 0)
        return -1;
    if (p == 0) {
        if (become_user() != 0) {
            fprintf(stderr, "mbd-grade: --user %s: cannot switch to that user\n", sandbox.name);
            _exit(1);
        }
        for (size_t i = 0; i < secret->n; i++) {
            int fd = open(secret->v[i], O_RDONLY);
            if (fd >= 0) {
                fprintf(stderr, "mbd-grade: --user %s can read %s: the course's own files "
                                "must be root's only (chmod go-rwx), or a submission can "
                                "print them\n", sandbox.name, secret->v[i]);
                _exit(1);
            }
        }
        for (size_t i = 0; i < needed->n; i++) {
            int fd = open(needed->v[i], O_RDONLY);
            if (fd < 0) {
                fprintf(stderr, "mbd-grade: --user %s cannot read %s (%s): the graded files, "
                                "and the headers and libraries they are built with, must be "
                                "readable by that user\n", sandbox.name, needed->v[i],
                        strerror(errno));
                _exit(1);
            }
            close(fd);
        }
        char *probe = xasprintf("%s/.probe", sandbox.area);
        int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0) {
            fprintf(stderr, "mbd-grade: --user %s cannot write to %s (%s): every directory "
                            "above it must be searchable by that user (chmod o+x)\n",
                    sandbox.name, sandbox.area, strerror(errno));
            _exit(1);
        }
        close(fd);
        unlink(probe);
        _exit(0);
    }
    int st = 0;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Before the first step with --user: root's files private from here on
 * (umask 077), no process of the user left, <out> root's and searchable, its
 * earlier contents private, an empty sandbox area owned by the user, and
 * sandbox_check() on the configuration, the manifest and the selected tests
 * (secret) and graded files (needed). 0, or -1 after saying why. */
static int sandbox_start(grader *g, const char *config)
{
    const options *o = &g->o;
#if defined(__linux__)
    /* what a test leaves behind becomes the grader's child, to be reaped */
    prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L);
#endif
    umask(077);
    sandbox_sweep();
    struct stat st;
    if (mkdir_p(o->out) != 0 || lstat(o->out, &st) != 0 || !S_ISDIR(st.st_mode)
        || st.st_uid != 0) {
        fprintf(stderr, "mbd-grade: --user: %s must be a directory of root's\n", o->out);
        return -1;
    }
    sandbox.area = xasprintf("%s/sandbox", o->out);
    /* an earlier run's area goes (rm does not follow the links it may hold),
     * the rest of <out> becomes root's only */
    char *qa = shell_quote(sandbox.area), *qo = shell_quote(o->out);
    char *cmd = xasprintf("rm -rf -- %s && chmod -R go-rwx -- %s", qa, qo);
    job clean = {0};
    clean.argv = argv_of(3, "/bin/sh", "-c", cmd);
    clean.log = "/dev/null";
    int rc = run_jobs(&clean, 1, 1) == 0 && job_ok(&clean) ? 0 : -1;
    job_free(&clean);
    free(cmd);
    free(qa);
    free(qo);
    char *tmp = xasprintf("%s/tmp", sandbox.area), *abs = NULL;
    if (rc != 0 || chmod(o->out, 0711) != 0 || mkdir(sandbox.area, 0700) != 0
        || mkdir(tmp, 0700) != 0 || chown(tmp, sandbox.uid, sandbox.gid) != 0
        || chown(sandbox.area, sandbox.uid, sandbox.gid) != 0
        || (abs = realpath(sandbox.area, NULL)) == NULL) {
        fprintf(stderr, "mbd-grade: --user: cannot make the sandbox area %s (%s)\n",
                sandbox.area, strerror(errno));
        free(tmp);
        return -1;
    }
    sandbox.home = xasprintf("HOME=%s", abs);
    sandbox.tmpdir = xasprintf("TMPDIR=%s/tmp", abs);
    free(abs);
    free(tmp);
    strlist secret = {0}, needed = {0};
    if (config)
        sl_push(&secret, xstrdup(config));
    sl_push(&secret, xstrdup(o->manifest));
    for (size_t i = 0; i < g->m.nch; i++)
        for (size_t j = 0; j < g->m.ch[i].nex; j++) {
            const mx_chapter *ch = &g->m.ch[i];
            const mx_exercise *e = &ch->ex[j];
            if (!selected(o, ch, e))
                continue;
            char *stem = stem_of(e->file);
            char *t = xasprintf("%s/%s/test_%s.c", o->tests, ch->dir, stem);
            char *f = xasprintf("%s/%s/%s", o->src, ch->dir, e->file);
            if (!sl_contains(&secret, t))
                sl_push(&secret, t);
            else
                free(t);
            if (is_file(f) && !sl_contains(&needed, f))
                sl_push(&needed, f);
            else
                free(f);
            free(stem);
        }
    rc = sandbox_check(&secret, &needed);
    sl_free(&secret);
    sl_free(&needed);
    return rc;
}

static void grade_chapter(grader *g, const mx_chapter *ch)
{
    const options *o = &g->o;
    size_t first = g->nres;
    for (size_t i = 0; i < ch->nex; i++) {
        if (!selected(o, ch, &ch->ex[i]))
            continue;
        g->res = xrealloc(g->res, (g->nres + 1) * sizeof *g->res);
        exercise_result *x = &g->res[g->nres++];
        memset(x, 0, sizeof *x);
        x->ch = ch;
        x->e = &ch->ex[i];
    }
    size_t nres = g->nres - first;
    if (nres == 0)
        return;
    exercise_result *res = g->res + first;
    unit **us = xcalloc(nres, sizeof *us);
    size_t nu = 0;
    for (size_t r = 0; r < nres; r++) {
        size_t before = g->nunits;
        res[r].u = unit_for(g, ch, res[r].e->file);
        if (g->nunits > before)
            us[nu++] = res[r].u;
    }

    /* the include directories and objects of the chapters it uses */
    const mx_chapter **closure = xcalloc(g->m.nch, sizeof *closure);
    size_t nclosure = 0;
    uses_closure(&g->m, ch, closure, &nclosure);
    char *qdir = xasprintf("%s/%s", o->src, ch->dir), *q = shell_quote(qdir);
    strbuf incs, objs, problem;
    sb_init(&incs);
    sb_init(&objs);
    sb_init(&problem);
    sb_printf(&incs, "-I%s", q);
    free(q);
    free(qdir);
    for (size_t k = 0; k < nclosure; k++) {
        used_chapter *uc = used_for(g, closure[k]);
        build_used(g, uc);
        q = shell_quote(uc->dir);
        sb_printf(&incs, " -I%s", q);
        free(q);
        for (size_t i = 0; i < uc->objs.n; i++) {
            q = shell_quote(uc->objs.v[i]);
            sb_printf(&objs, " %s", q);
            free(q);
        }
        if (!uc->ok)
            sb_add(&problem, uc->problem);
    }
    free(closure);

    if (problem.len > 0) {
        for (size_t i = 0; i < nu; i++) {
            us[i]->state = U_USES;
            us[i]->problem = xstrdup(problem.s);
        }
    } else {
        build_units(g, us, nu, incs.s, objs.s);
        for (size_t i = 0; i < nu; i++)
            if (us[i]->state == U_OK)
                list_tests(g, us[i], res, nres);
        run_tests(g, res, nres);
    }
    score_chapter(g, ch, res, nres);
    fputs(g->report.s + g->report_printed, stdout);   /* this chapter's part */
    fflush(stdout);
    g->report_printed = g->report.len;
    sb_free(&incs);
    sb_free(&objs);
    sb_free(&problem);
    free(us);
}

static int option_value(int argc, char **argv, int *i, const char **value)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "mbd-grade: option %s needs a value\n", argv[*i]);
        return -1;
    }
    *value = argv[++*i];
    return 0;
}

int main(int argc, char **argv)
{
    tool_name = "mbd-grade";
    grader g;
    memset(&g, 0, sizeof g);
    options *o = &g.o;
    o->manifest = "exercises/manifest.yaml";
    o->src = "exercises";
    o->tests = "tests/exercises";
    o->out = "build/grade";
    const char *config = NULL, *solutions = NULL, *timeout = NULL, *jobs = NULL, *preface = NULL;
    const char *user = NULL;
    const char *cc = NULL, *cflags = NULL, *werror = NULL, *ldflags = NULL, *libs = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **v = strcmp(a, "--config") == 0      ? &config
                         : strcmp(a, "--cc") == 0        ? &cc
                         : strcmp(a, "--cflags") == 0    ? &cflags
                         : strcmp(a, "--werror") == 0    ? &werror
                         : strcmp(a, "--ldflags") == 0   ? &ldflags
                         : strcmp(a, "--libs") == 0      ? &libs
                         : strcmp(a, "--manifest") == 0  ? &o->manifest
                         : strcmp(a, "--src") == 0       ? &o->src
                         : strcmp(a, "--solutions") == 0 ? &solutions
                         : strcmp(a, "--tests") == 0     ? &o->tests
                         : strcmp(a, "--out") == 0       ? &o->out
                         : strcmp(a, "--chapter") == 0   ? &o->chapter
                         : strcmp(a, "--exercise") == 0  ? &o->exercise
                         : strcmp(a, "--file") == 0      ? &o->file
                         : strcmp(a, "--timeout") == 0   ? &timeout
                         : strcmp(a, "--jobs") == 0      ? &jobs
                         : strcmp(a, "--preface") == 0   ? &preface
                         : strcmp(a, "--user") == 0      ? &user
                                                         : NULL;
        if (v) {
            if (option_value(argc, argv, &i, v) != 0)
                return 2;
        } else if (strcmp(a, "--strict") == 0) {
            o->strict = 1;
        } else if (strcmp(a, "--require-full") == 0) {
            o->require_full = 1;
        } else if (strcmp(a, "--list-files") == 0) {
            o->list_files = 1;
        } else if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "mbd-grade: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    /* empty values (make passes CH= EX= as they are) mean "not given" */
    if (o->chapter && !*o->chapter)
        o->chapter = NULL;
    if (o->exercise && !*o->exercise)
        o->exercise = NULL;
    if (o->file && !*o->file)
        o->file = NULL;
    o->cc = cc ? xstrdup(cc) : NULL;
    o->cflags = cflags ? xstrdup(cflags) : NULL;
    o->werror = werror ? xstrdup(werror) : NULL;
    o->ldflags = ldflags ? xstrdup(ldflags) : NULL;
    o->libs = libs ? xstrdup(libs) : NULL;
    int rc = 0;
    if (config && read_config(config, o) != 0)
        rc = 2;
    if (user && *user && !o->list_files && sandbox_user(user) != 0)
        rc = 2;
    if (sandbox.on && solutions && *solutions) {
        fprintf(stderr, "mbd-grade: --solutions cannot go with --user: the reference solutions "
                        "would be linked into test programs whose code the submission "
                        "controls (the chapters an exercise uses come from --src)\n");
        rc = 2;
    }
    o->solutions = sandbox.on ? NULL
                   : solutions ? solutions
                   : is_dir("solutions") ? "solutions"
                                         : NULL;
    if (timeout && *timeout) {
        char *end;
        o->timeout = strtod(timeout, &end);
        if (*end || !(o->timeout > 0) || !isfinite(o->timeout)) {
            fprintf(stderr, "mbd-grade: --timeout: expected a number of seconds > 0, got '%s'\n",
                    timeout);
            rc = 2;
        }
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = ncpu > 0 ? (int)(ncpu < 16 ? ncpu : 16) : 1;
    if (jobs && *jobs) {
        char *end;
        long n = strtol(jobs, &end, 10);
        if (*end || n < 1 || n > 256) {
            fprintf(stderr, "mbd-grade: --jobs: expected a whole number in [1, 256], got '%s'\n",
                    jobs);
            rc = 2;
        } else {
            o->jobs = (int)n;
        }
    }
    if (o->exercise && !strchr(o->exercise, '.') && !o->chapter) {
        fprintf(stderr, "mbd-grade: exercise '%s' needs a chapter: give --chapter NN too, or "
                        "NN.%s (make grade CH=NN EX=K)\n", o->exercise, o->exercise);
        rc = 2;
    }
    if (!o->list_files && (!o->cc || !o->cflags || !o->libs)) {
        fprintf(stderr, "mbd-grade: no compiler settings: give --config FILE (make writes "
                        "$(BUILD)/tools/grade.conf) or --cc, --cflags and --libs\n");
        rc = 2;
    }
    if (!o->werror)
        o->werror = xstrdup("");
    if (!o->ldflags)
        o->ldflags = xstrdup("");
    if (rc == 0 && mx_load(o->manifest, &g.m, stderr) != 0)
        rc = 2;

    /* what to grade */
    size_t nsel = 0;
    if (rc == 0) {
        if (o->chapter && !mx_find_chapter(&g.m, o->chapter)) {
            fprintf(stderr, "mbd-grade: no chapter %s in %s (chapters:", o->chapter, g.m.path);
            for (size_t i = 0; i < g.m.nch; i++)
                fprintf(stderr, " %s", g.m.ch[i].number);
            fprintf(stderr, ")\n");
            rc = 2;
        }
        for (size_t i = 0; i < g.m.nch; i++)
            for (size_t j = 0; j < g.m.ch[i].nex; j++)
                nsel += selected(o, &g.m.ch[i], &g.m.ch[i].ex[j]) != 0;
        if (rc == 0 && nsel == 0) {
            fprintf(stderr, "mbd-grade: no exercise matches%s%s%s%s%s%s\n",
                    o->chapter ? " chapter " : "", o->chapter ? o->chapter : "",
                    o->exercise ? ", exercise " : "", o->exercise ? o->exercise : "",
                    o->file ? ", file " : "", o->file ? o->file : "");
            rc = 2;
        }
    }
    if (rc == 0 && o->list_files) {
        /* the selected exercises' files, and every file of the chapters they
         * use (grading links those from --src too) */
        const mx_chapter **used = xcalloc(g.m.nch, sizeof *used);
        size_t nused = 0;
        for (size_t i = 0; i < g.m.nch; i++)
            for (size_t j = 0; j < g.m.ch[i].nex; j++)
                if (selected(o, &g.m.ch[i], &g.m.ch[i].ex[j])) {
                    uses_closure(&g.m, &g.m.ch[i], used, &nused);
                    break;
                }
        for (size_t i = 0; i < g.m.nch; i++) {
            int whole = 0;
            for (size_t k = 0; k < nused; k++)
                whole |= used[k] == &g.m.ch[i];
            strlist seen = {0};
            for (size_t j = 0; j < g.m.ch[i].nex; j++) {
                const mx_exercise *e = &g.m.ch[i].ex[j];
                if ((whole || selected(o, &g.m.ch[i], e)) && !sl_contains(&seen, e->file)) {
                    printf("%s/%s\n", g.m.ch[i].dir, e->file);
                    sl_push(&seen, xstrdup(e->file));
                }
            }
            sl_free(&seen);
        }
        free(used);
    } else if (rc == 0) {
        /* sanitized test programs: let a segfault be a segfault (signal 11),
         * as in a normal build, rather than AddressSanitizer's exit status 1;
         * the user's own settings come after ours, so they win */
        const char *user = getenv("ASAN_OPTIONS");
        char *asan = xasprintf("handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0%s%s",
                               user && *user ? ":" : "", user && *user ? user : "");
        setenv("ASAN_OPTIONS", asan, 1);
        free(asan);

        g.started = now_seconds();
        sb_init(&g.report);
        if (sandbox.on && sandbox_start(&g, config) != 0) {
            rc = 2;
        } else if (mkdir_p(o->out) != 0) {
            fprintf(stderr, "mbd-grade: cannot create %s\n", o->out);
            rc = 2;
        } else {
            char lim[32];
            char *pre = preface && *preface ? read_file(preface, NULL) : NULL;
            if (preface && *preface && pre == NULL) {
                fprintf(stderr, "mbd-grade: cannot read the preface %s\n", preface);
                rc = 2;
            }
            if (pre && *pre) {
                sb_add(&g.report, pre);
                if (pre[strlen(pre) - 1] != '\n')
                    sb_addc(&g.report, '\n');
                sb_addc(&g.report, '\n');
            }
            free(pre);
            sb_printf(&g.report, "Grading %s/ with the tests in %s/ (%zu exercise%s; a test may "
                                 "take %s s)\n", o->src, o->tests, nsel, nsel == 1 ? "" : "s",
                      o->timeout > 0 ? fmt_points(lim, o->timeout)
                                     : fmt_points(lim, g.m.timeout));
            for (size_t i = 0; i < g.m.nch; i++)
                grade_chapter(&g, &g.m.ch[i]);
            double score = 0, max = 0;
            for (size_t r = 0; r < g.nres; r++) {
                score += g.res[r].score;
                max += g.res[r].e->points;
            }
            char *json = xasprintf("%s/results.json", o->out);
            char *junit = xasprintf("%s/junit.xml", o->out);
            char a[32], b[32];
            sb_printf(&g.report, "\nScore: %s/%s\n", fmt_points(a, score), fmt_points(b, max));
            if (write_results_json(&g, json, score, max) != 0
                || write_junit(&g, junit) != 0) {
                fprintf(stderr, "mbd-grade: cannot write %s or %s\n", json, junit);
                rc = 2;
            }
            printf("\nResults: %s, %s\n", json, junit);
            fputs(g.report.s + g.report_printed, stdout);
            free(json);
            free(junit);
            if (g.broken) {
                fprintf(stderr, "mbd-grade: the grading itself went wrong (see the messages "
                                "above); the score is not to be trusted\n");
                rc = 2;
            } else if (o->require_full && score < max) {
                rc = 1;
            }
        }
        sb_free(&g.report);
    }

    for (size_t r = 0; r < g.nres; r++) {
        exercise_result *x = &g.res[r];
        for (size_t i = 0; i < x->ntests; i++) {
            free(x->tests[i]->suite);
            free(x->tests[i]->name);
            free(x->tests[i]->summary);
            free(x->tests[i]->details);
            free(x->tests[i]);
        }
        free(x->tests);
        free(x->report);
        free(x->output);
    }
    free(g.res);
    for (size_t i = 0; i < g.nunits; i++)
        unit_free(g.units[i]);
    free(g.units);
    for (size_t i = 0; i < g.nused; i++) {
        free(g.used[i].dir);
        free(g.used[i].problem);
        sl_free(&g.used[i].objs);
    }
    free(g.used);
    mx_free(&g.m);
    free(o->cc);
    free(o->cflags);
    free(o->werror);
    free(o->ldflags);
    free(o->libs);
    free(sandbox.area);
    free(sandbox.home);
    free(sandbox.tmpdir);
    return rc;
}
