// Libraries loaded when first needed, not when the program starts (ffmpeg.c, tiff.c): each library a start links
// is loaded and relocated on every run, the previewer's `render` included, though most runs never play a video or
// open a TIFF.
#ifndef IMAGEFEED_LOADER_H
#define IMAGEFEED_LOADER_H

#include <stddef.h>

// Opens the `count` libraries by name, for the program's life; 1, or 0 with "`needer` NAME, which is not installed
// (Debian: `packages`)" in `failure` for the first one missing ("videos need FFmpeg's libavformat.so.59, ...").
int ifc_open_libraries(const char *const *names, void **handles, size_t count, const char *needer, const char *packages,
                       char *failure, size_t capacity);

// The function `name` from the first of the libraries that has it; NULL, with "`owner` has no NAME" in `failure`,
// when none does.
void *ifc_find_function(void *const *handles, size_t count, const char *name, const char *owner, char *failure,
                        size_t capacity);

#endif
