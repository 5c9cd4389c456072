#ifndef IMAGEFEED_CIMAGECODEC_H
#define IMAGEFEED_CIMAGECODEC_H
#include <stddef.h>
#include <stdint.h>

// Status codes shared by every function here.
#define IFC_OK 0
#define IFC_PARTIAL 1   // decoded, but the data was damaged (libjpeg warnings); pixels may be gray in places
#define IFC_ERROR -1    // nothing usable; the message says why
// The most pixels any picture may have, whatever budget is asked for (a terminal shows far less). A picture
// over its budget (by the size its header claims) is refused before any pixel memory is taken.
#define IFC_MAX_PIXELS (400ULL * 1000ULL * 1000ULL)

// The budget a decoder applies for max_pixels: IFC_MAX_PIXELS for 0 or anything above it.
uint64_t ifc_effective_budget(uint64_t max_pixels);

// One budget for every decode in flight in the process (pixels, by what the headers claim): a decode waits while
// others hold it. Every decode on a thread goes between ifc_begin_decode (with a flag another thread sets to
// stop it; NULL for none) and ifc_end_decode (which gives its pixels back).
void ifc_set_decode_budget(uint64_t pixels);
void ifc_begin_decode(const volatile int *stop);
void ifc_end_decode(void);
// The most pixels held at once since the last reset (for the tests and benchmarks).
uint64_t ifc_decode_budget_peak(int reset);
// A progressive JPEG with more scans than this is refused (a few KB can hold thousands of empty scans, each
// a pass over the whole picture): real files have ten to twenty (djpeg -maxscans does the same).
#define IFC_MAX_JPEG_SCANS 64

// Reads the header only. Returns IFC_OK or IFC_ERROR.
int ifc_jpeg_size(const uint8_t *data, size_t length, int *width, int *height,
                  char *message, size_t message_capacity);

// Decodes to packed RGB (3 bytes a pixel) at 1/scale_denom of the full size, using libjpeg's
// DCT scaling (scale_denom is 1, 2, 4 or 8). A file whose header claims more than max_pixels (full size)
// is refused before decoding; libjpeg's own memory is bounded to match. *pixels is malloc'd: release with ifc_free.
int ifc_jpeg_decode(const uint8_t *data, size_t length, int scale_denom, uint64_t max_pixels,
                    uint8_t **pixels, int *width, int *height,
                    char *message, size_t message_capacity);

// Encodes packed RGB (components 3) or gray (components 1) as baseline JPEG, or progressive. *output is
// malloc'd: release with ifc_free.
int ifc_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality, int progressive,
                    uint8_t **output, size_t *output_length,
                    char *message, size_t message_capacity);

// Decodes any PNG (palette, gray, 16-bit, alpha) to packed RGBA with libpng's simplified API.
// A file whose header claims more than max_pixels is refused before any pixel memory is taken.
int ifc_png_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                   uint8_t **pixels, int *width, int *height,
                   char *message, size_t message_capacity);

// GIF (its first frame, over the logical screen, transparent where the frame leaves it so), WebP (still, or the
// first frame of an animation, over its canvas), TIFF (any kind libtiff reads as RGBA; the first page) and BMP
// (read here: uncompressed, 1 to 32 bits): each to packed RGBA. The size the header claims (the screen or canvas for GIF and WebP) is
// checked against max_pixels before any pixel memory is taken. *pixels is malloc'd: release with ifc_free.
int ifc_gif_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                   uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity);
int ifc_webp_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                    uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity);
int ifc_tiff_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                    uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity);
int ifc_bmp_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                   uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity);

// Animations a frame at a time: GIF (frames composed with their disposal), WebP (its demuxer's frames decoded and
// blended here, each at its own size) and video (MP4 or WebM through FFmpeg, the first video stream). Only the canvas is held, never the frames.
// Open checks the canvas (and each frame) against max_pixels before taking memory for it.
#define IFC_ANIMATION_END 2   // no more frames (ifc_animation_next)
// A video's frames are at most this many pixels whatever the budget (4K UHD is 8.3 million; a decoder may keep up to
// sixteen reference frames of a stream's size), and a video file holds at most this many streams.
#define IFC_MAX_VIDEO_PIXELS (4096ULL * 2304ULL)
#define IFC_MAX_VIDEO_STREAMS 16
typedef struct ifc_animation ifc_animation;
ifc_animation *ifc_animation_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                                  char *message, size_t message_capacity);
// The canvas's size, the frame count (-1 where only the end tells: GIF, some videos) and the loops the file asks
// for (0: for ever; a GIF says so between its frames: read it after them).
void ifc_animation_info(const ifc_animation *animation, int *width, int *height, int *frames, int *loops);
// The next frame over the canvas (packed RGBA, width x height, owned by the animation and valid until the next
// call) and how long it shows as the file says, in milliseconds. IFC_OK, IFC_PARTIAL (a damaged frame: what was
// read), IFC_ANIMATION_END, or IFC_ERROR (with the message).
int ifc_animation_next(ifc_animation *animation, const uint8_t **canvas, int *delay_ms,
                       char *message, size_t message_capacity);
// The rectangle of the canvas the last frame read changed (with what the frame before it cleared or put back): the
// whole canvas for the first frame and for video; empty when nothing changed.
void ifc_animation_changed(const ifc_animation *animation, int *x, int *y, int *width, int *height);
void ifc_animation_close(ifc_animation *animation);
// Whether the bytes start as an MP4/MOV or a Matroska/WebM file.
int ifc_is_video(const uint8_t *data, size_t length);

void ifc_free(void *pointer);

#endif
