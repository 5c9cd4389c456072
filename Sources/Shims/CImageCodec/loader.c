// Loading libraries when first needed (see loader.h).
#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>

static int ifc_open_library_set(struct ifc_library_set *set) {
    // Room for the sets there are (FFmpeg's four libraries, libtiff): a larger set is a mistake of this program's.
    void *handles[8] = { 0 };
    if (set->library_count > sizeof handles / sizeof handles[0]) return 0;
    for (size_t index = 0; index < set->library_count; index++) {
        handles[index] = dlopen(set->libraries[index], RTLD_NOW | RTLD_LOCAL);
        if (!handles[index]) {
            snprintf(set->failure, sizeof set->failure, "%s %s, which is not installed (Debian: %s)", set->needer,
                     set->libraries[index], set->packages);
            return 0;
        }
    }
    for (size_t function = 0; function < set->function_count; function++) {
        for (size_t index = 0; index < set->library_count && !set->slots[function]; index++) {
            set->slots[function] = dlsym(handles[index], set->functions[function]);
        }
        if (!set->slots[function]) {
            snprintf(set->failure, sizeof set->failure, "%s has no %s", set->owner, set->functions[function]);
            return 0;
        }
    }
    // The libraries stay loaded for the program's life (the functions found point into them).
    return 1;
}

int ifc_load_library_set(struct ifc_library_set *set, char *message, size_t capacity) {
    pthread_mutex_lock(&set->lock);
    if (!set->tried) {
        set->loaded = ifc_open_library_set(set);
        set->tried = 1;
    }
    int loaded = set->loaded;
    pthread_mutex_unlock(&set->lock);
    if (!loaded && message && capacity > 0) snprintf(message, capacity, "%s", set->failure);
    return loaded;
}
