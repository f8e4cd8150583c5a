/* model_file.c -- reads a YAML model file into an mbd_model_desc (model_file.h).
 *
 * The reader works in three passes over the text, which it first reads into
 * memory whole:
 *
 *   1. libyaml's event parser runs over the text once, to refuse what the
 *      document API would hide or turn into a trap: aliases (`*name`, which
 *      the loaded graph shares between parents, so a walk could run in
 *      circles or multiply), a second document, and collections nested
 *      absurdly deep. A syntax error is reported here, with libyaml's own
 *      words and mark.
 *   2. libyaml's document API loads the text into a node graph in which every
 *      node keeps its start mark (line and column).
 *   3. A schema-driven walk turns the graph into the description. Every
 *      mapping is matched against the keys it may have (which catches typos
 *      and keys of another joint type), every value is checked where it is
 *      read, and the first error stops the walk with a message at the
 *      offending node's line and column.
 *
 * Every function of the walk returns 0, or -1 after recording the error in
 * the reader; the caller passes -1 on (the TRY macro) and the top level frees
 * the half-built description. Everything the description holds is allocated
 * with calloc, so that a description abandoned half way is freed by the same
 * mbd_model_desc_free as a complete one.
 */
#include "mbd/model_file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include <yaml.h>

#define PI 3.14159265358979323846

#define MAX_FILE_BYTES ((size_t)16 << 20)   /* 16 MiB: far above any hand-written model */
#define MAX_NESTING 64                      /* lists and mappings inside each other */
#define MAX_EXPR_DEPTH 32                   /* parentheses and signs inside a number */
#define MAX_NAME 63                         /* characters in a name */

#define TRY(x)              \
    do {                    \
        if ((x) != 0)       \
            return -1;      \
    } while (0)

/* ------------------------------------------------------------------------ */
/* The reader's state and its one error                                      */

/* An element name, for the check that names are unique. */
typedef struct {
    const char *name;     /* points into the description */
    const char *kind;     /* "joint", "constraint", ... */
    unsigned long line;
} name_entry;

typedef struct {
    const char *source;
    yaml_document_t *doc;
    mbd_model_error *err;
    mbd_model_desc *m;
    name_entry *names;    /* element names read so far (not bodies) */
    size_t nnames, capnames;
} reader;

static int vfail(reader *r, yaml_mark_t mark, int status, const char *fmt, va_list ap)
{
    mbd_model_error *e = r->err;
    if (e->status != GSL_SUCCESS)
        return -1;   /* the first error stands */
    e->status = status;
    e->line = (unsigned long)mark.line + 1;
    e->column = (unsigned long)mark.column + 1;
    int n = snprintf(e->message, sizeof e->message, "%s:%lu:%lu: ", r->source, e->line, e->column);
    if (n >= 0 && (size_t)n < sizeof e->message)
        vsnprintf(e->message + n, sizeof e->message - (size_t)n, fmt, ap);
    return -1;
}

/* Records an MBD_EINPUT error at a node's first character; returns -1. */
static int fail(reader *r, const yaml_node_t *node, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(reader *r, const yaml_node_t *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, node->start_mark, MBD_EINPUT, fmt, ap);
    va_end(ap);
    return -1;
}

/* The same at a mark (libyaml's syntax errors and events). */
static int fail_mark(reader *r, yaml_mark_t mark, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail_mark(reader *r, yaml_mark_t mark, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, mark, MBD_EINPUT, fmt, ap);
    va_end(ap);
    return -1;
}

/* An error that has no place in the text: "FILE: what". */
static int fail_file(reader *r, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail_file(reader *r, int status, const char *fmt, ...)
{
    mbd_model_error *e = r->err;
    if (e->status != GSL_SUCCESS)
        return -1;
    e->status = status;
    e->line = e->column = 0;
    int n = snprintf(e->message, sizeof e->message, "%s: ", r->source);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof e->message)
        vsnprintf(e->message + n, sizeof e->message - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int out_of_memory(reader *r)
{
    return fail_file(r, GSL_ENOMEM, "out of memory");
}

static void *xcalloc(reader *r, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (p == NULL)
        out_of_memory(r);
    return p;
}

static char *xstrdup(reader *r, const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p == NULL) {
        out_of_memory(r);
        return NULL;
    }
    memcpy(p, s, n + 1);
    return p;
}

static mbd_model_pos pos_of(const yaml_node_t *n)
{
    mbd_model_pos p = {(unsigned long)n->start_mark.line + 1, (unsigned long)n->start_mark.column + 1};
    return p;
}

/* ------------------------------------------------------------------------ */
/* Describing what was found                                                 */

/* s, quoted, at most 40 bytes of it (cut at a UTF-8 character boundary, with
 * "..." after), control characters shown as '?': a message stays one line. */
static const char *quoted(const char *s, char *buf, size_t size)
{
    size_t max = 40, n = strlen(s), k = n > max ? max : n;
    if (n > max)
        while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
            k--;   /* do not cut a multi-byte character */
    size_t j = 0;
    buf[j++] = '\'';
    for (size_t i = 0; i < k && j + 5 < size; i++)
        buf[j++] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
    if (n > k && j + 5 < size) {
        memcpy(buf + j, "...", 3);
        j += 3;
    }
    buf[j++] = '\'';
    buf[j] = '\0';
    return buf;
}

/* What a node is, for "found ...": 'text', an empty value, a list of N
 * items, a mapping. */
static const char *found(const yaml_node_t *n, char *buf, size_t size)
{
    switch (n->type) {
    case YAML_SCALAR_NODE:
        if (n->data.scalar.length == 0)
            snprintf(buf, size, "an empty value");
        else
            quoted((const char *)n->data.scalar.value, buf, size);
        break;
    case YAML_SEQUENCE_NODE: {
        size_t k = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
        snprintf(buf, size, "a list of %zu item%s", k, k == 1 ? "" : "s");
        break;
    }
    case YAML_MAPPING_NODE:
        snprintf(buf, size, "a mapping");
        break;
    default:
        snprintf(buf, size, "nothing");
        break;
    }
    return buf;
}

#define FOUND(n) found((n), fbuf, sizeof fbuf)

static yaml_node_t *node_at(reader *r, int index)
{
    return yaml_document_get_node(r->doc, index);
}

static size_t seq_len(const yaml_node_t *n)
{
    return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
}

static yaml_node_t *seq_item(reader *r, const yaml_node_t *n, size_t i)
{
    return node_at(r, n->data.sequence.items.start[i]);
}

static const char *scalar_text(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* the value of `key` in the mapping n, or NULL when n has no such key */
static yaml_node_t *value_of(reader *r, yaml_node_t *n, const char *key)
{
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const char *k = scalar_text(node_at(r, p->key));
        if (k && strcmp(k, key) == 0)
            return node_at(r, p->value);
    }
    return NULL;
}

/* The text of the scalar value of `key` in mapping n, or NULL (no check). */
static const char *peek(reader *r, const yaml_node_t *n, const char *key)
{
    if (n->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const char *k = scalar_text(node_at(r, p->key));
        if (k != NULL && strcmp(k, key) == 0)
            return scalar_text(node_at(r, p->value));
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Mappings against their keys                                               */

typedef struct {
    const char *name;
    int required;
    const char *expected;   /* what its value is, for "missing key" */
} key_spec;

/* "a, b, c" */
static void join_keys(const key_spec *keys, size_t n, char *buf, size_t size)
{
    size_t j = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && j < size; i++) {
        int w = snprintf(buf + j, size - j, "%s%s", i ? ", " : "", keys[i].name);
        if (w < 0)
            break;
        j += (size_t)w;
    }
}

/* "a" or "an" before a word */
static const char *article(const char *word)
{
    return strchr("aeiou", word[0]) && word[0] ? "an" : "a";
}

static int in_list(const char *s, const char *const *list)
{
    for (; list && *list; list++)
        if (strcmp(*list, s) == 0)
            return 1;
    return 0;
}

/* Matches mapping n against keys: v[i] becomes the value node of keys[i], or
 * NULL. An unknown key, a key given twice and a missing required key are
 * errors. `refused` lists keys that exist elsewhere in the format but not
 * for this kind of element (described by `kind`, e.g. "a revolute joint"):
 * they get their own message. */
static int get_map(reader *r, yaml_node_t *n, const char *what, const key_spec *keys,
                   size_t nkeys, const char *const *refused, const char *kind, yaml_node_t **v)
{
    char fbuf[96], list[400];
    for (size_t i = 0; i < nkeys; i++)
        v[i] = NULL;
    if (n->type != YAML_MAPPING_NODE)
        return fail(r, n, "%s: expected a mapping (key: value lines), found %s", what, FOUND(n));
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node_at(r, p->key);
        const char *name = scalar_text(k);
        if (name == NULL)
            return fail(r, k, "%s: expected a key (a word before ':'), found %s", what, FOUND(k));
        size_t i = 0;
        while (i < nkeys && strcmp(keys[i].name, name) != 0)
            i++;
        if (i == nkeys) {
            join_keys(keys, nkeys, list, sizeof list);
            if (in_list(name, refused))
                return fail(r, k, "%s: key '%s' is not used by %s (expected one of: %s)", what, name,
                            kind, list);
            return fail(r, k, "%s: unknown key %s (expected one of: %s)", what,
                        quoted(name, fbuf, sizeof fbuf), list);
        }
        if (v[i] != NULL)
            return fail(r, k, "%s: key '%s' appears twice (first at line %lu)", what, name,
                        (unsigned long)v[i]->start_mark.line + 1);
        v[i] = node_at(r, p->value);
    }
    for (size_t i = 0; i < nkeys; i++)
        if (keys[i].required && v[i] == NULL)
            return fail(r, n, "%s: missing key '%s' (expected %s)", what, keys[i].name, keys[i].expected);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Numbers: a plain YAML scalar holding a number or a small expression       */

/* The grammar, with spaces allowed between tokens:
 *     sum     = product { ("+" | "-") product }
 *     product = unary { ("*" | "/") unary }
 *     unary   = ("-" | "+") unary | primary
 *     primary = NUMBER | "pi" | ("sqrt" | "sin" | "cos") "(" sum ")" | "(" sum ")"
 * NUMBER is decimal: digits, an optional fraction, an optional exponent
 * (12, 0.5, .5, 5., 1e-3). No hexadecimal, no inf, no nan. */
typedef struct {
    const char *s;
    int depth;
    int bad;
} expr;

static double ex_sum(expr *e);

static void ex_space(expr *e)
{
    while (*e->s == ' ' || *e->s == '\t')
        e->s++;
}

static double ex_primary(expr *e)
{
    ex_space(e);
    const char *s = e->s;
    if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
        const char *p = s;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p == '.') {
            p++;
            while (isdigit((unsigned char)*p))
                p++;
        }
        if (*p == 'e' || *p == 'E') {
            const char *q = p + 1;
            if (*q == '+' || *q == '-')
                q++;
            if (!isdigit((unsigned char)*q)) {
                e->bad = 1;
                return 0;
            }
            while (isdigit((unsigned char)*q))
                q++;
            p = q;
        }
        char buf[128];
        size_t len = (size_t)(p - s);
        if (len >= sizeof buf) {
            e->bad = 1;
            return 0;
        }
        memcpy(buf, s, len);
        buf[len] = '\0';
        e->s = p;
        return strtod(buf, NULL);   /* an overflow gives HUGE_VAL: refused as non-finite */
    }
    if (*s == '(' || isalpha((unsigned char)*s)) {
        int fn = 0;   /* 0 parentheses, 1 sqrt, 2 sin, 3 cos */
        if (*s != '(') {
            const char *p = s;
            while (isalpha((unsigned char)*p))
                p++;
            size_t len = (size_t)(p - s);
            e->s = p;
            if (len == 2 && strncmp(s, "pi", 2) == 0)
                return PI;
            if (len == 4 && strncmp(s, "sqrt", 4) == 0)
                fn = 1;
            else if (len == 3 && strncmp(s, "sin", 3) == 0)
                fn = 2;
            else if (len == 3 && strncmp(s, "cos", 3) == 0)
                fn = 3;
            else {
                e->bad = 1;
                return 0;
            }
            ex_space(e);
            if (*e->s != '(') {
                e->bad = 1;
                return 0;
            }
        }
        e->s++;   /* the '(' */
        if (++e->depth > MAX_EXPR_DEPTH) {
            e->bad = 1;
            return 0;
        }
        double x = ex_sum(e);
        e->depth--;
        ex_space(e);
        if (*e->s != ')') {
            e->bad = 1;
            return 0;
        }
        e->s++;
        switch (fn) {
        case 1: return sqrt(x);   /* sqrt of a negative number is NaN: refused */
        case 2: return sin(x);
        case 3: return cos(x);
        default: return x;
        }
    }
    e->bad = 1;
    return 0;
}

static double ex_unary(expr *e)
{
    ex_space(e);
    if (*e->s == '-' || *e->s == '+') {
        int minus = *e->s == '-';
        e->s++;
        if (++e->depth > MAX_EXPR_DEPTH) {
            e->bad = 1;
            return 0;
        }
        double x = ex_unary(e);
        e->depth--;
        return minus ? -x : x;
    }
    return ex_primary(e);
}

static double ex_product(expr *e)
{
    double x = ex_unary(e);
    for (;;) {
        ex_space(e);
        if (e->bad || (*e->s != '*' && *e->s != '/'))
            return x;
        char op = *e->s++;
        double y = ex_unary(e);
        x = op == '*' ? x * y : x / y;   /* x / 0 is infinite or NaN: refused */
    }
}

static double ex_sum(expr *e)
{
    double x = ex_product(e);
    for (;;) {
        ex_space(e);
        if (e->bad || (*e->s != '+' && *e->s != '-'))
            return x;
        char op = *e->s++;
        double y = ex_product(e);
        x = op == '+' ? x + y : x - y;
    }
}

/* 0 and *x for a whole number text, -1 if it is not one (x may be non-finite). */
static int parse_number(const char *s, double *x)
{
    expr e = {s, 0, 0};
    double v = ex_sum(&e);
    ex_space(&e);
    if (e.bad || *e.s != '\0')
        return -1;
    *x = v;
    return 0;
}

/* YAML's and C's spellings of infinity and not-a-number, for a clear message */
static int looks_nonfinite(const char *s)
{
    static const char *const words[] = {".inf", "-.inf", "+.inf", ".nan", "inf", "-inf", "+inf",
                                        "nan", "infinity", "-infinity", "+infinity", NULL};
    for (const char *const *w = words; *w; w++) {
        size_t n = strlen(*w);
        if (strlen(s) == n) {
            size_t i = 0;
            while (i < n && tolower((unsigned char)s[i]) == (*w)[i])
                i++;
            if (i == n)
                return 1;
        }
    }
    return 0;
}

#define NUMBER_EXAMPLES "like 2, -0.5, 1e-3, pi/2 or sqrt(2)/2"

/* A finite number. `label` names the value in messages: "body 'b': 'mass'". */
static int number(reader *r, yaml_node_t *n, const char *label, double *out)
{
    char fbuf[96];
    const char *s = scalar_text(n);
    if (s == NULL)
        return fail(r, n, "%s: expected a number, found %s", label, FOUND(n));
    if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return fail(r, n, "%s: expected a number, found the quoted text %s (write numbers without quotes)",
                    label, FOUND(n));
    if (*s == '\0')
        return fail(r, n, "%s: expected a number, found an empty value", label);
    if (looks_nonfinite(s))
        return fail(r, n, "%s: expected a finite number, found %s", label, FOUND(n));
    double x;
    if (parse_number(s, &x) != 0)
        return fail(r, n, "%s: expected a number (" NUMBER_EXAMPLES "), found %s", label, FOUND(n));
    if (!isfinite(x))
        return fail(r, n, "%s: expected a finite number, found %s (it evaluates to %s)", label,
                    FOUND(n), isnan(x) ? "not-a-number" : "infinity");
    *out = x;
    return 0;
}

static int positive(reader *r, yaml_node_t *n, const char *label, double *out)
{
    char fbuf[96];
    TRY(number(r, n, label, out));
    if (!(*out > 0))
        return fail(r, n, "%s: expected a number greater than 0, found %s", label, FOUND(n));
    return 0;
}

static int nonnegative(reader *r, yaml_node_t *n, const char *label, double *out)
{
    char fbuf[96];
    TRY(number(r, n, label, out));
    if (!(*out >= 0))
        return fail(r, n, "%s: expected a number greater than or equal to 0, found %s", label, FOUND(n));
    return 0;
}

/* A list of exactly k numbers. */
static int numbers(reader *r, yaml_node_t *n, const char *label, size_t k, double *out)
{
    char fbuf[96], item[160];
    if (n->type != YAML_SEQUENCE_NODE || seq_len(n) != k)
        return fail(r, n, "%s: expected a list of %zu numbers [a, b, ...], found %s", label, k, FOUND(n));
    for (size_t i = 0; i < k; i++) {
        snprintf(item, sizeof item, "%s, item %zu", label, i + 1);
        TRY(number(r, seq_item(r, n, i), item, &out[i]));
    }
    return 0;
}

static int vector3(reader *r, yaml_node_t *n, const char *label, double v[3])
{
    return numbers(r, n, label, 3, v);
}

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A vector of length 1 within MBD_MODEL_UNIT_TOL. */
static int unit3(reader *r, yaml_node_t *n, const char *label, double v[3])
{
    TRY(vector3(r, n, label, v));
    double len = norm3(v);
    if (!(fabs(len - 1) <= MBD_MODEL_UNIT_TOL))
        return fail(r, n, "%s: expected a unit vector (length 1 within 1e-9), found length %.12g "
                          "(divide each entry by the length)", label, len);
    return 0;
}

static int nonzero3(reader *r, yaml_node_t *n, const char *label, double v[3])
{
    TRY(vector3(r, n, label, v));
    if (!(norm3(v) > 0))
        return fail(r, n, "%s: expected a non-zero vector, found [0, 0, 0]", label);
    return 0;
}

/* true or false (plain, lower case). */
static int boolean(reader *r, yaml_node_t *n, const char *label, int *out)
{
    char fbuf[96];
    const char *s = scalar_text(n);
    if (s != NULL && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
        if (strcmp(s, "true") == 0) {
            *out = 1;
            return 0;
        }
        if (strcmp(s, "false") == 0) {
            *out = 0;
            return 0;
        }
    }
    return fail(r, n, "%s: expected true or false, found %s", label, FOUND(n));
}

/* One of the words in `choices` (NULL-terminated); *out its index. */
static int choice(reader *r, yaml_node_t *n, const char *label, const char *const *choices, int *out)
{
    char fbuf[96], list[300];
    const char *s = scalar_text(n);
    if (s != NULL)
        for (int i = 0; choices[i]; i++)
            if (strcmp(s, choices[i]) == 0) {
                *out = i;
                return 0;
            }
    size_t j = 0;
    list[0] = '\0';
    for (int i = 0; choices[i] && j < sizeof list; i++) {
        int w = snprintf(list + j, sizeof list - j, "%s%s", i ? ", " : "", choices[i]);
        if (w < 0)
            break;
        j += (size_t)w;
    }
    return fail(r, n, "%s: expected one of: %s; found %s", label, list, FOUND(n));
}

/* A name: a letter or '_', then letters, digits, '_' or '-'; at most 63. */
static int is_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > MAX_NAME || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-'))
            return 0;
    return 1;
}

#define NAME_RULE "a letter or '_', then letters, digits, '_' or '-'; at most 63 characters"

static int name_value(reader *r, yaml_node_t *n, const char *label, char **out)
{
    char fbuf[96];
    const char *s = scalar_text(n);
    if (s == NULL || !is_name(s))
        return fail(r, n, "%s: expected a name (" NAME_RULE "), found %s", label, FOUND(n));
    *out = xstrdup(r, s);
    return *out ? 0 : -1;
}

/* A non-empty one-line text of at most 200 characters. */
static int text_value(reader *r, yaml_node_t *n, const char *label, char **out)
{
    char fbuf[96];
    const char *s = scalar_text(n);
    if (s == NULL || *s == '\0' || strchr(s, '\n') || strlen(s) > 200)
        return fail(r, n, "%s: expected a non-empty text on one line (at most 200 characters), found %s",
                     label, FOUND(n));
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\t')
            return fail(r, n, "%s: expected printable text, found a control character", label);
    *out = xstrdup(r, s);
    return *out ? 0 : -1;
}

/* A list (possibly empty); *count its length. */
static int list(reader *r, yaml_node_t *n, const char *label, const char *of, size_t *count)
{
    char fbuf[96];
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(r, n, "%s: expected a list of %s (lines starting with '- '), found %s", label, of,
                    FOUND(n));
    *count = seq_len(n);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Names and references                                                      */

long mbd_model_find_body(const mbd_model_desc *m, const char *name)
{
    if (m == NULL || name == NULL || m->nbodies == 0)
        return -1;
    if (strcmp(name, "ground") == 0)
        return 0;
    for (size_t i = 0; i < m->nbodies; i++)
        if (m->bodies[i].name && strcmp(m->bodies[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* A body by name: *index into bodies[]. */
static int body_ref(reader *r, yaml_node_t *n, const char *label, size_t *index)
{
    char fbuf[96], names[300];
    const char *s = scalar_text(n);
    if (s == NULL || *s == '\0')
        return fail(r, n, "%s: expected the name of a body, found %s", label, FOUND(n));
    long i = mbd_model_find_body(r->m, s);
    if (i >= 0) {
        *index = (size_t)i;
        return 0;
    }
    size_t j = 0;
    names[0] = '\0';
    for (size_t b = 0; b < r->m->nbodies && j + 8 < sizeof names; b++) {
        if (b == 8) {
            snprintf(names + j, sizeof names - j, ", ...");
            break;
        }
        int w = snprintf(names + j, sizeof names - j, "%s%s", b ? ", " : "", r->m->bodies[b].name);
        if (w < 0)
            break;
        j += (size_t)w;
    }
    return fail(r, n, "%s: no body is named %s (the bodies are: %s)", label, FOUND(n), names);
}

/* Element names (joints, constraints, forces, torques, TSDAs, output
 * points) share one namespace, so that a reaction or an output can be asked
 * for by name. */
static int register_name(reader *r, yaml_node_t *n, const char *kind, const char *name)
{
    for (size_t i = 0; i < r->nnames; i++)
        if (strcmp(r->names[i].name, name) == 0)
            return fail(r, n, "%s '%s': the name is already used by the %s at line %lu", kind, name,
                        r->names[i].kind, r->names[i].line);
    if (r->nnames == r->capnames) {
        size_t cap = r->capnames ? 2 * r->capnames : 32;
        name_entry *p = realloc(r->names, cap * sizeof *p);
        if (p == NULL)
            return out_of_memory(r);
        r->names = p;
        r->capnames = cap;
    }
    r->names[r->nnames].name = name;
    r->names[r->nnames].kind = kind;
    r->names[r->nnames].line = (unsigned long)n->start_mark.line + 1;
    r->nnames++;
    return 0;
}

/* "joint 'name'" when the mapping has a usable name, else "joint N" (its
 * 1-based place in the list). */
static void element_label(reader *r, yaml_node_t *n, const char *kind, size_t index, char *buf,
                          size_t size)
{
    char q[96];
    const char *name = peek(r, n, "name");
    if (name != NULL && *name != '\0')
        snprintf(buf, size, "%s %s", kind, quoted(name, q, sizeof q));
    else
        snprintf(buf, size, "%s %zu", kind, index + 1);
}

/* "what: 'key'" into buf, cut to fit (a label only ever prefixes a message) */
static const char *key_label(const char *what, const char *key, char *buf, size_t size)
{
    const char *parts[4] = {what, ": '", key, "'"};
    size_t j = 0;
    for (int i = 0; i < 4; i++)
        for (const char *s = parts[i]; *s && j + 1 < size; s++)
            buf[j++] = *s;
    buf[j] = '\0';
    return buf;
}

#define KL(key) key_label(what, (key), lbuf, sizeof lbuf)

/* ------------------------------------------------------------------------ */
/* Time functions                                                            */

static void fn_free(mbd_model_fn *f)
{
    if (f == NULL)
        return;
    free(f->coef);
    f->coef = NULL;
    for (size_t i = 0; i < f->nterms && f->terms; i++)
        fn_free(&f->terms[i]);
    free(f->terms);
    f->terms = NULL;
}

static void fn_constant(mbd_model_fn *f, double value, mbd_model_pos pos)
{
    memset(f, 0, sizeof *f);
    f->kind = MBD_MODEL_FN_CONSTANT;
    f->value = value;
    f->pos = pos;
}

#define FN_FORMS "a number, or a mapping with one of: constant, polynomial, sine, sum, cos_of"

/* A time function: a number (a constant), or a mapping with exactly one of
 * the keys constant, polynomial, sine, sum, cos_of. */
static int read_fn(reader *r, yaml_node_t *n, const char *label, int depth, mbd_model_fn *f)
{
    char fbuf[96], lbuf[200];
    memset(f, 0, sizeof *f);
    f->pos = pos_of(n);
    if (depth > MBD_MODEL_FN_MAX_DEPTH)
        return fail(r, n, "%s: time functions nested deeper than %d levels", label,
                    MBD_MODEL_FN_MAX_DEPTH);
    if (n->type == YAML_SCALAR_NODE) {
        f->kind = MBD_MODEL_FN_CONSTANT;
        return number(r, n, label, &f->value);
    }
    if (n->type != YAML_MAPPING_NODE || n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
        return fail(r, n, "%s: expected a time function (" FN_FORMS "), found %s", label,
                    n->type == YAML_MAPPING_NODE
                        ? (n->data.mapping.pairs.top == n->data.mapping.pairs.start
                               ? "an empty mapping" : "a mapping with more than one key")
                        : FOUND(n));
    static const key_spec keys[] = {
        {"constant", 0, ""}, {"polynomial", 0, ""}, {"sine", 0, ""}, {"sum", 0, ""}, {"cos_of", 0, ""}};
    yaml_node_t *v[5];
    TRY(get_map(r, n, label, keys, 5, NULL, NULL, v));
    const char *what = label;
    /* a message names the path to a nested function ("'f': 'sum', term 2:
     * 'sine'") down to the third level; deeper ones keep the third's name */
    int grow = depth < 3;
    if (v[0]) {
        f->kind = MBD_MODEL_FN_CONSTANT;
        return number(r, v[0], KL("constant"), &f->value);
    }
    if (v[1]) {
        f->kind = MBD_MODEL_FN_POLYNOMIAL;
        yaml_node_t *c = v[1];
        if (c->type != YAML_SEQUENCE_NODE || seq_len(c) == 0)
            return fail(r, c, "%s: expected a list of coefficients [c0, c1, c2, ...] "
                              "(c0 + c1 t + c2 t^2 + ...), found %s", KL("polynomial"), FOUND(c));
        size_t k = seq_len(c);
        f->coef = xcalloc(r, k, sizeof *f->coef);
        if (f->coef == NULL)
            return -1;
        f->ncoef = k;
        char item[240];
        for (size_t i = 0; i < k; i++) {
            snprintf(item, sizeof item, "%s: 'polynomial', coefficient %zu", label, i);
            TRY(number(r, seq_item(r, c, i), item, &f->coef[i]));
        }
        return 0;
    }
    if (v[2]) {
        static const key_spec skeys[] = {
            {"amplitude", 1, "a number"}, {"omega", 1, "a number (rad/s)"},
            {"phase", 0, "a number (rad)"}, {"offset", 0, "a number"}};
        yaml_node_t *s[4];
        char sw[240];
        snprintf(sw, sizeof sw, "%s: 'sine'", label);
        TRY(get_map(r, v[2], sw, skeys, 4, NULL, NULL, s));
        f->kind = MBD_MODEL_FN_SINE;
        what = sw;
        TRY(number(r, s[0], KL("amplitude"), &f->amplitude));
        TRY(number(r, s[1], KL("omega"), &f->omega));
        if (s[2])
            TRY(number(r, s[2], KL("phase"), &f->phase));
        if (s[3])
            TRY(number(r, s[3], KL("offset"), &f->offset));
        return 0;
    }
    if (v[3]) {
        yaml_node_t *t = v[3];
        f->kind = MBD_MODEL_FN_SUM;
        if (t->type != YAML_SEQUENCE_NODE || seq_len(t) == 0)
            return fail(r, t, "%s: expected a list of time functions, found %s", KL("sum"), FOUND(t));
        size_t k = seq_len(t);
        f->terms = xcalloc(r, k, sizeof *f->terms);
        if (f->terms == NULL)
            return -1;
        f->nterms = k;
        char item[240];
        for (size_t i = 0; i < k; i++) {
            if (grow)
                snprintf(item, sizeof item, "%s: 'sum', term %zu", label, i + 1);
            TRY(read_fn(r, seq_item(r, t, i), grow ? item : label, depth + 1, &f->terms[i]));
        }
        return 0;
    }
    f->kind = MBD_MODEL_FN_COS_OF;
    f->terms = xcalloc(r, 1, sizeof *f->terms);
    if (f->terms == NULL)
        return -1;
    f->nterms = 1;
    return read_fn(r, v[4], grow ? KL("cos_of") : label, depth + 1, &f->terms[0]);
}

int mbd_model_fn_eval(const mbd_model_fn *f, double t, double v[3])
{
    v[0] = v[1] = v[2] = 0;
    switch (f->kind) {
    case MBD_MODEL_FN_CONSTANT:
        v[0] = f->value;
        break;
    case MBD_MODEL_FN_POLYNOMIAL:
        /* Horner's rule for p, p' and p'' at once: with p = c_k + t q,
         * p' = q + t q' and p'' = 2 q' + t q'' */
        for (size_t k = f->ncoef; k-- > 0;) {
            v[2] = v[2] * t + 2 * v[1];
            v[1] = v[1] * t + v[0];
            v[0] = v[0] * t + f->coef[k];
        }
        break;
    case MBD_MODEL_FN_SINE: {
        double a = f->omega * t + f->phase;
        v[0] = f->amplitude * sin(a) + f->offset;
        v[1] = f->amplitude * f->omega * cos(a);
        v[2] = -f->amplitude * f->omega * f->omega * sin(a);
        break;
    }
    case MBD_MODEL_FN_SUM:
        for (size_t i = 0; i < f->nterms; i++) {
            double w[3];
            mbd_model_fn_eval(&f->terms[i], t, w);
            v[0] += w[0];
            v[1] += w[1];
            v[2] += w[2];
        }
        break;
    case MBD_MODEL_FN_COS_OF: {
        /* f = cos g: f' = -sin(g) g', f'' = -cos(g) g'^2 - sin(g) g'' */
        double g[3];
        mbd_model_fn_eval(&f->terms[0], t, g);
        double c = cos(g[0]), s = sin(g[0]);
        v[0] = c;
        v[1] = -s * g[1];
        v[2] = -c * g[1] * g[1] - s * g[2];
        break;
    }
    }
    if (!(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2])))
        return MBD_ENONFINITE;
    return GSL_SUCCESS;
}

/* ------------------------------------------------------------------------ */
/* Rotations                                                                 */

/* A(p), body to global, row-major (reading guide 003, Sec. 2.1). */
static void matrix_of_p(const double p[4], double A[9])
{
    double e0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
    A[0] = 2 * (e0 * e0 + e1 * e1 - 0.5);
    A[1] = 2 * (e1 * e2 - e0 * e3);
    A[2] = 2 * (e1 * e3 + e0 * e2);
    A[3] = 2 * (e1 * e2 + e0 * e3);
    A[4] = 2 * (e0 * e0 + e2 * e2 - 0.5);
    A[5] = 2 * (e2 * e3 - e0 * e1);
    A[6] = 2 * (e1 * e3 - e0 * e2);
    A[7] = 2 * (e2 * e3 + e0 * e1);
    A[8] = 2 * (e0 * e0 + e3 * e3 - 0.5);
}

/* p(A) for a rotation matrix, by Shepperd's method: the largest of
 * 4 e_k^2 (from the trace and the diagonal) is taken as the pivot, so no
 * division is by a small number (the simple formula divides by 4 e0 and fails
 * at half turns). The result has e0 >= 0. */
static void p_of_matrix(const double A[9], double p[4])
{
    double tr = A[0] + A[4] + A[8];
    double d[4] = {1 + tr, 1 + 2 * A[0] - tr, 1 + 2 * A[4] - tr, 1 + 2 * A[8] - tr};   /* 4 e_k^2 */
    int k = 0;
    for (int i = 1; i < 4; i++)
        if (d[i] > d[k])
            k = i;
    double s = 2 * sqrt(d[k]);   /* 4 e_k */
    switch (k) {
    case 0:
        p[0] = s / 4;
        p[1] = (A[7] - A[5]) / s;
        p[2] = (A[2] - A[6]) / s;
        p[3] = (A[3] - A[1]) / s;
        break;
    case 1:
        p[1] = s / 4;
        p[0] = (A[7] - A[5]) / s;
        p[2] = (A[1] + A[3]) / s;
        p[3] = (A[2] + A[6]) / s;
        break;
    case 2:
        p[2] = s / 4;
        p[0] = (A[2] - A[6]) / s;
        p[1] = (A[1] + A[3]) / s;
        p[3] = (A[5] + A[7]) / s;
        break;
    default:
        p[3] = s / 4;
        p[0] = (A[3] - A[1]) / s;
        p[1] = (A[2] + A[6]) / s;
        p[2] = (A[5] + A[7]) / s;
        break;
    }
    double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    double sign = p[0] < 0 ? -1 : 1;
    for (int i = 0; i < 4; i++)
        p[i] *= sign / len;
}

static double det3(const double A[9])
{
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6])
           + A[2] * (A[3] * A[7] - A[4] * A[6]);
}

static int read_orientation(reader *r, yaml_node_t *n, const char *what, mbd_model_body *b)
{
    char fbuf[96], lbuf[200];
    const char *s = scalar_text(n);
    if (s != NULL) {
        if (strcmp(s, "identity") != 0)
            return fail(r, n, "%s: expected identity or a mapping with euler_parameters, "
                              "axis and angle, or matrix; found %s", KL("orientation"), FOUND(n));
        b->orientation = MBD_MODEL_ORIENT_IDENTITY;
        b->p[0] = 1;
        matrix_of_p(b->p, b->A);
        return 0;
    }
    static const key_spec keys[] = {
        {"euler_parameters", 0, "4 numbers"}, {"axis", 0, "a unit vector"},
        {"angle", 0, "a number (rad)"}, {"matrix", 0, "3 rows of 3 numbers"}};
    yaml_node_t *v[4];
    char ow[200];
    snprintf(ow, sizeof ow, "%s: 'orientation'", what);
    TRY(get_map(r, n, ow, keys, 4, NULL, NULL, v));
    int forms = (v[0] != NULL) + (v[1] != NULL || v[2] != NULL) + (v[3] != NULL);
    if (forms == 0)
        return fail(r, n, "%s: expected one of: euler_parameters, axis and angle, matrix", ow);
    if (forms > 1) {
        /* the second form written is the one refused */
        yaml_node_t *second = NULL;
        for (int i = 0; i < 4; i++)
            if (v[i] && (second == NULL || v[i]->start_mark.index > second->start_mark.index))
                second = v[i];
        return fail(r, second, "%s: give one of euler_parameters, axis and angle, or matrix, not two", ow);
    }
    if (v[0]) {
        double p[4];
        TRY(numbers(r, v[0], key_label(ow, "euler_parameters", lbuf, sizeof lbuf), 4, p));
        double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
        if (!(fabs(len - 1) <= MBD_MODEL_UNIT_TOL))
            return fail(r, v[0], "%s: expected unit Euler parameters (|p| = 1 within 1e-9; they are "
                                 "not normalised for you), found |p| = %.12g", lbuf, len);
        b->orientation = MBD_MODEL_ORIENT_EULER;
        memcpy(b->p, p, sizeof p);
        matrix_of_p(b->p, b->A);
        return 0;
    }
    if (v[1] || v[2]) {
        if (v[1] == NULL)
            return fail(r, n, "%s: missing key 'axis' (expected a unit vector; 'angle' needs it)", ow);
        if (v[2] == NULL)
            return fail(r, n, "%s: missing key 'angle' (expected a number in rad; 'axis' needs it)", ow);
        TRY(unit3(r, v[1], key_label(ow, "axis", lbuf, sizeof lbuf), b->axis));
        TRY(number(r, v[2], key_label(ow, "angle", lbuf, sizeof lbuf), &b->angle));
        b->orientation = MBD_MODEL_ORIENT_AXIS_ANGLE;
        double c = cos(b->angle / 2), s2 = sin(b->angle / 2);
        b->p[0] = c;
        for (int i = 0; i < 3; i++)
            b->p[i + 1] = s2 * b->axis[i];
        matrix_of_p(b->p, b->A);
        return 0;
    }
    yaml_node_t *m = v[3];
    key_label(ow, "matrix", lbuf, sizeof lbuf);
    if (m->type != YAML_SEQUENCE_NODE || seq_len(m) != 3)
        return fail(r, m, "%s: expected 3 rows [[a, b, c], [d, e, f], [g, h, i]], found %s", lbuf, FOUND(m));
    double A[9];
    for (size_t i = 0; i < 3; i++) {
        char row[240];
        snprintf(row, sizeof row, "%s, row %zu", lbuf, i + 1);
        TRY(numbers(r, seq_item(r, m, i), row, 3, A + 3 * i));
    }
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s3 = A[i] * A[j] + A[3 + i] * A[3 + j] + A[6 + i] * A[6 + j];   /* (A^T A)_ij */
            double e = fabs(s3 - (i == j ? 1.0 : 0.0));
            if (e > worst)
                worst = e;
        }
    if (!(worst <= MBD_MODEL_UNIT_TOL))
        return fail(r, m, "%s: expected a rotation matrix (orthonormal within 1e-9), "
                          "found max |A^T A - I| = %.3g", lbuf, worst);
    double det = det3(A);
    if (!(det > 0))
        return fail(r, m, "%s: expected a rotation matrix (determinant +1), found a reflection "
                          "(determinant %.12g)", lbuf, det);
    b->orientation = MBD_MODEL_ORIENT_MATRIX;
    memcpy(b->A, A, sizeof A);
    p_of_matrix(A, b->p);
    return 0;
}

/* 3 principal moments, or a symmetric 3x3 matrix; positive definite. */
static int read_inertia(reader *r, yaml_node_t *n, const char *what, mbd_model_body *b)
{
    char fbuf[96], lbuf[200];
    const char *label = KL("inertia");
    if (n->type != YAML_SEQUENCE_NODE || seq_len(n) != 3)
        return fail(r, n, "%s: expected 3 principal moments [Jxx, Jyy, Jzz] or a 3x3 matrix "
                          "[[..], [..], [..]], found %s", label, FOUND(n));
    double *J = b->inertia;
    if (seq_item(r, n, 0)->type != YAML_SEQUENCE_NODE) {
        double d[3];
        TRY(numbers(r, n, label, 3, d));
        for (int i = 0; i < 3; i++)
            if (!(d[i] > 0))
                return fail(r, seq_item(r, n, (size_t)i),
                            "%s: expected a positive definite inertia (every principal moment "
                            "greater than 0; write a small number such as 1e-6 for a point-like "
                            "body), found moment %d = %.12g", label, i + 1, d[i]);
        memset(J, 0, 9 * sizeof *J);
        J[0] = d[0];
        J[4] = d[1];
        J[8] = d[2];
        b->inertia_full = 0;
        return 0;
    }
    for (size_t i = 0; i < 3; i++) {
        char row[240];
        snprintf(row, sizeof row, "%s, row %zu", label, i + 1);
        TRY(numbers(r, seq_item(r, n, i), row, 3, J + 3 * i));
    }
    b->inertia_full = 1;
    double big = 0;
    for (int i = 0; i < 9; i++)
        if (fabs(J[i]) > big)
            big = fabs(J[i]);
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (!(fabs(J[3 * i + j] - J[3 * j + i]) <= 1e-9 * big))
                return fail(r, n, "%s: expected a symmetric matrix, found row %d column %d = %.12g "
                                  "but row %d column %d = %.12g", label, i + 1, j + 1, J[3 * i + j],
                            j + 1, i + 1, J[3 * j + i]);
    /* positive definite: the three leading principal minors are positive */
    double m1 = J[0], m2 = J[0] * J[4] - J[1] * J[3], m3 = det3(J);
    double minors[3] = {m1, m2, m3};
    for (int k = 0; k < 3; k++)
        if (!(minors[k] > 0))
            return fail(r, n, "%s: expected a positive definite matrix, found leading minor %d = %.6g",
                        label, k + 1, minors[k]);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Bodies                                                                    */

static const key_spec body_keys[] = {
    {"name", 1, "a name"},
    {"mass", 1, "a number greater than 0 (kg)"},
    {"inertia", 1, "3 principal moments or a 3x3 matrix"},
    {"position", 1, "a list of 3 numbers"},
    {"orientation", 0, "identity or a mapping"},
    {"velocity", 0, "a list of 3 numbers"},
    {"angular_velocity_body", 0, "a list of 3 numbers"},
    {"angular_velocity_global", 0, "a list of 3 numbers"},
    {"velocity_known", 0, "true or false"},
    {"ground", 0, "true or false"},
};
#define NBODY_KEYS (sizeof body_keys / sizeof body_keys[0])

static const key_spec ground_keys[] = {{"name", 1, "a name"}, {"ground", 1, "true"}};
static const char *const ground_refused[] = {"mass", "inertia", "position", "orientation", "velocity",
                                             "angular_velocity_body", "angular_velocity_global",
                                             "velocity_known", NULL};

/* the value of `ground:` if it is exactly true */
static int declares_ground(reader *r, yaml_node_t *n)
{
    const char *g = peek(r, n, "ground");
    return g != NULL && strcmp(g, "true") == 0;
}

static int read_body(reader *r, yaml_node_t *n, size_t item, mbd_model_body *b)
{
    char what[160], lbuf[200];
    element_label(r, n, "body", item, what, sizeof what);
    b->pos = pos_of(n);
    b->declared = 1;
    if (declares_ground(r, n)) {
        yaml_node_t *v[2];
        TRY(get_map(r, n, what, ground_keys, 2, ground_refused, "the ground body", v));
        TRY(name_value(r, v[0], KL("name"), &b->name));
        int g;
        TRY(boolean(r, v[1], KL("ground"), &g));
        b->is_ground = 1;
        b->declared = 1;
        b->p[0] = 1;
        matrix_of_p(b->p, b->A);
        b->velocity_known = 1;
        return 0;
    }
    yaml_node_t *v[NBODY_KEYS];
    TRY(get_map(r, n, what, body_keys, NBODY_KEYS, NULL, NULL, v));
    TRY(name_value(r, v[0], KL("name"), &b->name));
    if (strcmp(b->name, "ground") == 0)
        return fail(r, v[0], "%s: the name 'ground' is reserved for the ground body (write "
                             "'ground: true' to declare it, or choose another name)", what);
    for (size_t i = 0; i < r->m->nbodies; i++)
        if (r->m->bodies[i].name && &r->m->bodies[i] != b && strcmp(r->m->bodies[i].name, b->name) == 0)
            return fail(r, v[0], "%s: the name is already used by the body at line %lu", what,
                        r->m->bodies[i].pos.line);
    if (v[9]) {
        int g;
        TRY(boolean(r, v[9], KL("ground"), &g));   /* true was taken above: this is false */
    }
    TRY(positive(r, v[1], KL("mass"), &b->mass));
    TRY(read_inertia(r, v[2], what, b));
    TRY(vector3(r, v[3], KL("position"), b->r));
    if (v[4]) {
        TRY(read_orientation(r, v[4], what, b));
    } else {
        b->orientation = MBD_MODEL_ORIENT_IDENTITY;
        b->p[0] = 1;
        matrix_of_p(b->p, b->A);
    }
    int given = 0;
    if (v[5]) {
        TRY(vector3(r, v[5], KL("velocity"), b->rdot));
        given = 1;
    }
    if (v[6] && v[7]) {
        yaml_node_t *second = v[6]->start_mark.index > v[7]->start_mark.index ? v[6] : v[7];
        return fail(r, second, "%s: give 'angular_velocity_body' or 'angular_velocity_global', not both",
                    what);
    }
    b->omega_frame = MBD_MODEL_FRAME_BODY;
    if (v[6]) {
        TRY(vector3(r, v[6], KL("angular_velocity_body"), b->omega));
        given = 1;
    }
    if (v[7]) {
        TRY(vector3(r, v[7], KL("angular_velocity_global"), b->omega));
        b->omega_frame = MBD_MODEL_FRAME_GLOBAL;
        given = 1;
    }
    /* omega-bar = A^T omega for a global angular velocity */
    for (int i = 0; i < 3; i++)
        b->omega_bar[i] = b->omega_frame == MBD_MODEL_FRAME_BODY
                              ? b->omega[i]
                              : b->A[i] * b->omega[0] + b->A[3 + i] * b->omega[1] + b->A[6 + i] * b->omega[2];
    b->velocity_known = given;
    if (v[8]) {
        TRY(boolean(r, v[8], KL("velocity_known"), &b->velocity_known));
        if (!b->velocity_known && given)
            return fail(r, v[8], "%s: 'velocity_known' is false but velocities are given (unknown "
                                 "velocities are solved for: remove one or the other)", what);
    }
    return 0;
}

static int read_bodies(reader *r, yaml_node_t *n)
{
    char lbuf[200];
    const char *what = "the model";
    size_t k = 0;
    TRY(list(r, n, KL("bodies"), "bodies", &k));
    /* which item, if any, declares the ground */
    long ground_item = -1;
    for (size_t i = 0; i < k; i++) {
        yaml_node_t *item = seq_item(r, n, i);
        if (declares_ground(r, item)) {
            if (ground_item >= 0) {
                char what2[160];
                element_label(r, item, "body", i, what2, sizeof what2);
                return fail(r, item, "%s: a second ground body (the first is at line %lu; "
                                     "a model has one ground)", what2,
                            (unsigned long)seq_item(r, n, (size_t)ground_item)->start_mark.line + 1);
            }
            ground_item = (long)i;
        }
    }
    size_t moving = ground_item >= 0 ? k - 1 : k;
    if (moving == 0)
        return fail(r, n, "%s: expected at least one moving body (a body that is not the ground)", KL("bodies"));
    r->m->bodies = xcalloc(r, moving + 1, sizeof *r->m->bodies);
    if (r->m->bodies == NULL)
        return -1;
    mbd_model_body *g = &r->m->bodies[0];
    r->m->nbodies = 1;
    if (ground_item < 0) {
        /* the implicit ground: at the origin, unrotated, not written anywhere */
        g->name = xstrdup(r, "ground");
        if (g->name == NULL)
            return -1;
        g->is_ground = 1;
        g->p[0] = 1;
        matrix_of_p(g->p, g->A);
        g->velocity_known = 1;
    } else {
        TRY(read_body(r, seq_item(r, n, (size_t)ground_item), (size_t)ground_item, g));
    }
    for (size_t i = 0; i < k; i++) {
        if ((long)i == ground_item)
            continue;
        mbd_model_body *b = &r->m->bodies[r->m->nbodies++];
        TRY(read_body(r, seq_item(r, n, i), i, b));
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Joints                                                                    */

static const char *const joint_types[] = {"spherical", "revolute", "cylindrical", "translational",
                                          "universal", "revolute-cylindrical", NULL};

const char *mbd_model_joint_type_name(mbd_model_joint_type type)
{
    return (unsigned)type < 6 ? joint_types[type] : "unknown";
}

int mbd_model_joint_rows(mbd_model_joint_type type)
{
    static const int rows[] = {3, 5, 4, 5, 4, 3};
    return (unsigned)type < 6 ? rows[type] : 0;
}

/* Two different bodies. */
static int two_bodies(reader *r, yaml_node_t *ni, yaml_node_t *nj, const char *what, size_t *bi,
                      size_t *bj)
{
    char lbuf[200];
    TRY(body_ref(r, ni, KL("body_i"), bi));
    TRY(body_ref(r, nj, KL("body_j"), bj));
    if (*bi == *bj)
        return fail(r, nj, "%s: body_i and body_j are the same body ('%s'); expected two different bodies",
                    what, r->m->bodies[*bi].name);
    return 0;
}

static int read_joint(reader *r, yaml_node_t *n, size_t item, mbd_model_joint *j)
{
    char what[160], lbuf[200], fbuf[96];
    element_label(r, n, "joint", item, what, sizeof what);
    j->pos = pos_of(n);
    if (n->type != YAML_MAPPING_NODE)
        return fail(r, n, "%s: expected a mapping (key: value lines), found %s", what, FOUND(n));
    /* the type decides the keys */
    yaml_node_t *tn = value_of(r, n, "type");
    if (tn == NULL)
        return fail(r, n, "%s: missing key 'type' (expected one of: spherical, revolute, cylindrical, "
                          "translational, universal, revolute-cylindrical)", what);
    int type;
    TRY(choice(r, tn, KL("type"), joint_types, &type));
    j->type = (mbd_model_joint_type)type;
    static const key_spec common[] = {
        {"name", 1, "a name"}, {"type", 1, "a joint type"},
        {"body_i", 1, "the name of a body"}, {"body_j", 1, "the name of a body"},
        {"point_i", 1, "a list of 3 numbers (body i's frame)"},
        {"point_j", 1, "a list of 3 numbers (body j's frame)"},
        {"axis_i", 1, "a unit vector (body i's frame)"}, {"axis_j", 1, "a unit vector (body j's frame)"},
        {"normal_i", 1, "a unit vector perpendicular to axis_i"},
        {"normal_j", 1, "a unit vector perpendicular to axis_j"}};
    static const char *const refused[] = {"axis_i", "axis_j", "normal_i", "normal_j", NULL};
    /* spherical: the first 6 keys; translational: all 10; the others: 8 */
    size_t nkeys = j->type == MBD_MODEL_JOINT_SPHERICAL ? 6 : j->type == MBD_MODEL_JOINT_TRANSLATIONAL ? 10 : 8;
    char kind[64];
    snprintf(kind, sizeof kind, "%s %s joint", article(joint_types[type]), joint_types[type]);
    yaml_node_t *v[10];
    TRY(get_map(r, n, what, common, nkeys, refused, kind, v));
    TRY(name_value(r, v[0], KL("name"), &j->name));
    TRY(register_name(r, v[0], "joint", j->name));
    TRY(two_bodies(r, v[2], v[3], what, &j->body_i, &j->body_j));
    TRY(vector3(r, v[4], KL("point_i"), j->point_i));
    TRY(vector3(r, v[5], KL("point_j"), j->point_j));
    if (nkeys >= 8) {
        TRY(unit3(r, v[6], KL("axis_i"), j->axis_i));
        TRY(unit3(r, v[7], KL("axis_j"), j->axis_j));
    }
    if (nkeys == 10) {
        TRY(unit3(r, v[8], KL("normal_i"), j->normal_i));
        TRY(unit3(r, v[9], KL("normal_j"), j->normal_j));
        double di = dot3(j->normal_i, j->axis_i), dj = dot3(j->normal_j, j->axis_j);
        if (!(fabs(di) <= MBD_MODEL_UNIT_TOL))
            return fail(r, v[8], "%s: 'normal_i': expected a unit vector perpendicular to 'axis_i' "
                                 "(dot product 0 within 1e-9), found normal_i . axis_i = %.12g", what, di);
        if (!(fabs(dj) <= MBD_MODEL_UNIT_TOL))
            return fail(r, v[9], "%s: 'normal_j': expected a unit vector perpendicular to 'axis_j' "
                                 "(dot product 0 within 1e-9), found normal_j . axis_j = %.12g", what, dj);
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Basic constraints                                                         */

static const char *const con_types[] = {"dp1", "dp2", "d", "cd", NULL};

const char *mbd_model_con_type_name(mbd_model_con_type type)
{
    return (unsigned)type < 4 ? con_types[type] : "unknown";
}

static int read_constraint(reader *r, yaml_node_t *n, size_t item, mbd_model_constraint *c)
{
    char what[160], lbuf[200], fbuf[96];
    element_label(r, n, "constraint", item, what, sizeof what);
    c->pos = pos_of(n);
    fn_constant(&c->f, 0, c->pos);
    if (n->type != YAML_MAPPING_NODE)
        return fail(r, n, "%s: expected a mapping (key: value lines), found %s", what, FOUND(n));
    yaml_node_t *tn = value_of(r, n, "type");
    if (tn == NULL)
        return fail(r, n, "%s: missing key 'type' (expected one of: dp1, dp2, d, cd)", what);
    int type;
    TRY(choice(r, tn, KL("type"), con_types, &type));
    c->type = (mbd_model_con_type)type;
    /* the keys of each type: the common ones, then its own */
    static const key_spec k_dp1[] = {
        {"name", 1, "a name"}, {"type", 1, "dp1"}, {"body_i", 1, "the name of a body"},
        {"body_j", 1, "the name of a body"}, {"f", 0, "a time function"}, {"driving", 0, "true or false"},
        {"a_i", 1, "a non-zero vector (body i's frame)"}, {"a_j", 1, "a non-zero vector (body j's frame)"}};
    static const key_spec k_dp2[] = {
        {"name", 1, "a name"}, {"type", 1, "dp2"}, {"body_i", 1, "the name of a body"},
        {"body_j", 1, "the name of a body"}, {"f", 0, "a time function"}, {"driving", 0, "true or false"},
        {"a_i", 1, "a non-zero vector (body i's frame)"},
        {"point_i", 1, "a list of 3 numbers (body i's frame)"},
        {"point_j", 1, "a list of 3 numbers (body j's frame)"}};
    static const key_spec k_d[] = {
        {"name", 1, "a name"}, {"type", 1, "d"}, {"body_i", 1, "the name of a body"},
        {"body_j", 1, "the name of a body"}, {"f", 0, "a time function"}, {"driving", 0, "true or false"},
        {"point_i", 1, "a list of 3 numbers (body i's frame)"},
        {"point_j", 1, "a list of 3 numbers (body j's frame)"},
        {"distance", 0, "a number >= 0 (the distance, not squared)"}};
    static const key_spec k_cd[] = {
        {"name", 1, "a name"}, {"type", 1, "cd"}, {"body_i", 1, "the name of a body"},
        {"body_j", 1, "the name of a body"}, {"f", 0, "a time function"}, {"driving", 0, "true or false"},
        {"point_i", 1, "a list of 3 numbers (body i's frame)"},
        {"point_j", 1, "a list of 3 numbers (body j's frame)"},
        {"coordinate", 1, "x, y or z"}};
    static const char *const refused[] = {"a_i", "a_j", "point_i", "point_j", "distance", "coordinate", NULL};
    static const key_spec *const tables[] = {k_dp1, k_dp2, k_d, k_cd};
    static const size_t sizes[] = {8, 9, 9, 9};
    char kind[64];
    snprintf(kind, sizeof kind, "%s %s constraint", article(con_types[type]), con_types[type]);
    yaml_node_t *v[9];
    TRY(get_map(r, n, what, tables[type], sizes[type], refused, kind, v));
    TRY(name_value(r, v[0], KL("name"), &c->name));
    TRY(register_name(r, v[0], "constraint", c->name));
    TRY(two_bodies(r, v[2], v[3], what, &c->body_i, &c->body_j));
    switch (c->type) {
    case MBD_MODEL_CON_DP1:
        TRY(nonzero3(r, v[6], KL("a_i"), c->a_i));
        TRY(nonzero3(r, v[7], KL("a_j"), c->a_j));
        break;
    case MBD_MODEL_CON_DP2:
        TRY(nonzero3(r, v[6], KL("a_i"), c->a_i));
        TRY(vector3(r, v[7], KL("point_i"), c->point_i));
        TRY(vector3(r, v[8], KL("point_j"), c->point_j));
        break;
    case MBD_MODEL_CON_D:
        TRY(vector3(r, v[6], KL("point_i"), c->point_i));
        TRY(vector3(r, v[7], KL("point_j"), c->point_j));
        if (v[4] && v[8]) {
            yaml_node_t *second = v[4]->start_mark.index > v[8]->start_mark.index ? v[4] : v[8];
            return fail(r, second, "%s: give 'f' (the squared distance) or 'distance', not both", what);
        }
        if (v[4] == NULL && v[8] == NULL)
            return fail(r, n, "%s: missing key 'distance' or 'f' (expected the distance, or f(t) = "
                              "the squared distance)", what);
        if (v[8]) {
            double d;
            TRY(nonnegative(r, v[8], KL("distance"), &d));
            fn_constant(&c->f, d * d, pos_of(v[8]));
        }
        break;
    case MBD_MODEL_CON_CD: {
        static const char *const xyz[] = {"x", "y", "z", NULL};
        TRY(vector3(r, v[6], KL("point_i"), c->point_i));
        TRY(vector3(r, v[7], KL("point_j"), c->point_j));
        TRY(choice(r, v[8], KL("coordinate"), xyz, &c->coordinate));
        break;
    }
    }
    if (v[4])
        TRY(read_fn(r, v[4], KL("f"), 1, &c->f));
    c->driving = c->f.kind != MBD_MODEL_FN_CONSTANT;
    if (v[5]) {
        int d;
        TRY(boolean(r, v[5], KL("driving"), &d));
        if (!d && c->driving)
            return fail(r, v[5], "%s: 'driving' is false but 'f' depends on time (a constraint "
                                 "whose f changes in time is a driving constraint)", what);
        c->driving = d;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Forces, torques, TSDAs, output points                                     */

static const char *const frames[] = {"global", "body", NULL};

static int read_frame(reader *r, yaml_node_t *n, const char *label, mbd_model_frame *f)
{
    int k;
    TRY(choice(r, n, label, frames, &k));
    *f = k == 0 ? MBD_MODEL_FRAME_GLOBAL : MBD_MODEL_FRAME_BODY;
    return 0;
}

static int read_force(reader *r, yaml_node_t *n, size_t item, mbd_model_force *f)
{
    static const key_spec keys[] = {
        {"name", 1, "a name"}, {"body", 1, "the name of a body"},
        {"force", 1, "a list of 3 numbers (N)"}, {"point", 0, "a list of 3 numbers (body frame)"},
        {"frame", 0, "global or body"}};
    char what[160], lbuf[200];
    element_label(r, n, "force", item, what, sizeof what);
    f->pos = pos_of(n);
    yaml_node_t *v[5];
    TRY(get_map(r, n, what, keys, 5, NULL, NULL, v));
    TRY(name_value(r, v[0], KL("name"), &f->name));
    TRY(register_name(r, v[0], "force", f->name));
    TRY(body_ref(r, v[1], KL("body"), &f->body));
    TRY(vector3(r, v[2], KL("force"), f->force));
    if (v[3])
        TRY(vector3(r, v[3], KL("point"), f->point));
    f->frame = MBD_MODEL_FRAME_GLOBAL;
    if (v[4])
        TRY(read_frame(r, v[4], KL("frame"), &f->frame));
    return 0;
}

static int read_torque(reader *r, yaml_node_t *n, size_t item, mbd_model_torque *t)
{
    static const key_spec keys[] = {
        {"name", 1, "a name"}, {"body", 1, "the name of a body"},
        {"torque", 0, "a list of 3 numbers (N m)"}, {"axis", 0, "a unit vector"},
        {"magnitude", 0, "a time function"}, {"callback", 0, "a name"},
        {"frame", 0, "body or global"}};
    char what[160], lbuf[200];
    element_label(r, n, "torque", item, what, sizeof what);
    t->pos = pos_of(n);
    fn_constant(&t->magnitude, 0, t->pos);
    yaml_node_t *v[7];
    TRY(get_map(r, n, what, keys, 7, NULL, NULL, v));
    TRY(name_value(r, v[0], KL("name"), &t->name));
    TRY(register_name(r, v[0], "torque", t->name));
    TRY(body_ref(r, v[1], KL("body"), &t->body));
    int forms = (v[2] != NULL) + (v[3] != NULL || v[4] != NULL) + (v[5] != NULL);
    if (forms == 0)
        return fail(r, n, "%s: expected one of: 'torque' (a constant vector), 'axis' and 'magnitude' "
                          "(a time function about an axis), 'callback' (a function the program registers)",
                    what);
    if (forms > 1) {
        yaml_node_t *second = NULL;
        for (int i = 2; i <= 5; i++)
            if (v[i] && (second == NULL || v[i]->start_mark.index > second->start_mark.index))
                second = v[i];
        return fail(r, second, "%s: give one of 'torque', 'axis' and 'magnitude', or 'callback', not two",
                    what);
    }
    if (v[2]) {
        t->kind = MBD_MODEL_TORQUE_CONSTANT;
        TRY(vector3(r, v[2], KL("torque"), t->torque));
    } else if (v[5]) {
        t->kind = MBD_MODEL_TORQUE_CALLBACK;
        TRY(name_value(r, v[5], KL("callback"), &t->callback));
    } else {
        t->kind = MBD_MODEL_TORQUE_FUNCTION;
        if (v[3] == NULL)
            return fail(r, n, "%s: missing key 'axis' (expected a unit vector; 'magnitude' needs it)", what);
        if (v[4] == NULL)
            return fail(r, n, "%s: missing key 'magnitude' (expected a time function; 'axis' needs it)",
                        what);
        TRY(unit3(r, v[3], KL("axis"), t->axis));
        TRY(read_fn(r, v[4], KL("magnitude"), 1, &t->magnitude));
    }
    t->frame = MBD_MODEL_FRAME_BODY;
    if (v[6])
        TRY(read_frame(r, v[6], KL("frame"), &t->frame));
    return 0;
}

static int read_tsda(reader *r, yaml_node_t *n, size_t item, mbd_model_tsda *s)
{
    static const key_spec keys[] = {
        {"name", 1, "a name"}, {"body_i", 1, "the name of a body"}, {"body_j", 1, "the name of a body"},
        {"point_i", 1, "a list of 3 numbers (body i's frame)"},
        {"point_j", 1, "a list of 3 numbers (body j's frame)"},
        {"stiffness", 1, "a number >= 0 (N/m)"}, {"free_length", 1, "a number >= 0 (m)"},
        {"damping", 0, "a number >= 0 (N s/m)"}, {"actuator", 0, "a time function (N)"}};
    char what[160], lbuf[200];
    element_label(r, n, "tsda", item, what, sizeof what);
    s->pos = pos_of(n);
    fn_constant(&s->actuator, 0, s->pos);
    yaml_node_t *v[9];
    TRY(get_map(r, n, what, keys, 9, NULL, NULL, v));
    TRY(name_value(r, v[0], KL("name"), &s->name));
    TRY(register_name(r, v[0], "tsda", s->name));
    TRY(two_bodies(r, v[1], v[2], what, &s->body_i, &s->body_j));
    TRY(vector3(r, v[3], KL("point_i"), s->point_i));
    TRY(vector3(r, v[4], KL("point_j"), s->point_j));
    TRY(nonnegative(r, v[5], KL("stiffness"), &s->stiffness));
    TRY(nonnegative(r, v[6], KL("free_length"), &s->free_length));
    if (v[7])
        TRY(nonnegative(r, v[7], KL("damping"), &s->damping));
    if (v[8])
        TRY(read_fn(r, v[8], KL("actuator"), 1, &s->actuator));
    return 0;
}

static int read_output(reader *r, yaml_node_t *n, size_t item, mbd_model_output_point *o)
{
    static const key_spec keys[] = {
        {"name", 1, "a name"}, {"body", 1, "the name of a body"},
        {"point", 1, "a list of 3 numbers (body frame)"}};
    char what[160], lbuf[200];
    element_label(r, n, "output point", item, what, sizeof what);
    o->pos = pos_of(n);
    yaml_node_t *v[3];
    TRY(get_map(r, n, what, keys, 3, NULL, NULL, v));
    TRY(name_value(r, v[0], KL("name"), &o->name));
    TRY(register_name(r, v[0], "output point", o->name));
    TRY(body_ref(r, v[1], KL("body"), &o->body));
    TRY(vector3(r, v[2], KL("point"), o->point));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The analysis                                                              */

static const char *const analysis_types[] = {"assembly", "kinematics", "inverse-dynamics", "dynamics", NULL};

const char *mbd_model_analysis_type_name(mbd_model_analysis_type type)
{
    if (type == MBD_MODEL_ANALYSIS_NONE)
        return "none";
    return (unsigned)type <= 4 ? analysis_types[type - 1] : "unknown";
}

/* The integrator's name: letters, digits, '_' and '-' (the builder knows
 * which names exist). */
static int is_word(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > MAX_NAME)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-'))
            return 0;
    return 1;
}

static int read_analysis(reader *r, yaml_node_t *n, mbd_model_analysis *a)
{
    /* the keys in the order of the tables below: assembly takes the first
     * 4, kinematics and inverse dynamics the first 8, dynamics all 12 */
    static const key_spec keys[] = {
        {"type", 1, "assembly, kinematics, inverse-dynamics or dynamics"},
        {"t_start", 0, "a number (s)"},
        {"tolerance", 0, "a number greater than 0"},
        {"max_iterations", 0, "a whole number greater than 0"},
        {"t_end", 1, "a number greater than t_start (s)"},
        {"h", 1, "a number greater than 0 (s)"},
        {"assemble", 0, "true or false"},
        {"newton", 0, "full, modified or quasi"},
        {"integrator", 0, "a name"},
        {"rtol", 0, "a number greater than 0"},
        {"atol", 0, "a number greater than 0"}};
    static const char *const refused[] = {"t_end", "h", "assemble", "newton", "integrator", "rtol",
                                          "atol", NULL};
    char fbuf[96], lbuf[200];
    const char *what = "analysis";
    a->pos = pos_of(n);
    a->t_end = a->h = a->rtol = a->atol = a->tolerance = NAN;
    a->assemble = 1;
    if (n->type != YAML_MAPPING_NODE)
        return fail(r, n, "%s: expected a mapping (key: value lines), found %s", what, FOUND(n));
    /* the type decides the keys */
    yaml_node_t *tn = value_of(r, n, "type");
    if (tn == NULL)
        return fail(r, n, "%s: missing key 'type' (expected one of: assembly, kinematics, "
                          "inverse-dynamics, dynamics)", what);
    int type;
    TRY(choice(r, tn, KL("type"), analysis_types, &type));
    a->type = (mbd_model_analysis_type)(type + 1);
    size_t nkeys = a->type == MBD_MODEL_ANALYSIS_ASSEMBLY ? 4 : a->type == MBD_MODEL_ANALYSIS_DYNAMICS ? 11 : 8;
    char kind[64];
    snprintf(kind, sizeof kind, "%s %s analysis", article(analysis_types[type]), analysis_types[type]);
    yaml_node_t *v[11];
    TRY(get_map(r, n, what, keys, nkeys, refused, kind, v));
    a->t_start = 0;
    if (v[1])
        TRY(number(r, v[1], KL("t_start"), &a->t_start));
    if (v[2])
        TRY(positive(r, v[2], KL("tolerance"), &a->tolerance));
    if (v[3]) {
        double k;
        TRY(number(r, v[3], KL("max_iterations"), &k));
        if (!(k >= 1 && k <= 1e9 && k == floor(k)))
            return fail(r, v[3], "%s: expected a whole number from 1 to 1e9, found %s", KL("max_iterations"),
                        FOUND(v[3]));
        a->max_iterations = (long)k;
    }
    if (a->type == MBD_MODEL_ANALYSIS_ASSEMBLY)
        return 0;
    TRY(number(r, v[4], KL("t_end"), &a->t_end));
    if (!(a->t_end > a->t_start))
        return fail(r, v[4], "%s: expected a number greater than t_start (%g), found %s", KL("t_end"),
                    a->t_start, FOUND(v[4]));
    TRY(positive(r, v[5], KL("h"), &a->h));
    if (!(a->h <= a->t_end - a->t_start))
        return fail(r, v[5], "%s: expected a step no longer than t_end - t_start (%g), found %s", KL("h"),
                    a->t_end - a->t_start, FOUND(v[5]));
    if (v[6])
        TRY(boolean(r, v[6], KL("assemble"), &a->assemble));
    if (v[7]) {
        static const char *const kinds[] = {"full", "modified", "quasi", NULL};
        int k;
        TRY(choice(r, v[7], KL("newton"), kinds, &k));
        a->newton = (mbd_model_newton)(k + 1);
    }
    if (a->type != MBD_MODEL_ANALYSIS_DYNAMICS)
        return 0;
    if (v[8]) {
        const char *s = scalar_text(v[8]);
        if (s == NULL || !is_word(s))
            return fail(r, v[8], "%s: expected an integrator name (letters, digits, '_' or '-'), found %s",
                        KL("integrator"), FOUND(v[8]));
        a->integrator = xstrdup(r, s);
        if (a->integrator == NULL)
            return -1;
        a->integrator_pos = pos_of(v[8]);
    }
    if (v[9])
        TRY(positive(r, v[9], KL("rtol"), &a->rtol));
    if (v[10])
        TRY(positive(r, v[10], KL("atol"), &a->atol));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

/* Reads a list of elements: allocates *array (count items), and reads each
 * into it, counting it in *n before it is read so that a failure half way
 * still frees what the element holds. */
#define READ_LIST(node, label, of, array, n, reader_fn)                                    \
    do {                                                                                   \
        size_t k_ = 0;                                                                     \
        TRY(list(r, (node), (label), (of), &k_));                                          \
        (array) = xcalloc(r, k_, sizeof *(array));                                         \
        if ((array) == NULL)                                                               \
            return -1;                                                                     \
        for (size_t i_ = 0; i_ < k_; i_++) {                                               \
            (n) = i_ + 1;                                                                  \
            TRY(reader_fn(r, seq_item(r, (node), i_), i_, &(array)[i_]));                  \
        }                                                                                  \
    } while (0)

static int read_model(reader *r, yaml_node_t *root)
{
    static const key_spec keys[] = {
        {"name", 1, "the model's name (one line of text)"},
        {"description", 0, "one line of text"},
        {"gravity", 1, "a list of 3 numbers (m/s^2), e.g. [0, -9.81, 0]"},
        {"bodies", 1, "a list of bodies"},
        {"joints", 0, "a list of joints"},
        {"constraints", 0, "a list of basic constraints"},
        {"forces", 0, "a list of forces"},
        {"torques", 0, "a list of torques"},
        {"tsdas", 0, "a list of TSDAs"},
        {"output_points", 0, "a list of output points"},
        {"analysis", 0, "a mapping"}};
    char fbuf[96], lbuf[200];
    const char *what = "the model";
    mbd_model_desc *m = r->m;
    if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0
        && root->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)   /* a lone '---' */
        return fail(r, root, "the file is empty (expected a model: a mapping with name, gravity "
                             "and bodies)");
    if (root->type != YAML_MAPPING_NODE)
        return fail(r, root, "expected a model (a mapping with name, gravity, bodies, ...), found %s",
                    FOUND(root));
    yaml_node_t *v[11];
    TRY(get_map(r, root, what, keys, 11, NULL, NULL, v));
    TRY(text_value(r, v[0], KL("name"), &m->name));
    if (v[1])
        TRY(text_value(r, v[1], KL("description"), &m->description));
    TRY(vector3(r, v[2], KL("gravity"), m->gravity));
    TRY(read_bodies(r, v[3]));
    if (v[4])
        READ_LIST(v[4], KL("joints"), "joints", m->joints, m->njoints, read_joint);
    if (v[5])
        READ_LIST(v[5], KL("constraints"), "basic constraints", m->constraints, m->nconstraints,
                  read_constraint);
    if (v[6])
        READ_LIST(v[6], KL("forces"), "forces", m->forces, m->nforces, read_force);
    if (v[7])
        READ_LIST(v[7], KL("torques"), "torques", m->torques, m->ntorques, read_torque);
    if (v[8])
        READ_LIST(v[8], KL("tsdas"), "TSDAs", m->tsdas, m->ntsdas, read_tsda);
    if (v[9])
        READ_LIST(v[9], KL("output_points"), "output points", m->outputs, m->noutputs, read_output);
    m->analysis.type = MBD_MODEL_ANALYSIS_NONE;
    m->analysis.t_end = m->analysis.h = m->analysis.rtol = m->analysis.atol = NAN;
    m->analysis.tolerance = NAN;
    m->analysis.assemble = 1;
    if (v[10])
        TRY(read_analysis(r, v[10], &m->analysis));
    return 0;
}

/* ------------------------------------------------------------------------ */
/* libyaml: the events pass and the document                                  */

/* A syntax error: libyaml's problem where it found it, and what it was
 * reading ("while parsing a block mapping"). */
static int syntax_error(reader *r, const yaml_parser_t *p)
{
    if (p->error == YAML_MEMORY_ERROR)
        return out_of_memory(r);
    char context[200] = "";
    if (p->context)
        snprintf(context, sizeof context, " (%s, started at line %lu, column %lu)", p->context,
                 (unsigned long)p->context_mark.line + 1, (unsigned long)p->context_mark.column + 1);
    return fail_mark(r, p->problem_mark, "YAML syntax error: %s%s",
                     p->problem ? p->problem : "unknown problem", context);
}

/* Pass 1 (see the top of the file): aliases, documents, nesting. */
static int check_events(reader *r, const unsigned char *text, size_t n)
{
    yaml_parser_t p;
    yaml_event_t ev;
    if (!yaml_parser_initialize(&p))
        return out_of_memory(r);
    yaml_parser_set_input_string(&p, text, n);
    int depth = 0, documents = 0, rc = 0, done = 0;
    while (!done && rc == 0) {
        if (!yaml_parser_parse(&p, &ev)) {
            rc = syntax_error(r, &p);
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++documents > 1)
                rc = fail_mark(r, ev.start_mark, "a second YAML document (a model file holds one "
                                                 "model; remove the '---' line)");
            break;
        case YAML_ALIAS_EVENT:
            rc = fail_mark(r, ev.start_mark, "YAML aliases (*%.40s) are not supported in a model file: "
                                             "write the value out", ev.data.alias.anchor ? (const char *)ev.data.alias.anchor : "");
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > MAX_NESTING)
                rc = fail_mark(r, ev.start_mark, "lists and mappings nested more than %d deep",
                               MAX_NESTING);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return rc;
}

void mbd_model_desc_free(mbd_model_desc *m)
{
    if (m == NULL)
        return;
    free(m->source);
    free(m->name);
    free(m->description);
    for (size_t i = 0; i < m->nbodies; i++)
        free(m->bodies[i].name);
    free(m->bodies);
    for (size_t i = 0; i < m->njoints; i++)
        free(m->joints[i].name);
    free(m->joints);
    for (size_t i = 0; i < m->nconstraints; i++) {
        free(m->constraints[i].name);
        fn_free(&m->constraints[i].f);
    }
    free(m->constraints);
    for (size_t i = 0; i < m->nforces; i++)
        free(m->forces[i].name);
    free(m->forces);
    for (size_t i = 0; i < m->ntorques; i++) {
        free(m->torques[i].name);
        free(m->torques[i].callback);
        fn_free(&m->torques[i].magnitude);
    }
    free(m->torques);
    for (size_t i = 0; i < m->ntsdas; i++) {
        free(m->tsdas[i].name);
        fn_free(&m->tsdas[i].actuator);
    }
    free(m->tsdas);
    for (size_t i = 0; i < m->noutputs; i++)
        free(m->outputs[i].name);
    free(m->outputs);
    free(m->analysis.integrator);
    free(m);
}

int mbd_model_read_string(const char *text, size_t n, const char *source, mbd_model_desc **out,
                          mbd_model_error *err)
{
    mbd_model_error local;
    mbd_model_error *e = err ? err : &local;
    e->status = GSL_SUCCESS;
    e->line = e->column = 0;
    e->message[0] = '\0';
    *out = NULL;
    reader r = {source ? source : "(model)", NULL, e, NULL, NULL, 0, 0};
    const unsigned char *u = (const unsigned char *)text;

    if (check_events(&r, u, n) != 0)
        return e->status;

    r.m = calloc(1, sizeof *r.m);
    if (r.m == NULL) {
        out_of_memory(&r);
        return e->status;
    }
    r.m->source = xstrdup(&r, r.source);
    yaml_parser_t parser;
    yaml_document_t doc;
    int loaded = 0;
    if (r.m->source != NULL) {
        if (!yaml_parser_initialize(&parser)) {
            out_of_memory(&r);
        } else {
            yaml_parser_set_input_string(&parser, u, n);
            if (!yaml_parser_load(&parser, &doc))
                syntax_error(&r, &parser);   /* not expected after pass 1 */
            else
                loaded = 1;
            yaml_parser_delete(&parser);
        }
    }
    if (loaded) {
        r.doc = &doc;
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root == NULL) {
            yaml_mark_t start = {0, 0, 0};
            fail_mark(&r, start, "the file is empty (expected a model: a mapping with name, gravity "
                                 "and bodies)");
        } else {
            read_model(&r, root);
        }
        yaml_document_delete(&doc);
    }
    free(r.names);
    if (e->status != GSL_SUCCESS) {
        mbd_model_desc_free(r.m);
        return e->status;
    }
    *out = r.m;
    return GSL_SUCCESS;
}

int mbd_model_read_file(const char *path, mbd_model_desc **out, mbd_model_error *err)
{
    mbd_model_error local;
    mbd_model_error *e = err ? err : &local;
    e->status = GSL_SUCCESS;
    e->line = e->column = 0;
    e->message[0] = '\0';
    *out = NULL;
    reader r = {path, NULL, e, NULL, NULL, 0, 0};
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_file(&r, MBD_EIO, "cannot open the model file: %s", strerror(errno));
        return e->status;
    }
    size_t cap = 1 << 14, n = 0;
    char *buf = malloc(cap);
    int status = GSL_SUCCESS;
    while (buf != NULL) {
        if (n == cap) {
            if (cap > MAX_FILE_BYTES) {
                status = fail_file(&r, MBD_EINPUT, "the file is larger than 16 MiB: not a model file");
                break;
            }
            char *bigger = realloc(buf, 2 * cap);
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                status = fail_file(&r, MBD_EIO, "cannot read the model file: %s", strerror(errno));
            break;
        }
    }
    fclose(f);
    if (buf == NULL) {
        out_of_memory(&r);
        return e->status;
    }
    if (status != GSL_SUCCESS) {
        free(buf);
        return e->status;
    }
    int rc = mbd_model_read_string(buf, n, path, out, e);
    free(buf);
    return rc;
}

void mbd_model_error_to_failure(const mbd_model_error *e, mbd_failure *f)
{
    mbd_failure_set(f, e->status, NAN, "%s", e->message);
}
