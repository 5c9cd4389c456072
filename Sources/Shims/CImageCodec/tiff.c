// Loading libtiff on first use (see tiff.h).
#define IFC_TIFF_LOADER
#include "tiff.h"
#include "loader.h"

#include <pthread.h>
#include <stdio.h>

struct ifc_tiff ifc_tiff;

static pthread_once_t ifc_tiff_once = PTHREAD_ONCE_INIT;
static int ifc_tiff_loaded = 0;
static char ifc_tiff_failure[256];

// libtiff 4's library ABI (its headers say 4.x; the shared object's version is 6).
static const char *const ifc_tiff_library[] = { "libtiff.so.6" };

static void ifc_tiff_open(void) {
    void *handle = NULL;
    if (!ifc_open_libraries(ifc_tiff_library, &handle, 1, "TIFF pictures need", "libtiff6", ifc_tiff_failure,
                            sizeof ifc_tiff_failure)) {
        return;
    }
#define IFC_TIFF_FIND(name) \
    *(void **)&ifc_tiff.name = ifc_find_function(&handle, 1, #name, "libtiff", ifc_tiff_failure, sizeof ifc_tiff_failure); \
    if (!ifc_tiff.name) return;
    IFC_TIFF_FUNCTIONS(IFC_TIFF_FIND)
#undef IFC_TIFF_FIND
    // The library stays loaded for the program's life (the functions above point into it).
    ifc_tiff_loaded = 1;
}

int ifc_tiff_load(char *message, size_t capacity) {
    pthread_once(&ifc_tiff_once, ifc_tiff_open);
    if (!ifc_tiff_loaded && message && capacity > 0) snprintf(message, capacity, "%s", ifc_tiff_failure);
    return ifc_tiff_loaded;
}
