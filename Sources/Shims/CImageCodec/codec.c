#include "CImageCodec.h"
#include "internal.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

// libjpeg calls error_exit on fatal errors and expects it never to return: we longjmp back
// into the function that started the work. Warnings (damaged data) are counted, never printed:
// libjpeg's default would write them to stderr, in the middle of a full-screen terminal.
struct ifc_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    int warnings;
    char *message;
    size_t message_capacity;
};

static void ifc_copy_message(j_common_ptr info) {
    struct ifc_error_manager *manager = (struct ifc_error_manager *)info->err;
    if (manager->message && manager->message_capacity > 0) {
        char buffer[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, buffer);
        snprintf(manager->message, manager->message_capacity, "%s", buffer);
    }
}

static void ifc_error_exit(j_common_ptr info) {
    struct ifc_error_manager *manager = (struct ifc_error_manager *)info->err;
    ifc_copy_message(info);
    longjmp(manager->escape, 1);
}

static void ifc_emit_message(j_common_ptr info, int level) {
    struct ifc_error_manager *manager = (struct ifc_error_manager *)info->err;
    if (level < 0) {
        if (manager->warnings == 0) ifc_copy_message(info);
        manager->warnings += 1;
    }
}

static void ifc_output_message(j_common_ptr info) { (void)info; }

// libjpeg's progress monitor, called as it works through the file: the one place a caller can stop a decode
// (djpeg's -maxscans does it the same way). Past IFC_MAX_JPEG_SCANS scans, or once nobody waits for the
// picture, the decode ends with an error.
static void ifc_progress(j_common_ptr info) {
    struct ifc_error_manager *manager = (struct ifc_error_manager *)info->err;
    if (ifc_decode_stopped()) {
        if (manager->message && manager->message_capacity > 0) {
            snprintf(manager->message, manager->message_capacity, "%s", IFC_STOPPED_MESSAGE);
        }
        longjmp(manager->escape, 1);
    }
    if (info->is_decompressor && ((j_decompress_ptr)info)->input_scan_number > IFC_MAX_JPEG_SCANS) {
        if (manager->message && manager->message_capacity > 0) {
            snprintf(manager->message, manager->message_capacity, "JPEG has more than %d scans; it is not decoded",
                     IFC_MAX_JPEG_SCANS);
        }
        longjmp(manager->escape, 1);
    }
}

void ifc_set_message(char *message, size_t capacity, const char *text) {
    if (message && capacity > 0) snprintf(message, capacity, "%s", text);
}

uint64_t ifc_effective_budget(uint64_t max_pixels) {
    return (max_pixels == 0 || max_pixels > IFC_MAX_PIXELS) ? IFC_MAX_PIXELS : max_pixels;
}

// What libjpeg may allocate for a picture within the budget: the coefficients of a progressive file
// (2 bytes each, three components) and the decoder's buffers, with room to spare.
static unsigned long long ifc_memory_cap(uint64_t max_pixels) {
    unsigned long long cap = (unsigned long long)ifc_effective_budget(max_pixels) * 7ULL + (64ULL << 20);
    return cap > (unsigned long long)LONG_MAX ? (unsigned long long)LONG_MAX : cap;
}

int ifc_over_budget(unsigned long width, unsigned long height, uint64_t max_pixels, const char *format,
                           char *message, size_t capacity) {
    uint64_t budget = ifc_effective_budget(max_pixels);
    if (width == 0 || height == 0) {
        if (message && capacity > 0) snprintf(message, capacity, "%s has no pixels", format);
        return 1;
    }
    if ((unsigned long long)width * (unsigned long long)height <= budget) {
        return ifc_reserve_pixels((uint64_t)width * (uint64_t)height, message, capacity);
    }
    if (message && capacity > 0) {
        snprintf(message, capacity, "%s is %lu x %lu pixels, more than the limit of %llu megapixels", format,
                 width, height, (unsigned long long)(budget / 1000000ULL));
    }
    return 1;
}

static void ifc_install_errors(struct ifc_error_manager *manager, char *message, size_t capacity) {
    jpeg_std_error(&manager->base);
    manager->base.error_exit = ifc_error_exit;
    manager->base.emit_message = ifc_emit_message;
    manager->base.output_message = ifc_output_message;
    manager->warnings = 0;
    manager->message = message;
    manager->message_capacity = capacity;
}

int ifc_jpeg_size(const uint8_t *data, size_t length, int *width, int *height,
                  char *message, size_t message_capacity) {
    if (!data || length == 0) {
        ifc_set_message(message, message_capacity, "empty JPEG data");
        return IFC_ERROR;
    }
    struct jpeg_decompress_struct info;
    struct ifc_error_manager errors;
    info.err = NULL;
    ifc_install_errors(&errors, message, message_capacity);
    info.err = &errors.base;
    if (setjmp(errors.escape)) {
        jpeg_destroy_decompress(&info);
        return IFC_ERROR;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return IFC_OK;
}

int ifc_jpeg_decode(const uint8_t *data, size_t length, int scale_denom, uint64_t max_pixels,
                    uint8_t **pixels, int *width, int *height,
                    char *message, size_t message_capacity) {
    *pixels = NULL;
    if (!data || length == 0) {
        ifc_set_message(message, message_capacity, "empty JPEG data");
        return IFC_ERROR;
    }
    struct jpeg_decompress_struct info;
    struct ifc_error_manager errors;
    // volatile: read after longjmp.
    uint8_t *volatile output = NULL;
    ifc_install_errors(&errors, message, message_capacity);
    info.err = &errors.base;
    if (setjmp(errors.escape)) {
        free(output);
        jpeg_destroy_decompress(&info);
        return IFC_ERROR;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    // The header's claim is checked before libjpeg allocates anything for the pixels: a few bytes can claim
    // 60000 x 60000, and a progressive file keeps every coefficient of the whole image in memory.
    if (ifc_over_budget(info.image_width, info.image_height, max_pixels, "JPEG", message, message_capacity)) {
        jpeg_destroy_decompress(&info);
        return IFC_ERROR;
    }
    // And libjpeg's own allocations are bounded: past this it stops with an error instead of growing.
    info.mem->max_memory_to_use = (long)ifc_memory_cap(max_pixels);
    // And its time: too many scans, or a picture nobody waits for any more, stops it.
    struct jpeg_progress_mgr progress;
    memset(&progress, 0, sizeof progress);
    progress.progress_monitor = ifc_progress;
    info.progress = &progress;
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) scale_denom = 1;
    info.scale_num = 1;
    info.scale_denom = (unsigned int)scale_denom;
    // libjpeg converts gray and YCbCr to RGB itself; CMYK (and YCCK) it only hands over as CMYK.
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    info.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&info);
    if (info.output_components != (cmyk ? 4 : 3)) {
        ifc_set_message(message, message_capacity, "unsupported JPEG colour space");
        jpeg_destroy_decompress(&info);
        return IFC_ERROR;
    }
    size_t stride = (size_t)info.output_width * 3;
    output = (uint8_t *)malloc(stride * info.output_height + (cmyk ? (size_t)info.output_width : 0));
    if (!output) {
        ifc_set_message(message, message_capacity, "out of memory decoding JPEG");
        jpeg_destroy_decompress(&info);
        return IFC_ERROR;
    }
    // A CMYK row (4 bytes a pixel) is read where its RGB row starts and converted in place, front to
    // back: pixel i's RGB (bytes 3i..3i+2) never overtakes its CMYK (4i..4i+3). The last row needs
    // width bytes more, allocated above.
    // Adobe's files store CMYK inverted (the common case); others store it plainly.
    int inverted = info.saw_Adobe_marker;
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = output + (size_t)info.output_scanline * stride;
        if (jpeg_read_scanlines(&info, &row, 1) != 1) break;
        if (cmyk) {
            for (JDIMENSION x = 0; x < info.output_width; x++) {
                unsigned c = row[4 * x], m = row[4 * x + 1], y = row[4 * x + 2], k = row[4 * x + 3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                row[3 * x] = (uint8_t)((c * k + 127) / 255);
                row[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
                row[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
            }
        }
    }
    jpeg_finish_decompress(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    *pixels = output;
    int status = errors.warnings > 0 ? IFC_PARTIAL : IFC_OK;
    jpeg_destroy_decompress(&info);
    return status;
}

int ifc_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality, int progressive,
                    uint8_t **output, size_t *output_length,
                    char *message, size_t message_capacity) {
    *output = NULL;
    *output_length = 0;
    if (!pixels || width <= 0 || height <= 0 || (components != 1 && components != 3)) {
        ifc_set_message(message, message_capacity, "invalid image to encode");
        return IFC_ERROR;
    }
    struct jpeg_compress_struct info;
    struct ifc_error_manager errors;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_length = 0;
    ifc_install_errors(&errors, message, message_capacity);
    info.err = &errors.base;
    if (setjmp(errors.escape)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return IFC_ERROR;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &buffer_length);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = components;
    info.in_color_space = components == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    if (progressive) jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * (size_t)components;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = buffer;
    *output_length = (size_t)buffer_length;
    return IFC_OK;
}

int ifc_png_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                   uint8_t **pixels, int *width, int *height,
                   char *message, size_t message_capacity) {
    *pixels = NULL;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!data || length == 0 || !png_image_begin_read_from_memory(&image, data, length)) {
        ifc_set_message(message, message_capacity, image.message[0] ? image.message : "not a PNG");
        png_image_free(&image);
        return IFC_ERROR;
    }
    image.format = PNG_FORMAT_RGBA;
    // The header's size, checked before any memory is taken for the pixels.
    if (ifc_over_budget(image.width, image.height, max_pixels, "PNG", message, message_capacity)) {
        png_image_free(&image);
        return IFC_ERROR;
    }
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *output = (uint8_t *)malloc(size);
    if (!output) {
        ifc_set_message(message, message_capacity, "out of memory decoding PNG");
        png_image_free(&image);
        return IFC_ERROR;
    }
    if (!png_image_finish_read(&image, NULL, output, 0, NULL)) {
        ifc_set_message(message, message_capacity, image.message);
        free(output);
        png_image_free(&image);
        return IFC_ERROR;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    *pixels = output;
    int status = (image.warning_or_error & PNG_IMAGE_WARNING) ? IFC_PARTIAL : IFC_OK;
    png_image_free(&image);
    return status;
}

void ifc_free(void *pointer) { free(pointer); }
