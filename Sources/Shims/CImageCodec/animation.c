// Animations, a frame at a time: GIF through giflib's record reader (frames composed here with the disposal
// each frame's graphic control block asks for, as a browser does), animated WebP through libwebp's demuxer (each
// frame decoded at its own size and blended here, as the container says), and video (MP4, WebM: Imgur's `gifv`)
// through FFmpeg's libavformat and libavcodec, the first video stream only, scaled to RGBA by libswscale. Only the
// canvas (and what a GIF frame that is "restored" covered) is held: a long animation is never kept whole here. The
// work a GIF or WebP frame costs follows the rectangle it covers, not the canvas, and the reader says which part of
// the canvas changed (ifc_animation_changed), so that what is made of the canvas can follow it too.
// A still GIF or WebP is this reader's first frame (ifc_gif_decode, ifc_webp_decode): each format is read in one place.
#include "CImageCodec.h"
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "ffmpeg.h"

enum ifc_animation_kind { IFC_KIND_GIF, IFC_KIND_WEBP, IFC_KIND_VIDEO };

struct ifc_rect {
    int x, y, width, height;
};

struct ifc_gif_state {
    GifFileType *file;
    struct ifc_memory memory;
    // The graphic control block read for the next frame.
    int delay_cs, transparent, disposal;
    // What the last frame drawn asks to be done before the next: its disposal, and its rectangle (on the canvas).
    int last_disposal;
    struct ifc_rect last;
    uint8_t *previous; // what the last frame covered before it was drawn, for "restore previous" (its rectangle only)
    size_t previous_capacity;
    GifByteType *line;
};

struct ifc_webp_state {
    WebPDemuxer *demux;
    int next; // the frame to read next, from 1
    // Whether the last frame is cleared before the next ("dispose to background"), and where it lies.
    int last_cleared;
    struct ifc_rect last;
    uint8_t *fragment; // one frame's own pixels, before they are blended onto the canvas
    size_t fragment_capacity;
};

struct ifc_video_state {
    AVFormatContext *format;
    AVIOContext *io;
    AVCodecContext *codec;
    struct SwsContext *scale;
    // What libswscale writes into: the canvas's size, its lines padded and aligned as FFmpeg's converters expect
    // (they write in blocks of pixels, past a line's last pixel); each line is then copied onto the canvas.
    uint8_t *scaled[4];
    int scaled_lines[4];
    AVPacket *packet;
    AVFrame *frame;
    int stream;
    int draining;
    int finished;
    const uint8_t *data;
    size_t length;
    size_t offset;
    double frame_delay_ms;
    int64_t last_pts;
    double time_base;
};

struct ifc_animation {
    enum ifc_animation_kind kind;
    int width, height;
    int loops;
    int frames;
    int frames_read;
    uint8_t *canvas; // width x height RGBA
    uint64_t max_pixels;
    // The part of the canvas the last frame read changed (what was cleared or restored before it included).
    struct ifc_rect changed;
    struct ifc_gif_state gif;
    struct ifc_webp_state webp;
    struct ifc_video_state video;
};

// The rectangle clipped to the canvas (empty when outside it).
static struct ifc_rect ifc_clip(struct ifc_rect rect, int width, int height) {
    int left = rect.x < 0 ? 0 : rect.x, top = rect.y < 0 ? 0 : rect.y;
    long right = (long)rect.x + rect.width, bottom = (long)rect.y + rect.height;
    if (right > width) right = width;
    if (bottom > height) bottom = height;
    if (right <= left || bottom <= top) return (struct ifc_rect){ 0, 0, 0, 0 };
    return (struct ifc_rect){ left, top, (int)(right - left), (int)(bottom - top) };
}

static struct ifc_rect ifc_union(struct ifc_rect a, struct ifc_rect b) {
    if (a.width <= 0 || a.height <= 0) return b;
    if (b.width <= 0 || b.height <= 0) return a;
    int left = a.x < b.x ? a.x : b.x, top = a.y < b.y ? a.y : b.y;
    int right = a.x + a.width > b.x + b.width ? a.x + a.width : b.x + b.width;
    int bottom = a.y + a.height > b.y + b.height ? a.y + a.height : b.y + b.height;
    return (struct ifc_rect){ left, top, right - left, bottom - top };
}

// Copies a rectangle of the canvas out to `saved` (packed), or back from it.
static void ifc_copy_rect(uint8_t *canvas, int canvas_width, struct ifc_rect rect, uint8_t *saved, int back) {
    size_t line = (size_t)rect.width * 4;
    for (int row = 0; row < rect.height; row++) {
        uint8_t *on_canvas = canvas + ((size_t)(rect.y + row) * (size_t)canvas_width + (size_t)rect.x) * 4;
        uint8_t *kept = saved + (size_t)row * line;
        if (back) memcpy(on_canvas, kept, line); else memcpy(kept, on_canvas, line);
    }
}

static void ifc_clear_rect(uint8_t *canvas, int canvas_width, struct ifc_rect rect) {
    for (int row = 0; row < rect.height; row++) {
        memset(canvas + ((size_t)(rect.y + row) * (size_t)canvas_width + (size_t)rect.x) * 4, 0, (size_t)rect.width * 4);
    }
}

// Grows a buffer to at least `bytes`; 0 when memory ran out.
static int ifc_reserve_buffer(uint8_t **buffer, size_t *capacity, size_t bytes) {
    if (*capacity >= bytes) return 1;
    uint8_t *grown = (uint8_t *)realloc(*buffer, bytes);
    if (!grown) return 0;
    *buffer = grown;
    *capacity = bytes;
    return 1;
}

// MARK: - GIF

static int ifc_gif_read(GifFileType *gif, GifByteType *bytes, int count) {
    struct ifc_memory *memory = (struct ifc_memory *)gif->UserData;
    if (count <= 0) return 0;
    size_t left = memory->length - memory->offset;
    size_t taken = (size_t)count < left ? (size_t)count : left;
    memcpy(bytes, memory->data + memory->offset, taken);
    memory->offset += taken;
    return (int)taken;
}

static void ifc_gif_message(char *message, size_t capacity, const char *what, int error) {
    const char *reason = GifErrorString(error);
    if (message && capacity > 0) snprintf(message, capacity, "%s (%s)", what, reason ? reason : "giflib error");
}

// The image the reader stands at, drawn over the canvas (RGBA, width x height) with its colour table, leaving the
// transparent index and whatever lies outside the canvas. Interlaced images come in four passes; the rows of each
// are put where they belong. IFC_OK, IFC_PARTIAL when a line could not be read (what was read is drawn), or IFC_ERROR when the
// decode was stopped.
static int ifc_gif_draw_frame(GifFileType *gif, GifByteType *line, uint8_t *canvas, int canvas_width, int canvas_height,
                              const ColorMapObject *colors, int transparent, char *message, size_t capacity) {
    const GifImageDesc *frame = &gif->Image;
    static const int starts[] = { 0, 4, 2, 1 }, steps[] = { 8, 8, 4, 2 };
    int passes = frame->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        int start = frame->Interlace ? starts[pass] : 0, step = frame->Interlace ? steps[pass] : 1;
        for (int row = start; row < frame->Height; row += step) {
            // A frame can be 50 million pixels of a few bytes: a stop is seen within a line.
            if (ifc_decode_stopped()) {
                ifc_set_message(message, capacity, IFC_STOPPED_MESSAGE);
                return IFC_ERROR;
            }
            if (DGifGetLine(gif, line, frame->Width) == GIF_ERROR) {
                ifc_gif_message(message, capacity, "damaged GIF", gif->Error);
                return IFC_PARTIAL;
            }
            int y = frame->Top + row;
            if (y >= canvas_height) continue;
            for (int column = 0; column < frame->Width; column++) {
                int x = frame->Left + column;
                int index = line[column];
                if (x >= canvas_width || index == transparent || index >= colors->ColorCount) continue;
                uint8_t *pixel = canvas + ((size_t)y * (size_t)canvas_width + (size_t)x) * 4;
                pixel[0] = colors->Colors[index].Red;
                pixel[1] = colors->Colors[index].Green;
                pixel[2] = colors->Colors[index].Blue;
                pixel[3] = 255;
            }
        }
    }
    return IFC_OK;
}

static int ifc_anim_gif_open(struct ifc_animation *animation, const uint8_t *data, size_t length,
                             char *message, size_t capacity) {
    struct ifc_gif_state *gif = &animation->gif;
    gif->memory = (struct ifc_memory){ data, length, 0 };
    int error = 0;
    gif->file = DGifOpen(&gif->memory, ifc_gif_read, &error);
    if (!gif->file) {
        ifc_gif_message(message, capacity, "not a GIF", error);
        return IFC_ERROR;
    }
    animation->width = gif->file->SWidth;
    animation->height = gif->file->SHeight;
    if (ifc_over_budget((unsigned long)(animation->width > 0 ? animation->width : 0),
                        (unsigned long)(animation->height > 0 ? animation->height : 0), animation->max_pixels, "GIF",
                        message, capacity)) {
        return IFC_ERROR;
    }
    animation->frames = -1; // known only at the end
    animation->loops = 1;   // a GIF without the NETSCAPE2.0 block plays once
    gif->transparent = -1;
    gif->disposal = 0;
    gif->delay_cs = 0;
    gif->last_disposal = 0;
    return IFC_OK;
}

// Reads records up to the next frame and draws it on the canvas. IFC_OK, IFC_PARTIAL (a damaged frame: what
// was read is drawn), IFC_ANIMATION_END, or IFC_ERROR.
static int ifc_anim_gif_next(struct ifc_animation *animation, int *delay_ms, char *message, size_t capacity) {
    struct ifc_gif_state *gif = &animation->gif;
    GifFileType *file = gif->file;
    // What the frame before asked to be done with its rectangle: that much of the canvas changes, never more.
    struct ifc_rect disposed = { 0, 0, 0, 0 };
    if (animation->frames_read > 0) {
        if (gif->last_disposal == 2) {
            ifc_clear_rect(animation->canvas, animation->width, gif->last);
            disposed = gif->last;
        } else if (gif->last_disposal == 3 && gif->previous) {
            ifc_copy_rect(animation->canvas, animation->width, gif->last, gif->previous, 1);
            disposed = gif->last;
        }
    }
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(file, &type) == GIF_ERROR) {
            // A file cut short after whole frames ends there.
            if (animation->frames_read > 0) return IFC_ANIMATION_END;
            ifc_gif_message(message, capacity, "damaged GIF", file->Error);
            return IFC_ERROR;
        }
        if (type == TERMINATE_RECORD_TYPE) {
            if (animation->frames_read > 0) return IFC_ANIMATION_END;
            ifc_set_message(message, capacity, "the GIF holds no picture");
            return IFC_ERROR;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *extension = NULL;
            if (DGifGetExtension(file, &code, &extension) == GIF_ERROR) {
                if (animation->frames_read > 0) return IFC_ANIMATION_END;
                ifc_gif_message(message, capacity, "damaged GIF", file->Error);
                return IFC_ERROR;
            }
            int application_loop = 0;
            if (code == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4) {
                gif->disposal = (extension[1] >> 2) & 7;
                gif->transparent = (extension[1] & 1) ? extension[4] : -1;
                gif->delay_cs = extension[2] | (extension[3] << 8);
            } else if (code == APPLICATION_EXT_FUNC_CODE && extension && extension[0] >= 11 &&
                       (memcmp(extension + 1, "NETSCAPE2.0", 11) == 0 || memcmp(extension + 1, "ANIMEXTS1.0", 11) == 0)) {
                application_loop = 1;
            }
            while (extension) {
                if (DGifGetExtensionNext(file, &extension) == GIF_ERROR) {
                    if (animation->frames_read > 0) return IFC_ANIMATION_END;
                    ifc_gif_message(message, capacity, "damaged GIF", file->Error);
                    return IFC_ERROR;
                }
                // The loop block: sub-block 1, then the count (0: for ever). The count is the repeats after the
                // first play, as browsers read it.
                if (application_loop && extension && extension[0] >= 3 && extension[1] == 1) {
                    int count = extension[2] | (extension[3] << 8);
                    animation->loops = count == 0 ? 0 : count + 1;
                    application_loop = 0;
                }
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(file) == GIF_ERROR) {
            if (animation->frames_read > 0) return IFC_ANIMATION_END;
            ifc_gif_message(message, capacity, "damaged GIF", file->Error);
            return IFC_ERROR;
        }
        GifImageDesc *frame = &file->Image;
        ColorMapObject *colors = frame->ColorMap ? frame->ColorMap : file->SColorMap;
        if (frame->Width <= 0 || frame->Height <= 0 || frame->Left < 0 || frame->Top < 0) {
            if (animation->frames_read > 0) return IFC_ANIMATION_END;
            ifc_set_message(message, capacity, "the GIF's first frame has no size");
            return IFC_ERROR;
        }
        if (ifc_over_budget((unsigned long)frame->Width, (unsigned long)frame->Height, animation->max_pixels, "GIF frame",
                            message, capacity)) {
            return IFC_ERROR;
        }
        if (!colors || !colors->Colors || colors->ColorCount <= 0) {
            if (animation->frames_read > 0) return IFC_ANIMATION_END;
            ifc_set_message(message, capacity, "the GIF has no colour table");
            return IFC_ERROR;
        }
        GifByteType *line = (GifByteType *)realloc(gif->line, (size_t)frame->Width);
        if (!line) {
            ifc_set_message(message, capacity, "out of memory decoding GIF");
            return IFC_ERROR;
        }
        gif->line = line;
        struct ifc_rect drawn = ifc_clip((struct ifc_rect){ frame->Left, frame->Top, frame->Width, frame->Height },
                                         animation->width, animation->height);
        int disposal = gif->disposal;
        if (disposal == 3) {
            // What the frame covers is kept, to be put back once it has shown.
            if (ifc_reserve_buffer(&gif->previous, &gif->previous_capacity, (size_t)drawn.width * (size_t)drawn.height * 4)) {
                ifc_copy_rect(animation->canvas, animation->width, drawn, gif->previous, 0);
            } else {
                disposal = 0;
            }
        }
        int status = ifc_gif_draw_frame(file, line, animation->canvas, animation->width, animation->height, colors,
                                        gif->transparent, message, capacity);
        gif->last_disposal = disposal;
        gif->last = drawn;
        animation->changed = ifc_union(disposed, drawn);
        *delay_ms = gif->delay_cs * 10;
        // The control block applies to one frame only.
        gif->disposal = 0;
        gif->transparent = -1;
        gif->delay_cs = 0;
        return status;
    }
}

// MARK: - WebP

static int ifc_anim_webp_open(struct ifc_animation *animation, const uint8_t *data, size_t length,
                              char *message, size_t capacity) {
    WebPData whole = { data, length };
    struct ifc_webp_state *webp = &animation->webp;
    webp->demux = WebPDemux(&whole);
    if (!webp->demux) {
        ifc_set_message(message, capacity, "not a WebP, or a damaged one");
        return IFC_ERROR;
    }
    uint32_t width = WebPDemuxGetI(webp->demux, WEBP_FF_CANVAS_WIDTH), height = WebPDemuxGetI(webp->demux, WEBP_FF_CANVAS_HEIGHT);
    // The canvas is checked before any memory is taken for it.
    if (ifc_over_budget(width, height, animation->max_pixels, "WebP", message, capacity)) return IFC_ERROR;
    animation->width = (int)width;
    animation->height = (int)height;
    animation->frames = (int)WebPDemuxGetI(webp->demux, WEBP_FF_FRAME_COUNT);
    animation->loops = (int)WebPDemuxGetI(webp->demux, WEBP_FF_LOOP_COUNT); // 0: for ever
    webp->next = 1;
    return IFC_OK;
}

// One channel of a pixel blended over another, neither premultiplied (the WebP container's rule: the frame's alpha
// over what the canvas holds), in 8-bit fixed point.
static void ifc_webp_blend(uint8_t *under, const uint8_t *over) {
    unsigned over_alpha = over[3];
    if (over_alpha == 255) { memcpy(under, over, 4); return; }
    if (over_alpha == 0) return;
    unsigned under_share = (unsigned)under[3] * (256 - over_alpha) >> 8;
    unsigned alpha = over_alpha + under_share;
    for (int channel = 0; channel < 3; channel++) {
        under[channel] = (uint8_t)((over[channel] * over_alpha + under[channel] * under_share) / alpha);
    }
    under[3] = (uint8_t)alpha;
}

// The next frame, decoded at its own size and blended onto the canvas where it lies: the work follows the frame,
// not the canvas (libwebp's animation decoder copies the whole canvas for every frame).
static int ifc_anim_webp_next(struct ifc_animation *animation, int *delay_ms, char *message, size_t capacity) {
    struct ifc_webp_state *webp = &animation->webp;
    if (animation->frames > 0 && webp->next > animation->frames) return IFC_ANIMATION_END;
    struct ifc_rect disposed = { 0, 0, 0, 0 };
    if (webp->last_cleared) {
        ifc_clear_rect(animation->canvas, animation->width, webp->last);
        disposed = webp->last;
        webp->last_cleared = 0;
    }
    WebPIterator frame;
    if (!WebPDemuxGetFrame(webp->demux, webp->next, &frame)) {
        if (animation->frames_read > 0) return IFC_ANIMATION_END;
        ifc_set_message(message, capacity, "damaged WebP animation");
        return IFC_ERROR;
    }
    webp->next += 1;
    int status = IFC_OK;
    struct ifc_rect place = ifc_clip((struct ifc_rect){ frame.x_offset, frame.y_offset, frame.width, frame.height },
                                     animation->width, animation->height);
    size_t frame_bytes = (size_t)frame.width * (size_t)frame.height * 4;
    WebPDecoderConfig config;
    if (frame.width <= 0 || frame.height <= 0 ||
        ifc_over_budget((unsigned long)frame.width, (unsigned long)frame.height, animation->max_pixels, "WebP frame", message, capacity)) {
        status = IFC_ERROR;
    } else if (!ifc_reserve_buffer(&webp->fragment, &webp->fragment_capacity, frame_bytes) || !WebPInitDecoderConfig(&config)) {
        ifc_set_message(message, capacity, "out of memory decoding WebP");
        status = IFC_ERROR;
    } else {
        config.output.colorspace = MODE_RGBA;
        config.output.is_external_memory = 1;
        config.output.width = frame.width;
        config.output.height = frame.height;
        config.output.u.RGBA.rgba = webp->fragment;
        config.output.u.RGBA.stride = frame.width * 4;
        config.output.u.RGBA.size = frame_bytes;
        if (WebPDecode(frame.fragment.bytes, frame.fragment.size, &config) != VP8_STATUS_OK) {
            ifc_set_message(message, capacity, "damaged WebP animation");
            status = IFC_ERROR;
        }
    }
    if (status == IFC_OK) {
        int blend = frame.blend_method == WEBP_MUX_BLEND && frame.has_alpha;
        for (int row = 0; row < place.height; row++) {
            const uint8_t *from = webp->fragment + ((size_t)(place.y - frame.y_offset + row) * (size_t)frame.width +
                                                    (size_t)(place.x - frame.x_offset)) * 4;
            uint8_t *to = animation->canvas + ((size_t)(place.y + row) * (size_t)animation->width + (size_t)place.x) * 4;
            if (!blend) {
                memcpy(to, from, (size_t)place.width * 4);
                continue;
            }
            for (int column = 0; column < place.width; column++) ifc_webp_blend(to + column * 4, from + column * 4);
        }
        *delay_ms = frame.duration;
        webp->last_cleared = frame.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND;
        webp->last = place;
        animation->changed = ifc_union(disposed, place);
    }
    WebPDemuxReleaseIterator(&frame);
    if (status == IFC_ERROR && animation->frames_read > 0 && !ifc_decode_stopped()) return IFC_ANIMATION_END;
    return status;
}

// MARK: - Video

static int ifc_video_read(void *opaque, uint8_t *buffer, int size) {
    struct ifc_video_state *video = (struct ifc_video_state *)opaque;
    size_t left = video->length - video->offset;
    if (left == 0) return AVERROR_EOF;
    size_t taken = (size_t)size < left ? (size_t)size : left;
    memcpy(buffer, video->data + video->offset, taken);
    video->offset += taken;
    return (int)taken;
}

static int64_t ifc_video_seek(void *opaque, int64_t offset, int whence) {
    struct ifc_video_state *video = (struct ifc_video_state *)opaque;
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE) return (int64_t)video->length;
    int64_t base = whence == SEEK_CUR ? (int64_t)video->offset : whence == SEEK_END ? (int64_t)video->length : 0;
    int64_t target = base + offset;
    if (target < 0 || target > (int64_t)video->length) return -1;
    video->offset = (size_t)target;
    return target;
}

static void ifc_video_message(char *message, size_t capacity, const char *what, int error) {
    char reason[128] = { 0 };
    av_strerror(error, reason, sizeof reason);
    if (message && capacity > 0) snprintf(message, capacity, "%s (%s)", what, reason[0] ? reason : "FFmpeg error");
}

static int ifc_anim_video_open(struct ifc_animation *animation, const uint8_t *data, size_t length,
                               char *message, size_t capacity) {
    struct ifc_video_state *video = &animation->video;
    if (!ifc_ffmpeg_load(message, capacity)) return IFC_ERROR;
    // FFmpeg writes its warnings to stderr, where the full-screen program draws: it says nothing.
    av_log_set_level(AV_LOG_QUIET);
    video->data = data;
    video->length = length;
    video->offset = 0;
    video->stream = -1;
    video->last_pts = AV_NOPTS_VALUE;
    const int io_size = 32 * 1024;
    uint8_t *io_buffer = (uint8_t *)av_malloc(io_size);
    if (!io_buffer) {
        ifc_set_message(message, capacity, "out of memory opening the video");
        return IFC_ERROR;
    }
    video->io = avio_alloc_context(io_buffer, io_size, 0, video, ifc_video_read, NULL, ifc_video_seek);
    video->format = avformat_alloc_context();
    if (!video->io || !video->format) {
        if (!video->io) av_free(io_buffer);
        ifc_set_message(message, capacity, "out of memory opening the video");
        return IFC_ERROR;
    }
    video->format->pb = video->io;
    video->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    // Only the demuxer the bytes name (never a probe that could pick a playlist, a URL or a device): MP4/MOV for an
    // ftyp box, Matroska/WebM for an EBML header, what Imgur serves.
    const AVInputFormat *input = av_find_input_format(memcmp(data + 4, "ftyp", 4) == 0 ? "mov" : "matroska");
    if (!input) {
        ifc_set_message(message, capacity, "FFmpeg has no demuxer for this video");
        return IFC_ERROR;
    }
    // A video item has one picture stream and perhaps sound: a file claiming more is refused as it is read.
    video->format->max_streams = IFC_MAX_VIDEO_STREAMS;
    int error = avformat_open_input(&video->format, NULL, input, NULL);
    if (error < 0) {
        video->format = NULL; // freed by avformat_open_input
        if (error == AVERROR(ENOMEM)) {
            snprintf(message, capacity, "not a video this program plays (more than %d streams, or a header too large)",
                     IFC_MAX_VIDEO_STREAMS);
        } else {
            ifc_video_message(message, capacity, "not a video FFmpeg reads", error);
        }
        return IFC_ERROR;
    }
    // No frame larger than the budget, whoever decodes it: the sizes the container declares are checked before any
    // frame is decoded (reading the streams' facts decodes a few), and every decoder FFmpeg opens, for those facts
    // and for playing, refuses a frame over the limit (a stream may change its size midway).
    uint64_t limit = animation->max_pixels < IFC_MAX_VIDEO_PIXELS ? animation->max_pixels : IFC_MAX_VIDEO_PIXELS;
    for (unsigned index = 0; index < video->format->nb_streams; index++) {
        const AVCodecParameters *declared = video->format->streams[index]->codecpar;
        if (declared->codec_type == AVMEDIA_TYPE_VIDEO && declared->width > 0 && declared->height > 0 &&
            (uint64_t)declared->width * (uint64_t)declared->height > limit) {
            snprintf(message, capacity, "video is %d x %d pixels, more than the limit of %.1f megapixels",
                     declared->width, declared->height, (double)limit / 1e6);
            return IFC_ERROR;
        }
    }
    char limit_text[32];
    snprintf(limit_text, sizeof limit_text, "%llu", (unsigned long long)limit);
    unsigned stream_count = video->format->nb_streams;
    AVDictionary **stream_options = stream_count > 0 ? (AVDictionary **)calloc(stream_count, sizeof *stream_options) : NULL;
    if (stream_count > 0 && !stream_options) {
        ifc_set_message(message, capacity, "out of memory opening the video");
        return IFC_ERROR;
    }
    for (unsigned index = 0; index < stream_count; index++) {
        av_dict_set(&stream_options[index], "max_pixels", limit_text, 0);
        av_dict_set(&stream_options[index], "threads", "1", 0);
    }
    error = avformat_find_stream_info(video->format, stream_options);
    for (unsigned index = 0; index < stream_count; index++) av_dict_free(&stream_options[index]);
    free(stream_options);
    if (error < 0) {
        ifc_video_message(message, capacity, "damaged video", error);
        return IFC_ERROR;
    }
    const AVCodec *decoder = NULL;
    video->stream = av_find_best_stream(video->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (video->stream < 0 || !decoder) {
        ifc_set_message(message, capacity, "the file holds no video FFmpeg can decode");
        return IFC_ERROR;
    }
    AVStream *stream = video->format->streams[video->stream];
    int width = stream->codecpar->width, height = stream->codecpar->height;
    if (width <= 0 || height <= 0) {
        ifc_set_message(message, capacity, "the video has no size");
        return IFC_ERROR;
    }
    if ((uint64_t)width * (uint64_t)height > limit) {
        snprintf(message, capacity, "video is %d x %d pixels, more than the limit of %.1f megapixels", width, height,
                 (double)limit / 1e6);
        return IFC_ERROR;
    }
    // Reserved in the budget every decode shares before the decoder takes memory: the canvas, the copy libswscale
    // writes and the decoder's own frames, counted as three pictures of the stream's size.
    if (ifc_reserve_pixels((uint64_t)width * (uint64_t)height * 3, message, capacity)) {
        return IFC_ERROR;
    }
    video->codec = avcodec_alloc_context3(decoder);
    if (!video->codec || avcodec_parameters_to_context(video->codec, stream->codecpar) < 0) {
        ifc_set_message(message, capacity, "the video's decoder could not be set up");
        return IFC_ERROR;
    }
    // One thread: the pictures' workers are already one per core.
    video->codec->thread_count = 1;
    video->codec->max_pixels = (int64_t)limit;
    if (av_image_alloc(video->scaled, video->scaled_lines, width, height, AV_PIX_FMT_RGBA, 64) < 0) {
        ifc_set_message(message, capacity, "out of memory opening the video");
        return IFC_ERROR;
    }
    error = avcodec_open2(video->codec, decoder, NULL);
    if (error < 0) {
        ifc_video_message(message, capacity, "the video's decoder could not be opened", error);
        return IFC_ERROR;
    }
    video->packet = av_packet_alloc();
    video->frame = av_frame_alloc();
    if (!video->packet || !video->frame) {
        ifc_set_message(message, capacity, "out of memory opening the video");
        return IFC_ERROR;
    }
    AVRational rate = stream->avg_frame_rate.num > 0 && stream->avg_frame_rate.den > 0 ? stream->avg_frame_rate : stream->r_frame_rate;
    video->frame_delay_ms = (rate.num > 0 && rate.den > 0) ? 1000.0 * rate.den / rate.num : 0;
    video->time_base = av_q2d(stream->time_base);
    animation->width = width;
    animation->height = height;
    animation->frames = stream->nb_frames > 0 && stream->nb_frames < 1000000000 ? (int)stream->nb_frames : -1;
    animation->loops = 0; // a video item loops, as Imgur's player does
    return IFC_OK;
}

static int ifc_anim_video_next(struct ifc_animation *animation, int *delay_ms, char *message, size_t capacity) {
    struct ifc_video_state *video = &animation->video;
    if (video->finished) return IFC_ANIMATION_END;
    for (;;) {
        int error = avcodec_receive_frame(video->codec, video->frame);
        if (error == 0) break;
        if (error == AVERROR_EOF) {
            video->finished = 1;
            if (animation->frames_read > 0) return IFC_ANIMATION_END;
            ifc_set_message(message, capacity, "the video holds no frame");
            return IFC_ERROR;
        }
        if (error != AVERROR(EAGAIN)) {
            if (animation->frames_read > 0) return IFC_ANIMATION_END;
            ifc_video_message(message, capacity, "damaged video", error);
            return IFC_ERROR;
        }
        if (video->draining) {
            video->finished = 1;
            return animation->frames_read > 0 ? IFC_ANIMATION_END : IFC_ERROR;
        }
        if (ifc_decode_stopped()) {
            ifc_set_message(message, capacity, IFC_STOPPED_MESSAGE);
            return IFC_ERROR;
        }
        // The next packet of the video stream; at the end (or a cut file) the decoder is drained.
        for (;;) {
            error = av_read_frame(video->format, video->packet);
            if (error < 0) {
                avcodec_send_packet(video->codec, NULL);
                video->draining = 1;
                break;
            }
            if (video->packet->stream_index != video->stream) {
                av_packet_unref(video->packet);
                continue;
            }
            error = avcodec_send_packet(video->codec, video->packet);
            av_packet_unref(video->packet);
            if (error < 0 && error != AVERROR(EAGAIN)) {
                // A damaged packet is skipped, as players do.
                continue;
            }
            break;
        }
    }
    AVFrame *frame = video->frame;
    if (frame->width <= 0 || frame->height <= 0 ||
        ifc_over_budget((unsigned long)frame->width, (unsigned long)frame->height, animation->max_pixels, "video frame", message, capacity)) {
        av_frame_unref(frame);
        if (animation->frames_read > 0) return IFC_ANIMATION_END;
        return IFC_ERROR;
    }
    // Every frame onto the canvas of the stream's size (a stream may change size midway).
    video->scale = sws_getCachedContext(video->scale, frame->width, frame->height, (enum AVPixelFormat)frame->format,
                                        animation->width, animation->height, AV_PIX_FMT_RGBA, SWS_BILINEAR, NULL, NULL, NULL);
    if (!video->scale) {
        av_frame_unref(frame);
        ifc_set_message(message, capacity, "the video's pixel format cannot be converted");
        return animation->frames_read > 0 ? IFC_ANIMATION_END : IFC_ERROR;
    }
    sws_scale(video->scale, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, video->scaled,
              video->scaled_lines);
    size_t line_bytes = (size_t)animation->width * 4;
    for (int y = 0; y < animation->height; y++) {
        memcpy(animation->canvas + (size_t)y * line_bytes, video->scaled[0] + (size_t)y * (size_t)video->scaled_lines[0], line_bytes);
    }
    int64_t pts = frame->best_effort_timestamp;
    double delay = video->frame_delay_ms;
    if (delay <= 0 && pts != AV_NOPTS_VALUE && video->last_pts != AV_NOPTS_VALUE && pts > video->last_pts) {
        delay = (double)(pts - video->last_pts) * video->time_base * 1000.0;
    }
    video->last_pts = pts;
    animation->changed = (struct ifc_rect){ 0, 0, animation->width, animation->height };
    av_frame_unref(frame);
    *delay_ms = delay > 0 && delay < 60000 ? (int)(delay + 0.5) : 100;
    return IFC_OK;
}

static void ifc_anim_video_close(struct ifc_video_state *video) {
    if (video->scale) sws_freeContext(video->scale);
    if (video->scaled[0]) av_freep(&video->scaled[0]);
    if (video->frame) av_frame_free(&video->frame);
    if (video->packet) av_packet_free(&video->packet);
    if (video->codec) avcodec_free_context(&video->codec);
    if (video->format) avformat_close_input(&video->format);
    if (video->io) {
        av_freep(&video->io->buffer);
        avio_context_free(&video->io);
    }
}

// MARK: - The animation

int ifc_is_video(const uint8_t *data, size_t length) {
    if (!data || length < 12) return 0;
    // ISO base media (MP4, MOV): a box named ftyp first.
    if (memcmp(data + 4, "ftyp", 4) == 0) return 1;
    // Matroska / WebM: the EBML header.
    if (data[0] == 0x1A && data[1] == 0x45 && data[2] == 0xDF && data[3] == 0xA3) return 1;
    return 0;
}

ifc_animation *ifc_animation_open(const uint8_t *data, size_t length, uint64_t max_pixels,
                                  char *message, size_t capacity) {
    // Six bytes name a GIF; a WebP and a video need twelve (their kinds check). A short GIF is giflib's to refuse,
    // in its words.
    if (!data || length < 6) {
        ifc_set_message(message, capacity, "not an animation");
        return NULL;
    }
    ifc_animation *animation = (ifc_animation *)calloc(1, sizeof *animation);
    if (!animation) {
        ifc_set_message(message, capacity, "out of memory");
        return NULL;
    }
    animation->max_pixels = ifc_effective_budget(max_pixels);
    int status;
    if (memcmp(data, "GIF87a", 6) == 0 || memcmp(data, "GIF89a", 6) == 0) {
        animation->kind = IFC_KIND_GIF;
        status = ifc_anim_gif_open(animation, data, length, message, capacity);
    } else if (length >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0) {
        animation->kind = IFC_KIND_WEBP;
        status = ifc_anim_webp_open(animation, data, length, message, capacity);
    } else if (ifc_is_video(data, length)) {
        animation->kind = IFC_KIND_VIDEO;
        status = ifc_anim_video_open(animation, data, length, message, capacity);
    } else {
        ifc_set_message(message, capacity, "not a GIF, WebP or video");
        status = IFC_ERROR;
    }
    if (status == IFC_OK && ifc_over_budget((unsigned long)(animation->width > 0 ? animation->width : 0),
                                            (unsigned long)(animation->height > 0 ? animation->height : 0),
                                            animation->max_pixels, "animation", message, capacity)) {
        status = IFC_ERROR;
    }
    if (status == IFC_OK) {
        animation->canvas = (uint8_t *)calloc((size_t)animation->width * (size_t)animation->height, 4);
        if (!animation->canvas) {
            ifc_set_message(message, capacity, "out of memory for the animation's canvas");
            status = IFC_ERROR;
        }
    }
    if (status != IFC_OK) {
        ifc_animation_close(animation);
        return NULL;
    }
    return animation;
}

void ifc_animation_changed(const ifc_animation *animation, int *x, int *y, int *width, int *height) {
    // The first frame is the whole canvas (what it leaves transparent is black now).
    struct ifc_rect rect = animation->frames_read <= 1 ? (struct ifc_rect){ 0, 0, animation->width, animation->height }
                                                       : animation->changed;
    *x = rect.x;
    *y = rect.y;
    *width = rect.width;
    *height = rect.height;
}

void ifc_animation_info(const ifc_animation *animation, int *width, int *height, int *frames, int *loops) {
    *width = animation->width;
    *height = animation->height;
    *frames = animation->frames;
    *loops = animation->loops;
}

int ifc_animation_next(ifc_animation *animation, const uint8_t **canvas, int *delay_ms, char *message, size_t capacity) {
    *canvas = NULL;
    *delay_ms = 0;
    if (ifc_decode_stopped()) {
        ifc_set_message(message, capacity, IFC_STOPPED_MESSAGE);
        return IFC_ERROR;
    }
    int status;
    switch (animation->kind) {
    case IFC_KIND_GIF: status = ifc_anim_gif_next(animation, delay_ms, message, capacity); break;
    case IFC_KIND_WEBP: status = ifc_anim_webp_next(animation, delay_ms, message, capacity); break;
    default: status = ifc_anim_video_next(animation, delay_ms, message, capacity); break;
    }
    if (status == IFC_OK || status == IFC_PARTIAL) {
        animation->frames_read += 1;
        *canvas = animation->canvas;
    }
    return status;
}

void ifc_animation_close(ifc_animation *animation) {
    if (!animation) return;
    if (animation->kind == IFC_KIND_GIF && animation->gif.file) {
        int error = 0;
        DGifCloseFile(animation->gif.file, &error);
    }
    free(animation->gif.previous);
    free(animation->gif.line);
    if (animation->webp.demux) WebPDemuxDelete(animation->webp.demux);
    free(animation->webp.fragment);
    if (animation->kind == IFC_KIND_VIDEO) ifc_anim_video_close(&animation->video);
    free(animation->canvas);
    free(animation);
}

// A still picture of a format the animation reader reads: its first frame over a transparent canvas the caller owns
// (freed with ifc_free), through the same reader as the frames of an animation (one walk of the format's records).
static int ifc_first_frame(const uint8_t *data, size_t length, uint64_t max_pixels,
                           uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity) {
    ifc_animation *animation = ifc_animation_open(data, length, max_pixels, message, message_capacity);
    if (!animation) return IFC_ERROR;
    const uint8_t *canvas = NULL;
    int delay_ms = 0;
    int status = ifc_animation_next(animation, &canvas, &delay_ms, message, message_capacity);
    if (status == IFC_ANIMATION_END) {
        ifc_set_message(message, message_capacity, "the file holds no picture");
        status = IFC_ERROR;
    }
    if (status != IFC_ERROR && canvas) {
        *pixels = animation->canvas;
        *width = animation->width;
        *height = animation->height;
        animation->canvas = NULL; // the caller's now
    } else {
        status = IFC_ERROR;
    }
    ifc_animation_close(animation);
    return status;
}

int ifc_gif_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                   uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity) {
    *pixels = NULL;
    if (!data || length < 6 || (memcmp(data, "GIF87a", 6) != 0 && memcmp(data, "GIF89a", 6) != 0)) {
        ifc_set_message(message, message_capacity, "not a GIF");
        return IFC_ERROR;
    }
    return ifc_first_frame(data, length, max_pixels, pixels, width, height, message, message_capacity);
}

int ifc_webp_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                    uint8_t **pixels, int *width, int *height, char *message, size_t message_capacity) {
    *pixels = NULL;
    if (!data || length < 12 || memcmp(data, "RIFF", 4) != 0 || memcmp(data + 8, "WEBP", 4) != 0) {
        ifc_set_message(message, message_capacity, "not a WebP, or a damaged one");
        return IFC_ERROR;
    }
    return ifc_first_frame(data, length, max_pixels, pixels, width, height, message, message_capacity);
}
