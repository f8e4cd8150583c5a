/* tests/support/gif.h -- a GIF reader for the tests, written apart from the
 * library (animation.c) so that the tests check its files independently.
 *
 * It reads what the format says (GIF89a, the Graphics Interchange Format
 * specification of 1990): the header, the logical screen descriptor and its
 * global colour table, and every block after it -- graphic control
 * extensions (their delays in hundredths of a second and disposal methods),
 * application and comment extensions (skipped), image descriptors with their
 * local colour tables and LZW-compressed data (decoded when asked), up to the
 * trailer. Anything else, or data that end early, makes it fail.
 */
#ifndef MBD_TEST_GIF_H
#define MBD_TEST_GIF_H

#include <stddef.h>

typedef struct {
    unsigned width, height;      /* the logical screen */
    size_t frames;               /* image descriptors */
    long *delays;                /* per frame, in 1/100 s (0 without a graphic control extension) */
    long duration;               /* the sum of the delays */
    int loops;                   /* a NETSCAPE2.0 extension was found */
} test_gif;

/* Reads the GIF at path. 0 on success; -1 (with a reason in `why`, if not
 * NULL) when it cannot be read or is not a well-formed GIF. */
int test_gif_read(const char *path, test_gif *g, char *why, size_t why_size);
void test_gif_free(test_gif *g);

/* Frame k as the viewer sees it (the frames before it composed with their
 * disposal methods): width x height x 3 bytes RGB, row by row from the top,
 * to free. NULL when it cannot be decoded. */
unsigned char *test_gif_frame_rgb(const char *path, size_t k, unsigned *width, unsigned *height);

/* The animation's timing against the options that made it: K = floor(span
 * fps / speed) + 1 frames (span: the run's simulated time), lasting
 * round(100 K / fps) cs, frame k starting round(100 k / fps) cs in. 0 when
 * all hold; -1 with what does not in `why`. */
int test_gif_timing(const char *path, double span, double fps, double speed, char *why,
                    size_t why_size);

#endif
