/* tools/stubs.c -- mbd-stubs: exercises/ from solutions/, and the check that they agree.
 *
 *   mbd-stubs --write      regenerate exercises/NN-slug/ from solutions/NN-slug/ for
 *                          every chapter of the manifest, and the points table of
 *                          each exercises/NN-slug/README.md (make stubs)
 *   mbd-stubs --check      change nothing; report every file that is not what
 *                          --write would make (with a diff), a stale points table,
 *                          and every manifest entry whose file, function, marker
 *                          or test suite does not exist (make check-stubs)
 *   mbd-stubs --stub FILE  print the stub of one solution file
 *   mbd-stubs --regions FILE   print the solution lines of FILE's marked regions
 *                          as "FILE:LINE:TEXT" (the release check uses them)
 *
 * Options: --manifest FILE (exercises/manifest.yaml), --solutions DIR (solutions),
 * --exercises DIR (exercises), --tests DIR (tests/exercises).
 * Exit status: 0 all is well; 1 problems found (listed); 2 bad usage or an
 * unreadable manifest.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "manifest.h"
#include "stubgen.h"
#include "tool.h"

typedef struct {
    const char *manifest, *solutions, *exercises, *tests;
    int write;
    int problems;      /* counted by problem() */
    int written;
} opts;

static void problem(opts *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void problem(opts *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    o->problems++;
}

/* Shows how 'path' differs from the text it should have (diff -u). */
static void show_diff(const char *path, const char *expected, const char *label)
{
    char tmp[] = "/tmp/mbd-stubs-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    close(fd);
    if (write_file(tmp, expected, strlen(expected)) == 0) {
        char *qp = shell_quote(is_file(path) ? path : "/dev/null"), *qt = shell_quote(tmp);
        char *ql1 = shell_quote(path), *ql2 = shell_quote(label);
        char *cmd = xasprintf("diff -u --label %s --label %s %s %s | head -n 60", ql1, ql2, qp, qt);
        fflush(stdout);
        if (system(cmd) == -1)
            printf("    (cannot run diff)\n");
        free(cmd);
        free(qp);
        free(qt);
        free(ql1);
        free(ql2);
    }
    remove(tmp);
}

/* Brings 'path' to 'text': writes it (--write) or reports how it differs
 * ('what' says how, 'source' is what it is generated from). */
static void sync_file(opts *o, const char *path, const char *text, const char *source,
                      const char *what)
{
    size_t len;
    char *have = read_file(path, &len);
    int same = have && len == strlen(text) && memcmp(have, text, len) == 0;
    free(have);
    if (same)
        return;
    if (o->write) {
        if (write_file(path, text, strlen(text)) != 0) {
            problem(o, "%s: cannot write it", path);
        } else {
            printf("wrote %s\n", path);
            o->written++;
        }
        return;
    }
    if (!is_file(path)) {
        problem(o, "%s: missing; run `make stubs` (it is generated from %s)", path, source);
        return;
    }
    problem(o, "%s: %s; run `make stubs` (and edit %s, not this file):", path, what, source);
    char *label = xasprintf("generated from %s", source);
    show_diff(path, text, label);
    free(label);
}

/* Is there an identifier 'name' followed by '(' in text? */
static int has_function(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        const char *q = p + n;
        if (isalnum((unsigned char)*q) || *q == '_')
            continue;
        while (*q == ' ' || *q == '\t' || *q == '\n')
            q++;
        if (*q == '(')
            return 1;
    }
    return 0;
}

/* The markdown points table of a chapter. */
static char *points_table(const mx_chapter *ch)
{
    strbuf b;
    sb_init(&b);
    sb_add(&b, "| exercise | title | file | functions | points |\n");
    sb_add(&b, "|---|---|---|---|---:|\n");
    double total = 0;
    char pts[32];
    for (size_t i = 0; i < ch->nex; i++) {
        const mx_exercise *e = &ch->ex[i];
        sb_printf(&b, "| %s | ", e->id);
        for (const char *t = e->title; *t; t++) {   /* a '|' would end the cell */
            if (*t == '|')
                sb_addc(&b, '\\');
            sb_addc(&b, *t);
        }
        sb_printf(&b, " | `%s` | ", e->file);
        for (size_t k = 0; k < e->nfunctions; k++)
            sb_printf(&b, "%s`%s`", k ? ", " : "", e->functions[k]);
        sb_printf(&b, " | %s |\n", fmt_points(pts, e->points));
        total += e->points;
    }
    sb_printf(&b, "| | **total** | | | **%s** |\n", fmt_points(pts, total));
    return b.s;
}

/* The README with its points table replaced; NULL (after a problem) when
 * the markers are missing. */
static char *readme_with_table(opts *o, const char *path, const char *readme, const char *table)
{
    const char *begin = NULL, *end = NULL;
    for (const char *p = readme; *p;) {
        if (strncmp(p, "<!-- points:begin", 17) == 0) {
            if (begin) {
                problem(o, "%s: two '<!-- points:begin' lines", path);
                return NULL;
            }
            begin = p;
        } else if (strncmp(p, "<!-- points:end -->", 19) == 0 && begin && !end) {
            end = p;
        }
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    if (!begin || !end) {
        problem(o, "%s: expected a line '<!-- points:begin ... -->' and after it a line "
                   "'<!-- points:end -->' (the points table goes between them)", path);
        return NULL;
    }
    const char *after_begin = strchr(begin, '\n') + 1;   /* end follows, so there is a newline */
    strbuf b;
    sb_init(&b);
    sb_addn(&b, readme, (size_t)(after_begin - readme));
    sb_add(&b, table);
    sb_add(&b, end);
    return b.s;
}

/* Is this one of the files of the chapter named by an exercise? */
static int exercise_file(const mx_chapter *ch, const char *file)
{
    for (size_t i = 0; i < ch->nex; i++)
        if (ch->ex[i].file && strcmp(ch->ex[i].file, file) == 0)
            return 1;
    return 0;
}

static void do_chapter(opts *o, const mx_chapter *ch)
{
    char *sdir = xasprintf("%s/%s", o->solutions, ch->dir);
    char *edir = xasprintf("%s/%s", o->exercises, ch->dir);
    char *tdir = xasprintf("%s/%s", o->tests, ch->dir);
    strlist files = {0};
    if (list_files(sdir, &files) != 0) {
        problem(o, "%s: missing (chapter %s of %s has no solutions)", sdir, ch->number, o->manifest);
        goto done;
    }
    if (o->write && mkdir_p(edir) != 0) {
        problem(o, "%s: cannot create it", edir);
        goto done;
    }
    /* every solution file -> its stub; keep each stub's text for the checks */
    char **stubs = xcalloc(files.n, sizeof *stubs);
    stub_info *infos = xcalloc(files.n, sizeof *infos);
    for (size_t i = 0; i < files.n; i++) {
        char *spath = xasprintf("%s/%s", sdir, files.v[i]);
        char *epath = xasprintf("%s/%s", edir, files.v[i]);
        char *text = read_file(spath, NULL);
        strbuf out;
        sb_init(&out);
        if (text == NULL) {
            problem(o, "%s: cannot read it", spath);
        } else {
            int nerr = stub_generate(spath, text, &out, &infos[i], stdout);
            if (nerr > 0) {
                o->problems += nerr;
            } else {
                sync_file(o, epath, out.s, spath, "differs from the stub generated from its solution");
                stubs[i] = sb_take(&out);
            }
        }
        sb_free(&out);
        free(text);
        free(spath);
        free(epath);
    }

    /* files in exercises/ that no solution generates */
    strlist efiles = {0};
    list_files(edir, &efiles);
    for (size_t i = 0; i < efiles.n; i++)
        if (strcmp(efiles.v[i], "README.md") != 0 && !sl_contains(&files, efiles.v[i]))
            problem(o, "%s/%s: not generated from %s (remove it, or add its solution there)", edir,
                    efiles.v[i], sdir);
    sl_free(&efiles);

    /* the manifest against the files */
    for (size_t j = 0; j < ch->nex; j++) {
        const mx_exercise *e = &ch->ex[j];
        size_t i = 0;
        while (i < files.n && strcmp(files.v[i], e->file) != 0)
            i++;
        if (i == files.n) {
            problem(o, "%s:%lu: exercise %s: no file %s/%s", o->manifest, e->line, e->id, sdir,
                    e->file);
            continue;
        }
        char *spath = xasprintf("%s/%s", sdir, e->file);
        char *epath = xasprintf("%s/%s", edir, e->file);
        char *sol = read_file(spath, NULL);
        if (sol && stubs[i]) {
            int regions = 0;
            for (size_t r = 0; r < infos[i].n; r++)
                if (strcmp(infos[i].r[r].id, e->id) == 0)
                    regions++;
            if (regions == 0)
                problem(o, "%s: no region '/* EXERCISE %s BEGIN */' ... (exercise %s of %s:%lu); "
                           "without it the stub would hold the solution", spath, e->id, e->id,
                        o->manifest, e->line);
            for (size_t k = 0; k < e->nfunctions; k++) {
                if (!has_function(sol, e->functions[k]))
                    problem(o, "%s:%lu: exercise %s: function %s is not in %s", o->manifest,
                            e->line, e->id, e->functions[k], spath);
                else if (!has_function(stubs[i], e->functions[k]))
                    problem(o, "%s: function %s (exercise %s) is not in its stub", spath,
                            e->functions[k], e->id);
            }
            char *marker = xasprintf("EXERCISE %s", e->id);
            if (!strstr(stubs[i], marker))
                problem(o, "%s: the stub has no marker '%s'", epath, marker);
            if (!strstr(stubs[i], "MBD_EUNIMPL"))
                problem(o, "%s: the stub does not return MBD_EUNIMPL", epath);
            free(marker);
        }
        free(sol);
        /* the test file and its suite */
        size_t n = strlen(e->file);
        char *tpath = xasprintf("%s/test_%.*s.c", tdir, (int)(n - 2), e->file);
        char *tests = read_file(tpath, NULL);
        char *suite = xasprintf("\"ex%s\"", e->id);
        if (tests == NULL)
            problem(o, "%s:%lu: exercise %s: no test file %s", o->manifest, e->line, e->id, tpath);
        else if (!strstr(tests, suite))
            problem(o, "%s:%lu: exercise %s: %s registers no suite %s", o->manifest, e->line,
                    e->id, tpath, suite);
        free(tests);
        free(suite);
        free(tpath);
        free(spath);
        free(epath);
    }
    /* every region belongs to an exercise of the manifest in that file, and
     * its stub returns MBD_EUNIMPL */
    for (size_t i = 0; i < files.n; i++) {
        for (size_t r = 0; r < infos[i].n; r++) {
            const stub_region *g = &infos[i].r[r];
            int known = 0;
            for (size_t j = 0; j < ch->nex; j++)
                if (strcmp(ch->ex[j].id, g->id) == 0 && strcmp(ch->ex[j].file, files.v[i]) == 0)
                    known = 1;
            if (!known)
                problem(o, "%s/%s:%u: region EXERCISE %s is not an exercise of %s in this file",
                        sdir, files.v[i], g->begin, g->id, o->manifest);
            if (!g->stub_has_unimpl)
                problem(o, "%s/%s:%u: the stub of EXERCISE %s must return MBD_EUNIMPL", sdir,
                        files.v[i], g->stub, g->id);
        }
        if (infos[i].n > 0 && !exercise_file(ch, files.v[i]))
            problem(o, "%s/%s: has exercise regions but no exercise of %s names it", sdir,
                    files.v[i], o->manifest);
    }
    for (size_t i = 0; i < files.n; i++) {
        free(stubs[i]);
        stub_info_free(&infos[i]);
    }
    free(stubs);
    free(infos);

    /* the README's points table */
    char *rpath = xasprintf("%s/README.md", edir);
    char *readme = read_file(rpath, NULL);
    if (readme == NULL) {
        problem(o, "%s: missing (it states the tasks; write it with a points table between "
                   "'<!-- points:begin -->' and '<!-- points:end -->' lines)", rpath);
    } else {
        char *table = points_table(ch);
        char *next = readme_with_table(o, rpath, readme, table);
        if (next) {
            char *src = xasprintf("%s (chapter %s)", o->manifest, ch->number);
            sync_file(o, rpath, next, src, "its points table is stale");
            free(src);
        }
        free(table);
        free(next);
        free(readme);
    }
    free(rpath);
done:
    sl_free(&files);
    free(sdir);
    free(edir);
    free(tdir);
}

/* solutions/NN-* directories the manifest does not know */
static void unknown_chapters(opts *o, const mx_manifest *m)
{
    DIR *d = opendir(o->solutions);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (!(isdigit((unsigned char)n[0]) && isdigit((unsigned char)n[1]) && n[2] == '-'))
            continue;
        int known = 0;
        for (size_t i = 0; i < m->nch; i++)
            if (m->ch[i].dir && strcmp(m->ch[i].dir, n) == 0)
                known = 1;
        if (!known)
            problem(o, "%s/%s: no such chapter in %s (expected chapter \"%.2s\" with that slug)",
                    o->solutions, n, o->manifest, n);
    }
    closedir(d);
}

static int one_file(const char *path, int regions)
{
    char *text = read_file(path, NULL);
    if (text == NULL) {
        fprintf(stderr, "%s: cannot read %s\n", tool_name, path);
        return 2;
    }
    strbuf out;
    sb_init(&out);
    stub_info info;
    int nerr = stub_generate(path, text, &out, &info, stderr);
    if (nerr == 0) {
        if (regions) {
            for (const char *p = info.secret.s; *p;) {
                const char *nl = strchr(p, '\n');
                printf("%s:%.*s\n", path, (int)(nl - p), p);
                p = nl + 1;
            }
        } else {
            fputs(out.s, stdout);
        }
    }
    stub_info_free(&info);
    sb_free(&out);
    free(text);
    return nerr ? 1 : 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: %s [--manifest FILE] [--solutions DIR] [--exercises DIR] [--tests DIR]\n"
               "                 (--write | --check)\n"
               "       %s --stub FILE | --regions FILE\n",
            tool_name, tool_name);
}

int main(int argc, char **argv)
{
    tool_name = "mbd-stubs";
    opts o = {"exercises/manifest.yaml", "solutions", "exercises", "tests/exercises", -1, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **target = NULL;
        if (strcmp(a, "--write") == 0) {
            o.write = 1;
        } else if (strcmp(a, "--check") == 0) {
            o.write = 0;
        } else if (strcmp(a, "--stub") == 0 || strcmp(a, "--regions") == 0) {
            if (i + 1 >= argc || i + 2 != argc) {
                usage(stderr);
                return 2;
            }
            return one_file(argv[i + 1], strcmp(a, "--regions") == 0);
        } else if (strcmp(a, "--manifest") == 0) {
            target = &o.manifest;
        } else if (strcmp(a, "--solutions") == 0) {
            target = &o.solutions;
        } else if (strcmp(a, "--exercises") == 0) {
            target = &o.exercises;
        } else if (strcmp(a, "--tests") == 0) {
            target = &o.tests;
        } else if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "%s: unknown option '%s'\n", tool_name, a);
            usage(stderr);
            return 2;
        }
        if (target) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: option %s needs a value\n", tool_name, a);
                return 2;
            }
            *target = argv[++i];
        }
    }
    if (o.write < 0) {
        usage(stderr);
        return 2;
    }
    mx_manifest m;
    if (mx_load(o.manifest, &m, stderr) != 0) {
        mx_free(&m);
        return 2;
    }
    unknown_chapters(&o, &m);
    size_t nex = 0;
    for (size_t i = 0; i < m.nch; i++) {
        do_chapter(&o, &m.ch[i]);
        nex += m.ch[i].nex;
    }
    if (o.problems)
        printf("%s: %d problem%s%s\n", tool_name, o.problems, o.problems == 1 ? "" : "s",
               o.write ? "" : "; `make stubs` regenerates exercises/ from solutions/");
    else if (o.write)
        printf("%s: %s (%zu chapter%s, %zu exercises)\n", tool_name,
               o.written ? "exercises/ regenerated" : "exercises/ already up to date", m.nch,
               m.nch == 1 ? "" : "s", nex);
    else
        printf("%s: %s/ matches %s/ and %s (%zu chapter%s, %zu exercises)\n", tool_name,
               o.exercises, o.solutions, o.manifest, m.nch, m.nch == 1 ? "" : "s", nex);
    mx_free(&m);
    return o.problems ? 1 : 0;
}
