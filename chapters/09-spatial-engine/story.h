/* story.h -- chapter 09's story (work in progress). */
#ifndef CH09_STORY_H
#define CH09_STORY_H

#include <stdio.h>

#include "mbd/error.h"
#include "model.h"

int ch09_story(FILE *out, int no_timing, mbd_failure *fail);

#endif
