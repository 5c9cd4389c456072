// Loading FFmpeg on first use (see ffmpeg.h).
#define IFC_FFMPEG_LOADER
#include "ffmpeg.h"
#include "loader.h"

#include <libavutil/macros.h>

struct ifc_ffmpeg ifc_ffmpeg;

// The libraries by the major versions the headers were (their ABI): libavformat brings libavcodec and libavutil.
static const char *const ifc_ffmpeg_libraries[] = {
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
};
#define IFC_FFMPEG_NAME(name) #name,
static const char *const ifc_ffmpeg_names[] = { IFC_FFMPEG_FUNCTIONS(IFC_FFMPEG_NAME) };
#undef IFC_FFMPEG_NAME
_Static_assert(sizeof(struct ifc_ffmpeg) == sizeof ifc_ffmpeg_names / sizeof ifc_ffmpeg_names[0] * sizeof(void *),
               "one pointer a function");

static struct ifc_library_set ifc_ffmpeg_set = {
    .libraries = ifc_ffmpeg_libraries, .library_count = sizeof ifc_ffmpeg_libraries / sizeof ifc_ffmpeg_libraries[0],
    .functions = ifc_ffmpeg_names, .function_count = sizeof ifc_ffmpeg_names / sizeof ifc_ffmpeg_names[0],
    .slots = (void **)&ifc_ffmpeg,
    .needer = "videos need FFmpeg's", .packages = "libavformat59, libswscale6", .owner = "FFmpeg's libraries",
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

int ifc_ffmpeg_load(char *message, size_t capacity) {
    return ifc_load_library_set(&ifc_ffmpeg_set, message, capacity);
}
