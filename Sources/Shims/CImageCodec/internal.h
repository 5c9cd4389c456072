#ifndef IMAGEFEED_CIMAGECODEC_INTERNAL_H
#define IMAGEFEED_CIMAGECODEC_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

// Shared by the decoders of codec.c and formats.c.
void ifc_set_message(char *message, size_t capacity, const char *text);
// 1 (with the message) when width x height is empty or over the budget; 0 otherwise.
int ifc_over_budget(unsigned long width, unsigned long height, uint64_t max_pixels, const char *format,
                    char *message, size_t capacity);

#endif
