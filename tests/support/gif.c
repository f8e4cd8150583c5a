/* tests/support/gif.c -- a GIF reader for the tests (gif.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gif.h"

typedef struct {
    const unsigned char *b;
    size_t n, at;
} cursor;

static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char *b = malloc(cap);
    while (b != NULL) {
        size_t k = fread(b + len, 1, cap - len, f);
        len += k;
        if (len < cap)
            break;
        unsigned char *nb = realloc(b, 2 * cap);
        if (nb == NULL) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    fclose(f);
    *n = len;
    return b;
}

static int fail(char *why, size_t size, const char *fmt, ...)
{
    if (why != NULL && size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The image data's sub-blocks, concatenated (to free), or NULL. */
static unsigned char *sub_blocks(cursor *c, size_t *len, int keep)
{
    unsigned char *out = keep ? malloc(1) : NULL;
    size_t n = 0;
    for (;;) {
        if (c->at >= c->n) {
            free(out);
            return NULL;
        }
        const size_t k = c->b[c->at++];
        if (k == 0)
            break;
        if (c->at + k > c->n) {
            free(out);
            return NULL;
        }
        if (keep) {
            unsigned char *no = realloc(out, n + k + 1);
            if (no == NULL) {
                free(out);
                return NULL;
            }
            out = no;
            memcpy(out + n, c->b + c->at, k);
        }
        n += k;
        c->at += k;
    }
    *len = n;
    return keep ? out : (unsigned char *)c->b;   /* non-NULL: success */
}

/* LZW: `count` colour indices from data (min code size `min`). 0 on success. */
static int lzw_decode(const unsigned char *data, size_t len, int min, unsigned char *out,
                      size_t count)
{
    if (min < 2 || min > 8)
        return -1;
    static unsigned short prefix[4096];
    static unsigned char suffix[4096], stack[4097];
    const int clear = 1 << min, end = clear + 1;
    int size = min + 1, next = clear + 2, prev = -1;
    unsigned char first = 0;
    size_t bit = 0, written = 0;
    for (int i = 0; i < clear; i++) {
        prefix[i] = 0;
        suffix[i] = (unsigned char)i;
    }
    while (written < count) {
        if (bit + (size_t)size > 8 * len)
            return -1;
        int code = 0;
        for (int i = 0; i < size; i++, bit++)
            code |= ((data[bit / 8] >> (bit % 8)) & 1) << i;
        if (code == clear) {
            size = min + 1;
            next = clear + 2;
            prev = -1;
            continue;
        }
        if (code == end)
            break;
        int sp = 0, c = code;
        if (prev < 0) {
            if (code >= clear)
                return -1;
            out[written++] = (unsigned char)code;
            first = (unsigned char)code;
            prev = code;
            continue;
        }
        if (code > next || (code == next && next >= 4096))
            return -1;
        if (code == next) {   /* the code being defined: prev's string + its first */
            stack[sp++] = first;
            c = prev;
        }
        while (c >= clear) {
            stack[sp++] = suffix[c];
            c = prefix[c];
        }
        stack[sp++] = (unsigned char)c;
        first = (unsigned char)c;
        while (sp > 0 && written < count)
            out[written++] = stack[--sp];
        if (next < 4096) {
            prefix[next] = (unsigned short)prev;
            suffix[next] = first;
            next++;
            if (next == (1 << size) && size < 12)
                size++;
        }
        prev = code;
    }
    return written == count ? 0 : -1;
}

/* Walks the file; with `want` >= 0 composes frames 0 ... want into rgb
 * (width x height x 3). */
static int walk(const unsigned char *b, size_t n, test_gif *g, long want, unsigned char *rgb,
                unsigned char **saved_, char *why, size_t why_size)
{
    memset(g, 0, sizeof *g);
    if (n < 13 || (memcmp(b, "GIF89a", 6) != 0 && memcmp(b, "GIF87a", 6) != 0))
        return fail(why, why_size, "not a GIF (no GIF89a/GIF87a header)");
    g->width = b[6] | (unsigned)b[7] << 8;
    g->height = b[8] | (unsigned)b[9] << 8;
    if (g->width == 0 || g->height == 0)
        return fail(why, why_size, "a logical screen of %ux%u", g->width, g->height);
    cursor c = {b, n, 13};
    const unsigned char *gct = NULL;
    size_t gct_n = 0;
    if (b[10] & 0x80) {
        gct_n = (size_t)1 << ((b[10] & 7) + 1);
        gct = b + 13;
        c.at += 3 * gct_n;
        if (c.at > n)
            return fail(why, why_size, "the global colour table runs past the end");
    }
    size_t cap = 64;
    g->delays = calloc(cap, sizeof *g->delays);
    if (g->delays == NULL)
        return fail(why, why_size, "out of memory");
    long delay = 0;
    int disposal = 0, transparent = -1;
    unsigned char *saved = NULL;   /* under a frame that restores it (its caller frees) */
    const size_t screen = (size_t)g->width * g->height;
    while (c.at < n) {
        const unsigned char kind = b[c.at++];
        if (kind == 0x3B)   /* the trailer */
            return 0;
        if (kind == 0x21) {
            if (c.at >= n)
                break;
            const unsigned char label = b[c.at++];
            const size_t start = c.at;
            size_t len;
            if (label == 0xF9) {
                if (c.at + 6 > n || b[c.at] != 4)
                    return fail(why, why_size, "a graphic control extension of the wrong size");
                disposal = (b[c.at + 1] >> 2) & 7;
                delay = b[c.at + 2] | (long)b[c.at + 3] << 8;
                transparent = (b[c.at + 1] & 1) ? b[c.at + 4] : -1;
            }
            if (label == 0xFF && c.at + 12 <= n && memcmp(b + c.at + 1, "NETSCAPE2.0", 11) == 0)
                g->loops = 1;
            c.at = start;
            if (sub_blocks(&c, &len, 0) == NULL)
                return fail(why, why_size, "an extension runs past the end");
            continue;
        }
        if (kind != 0x2C)
            return fail(why, why_size, "an unknown block 0x%02x at byte %zu", kind, c.at - 1);
        if (c.at + 9 > n)
            return fail(why, why_size, "an image descriptor runs past the end");
        const unsigned x0 = b[c.at] | (unsigned)b[c.at + 1] << 8;
        const unsigned y0 = b[c.at + 2] | (unsigned)b[c.at + 3] << 8;
        const unsigned w = b[c.at + 4] | (unsigned)b[c.at + 5] << 8;
        const unsigned h = b[c.at + 6] | (unsigned)b[c.at + 7] << 8;
        const unsigned char packed = b[c.at + 8];
        c.at += 9;
        if (x0 + w > g->width || y0 + h > g->height)
            return fail(why, why_size, "frame %zu lies outside the screen", g->frames);
        const unsigned char *ct = gct;
        size_t ct_n = gct_n;
        if (packed & 0x80) {
            ct_n = (size_t)1 << ((packed & 7) + 1);
            ct = b + c.at;
            c.at += 3 * ct_n;
        }
        if (packed & 0x40)
            return fail(why, why_size, "interlaced frames are not read here");
        if (c.at >= n || ct == NULL)
            return fail(why, why_size, "frame %zu has no colour table or no data", g->frames);
        const int min = b[c.at++];
        size_t len;
        const int decode = want >= 0 && (long)g->frames <= want;
        unsigned char *data = sub_blocks(&c, &len, decode);
        if (data == NULL)
            return fail(why, why_size, "frame %zu's data run past the end", g->frames);
        if (decode) {
            unsigned char *idx = malloc((size_t)w * h + 1);
            int bad = idx == NULL || lzw_decode(data, len, min, idx, (size_t)w * h) != 0;
            if (!bad) {
                if (disposal == 3) {   /* restore to previous: keep what is under it */
                    if (*saved_ == NULL)
                        *saved_ = malloc(3 * screen);
                    saved = *saved_;
                    if (saved)
                        memcpy(saved, rgb, 3 * screen);
                }
                for (unsigned y = 0; y < h; y++)
                    for (unsigned x = 0; x < w; x++) {
                        const unsigned char i = idx[(size_t)y * w + x];
                        if ((int)i == transparent || i >= ct_n)
                            continue;
                        unsigned char *p = rgb + 3 * ((size_t)(y0 + y) * g->width + x0 + x);
                        memcpy(p, ct + 3 * i, 3);
                    }
                if ((long)g->frames < want) {   /* disposal before the next frame */
                    if (disposal == 2)
                        for (unsigned y = 0; y < h; y++)
                            memset(rgb + 3 * ((size_t)(y0 + y) * g->width + x0), 255, 3 * (size_t)w);
                    else if (disposal == 3 && saved)
                        memcpy(rgb, saved, 3 * screen);
                }
            }
            free(idx);
            free(data);
            if (bad)
                return fail(why, why_size, "frame %zu's LZW data do not decode", g->frames);
        }
        if (g->frames == cap) {
            long *nd = realloc(g->delays, 2 * cap * sizeof *nd);
            if (nd == NULL)
                return fail(why, why_size, "out of memory");
            g->delays = nd;
            cap *= 2;
        }
        g->delays[g->frames++] = delay;
        g->duration += delay;
        delay = 0;
        disposal = 0;
        transparent = -1;
    }
    return fail(why, why_size, "no trailer: the file ends after %zu frames", g->frames);
}

int test_gif_read(const char *path, test_gif *g, char *why, size_t why_size)
{
    size_t n;
    unsigned char *b = read_all(path, &n);
    memset(g, 0, sizeof *g);
    if (b == NULL)
        return fail(why, why_size, "cannot read '%s'", path);
    unsigned char *saved = NULL;
    int st = walk(b, n, g, -1, NULL, &saved, why, why_size);
    free(saved);
    free(b);
    if (st != 0)
        test_gif_free(g);
    return st;
}

void test_gif_free(test_gif *g)
{
    free(g->delays);
    g->delays = NULL;
}

unsigned char *test_gif_frame_rgb(const char *path, size_t k, unsigned *width, unsigned *height)
{
    size_t n;
    unsigned char *b = read_all(path, &n);
    if (b == NULL || n < 10) {
        free(b);
        return NULL;
    }
    const unsigned w = b[6] | (unsigned)b[7] << 8, h = b[8] | (unsigned)b[9] << 8;
    unsigned char *rgb = malloc(3 * (size_t)w * h + 1);
    test_gif g;
    int st = -1;
    if (rgb != NULL) {
        memset(rgb, 255, 3 * (size_t)w * h);
        unsigned char *saved = NULL;
        st = walk(b, n, &g, (long)k, rgb, &saved, NULL, 0);
        free(saved);
        if (st == 0 && k >= g.frames)
            st = -1;
        test_gif_free(&g);
    }
    free(b);
    if (st != 0) {
        free(rgb);
        return NULL;
    }
    *width = w;
    *height = h;
    return rgb;
}

int test_gif_timing(const char *path, double span, double fps, double speed, char *why,
                    size_t why_size)
{
    test_gif g;
    char r[200];
    if (test_gif_read(path, &g, r, sizeof r) != 0) {
        snprintf(why, why_size, "%s is not a GIF: %s", path, r);
        return -1;
    }
    const size_t K = (size_t)floor(span * fps / speed + 1e-9) + 1;
    const long total = lround(100.0 * (double)K / fps);
    long worst = 0, start = 0;
    for (size_t k = 0; k < g.frames; k++) {
        const long off = labs(start - lround(100.0 * (double)k / fps));
        worst = off > worst ? off : worst;
        start += g.delays[k];
    }
    int st = 0;
    if (g.frames != K)
        st = -1, snprintf(why, why_size, "%zu frames, expected %zu (span %g, fps %g, speed %g)",
                          g.frames, K, span, fps, speed);
    else if (g.duration != total)
        st = -1, snprintf(why, why_size, "%ld cs, expected %ld", g.duration, total);
    else if (worst != 0)
        st = -1, snprintf(why, why_size, "a frame starts %ld cs away from round(100 k / fps)",
                          worst);
    test_gif_free(&g);
    return st;
}
