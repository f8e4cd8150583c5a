/* tools/stubgen.h -- exercise stubs from solution files.
 *
 * A solution marks each exercise region with three marker lines:
 *
 *     <indent>/ * EXERCISE NN.K BEGIN * /     (without the spaces in the comment tokens)
 *     ...the solution...
 *     <indent>/ * EXERCISE NN.K STUB
 *     ...the stub's lines, verbatim (e.g. (void) casts of the parameters; they
 *        sit inside a comment, so no end-of-comment in them)...
 *     <indent>EXERCISE NN.K END * /
 *
 * The stub replaces the region from BEGIN to END by the line
 *
 *     <indent of BEGIN>/ * EXERCISE NN.K: your code here (see README.md) * /
 *
 * followed by the STUB lines and, at the END marker's indentation,
 *
 *     return MBD_EUNIMPL;
 *
 * which the generator adds itself (a STUB line that mentions MBD_EUNIMPL is an
 * error): every stub returns it, and no solution file carries it. A file
 * without markers is copied unchanged.
 * Any line holding "EXERCISE <id> BEGIN|STUB|END" is a marker and must have
 * exactly the form above; markers must come in the order BEGIN, STUB, END with
 * one id, and regions do not nest.
 */
#ifndef MBD_TOOL_STUBGEN_H
#define MBD_TOOL_STUBGEN_H

#include <stdio.h>

#include "tool.h"

typedef struct {
    char *id;               /* "01.1" */
    unsigned begin, stub, end;   /* line numbers of the three markers (1-based) */
    int stub_has_unimpl;    /* the stub returns MBD_EUNIMPL (always, once END is seen) */
} stub_region;

typedef struct {
    stub_region *r;
    size_t n;
    /* the solution's lines (BEGIN < line < STUB), each as "LINE:TEXT\n" */
    strbuf secret;
} stub_info;

/* Generates the stub of 'text' (the contents of the file 'path', used in
 * messages) into out. Returns the number of errors, each printed to err as
 * "path:line: message" (0: success). info (may be NULL) receives the regions;
 * free it with stub_info_free. */
int stub_generate(const char *path, const char *text, strbuf *out, stub_info *info, FILE *err);
void stub_info_free(stub_info *info);

#endif
