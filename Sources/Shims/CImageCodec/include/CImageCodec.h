#ifndef IMAGEFEED_CIMAGECODEC_H
#define IMAGEFEED_CIMAGECODEC_H
#include <stddef.h>
#include <stdint.h>

// Status codes shared by every function here.
#define IFC_OK 0
#define IFC_PARTIAL 1   // decoded, but the data was damaged (libjpeg warnings); pixels may be gray in places
#define IFC_ERROR -1    // nothing usable; the message says why
// Larger pictures are refused before any pixel memory is taken (8192 x 8192; a terminal shows far less).
#define IFC_MAX_PIXELS (8192ULL * 8192ULL)

// Reads the header only. Returns IFC_OK or IFC_ERROR.
int ifc_jpeg_size(const uint8_t *data, size_t length, int *width, int *height,
                  char *message, size_t message_capacity);

// Decodes to packed RGB (3 bytes a pixel) at 1/scale_denom of the full size, using libjpeg's
// DCT scaling (scale_denom is 1, 2, 4 or 8). *pixels is malloc'd: release with ifc_free.
int ifc_jpeg_decode(const uint8_t *data, size_t length, int scale_denom,
                    uint8_t **pixels, int *width, int *height,
                    char *message, size_t message_capacity);

// Encodes packed RGB (components 3) or gray (components 1) as baseline JPEG. *output is
// malloc'd: release with ifc_free.
int ifc_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                    uint8_t **output, size_t *output_length,
                    char *message, size_t message_capacity);

// Decodes any PNG (palette, gray, 16-bit, alpha) to packed RGBA with libpng's simplified API.
int ifc_png_decode(const uint8_t *data, size_t length,
                   uint8_t **pixels, int *width, int *height,
                   char *message, size_t message_capacity);

void ifc_free(void *pointer);

#endif
