// Loading libtiff on first use (see tiff.h).
#define IFC_TIFF_LOADER
#include "tiff.h"
#include "loader.h"

struct ifc_tiff ifc_tiff;

// libtiff 4's library ABI (its headers say 4.x; the shared object's version is 6).
static const char *const ifc_tiff_library[] = { "libtiff.so.6" };
#define IFC_TIFF_NAME(name) #name,
static const char *const ifc_tiff_names[] = { IFC_TIFF_FUNCTIONS(IFC_TIFF_NAME) };
#undef IFC_TIFF_NAME
_Static_assert(sizeof(struct ifc_tiff) == sizeof ifc_tiff_names / sizeof ifc_tiff_names[0] * sizeof(void *),
               "one pointer a function");

static struct ifc_library_set ifc_tiff_set = {
    .libraries = ifc_tiff_library, .library_count = 1,
    .functions = ifc_tiff_names, .function_count = sizeof ifc_tiff_names / sizeof ifc_tiff_names[0],
    .slots = (void **)&ifc_tiff,
    .needer = "TIFF pictures need", .packages = "libtiff6", .owner = "libtiff",
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

int ifc_tiff_load(char *message, size_t capacity) {
    return ifc_load_library_set(&ifc_tiff_set, message, capacity);
}
