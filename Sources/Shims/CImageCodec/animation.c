// Animations, a frame at a time: GIF through giflib's record reader (frames composed here with the disposal
// each frame's graphic control block asks for, as a browser does), animated WebP through libwebp's animation
// decoder (which composes its own frames), and video (MP4, WebM: Imgur's `gifv`) through FFmpeg's libavformat
// and libavcodec, the first video stream only, scaled to RGBA by libswscale. Only the canvas (and, for GIF's
// "restore previous", one copy of it) is held: a long animation is never kept whole here.
#include "CImageCodec.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "ffmpeg.h"

enum ifc_animation_kind { IFC_KIND_GIF, IFC_KIND_WEBP, IFC_KIND_VIDEO };

struct ifc_gif_state {
    GifFileType *file;
    struct ifc_memory memory;
    // The graphic control block read for the next frame.
    int delay_cs, transparent, disposal;
    // What the last frame drawn asks to be done before the next: its disposal, and its rectangle.
    int last_disposal, last_left, last_top, last_width, last_height;
    uint8_t *previous; // the canvas before the last frame, for "restore previous"
    GifByteType *line;
};

struct ifc_video_state {
    AVFormatContext *format;
    AVIOContext *io;
    AVCodecContext *codec;
    struct SwsContext *scale;
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
    struct ifc_gif_state gif;
    WebPAnimDecoder *webp;
    int webp_last_timestamp;
    struct ifc_video_state video;
};

// MARK: - GIF

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
    size_t canvas_bytes = (size_t)animation->width * (size_t)animation->height * 4;
    // What the frame before asked to be done with its rectangle.
    if (animation->frames_read > 0) {
        if (gif->last_disposal == 2) {
            for (int y = gif->last_top; y < gif->last_top + gif->last_height && y < animation->height; y++) {
                int from = gif->last_left, to = gif->last_left + gif->last_width;
                if (to > animation->width) to = animation->width;
                if (from >= to) continue;
                memset(animation->canvas + ((size_t)y * (size_t)animation->width + (size_t)from) * 4, 0, (size_t)(to - from) * 4);
            }
        } else if (gif->last_disposal == 3 && gif->previous) {
            memcpy(animation->canvas, gif->previous, canvas_bytes);
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
        if (gif->disposal == 3) {
            if (!gif->previous) gif->previous = (uint8_t *)malloc(canvas_bytes);
            if (gif->previous) memcpy(gif->previous, animation->canvas, canvas_bytes);
        }
        int status = ifc_gif_draw_frame(file, line, animation->canvas, animation->width, animation->height, colors,
                                        gif->transparent, message, capacity);
        gif->last_disposal = gif->disposal;
        gif->last_left = frame->Left;
        gif->last_top = frame->Top;
        gif->last_width = frame->Width;
        gif->last_height = frame->Height;
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
    WebPDemuxer *demux = WebPDemux(&whole);
    if (!demux) {
        ifc_set_message(message, capacity, "not a WebP, or a damaged one");
        return IFC_ERROR;
    }
    uint32_t width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH), height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    uint32_t frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    WebPDemuxDelete(demux);
    // The canvas is checked before the decoder takes memory for it.
    if (ifc_over_budget(width, height, animation->max_pixels, "WebP", message, capacity)) return IFC_ERROR;
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        ifc_set_message(message, capacity, "libwebp's animation decoder is not the version built against");
        return IFC_ERROR;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    animation->webp = WebPAnimDecoderNew(&whole, &options);
    if (!animation->webp) {
        ifc_set_message(message, capacity, "damaged WebP animation");
        return IFC_ERROR;
    }
    WebPAnimInfo info;
    if (!WebPAnimDecoderGetInfo(animation->webp, &info)) {
        ifc_set_message(message, capacity, "damaged WebP animation");
        return IFC_ERROR;
    }
    animation->width = (int)info.canvas_width;
    animation->height = (int)info.canvas_height;
    animation->frames = (int)(frames > 0 ? frames : info.frame_count);
    animation->loops = (int)info.loop_count; // 0: for ever
    animation->webp_last_timestamp = 0;
    return IFC_OK;
}

static int ifc_anim_webp_next(struct ifc_animation *animation, int *delay_ms, char *message, size_t capacity) {
    if (!WebPAnimDecoderHasMoreFrames(animation->webp)) return IFC_ANIMATION_END;
    uint8_t *buffer = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(animation->webp, &buffer, &timestamp) || !buffer) {
        if (animation->frames_read > 0) return IFC_ANIMATION_END;
        ifc_set_message(message, capacity, "damaged WebP animation");
        return IFC_ERROR;
    }
    memcpy(animation->canvas, buffer, (size_t)animation->width * (size_t)animation->height * 4);
    // The timestamp is when the frame ends.
    *delay_ms = timestamp - animation->webp_last_timestamp;
    if (*delay_ms < 0) *delay_ms = 0;
    animation->webp_last_timestamp = timestamp;
    return IFC_OK;
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
    int error = avformat_open_input(&video->format, NULL, input, NULL);
    if (error < 0) {
        video->format = NULL; // freed by avformat_open_input
        ifc_video_message(message, capacity, "not a video FFmpeg reads", error);
        return IFC_ERROR;
    }
    error = avformat_find_stream_info(video->format, NULL);
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
    if (ifc_over_budget((unsigned long)width, (unsigned long)height, animation->max_pixels, "video", message, capacity)) {
        return IFC_ERROR;
    }
    video->codec = avcodec_alloc_context3(decoder);
    if (!video->codec || avcodec_parameters_to_context(video->codec, stream->codecpar) < 0) {
        ifc_set_message(message, capacity, "the video's decoder could not be set up");
        return IFC_ERROR;
    }
    // One thread: the pictures' workers are already one per core.
    video->codec->thread_count = 1;
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
    uint8_t *planes[4] = { animation->canvas, NULL, NULL, NULL };
    int strides[4] = { animation->width * 4, 0, 0, 0 };
    sws_scale(video->scale, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    int64_t pts = frame->best_effort_timestamp;
    double delay = video->frame_delay_ms;
    if (delay <= 0 && pts != AV_NOPTS_VALUE && video->last_pts != AV_NOPTS_VALUE && pts > video->last_pts) {
        delay = (double)(pts - video->last_pts) * video->time_base * 1000.0;
    }
    video->last_pts = pts;
    av_frame_unref(frame);
    *delay_ms = delay > 0 && delay < 60000 ? (int)(delay + 0.5) : 100;
    return IFC_OK;
}

static void ifc_anim_video_close(struct ifc_video_state *video) {
    if (video->scale) sws_freeContext(video->scale);
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
    if (!data || length < 12) {
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
    } else if (memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0) {
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
    if (animation->webp) WebPAnimDecoderDelete(animation->webp);
    if (animation->kind == IFC_KIND_VIDEO) ifc_anim_video_close(&animation->video);
    free(animation->canvas);
    free(animation);
}
