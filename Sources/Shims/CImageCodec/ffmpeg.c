// Loading FFmpeg on first use (see ffmpeg.h).
#define IFC_FFMPEG_LOADER
#include "ffmpeg.h"
#include "loader.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <libavutil/macros.h>

struct ifc_ffmpeg ifc_ffmpeg;

static pthread_once_t ifc_ffmpeg_once = PTHREAD_ONCE_INIT;
static int ifc_ffmpeg_loaded = 0;
static char ifc_ffmpeg_failure[256];

// The libraries by the major versions the headers were (their ABI): libavformat brings libavcodec and libavutil.
static const char *const ifc_ffmpeg_libraries[] = {
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
};
#define IFC_FFMPEG_LIBRARY_COUNT (sizeof ifc_ffmpeg_libraries / sizeof ifc_ffmpeg_libraries[0])

static void ifc_ffmpeg_open(void) {
    void *handles[IFC_FFMPEG_LIBRARY_COUNT] = { 0 };
    if (!ifc_open_libraries(ifc_ffmpeg_libraries, handles, IFC_FFMPEG_LIBRARY_COUNT, "videos need FFmpeg's",
                            "libavformat59, libswscale6", ifc_ffmpeg_failure, sizeof ifc_ffmpeg_failure)) {
        return;
    }
#define IFC_FFMPEG_FIND(name) \
    *(void **)&ifc_ffmpeg.name = ifc_find_function(handles, IFC_FFMPEG_LIBRARY_COUNT, #name, "FFmpeg's libraries", \
                                                   ifc_ffmpeg_failure, sizeof ifc_ffmpeg_failure); \
    if (!ifc_ffmpeg.name) return;
    IFC_FFMPEG_FUNCTIONS(IFC_FFMPEG_FIND)
#undef IFC_FFMPEG_FIND
    // The libraries stay loaded for the program's life (the functions above point into them).
    ifc_ffmpeg_loaded = 1;
}

int ifc_ffmpeg_load(char *message, size_t capacity) {
    pthread_once(&ifc_ffmpeg_once, ifc_ffmpeg_open);
    if (!ifc_ffmpeg_loaded && message && capacity > 0) snprintf(message, capacity, "%s", ifc_ffmpeg_failure);
    return ifc_ffmpeg_loaded;
}
