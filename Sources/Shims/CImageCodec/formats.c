// The formats beyond JPEG and PNG that `image-feed render` is handed as a file manager's previewer: TIFF through
// libtiff (loaded at the first TIFF: tiff.h), and BMP read here. (A GIF or a WebP, still or not, is read by the one
// reader of its format, animation.c's.) Each decodes
// to packed RGBA after the size its header claims has been checked against the budget, and none writes to stderr.
#include "CImageCodec.h"
#include "internal.h"
#include "tiff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>

// MARK: - TIFF

struct ifc_tiff_source {
    const uint8_t *data;
    toff_t length;
    toff_t offset;
    char *message;
    size_t message_capacity;
    int warnings;
};

static tmsize_t ifc_tiff_read(thandle_t handle, void *buffer, tmsize_t size) {
    struct ifc_tiff_source *source = (struct ifc_tiff_source *)handle;
    if (size <= 0 || source->offset >= source->length) return 0;
    toff_t left = source->length - source->offset;
    toff_t taken = (toff_t)size < left ? (toff_t)size : left;
    memcpy(buffer, source->data + source->offset, (size_t)taken);
    source->offset += taken;
    return (tmsize_t)taken;
}

static tmsize_t ifc_tiff_write(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle; (void)buffer; (void)size;
    return 0;
}

static toff_t ifc_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    struct ifc_tiff_source *source = (struct ifc_tiff_source *)handle;
    toff_t base = whence == SEEK_CUR ? source->offset : whence == SEEK_END ? source->length : 0;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    source->offset = base + offset;
    return source->offset;
}

static int ifc_tiff_close(thandle_t handle) { (void)handle; return 0; }
static toff_t ifc_tiff_size(thandle_t handle) { return ((struct ifc_tiff_source *)handle)->length; }
static int ifc_tiff_map(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void ifc_tiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

// libtiff's errors and warnings go into the message, never to stderr (a full-screen terminal is in front).
static int ifc_tiff_error(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)module;
    struct ifc_tiff_source *source = (struct ifc_tiff_source *)user;
    if (source && source->message && source->message_capacity > 0) {
        vsnprintf(source->message, source->message_capacity, format, arguments);
    }
    return 1;
}

static int ifc_tiff_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)module; (void)format; (void)arguments;
    struct ifc_tiff_source *source = (struct ifc_tiff_source *)user;
    if (source) source->warnings += 1;
    return 1;
}

int ifc_tiff_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                    uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity) {
    *pixels = NULL;
    if (!data || length == 0) {
        ifc_set_message(message, message_capacity, "not a TIFF");
        return IFC_ERROR;
    }
    if (!ifc_tiff_load(message, message_capacity)) return IFC_ERROR;
    ifc_set_message(message, message_capacity, "not a TIFF, or a damaged one");
    struct ifc_tiff_source source = { data, (toff_t)length, 0, message, message_capacity, 0 };
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) {
        ifc_set_message(message, message_capacity, "out of memory decoding TIFF");
        return IFC_ERROR;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, ifc_tiff_error, &source);
    TIFFOpenOptionsSetWarningHandlerExtR(options, ifc_tiff_warning, &source);
    // No single allocation of libtiff's own past what a picture within the budget needs.
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)(ifc_effective_budget(max_pixels) * 4ULL + (16ULL << 20)));
    TIFF *tiff = TIFFClientOpenExt("image", "rm", (thandle_t)&source, ifc_tiff_read, ifc_tiff_write, ifc_tiff_seek,
                                   ifc_tiff_close, ifc_tiff_size, ifc_tiff_map, ifc_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!tiff) return IFC_ERROR;
    uint32_t image_width = 0, image_height = 0;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &image_width);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &image_height);
    if (ifc_over_budget(image_width, image_height, max_pixels, "TIFF", message, message_capacity)) {
        TIFFClose(tiff);
        return IFC_ERROR;
    }
    uint32_t *raster = (uint32_t *)malloc((size_t)image_width * (size_t)image_height * sizeof(uint32_t));
    if (!raster) {
        ifc_set_message(message, message_capacity, "out of memory decoding TIFF");
        TIFFClose(tiff);
        return IFC_ERROR;
    }
    if (!TIFFReadRGBAImageOriented(tiff, image_width, image_height, raster, ORIENTATION_TOPLEFT, 0)) {
        TIFFClose(tiff);
        free(raster);
        return IFC_ERROR;
    }
    TIFFClose(tiff);
    // libtiff's ABGR words, one a pixel, to bytes in R, G, B, A order.
    uint8_t *bytes = (uint8_t *)raster;
    size_t count = (size_t)image_width * (size_t)image_height;
    for (size_t index = 0; index < count; index++) {
        uint32_t word = raster[index];
        bytes[index * 4 + 0] = (uint8_t)TIFFGetR(word);
        bytes[index * 4 + 1] = (uint8_t)TIFFGetG(word);
        bytes[index * 4 + 2] = (uint8_t)TIFFGetB(word);
        bytes[index * 4 + 3] = (uint8_t)TIFFGetA(word);
    }
    *pixels = bytes;
    *width = (int)image_width;
    *height = (int)image_height;
    return source.warnings > 0 ? IFC_PARTIAL : IFC_OK;
}

// MARK: - BMP

// Read here rather than through a library: stb_image, the usual one, clashes with the copy of it inside libsixel.
// Windows BMP as written today: the 12-byte OS/2 header or the 40-byte header and its later versions (52, 56,
// 108, 124 bytes); 1, 4 and 8 bits through the palette, 16 bits (5-5-5, or bit fields), 24 bits, 32 bits (with
// or without bit fields); bottom-up or top-down. Compressed (RLE) files are refused with a message.

static uint32_t ifc_le32(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24); }
static uint16_t ifc_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

// The value of the bits of `mask` in `value`, scaled to 0...255.
static uint8_t ifc_bmp_channel(uint32_t value, uint32_t mask) {
    if (mask == 0) return 0;
    int shift = 0;
    while (!(mask & 1u)) { mask >>= 1; shift++; }
    uint32_t bits = (value >> shift) & mask;
    return (uint8_t)((bits * 255u + mask / 2) / mask);
}

// RLE8 and RLE4 (bottom-up): runs of one index, absolute runs, ends of lines, deltas and the end; pixels a file
// skips stay transparent (black). A file cut short shows what came.
static int ifc_bmp_rle(const uint8_t *source, size_t length, int four, int64_t image_width, int64_t image_height,
                       const uint8_t *palette, uint32_t palette_count, uint32_t entry,
                       uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity) {
    uint8_t *output = (uint8_t *)calloc((size_t)image_width * (size_t)image_height, 4);
    if (!output) {
        ifc_set_message(message, message_capacity, "out of memory decoding BMP");
        return IFC_ERROR;
    }
    int64_t x = 0, row = 0;
    size_t at = 0;
    int status = IFC_PARTIAL;
#define IFC_PUT(index) do { \
        if (x < image_width && row < image_height && (uint32_t)(index) < palette_count) { \
            const uint8_t *color = palette + (size_t)(index) * entry; \
            uint8_t *pixel = output + ((size_t)(image_height - 1 - row) * (size_t)image_width + (size_t)x) * 4; \
            pixel[0] = color[2]; pixel[1] = color[1]; pixel[2] = color[0]; pixel[3] = 255; \
        } \
        x++; \
    } while (0)
    while (at + 1 < length && row < image_height) {
        uint8_t count = source[at], value = source[at + 1];
        at += 2;
        if (count > 0) {
            for (uint8_t index = 0; index < count; index++) IFC_PUT(four ? ((index & 1) ? (value & 0x0F) : (value >> 4)) : value);
            continue;
        }
        if (value == 0) { x = 0; row++; continue; }
        if (value == 1) { status = IFC_OK; break; }
        if (value == 2) {
            if (at + 1 >= length) break;
            x += source[at];
            row += source[at + 1];
            at += 2;
            continue;
        }
        // An absolute run of `value` indices, padded to a 16-bit boundary.
        size_t bytes = four ? ((size_t)value + 1) / 2 : value;
        if (at + bytes > length) break;
        for (uint8_t index = 0; index < value; index++) {
            IFC_PUT(four ? ((index & 1) ? (source[at + index / 2] & 0x0F) : (source[at + index / 2] >> 4)) : source[at + index]);
        }
        at += bytes + (bytes & 1);
    }
#undef IFC_PUT
    if (row >= image_height) status = IFC_OK;
    if (status == IFC_PARTIAL) ifc_set_message(message, message_capacity, "damaged BMP (cut short in its pixels)");
    *pixels = output;
    *width = (int)image_width;
    *height = (int)image_height;
    return status;
}

int ifc_bmp_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                   uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity) {
    *pixels = NULL;
    if (!data || length < 26 || data[0] != 'B' || data[1] != 'M') {
        ifc_set_message(message, message_capacity, "not a BMP");
        return IFC_ERROR;
    }
    uint32_t offset = ifc_le32(data + 10);
    uint32_t header = ifc_le32(data + 14);
    if (header != 12 && (header < 40 || header > 124) ) {
        ifc_set_message(message, message_capacity, "a BMP of a kind not read (its header is not a Windows or OS/2 one)");
        return IFC_ERROR;
    }
    if ((size_t)14 + header > length) {
        ifc_set_message(message, message_capacity, "damaged BMP (cut short in its header)");
        return IFC_ERROR;
    }
    const uint8_t *info = data + 14;
    int64_t image_width, image_height;
    uint32_t bits, compression = 0, colors_used = 0;
    if (header == 12) {
        image_width = ifc_le16(info + 4);
        image_height = (int16_t)ifc_le16(info + 6);
        bits = ifc_le16(info + 10);
    } else {
        image_width = (int32_t)ifc_le32(info + 4);
        image_height = (int32_t)ifc_le32(info + 8);
        bits = ifc_le16(info + 14);
        compression = ifc_le32(info + 16);
        colors_used = ifc_le32(info + 32);
    }
    int top_down = image_height < 0;
    if (top_down) image_height = -image_height;
    if (image_width <= 0 || image_height <= 0 || image_width > INT32_MAX || image_height > INT32_MAX) {
        ifc_set_message(message, message_capacity, "BMP has no pixels");
        return IFC_ERROR;
    }
    if (ifc_over_budget((unsigned long)image_width, (unsigned long)image_height, max_pixels, "BMP", message, message_capacity)) {
        return IFC_ERROR;
    }
    // BI_RGB (0), RLE8 (1) and RLE4 (2) through the palette, BI_BITFIELDS (3, and 6 with alpha); JPEG and PNG
    // inside a BMP (4, 5) are not read.
    if (compression > 3 && compression != 6) {
        ifc_set_message(message, message_capacity, "a BMP holding a JPEG or PNG, which is not read");
        return IFC_ERROR;
    }
    if ((compression == 1 && bits != 8) || (compression == 2 && bits != 4) || (compression == 1 || compression == 2) && top_down) {
        ifc_set_message(message, message_capacity, "damaged BMP (its compression does not fit its bit depth)");
        return IFC_ERROR;
    }
    if (bits != 1 && bits != 4 && bits != 8 && bits != 16 && bits != 24 && bits != 32) {
        ifc_set_message(message, message_capacity, "a BMP of a bit depth not read");
        return IFC_ERROR;
    }
    uint32_t red_mask = 0, green_mask = 0, blue_mask = 0, alpha_mask = 0;
    if (bits == 16) { red_mask = 0x7C00; green_mask = 0x03E0; blue_mask = 0x001F; }
    if (bits == 32) { red_mask = 0x00FF0000; green_mask = 0x0000FF00; blue_mask = 0x000000FF; }
    if (compression == 3 || compression == 6) {
        if (bits != 16 && bits != 32) {
            ifc_set_message(message, message_capacity, "damaged BMP (bit fields with a palette)");
            return IFC_ERROR;
        }
        // The masks follow a 40-byte header, or are part of a longer one.
        size_t at = 14 + 40;
        if (at + 12 > length) {
            ifc_set_message(message, message_capacity, "damaged BMP (cut short in its bit fields)");
            return IFC_ERROR;
        }
        red_mask = ifc_le32(data + at);
        green_mask = ifc_le32(data + at + 4);
        blue_mask = ifc_le32(data + at + 8);
        if ((compression == 6 || header >= 56) && at + 16 <= length) alpha_mask = ifc_le32(data + at + 12);
    } else if (bits == 32 && header >= 56) {
        alpha_mask = ifc_le32(info + 52);
    }
    // The palette: 3 bytes an entry after the OS/2 header, 4 after the others.
    const uint8_t *palette = NULL;
    uint32_t palette_count = 0, entry = header == 12 ? 3 : 4;
    if (bits <= 8) {
        palette_count = colors_used ? colors_used : (1u << bits);
        if (palette_count > 256) palette_count = 256;
        size_t palette_at = 14 + (size_t)header + ((compression == 3 && header == 40) ? 12 : 0);
        if (palette_at > length || (length - palette_at) / entry < palette_count) {
            palette_count = palette_at > length ? 0 : (uint32_t)((length - palette_at) / entry);
        }
        if (palette_count == 0) {
            ifc_set_message(message, message_capacity, "damaged BMP (no palette)");
            return IFC_ERROR;
        }
        palette = data + palette_at;
    }
    uint64_t stride = (((uint64_t)image_width * bits + 31) / 32) * 4;
    if (offset > length) {
        ifc_set_message(message, message_capacity, "damaged BMP (its pixels start past its end)");
        return IFC_ERROR;
    }
    if (compression == 1 || compression == 2) {
        return ifc_bmp_rle(data + offset, length - offset, compression == 2, image_width, image_height, palette,
                           palette_count, entry, pixels, width, height, message, message_capacity);
    }
    uint64_t available_rows = stride ? (uint64_t)(length - offset) / stride : 0;
    uint8_t *output = (uint8_t *)calloc((size_t)image_width * (size_t)image_height, 4);
    if (!output) {
        ifc_set_message(message, message_capacity, "out of memory decoding BMP");
        return IFC_ERROR;
    }
    int status = IFC_OK;
    for (int64_t row = 0; row < image_height; row++) {
        if ((uint64_t)row >= available_rows) {
            // A file cut short: the rows that came are shown, the rest stays black.
            ifc_set_message(message, message_capacity, "damaged BMP (cut short in its pixels)");
            status = IFC_PARTIAL;
            break;
        }
        const uint8_t *source = data + offset + (size_t)row * stride;
        int64_t y = top_down ? row : image_height - 1 - row;
        uint8_t *target = output + (size_t)y * (size_t)image_width * 4;
        for (int64_t x = 0; x < image_width; x++) {
            uint8_t *pixel = target + x * 4;
            pixel[3] = 255;
            if (bits <= 8) {
                uint32_t index;
                if (bits == 8) index = source[x];
                else if (bits == 4) index = (source[x / 2] >> ((x & 1) ? 0 : 4)) & 0x0F;
                else index = (source[x / 8] >> (7 - (x & 7))) & 0x01;
                if (index >= palette_count) continue;
                const uint8_t *color = palette + (size_t)index * entry;
                pixel[0] = color[2];
                pixel[1] = color[1];
                pixel[2] = color[0];
            } else if (bits == 24) {
                pixel[0] = source[x * 3 + 2];
                pixel[1] = source[x * 3 + 1];
                pixel[2] = source[x * 3];
            } else {
                uint32_t value = bits == 16 ? ifc_le16(source + x * 2) : ifc_le32(source + x * 4);
                pixel[0] = ifc_bmp_channel(value, red_mask);
                pixel[1] = ifc_bmp_channel(value, green_mask);
                pixel[2] = ifc_bmp_channel(value, blue_mask);
                if (alpha_mask) pixel[3] = ifc_bmp_channel(value, alpha_mask);
            }
        }
    }
    *pixels = output;
    *width = (int)image_width;
    *height = (int)image_height;
    return status;
}
