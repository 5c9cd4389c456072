#ifndef IMAGEFEED_CIMAGECODEC_INTERNAL_H
#define IMAGEFEED_CIMAGECODEC_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

// Shared by the decoders of codec.c and formats.c.
void ifc_set_message(char *message, size_t capacity, const char *text);
// 1 (with the message) when width x height is empty or over the budget; 0 otherwise.
int ifc_over_budget(unsigned long width, unsigned long height, uint64_t max_pixels, const char *format,
                    char *message, size_t capacity);

// Takes `pixels` from the process's budget for decodes in flight, waiting while others hold it; 1 (with the
// message) when the decode was stopped meanwhile.
int ifc_reserve_pixels(uint64_t pixels, char *message, size_t capacity);
// Whether the decode under way on this thread is no longer wanted.
int ifc_decode_stopped(void);
// Bytes in memory, read from the start (giflib's input function reads them through its UserData).
struct ifc_memory {
    const uint8_t *data;
    size_t length;
    size_t offset;
};
#define IFC_STOPPED_MESSAGE "the decode was stopped: the picture is no longer wanted"

#endif
