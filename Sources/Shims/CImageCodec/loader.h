// Libraries loaded when first needed, not when the program starts (FFmpeg in ffmpeg.c, libtiff in tiff.c): each
// library a start links is loaded and relocated on every run, the previewer's `render` included, though most runs
// never play a video or open a TIFF.
#ifndef IMAGEFEED_LOADER_H
#define IMAGEFEED_LOADER_H

#include <pthread.h>
#include <stddef.h>

// Libraries and the functions taken from them: `functions[i]` is looked for in each library in turn and stored in
// `slots[i]` (a struct of the functions' pointers, in the same order).
struct ifc_library_set {
    const char *const *libraries;
    size_t library_count;
    const char *const *functions;
    size_t function_count;
    void **slots;
    // For the message when one is missing: "`needer` NAME, which is not installed (Debian: `packages`)", or
    // "`owner` has no FUNCTION".
    const char *needer;
    const char *packages;
    const char *owner;
    // Set by the first load.
    pthread_mutex_t lock;
    int tried;
    int loaded;
    char failure[256];
};

// Loads the set once, for the program's life (later calls answer as the first did); 1 when every function was
// found, else 0 with why in `message`.
int ifc_load_library_set(struct ifc_library_set *set, char *message, size_t capacity);

#endif
