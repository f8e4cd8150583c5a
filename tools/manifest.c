/* tools/manifest.c -- reads exercises/manifest.yaml (see manifest.h).
 *
 * libyaml's document API loads the whole file into a node graph in which every
 * node keeps its start mark (line and column), so every check below can say
 * where the offending value is. The walk is schema-driven: a mapping is checked
 * against the list of keys it may have, which catches typos ("pionts") as well
 * as missing keys.
 */
#include "manifest.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "tool.h"

#define DEFAULT_TIMEOUT 10.0

typedef struct {
    const char *path;
    yaml_document_t *doc;
    FILE *err;
    int nerr;
} ctx;

static void error_at(ctx *c, const yaml_node_t *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void error_at(ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    fprintf(c->err, "%s:%lu:%lu: ", c->path, (unsigned long)n->start_mark.line + 1,
            (unsigned long)n->start_mark.column + 1);
    va_start(ap, fmt);
    vfprintf(c->err, fmt, ap);
    va_end(ap);
    fputc('\n', c->err);
    c->nerr++;
}

static const char *kind_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE:
        return "a scalar";
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_MAPPING_NODE:
        return "a mapping";
    default:
        return "nothing";
    }
}

static yaml_node_t *node(ctx *c, int index)
{
    return yaml_document_get_node(c->doc, index);
}

/* The text of a scalar node; NULL (after an error) for any other node. */
static const char *scalar(ctx *c, yaml_node_t *n, const char *key, const char *expected)
{
    if (n->type != YAML_SCALAR_NODE) {
        error_at(c, n, "'%s': expected %s, found %s", key, expected, kind_name(n));
        return NULL;
    }
    return (const char *)n->data.scalar.value;
}

/* A non-empty single-line string. */
static char *string_value(ctx *c, yaml_node_t *n, const char *key)
{
    const char *s = scalar(c, n, key, "a string");
    if (s == NULL)
        return NULL;
    if (*s == '\0' || strchr(s, '\n')) {
        error_at(c, n, "'%s': expected a non-empty one-line string, found '%s'", key, s);
        return NULL;
    }
    return xstrdup(s);
}

/* A finite number > 0. */
static int positive_number(ctx *c, yaml_node_t *n, const char *key, double *out)
{
    const char *s = scalar(c, n, key, "a number greater than 0");
    if (s == NULL)
        return -1;
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(x) || x <= 0) {
        error_at(c, n, "'%s': expected a number greater than 0, found '%s'", key, s);
        return -1;
    }
    *out = x;
    return 0;
}

static int is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

static int is_chapter_number(const char *s)
{
    return isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) && s[2] == '\0';
}

static int is_slug(const char *s)
{
    if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
            return 0;
    return 1;
}

/* a plain file name ending in .c */
static int is_c_file_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || strcmp(s + n - 2, ".c") != 0 || s[0] == '.')
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

/* A list of strings, each checked by valid() (NULL: any). The valid ones go
 * to *out (*count of them); returns 0, or -1 after an error. */
static int string_list(ctx *c, yaml_node_t *n, const char *key, int (*valid)(const char *),
                       const char *expected, char ***out, size_t *count)
{
    *out = NULL;
    *count = 0;
    if (n->type != YAML_SEQUENCE_NODE) {
        error_at(c, n, "'%s': expected a list of %s, found %s", key, expected, kind_name(n));
        return -1;
    }
    size_t items = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    char **v = xcalloc(items, sizeof *v);
    size_t k = 0;
    int bad = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *item = node(c, *it);
        const char *s = scalar(c, item, key, expected);
        if (s == NULL) {
            bad = 1;
            continue;
        }
        if (valid && !valid(s)) {
            error_at(c, item, "'%s': expected %s, found '%s'", key, expected, s);
            bad = 1;
            continue;
        }
        v[k++] = xstrdup(s);
    }
    *out = v;
    *count = k;
    return bad ? -1 : 0;
}

/* Matches the keys of a mapping against the allowed ones: values[i] is the
 * value node of keys[i] or NULL. Unknown and repeated keys are errors; so are
 * missing keys among the first nrequired. Returns 0 if all is well. */
static int mapping(ctx *c, yaml_node_t *n, const char *what, const char *const *keys,
                   size_t nkeys, size_t nrequired, yaml_node_t **values)
{
    for (size_t i = 0; i < nkeys; i++)
        values[i] = NULL;
    if (n->type != YAML_MAPPING_NODE) {
        error_at(c, n, "%s: expected a mapping (key: value lines), found %s", what, kind_name(n));
        return -1;
    }
    int bad = 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(c, p->key);
        if (k->type != YAML_SCALAR_NODE) {
            error_at(c, k, "%s: expected a key, found %s", what, kind_name(k));
            bad = 1;
            continue;
        }
        const char *name = (const char *)k->data.scalar.value;
        size_t i = 0;
        while (i < nkeys && strcmp(keys[i], name) != 0)
            i++;
        if (i == nkeys) {
            strbuf b;
            sb_init(&b);
            for (size_t j = 0; j < nkeys; j++)
                sb_printf(&b, "%s%s", j ? ", " : "", keys[j]);
            error_at(c, k, "%s: unknown key '%s' (expected one of: %s)", what, name, b.s);
            sb_free(&b);
            bad = 1;
        } else if (values[i] != NULL) {
            error_at(c, k, "%s: key '%s' appears twice", what, name);
            bad = 1;
        } else {
            values[i] = node(c, p->value);
        }
    }
    for (size_t i = 0; i < nrequired; i++)
        if (values[i] == NULL) {
            error_at(c, n, "%s: missing key '%s'", what, keys[i]);
            bad = 1;
        }
    return bad ? -1 : 0;
}

static void load_exercise(ctx *c, yaml_node_t *n, mx_chapter *ch, mx_exercise *e)
{
    static const char *const keys[] = {"id", "title", "file", "functions", "points", "timeout"};
    yaml_node_t *v[6];
    e->line = (unsigned long)n->start_mark.line + 1;
    e->column = (unsigned long)n->start_mark.column + 1;
    char *what = xasprintf("chapter %s: an exercise", ch->number ? ch->number : "?");
    mapping(c, n, what, keys, 6, 5, v);
    free(what);
    if (v[0] && (e->id = string_value(c, v[0], "id")) != NULL && ch->number) {
        /* NN.K with NN the chapter and K a positive whole number */
        const char *dot = strchr(e->id, '.');
        int ok = dot && (size_t)(dot - e->id) == strlen(ch->number)
                 && strncmp(e->id, ch->number, strlen(ch->number)) == 0 && dot[1] != '0'
                 && dot[1] != '\0' && strspn(dot + 1, "0123456789") == strlen(dot + 1);
        if (!ok) {
            error_at(c, v[0], "'id': expected %s.K (chapter %s, K = 1, 2, ...), found '%s'",
                     ch->number, ch->number, e->id);
            free(e->id);
            e->id = NULL;
        }
    }
    if (v[1])
        e->title = string_value(c, v[1], "title");
    if (v[2] && (e->file = string_value(c, v[2], "file")) != NULL && !is_c_file_name(e->file)) {
        error_at(c, v[2], "'file': expected a C file name like rigid_bar.c (no directory), found '%s'",
                 e->file);
        free(e->file);
        e->file = NULL;
    }
    if (v[3]) {
        if (string_list(c, v[3], "functions", is_identifier, "C function names", &e->functions,
                        &e->nfunctions) == 0 && e->nfunctions == 0)
            error_at(c, v[3], "'functions': expected at least one function name");
    }
    if (v[4])
        positive_number(c, v[4], "points", &e->points);
    if (v[5])
        positive_number(c, v[5], "timeout", &e->timeout);
}

static void load_chapter(ctx *c, yaml_node_t *n, mx_manifest *m, size_t index)
{
    static const char *const keys[] = {"chapter", "slug", "title", "exercises", "uses", "timeout"};
    mx_chapter *ch = &m->ch[index];
    yaml_node_t *v[6];
    ch->line = (unsigned long)n->start_mark.line + 1;
    ch->column = (unsigned long)n->start_mark.column + 1;
    mapping(c, n, "a chapter", keys, 6, 4, v);
    if (v[0] && (ch->number = string_value(c, v[0], "chapter")) != NULL) {
        if (!is_chapter_number(ch->number)) {
            error_at(c, v[0], "'chapter': expected two digits in quotes, like \"01\", found '%s'",
                     ch->number);
            free(ch->number);
            ch->number = NULL;
        } else {
            for (size_t j = 0; j < index; j++)
                if (m->ch[j].number && strcmp(m->ch[j].number, ch->number) == 0)
                    error_at(c, v[0], "chapter %s is listed twice (first at line %lu)", ch->number,
                             m->ch[j].line);
        }
    }
    if (v[1] && (ch->slug = string_value(c, v[1], "slug")) != NULL && !is_slug(ch->slug)) {
        error_at(c, v[1], "'slug': expected lower-case letters, digits and '-', found '%s'", ch->slug);
        free(ch->slug);
        ch->slug = NULL;
    }
    if (ch->number && ch->slug)
        ch->dir = xasprintf("%s-%s", ch->number, ch->slug);
    if (v[2])
        ch->title = string_value(c, v[2], "title");
    if (v[4]) {
        string_list(c, v[4], "uses", is_chapter_number, "chapter numbers like \"01\"", &ch->uses,
                    &ch->nuses);
        /* a chapter uses earlier chapters only (so there are no cycles) */
        for (size_t u = 0; u < ch->nuses; u++) {
            size_t j = 0;
            while (j < index && !(m->ch[j].number && strcmp(m->ch[j].number, ch->uses[u]) == 0))
                j++;
            if (j == index)
                error_at(c, v[4], "'uses': chapter %s is not a chapter listed before this one",
                         ch->uses[u]);
        }
    }
    if (v[5])
        positive_number(c, v[5], "timeout", &ch->timeout);
    if (v[3]) {
        yaml_node_t *list = v[3];
        if (list->type != YAML_SEQUENCE_NODE || list->data.sequence.items.top == list->data.sequence.items.start) {
            error_at(c, list, "'exercises': expected a non-empty list of exercises, found %s",
                     kind_name(list));
            return;
        }
        ch->nex = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
        ch->ex = xcalloc(ch->nex, sizeof *ch->ex);
        for (size_t i = 0; i < ch->nex; i++) {
            yaml_node_t *item = node(c, list->data.sequence.items.start[i]);
            load_exercise(c, item, ch, &ch->ex[i]);
            /* ids are unique within the manifest (the chapter prefix makes it
             * enough to look in this chapter) */
            for (size_t j = 0; j < i && ch->ex[i].id; j++)
                if (ch->ex[j].id && strcmp(ch->ex[j].id, ch->ex[i].id) == 0)
                    error_at(c, item, "exercise %s is listed twice (first at line %lu)",
                             ch->ex[i].id, ch->ex[j].line);
        }
    }
}

int mx_load(const char *path, mx_manifest *m, FILE *err)
{
    memset(m, 0, sizeof *m);
    m->path = xstrdup(path);
    m->timeout = DEFAULT_TIMEOUT;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(err, "%s: cannot open the manifest\n", path);
        return 1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    ctx c = {path, &doc, err, 0};
    if (!yaml_parser_load(&parser, &doc)) {
        /* a syntax error: libyaml's problem, where it is, and what it was
         * reading ("while parsing a block mapping") */
        yaml_mark_t mark = parser.problem_mark;
        fprintf(err, "%s:%lu:%lu: YAML syntax error: %s", path, (unsigned long)mark.line + 1,
                (unsigned long)mark.column + 1, parser.problem ? parser.problem : "unknown problem");
        if (parser.context)
            fprintf(err, " (%s, started at line %lu, column %lu)", parser.context,
                    (unsigned long)parser.context_mark.line + 1,
                    (unsigned long)parser.context_mark.column + 1);
        fputc('\n', err);
        yaml_parser_delete(&parser);
        fclose(f);
        return 1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        fprintf(err, "%s:1:1: the manifest is empty (expected a mapping with 'chapters:')\n", path);
        c.nerr++;
    } else {
        static const char *const keys[] = {"chapters", "timeout"};
        yaml_node_t *v[2];
        mapping(&c, root, "the manifest", keys, 2, 1, v);
        if (v[1])
            positive_number(&c, v[1], "timeout", &m->timeout);
        if (v[0]) {
            if (v[0]->type != YAML_SEQUENCE_NODE) {
                error_at(&c, v[0], "'chapters': expected a list of chapters, found %s",
                         kind_name(v[0]));
            } else {
                m->nch = (size_t)(v[0]->data.sequence.items.top - v[0]->data.sequence.items.start);
                m->ch = xcalloc(m->nch, sizeof *m->ch);
                for (size_t i = 0; i < m->nch; i++)
                    load_chapter(&c, node(&c, v[0]->data.sequence.items.start[i]), m, i);
            }
        }
        /* one document only */
        yaml_document_t extra;
        if (yaml_parser_load(&parser, &extra)) {
            yaml_node_t *r2 = yaml_document_get_root_node(&extra);
            if (r2) {
                fprintf(err, "%s:%lu:%lu: a second YAML document (expected one)\n", path,
                        (unsigned long)r2->start_mark.line + 1,
                        (unsigned long)r2->start_mark.column + 1);
                c.nerr++;
            }
            yaml_document_delete(&extra);
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    return c.nerr;
}

void mx_free(mx_manifest *m)
{
    for (size_t i = 0; i < m->nch; i++) {
        mx_chapter *ch = &m->ch[i];
        for (size_t j = 0; j < ch->nex; j++) {
            mx_exercise *e = &ch->ex[j];
            free(e->id);
            free(e->title);
            free(e->file);
            for (size_t k = 0; k < e->nfunctions; k++)
                free(e->functions[k]);
            free(e->functions);
        }
        free(ch->ex);
        for (size_t k = 0; k < ch->nuses; k++)
            free(ch->uses[k]);
        free(ch->uses);
        free(ch->number);
        free(ch->slug);
        free(ch->dir);
        free(ch->title);
    }
    free(m->ch);
    free(m->path);
    memset(m, 0, sizeof *m);
}

const mx_chapter *mx_find_chapter(const mx_manifest *m, const char *number)
{
    for (size_t i = 0; i < m->nch; i++)
        if (m->ch[i].number && strcmp(m->ch[i].number, number) == 0)
            return &m->ch[i];
    return NULL;
}

double mx_timeout(const mx_manifest *m, const mx_chapter *c, const mx_exercise *e)
{
    if (e->timeout > 0)
        return e->timeout;
    if (c->timeout > 0)
        return c->timeout;
    return m->timeout;
}

const char *mx_exercise_number(const mx_exercise *e)
{
    const char *dot = e->id ? strchr(e->id, '.') : NULL;
    return dot ? dot + 1 : "";
}
