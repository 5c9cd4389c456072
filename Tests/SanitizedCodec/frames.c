// Reads every frame of each file named on the command line through CImageCodec's animation reader, as the program
// does: built with AddressSanitizer by SanitizedCodecTests (the codec's C files and this one), and run under it and
// under valgrind, whose memcheck also sees what the libraries' own code writes (FFmpeg's converters are not
// instrumented). Prints one line a file: its name, the canvas, the frames read, how it ended and the process's peak
// memory so far.
#include "CImageCodec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t capacity = 1 << 16, used = 0;
    unsigned char *bytes = malloc(capacity);
    size_t got;
    while (bytes && (got = fread(bytes + used, 1, capacity - used, file)) > 0) {
        used += got;
        if (used == capacity) {
            capacity *= 2;
            unsigned char *grown = realloc(bytes, capacity);
            if (!grown) { free(bytes); bytes = NULL; }
            bytes = grown;
        }
    }
    fclose(file);
    *length = used;
    return bytes;
}

// The process's peak resident memory (VmHWM): its own, where getrusage's maximum can be the parent's when the
// parent started it with vfork and a large memory of its own.
static long peak_kilobytes(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return -1;
    char line[256];
    long peak = -1;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmHWM:", 6) == 0) peak = strtol(line + 6, NULL, 10);
    }
    fclose(status);
    return peak;
}

int main(int argc, char **argv) {
    int failures = 0;
    for (int index = 1; index < argc; index++) {
        size_t length = 0;
        unsigned char *bytes = read_file(argv[index], &length);
        if (!bytes) { printf("%s unreadable\n", argv[index]); failures++; continue; }
        char message[200] = { 0 };
        ifc_begin_decode(NULL);
        ifc_animation *animation = ifc_animation_open(bytes, length, 50000000ULL, message, sizeof message);
        if (!animation) {
            printf("%s refused: %s\n", argv[index], message);
            ifc_end_decode();
            free(bytes);
            continue;
        }
        int width = 0, height = 0, frames = 0, loops = 0, read = 0, status;
        ifc_animation_info(animation, &width, &height, &frames, &loops);
        unsigned long checksum = 0;
        for (;;) {
            const uint8_t *canvas = NULL;
            int delay = 0;
            status = ifc_animation_next(animation, &canvas, &delay, message, sizeof message);
            if (status != IFC_OK && status != IFC_PARTIAL) break;
            // Every byte of the canvas is read, so that a short one is seen.
            for (size_t byte = 0; byte < (size_t)width * (size_t)height * 4; byte++) checksum += canvas[byte];
            read++;
        }
        printf("%s %dx%d frames %d %s checksum %lu peak %ld KB\n", argv[index], width, height, read,
               status == IFC_ANIMATION_END ? "end" : message, checksum, peak_kilobytes());
        ifc_animation_close(animation);
        ifc_end_decode();
        free(bytes);
    }
    return failures == 0 ? 0 : 1;
}
