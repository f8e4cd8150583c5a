/* tools/stubgen.c -- exercise stubs from solution files (see stubgen.h). */
#include "stubgen.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum marker { M_NONE, M_BEGIN, M_STUB, M_END };

static const char *const marker_word[] = {"", "BEGIN", "STUB", "END"};

/* The exact text a marker line must have after its indentation. */
static char *marker_form(enum marker m, const char *id)
{
    switch (m) {
    case M_BEGIN:
        return xasprintf("/* EXERCISE %s BEGIN */", id);
    case M_STUB:
        return xasprintf("/* EXERCISE %s STUB", id);
    case M_END:
        return xasprintf("EXERCISE %s END */", id);
    default:
        return xstrdup("");
    }
}

/* Looks for "EXERCISE <digits>.<digits> <WORD>" in a line (len bytes, no
 * newline). Returns the marker kind (M_NONE if WORD is not BEGIN/STUB/END or
 * there is no such phrase), with the id in id[]. */
static enum marker find_marker(const char *line, size_t len, char id[32])
{
    const char *end = line + len;
    for (const char *p = line; p + 9 <= end; p++) {
        if (strncmp(p, "EXERCISE ", 9) != 0)
            continue;
        const char *q = p + 9, *idstart = q;
        while (q < end && isdigit((unsigned char)*q))
            q++;
        if (q == idstart || q >= end || *q != '.')
            continue;
        q++;
        const char *k = q;
        while (q < end && isdigit((unsigned char)*q))
            q++;
        if (q == k || (size_t)(q - idstart) >= 32)
            continue;
        size_t idlen = (size_t)(q - idstart);
        if (q >= end || *q != ' ')
            continue;
        while (q < end && *q == ' ')
            q++;
        for (int m = M_BEGIN; m <= M_END; m++) {
            size_t wl = strlen(marker_word[m]);
            if ((size_t)(end - q) >= wl && strncmp(q, marker_word[m], wl) == 0
                && (q + wl == end || !isalnum((unsigned char)q[wl]))) {
                memcpy(id, idstart, idlen);
                id[idlen] = '\0';
                return (enum marker)m;
            }
        }
    }
    return M_NONE;
}

/* Does the line (after its indentation, trailing blanks ignored) equal form? */
static int line_is(const char *line, size_t len, const char *form)
{
    while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
        len--;
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return len - i == strlen(form) && strncmp(line + i, form, len - i) == 0;
}

static int contains(const char *line, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (strncmp(line + i, needle, n) == 0)
            return 1;
    return 0;
}

int stub_generate(const char *path, const char *text, strbuf *out, stub_info *info, FILE *err)
{
    enum { OUTSIDE, IN_SOLUTION, IN_STUB } state = OUTSIDE;
    char open_id[32] = "";
    unsigned open_line = 0, lineno = 0;
    int nerr = 0;
    stub_info local;
    stub_info *inf = info ? info : &local;
    memset(inf, 0, sizeof *inf);
    sb_init(&inf->secret);
    size_t cap = 0;

#define FAIL(...)                                                                   \
    do {                                                                            \
        fprintf(err, "%s:%u: ", path, lineno);                                      \
        fprintf(err, __VA_ARGS__);                                                  \
        fputc('\n', err);                                                           \
        nerr++;                                                                     \
    } while (0)

    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *next = nl ? nl + 1 : p + len;
        lineno++;

        char id[32];
        enum marker m = find_marker(p, len, id);
        if (m != M_NONE) {
            char *form = marker_form(m, id);
            if (!line_is(p, len, form)) {
                FAIL("malformed marker: expected the line to be '%s' (with only indentation "
                     "before it), found '%.*s'", form, (int)len, p);
                free(form);
                p = next;
                continue;
            }
            free(form);
        }

        switch (state) {
        case OUTSIDE:
            if (m == M_BEGIN) {
                state = IN_SOLUTION;
                snprintf(open_id, sizeof open_id, "%s", id);
                open_line = lineno;
                /* the replacement line, at the BEGIN marker's indentation */
                size_t ind = 0;
                while (ind < len && (p[ind] == ' ' || p[ind] == '\t'))
                    ind++;
                sb_addn(out, p, ind);
                sb_printf(out, "/* EXERCISE %s: your code here (see README.md) */\n", id);
                if (inf->n == cap) {
                    cap = cap ? 2 * cap : 4;
                    inf->r = xrealloc(inf->r, cap * sizeof *inf->r);
                }
                inf->r[inf->n] = (stub_region){xstrdup(id), lineno, 0, 0, 0};
                inf->n++;
            } else if (m == M_STUB || m == M_END) {
                FAIL("'EXERCISE %s %s' outside a region: expected '/* EXERCISE %s BEGIN */' "
                     "before it", id, marker_word[m], id);
            } else {
                sb_addn(out, p, (size_t)(next - p));
            }
            break;
        case IN_SOLUTION:
            if (m == M_STUB && strcmp(id, open_id) == 0) {
                state = IN_STUB;
                inf->r[inf->n - 1].stub = lineno;
            } else if (m == M_BEGIN) {
                FAIL("nested region: 'EXERCISE %s BEGIN' inside EXERCISE %s (opened at line %u); "
                     "expected '/* EXERCISE %s STUB' first", id, open_id, open_line, open_id);
            } else if (m != M_NONE) {
                FAIL("expected '/* EXERCISE %s STUB' (EXERCISE %s BEGIN is at line %u), "
                     "found 'EXERCISE %s %s'", open_id, open_id, open_line, id, marker_word[m]);
            } else {
                sb_printf(&inf->secret, "%u:%.*s\n", lineno, (int)len, p);
            }
            break;
        case IN_STUB:
            if (m == M_END && strcmp(id, open_id) == 0) {
                /* every stub ends by returning MBD_EUNIMPL: the generator
                 * writes it (at the END marker's indentation), so no stub can
                 * forget it and no solution file carries it */
                size_t ind = 0;
                while (ind < len && (p[ind] == ' ' || p[ind] == '\t'))
                    ind++;
                sb_addn(out, p, ind);
                sb_add(out, "return MBD_EUNIMPL;\n");
                inf->r[inf->n - 1].stub_has_unimpl = 1;
                state = OUTSIDE;
                inf->r[inf->n - 1].end = lineno;
            } else if (m != M_NONE) {
                FAIL("expected 'EXERCISE %s END */' (EXERCISE %s STUB is at line %u), "
                     "found 'EXERCISE %s %s'", open_id, open_id, inf->r[inf->n - 1].stub, id,
                     marker_word[m]);
            } else if (contains(p, len, "*/")) {
                /* the stub lines sit inside the STUB comment of the solution */
                FAIL("a stub line must not contain '*/' (the stub of EXERCISE %s is inside a "
                     "comment until its END marker)", open_id);
            } else if (contains(p, len, "MBD_EUNIMPL")) {
                FAIL("the stub of EXERCISE %s returns MBD_EUNIMPL itself: the generator adds "
                     "'return MBD_EUNIMPL;' at the END marker; remove this line", open_id);
            } else {
                sb_addn(out, p, (size_t)(next - p));
            }
            break;
        }
        p = next;
    }
    if (state != OUTSIDE) {
        char *form = marker_form(state == IN_SOLUTION ? M_STUB : M_END, open_id);
        lineno = open_line;
        FAIL("EXERCISE %s BEGIN has no %s: expected '%s' before the end of the file", open_id,
             state == IN_SOLUTION ? "STUB" : "END", form);
        free(form);
    }
#undef FAIL
    if (!info)
        stub_info_free(&local);
    return nerr;
}

void stub_info_free(stub_info *info)
{
    for (size_t i = 0; i < info->n; i++)
        free(info->r[i].id);
    free(info->r);
    sb_free(&info->secret);
    memset(info, 0, sizeof *info);
}
