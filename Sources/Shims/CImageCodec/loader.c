// Opening a library when first needed (see loader.h).
#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>

int ifc_open_libraries(const char *const *names, void **handles, size_t count, const char *needer, const char *packages,
                       char *failure, size_t capacity) {
    for (size_t index = 0; index < count; index++) {
        handles[index] = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
        if (!handles[index]) {
            snprintf(failure, capacity, "%s %s, which is not installed (Debian: %s)", needer, names[index], packages);
            return 0;
        }
    }
    return 1;
}

void *ifc_find_function(void *const *handles, size_t count, const char *name, const char *owner, char *failure,
                        size_t capacity) {
    for (size_t index = 0; index < count; index++) {
        void *function = dlsym(handles[index], name);
        if (function) return function;
    }
    snprintf(failure, capacity, "%s has no %s", owner, name);
    return NULL;
}
