/* tools/tool.h -- small helpers shared by the exercise tools (mbd-stubs, mbd-grade).
 *
 * The tools are programs, not library code: they print, and on running out of
 * memory they say so and exit with status 2 (the "tool is broken" status).
 */
#ifndef MBD_TOOL_H
#define MBD_TOOL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* the program name for messages ("mbd-grade") */
extern const char *tool_name;

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A growing, always NUL-terminated string. */
typedef struct {
    char *s;
    size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_addn(strbuf *b, const char *s, size_t n);
void sb_add(strbuf *b, const char *s);
void sb_addc(strbuf *b, char c);
void sb_printf(strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* takes the string out of the buffer (the caller frees it); the buffer is reset */
char *sb_take(strbuf *b);

/* A list of strings (owned). */
typedef struct {
    char **v;
    size_t n, cap;
} strlist;

void sl_push(strlist *l, char *s);   /* takes ownership of s */
void sl_free(strlist *l);
int sl_contains(const strlist *l, const char *s);

/* The whole file, NUL-terminated (len without the NUL); NULL with errno set
 * when it cannot be read. */
char *read_file(const char *path, size_t *len);
/* Writes the file; 0 on success, -1 with errno. */
int write_file(const char *path, const char *data, size_t len);
/* mkdir -p; 0 on success */
int mkdir_p(const char *path);
int is_dir(const char *path);
int is_file(const char *path);
/* The sorted names of the regular files in a directory (no subdirectories,
 * no dot files); -1 if it cannot be read. */
int list_files(const char *dir, strlist *out);

/* 'text' quoted for /bin/sh */
char *shell_quote(const char *text);

/* seconds on the monotonic clock */
double now_seconds(void);

/* A score as the reports print it: at most two decimals, no trailing zeros
 * ("35", "6.67", "0.5"). Returns buf. */
char *fmt_points(char buf[32], double x);

#endif
