// FFmpeg, loaded when the first video is opened, not when the program starts: libavformat and libavcodec bring a
// hundred libraries of their own (codecs, TLS, fonts, ...), whose loading and relocation took most of every start
// (the previewer's `render` included) though most sessions never play a video. animation.c calls FFmpeg by its own
// names; here those names become the functions found in the libraries once they are loaded.
#ifndef IMAGEFEED_FFMPEG_H
#define IMAGEFEED_FFMPEG_H

#include <stddef.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>

// Each function animation.c calls (X(name)).
#define IFC_FFMPEG_FUNCTIONS(X) \
    X(av_dict_free) X(av_dict_set) X(av_find_best_stream) X(av_find_input_format) X(av_frame_alloc) X(av_frame_free) X(av_frame_unref) \
    X(av_free) X(av_freep) X(av_image_alloc) X(av_log_set_level) X(av_malloc) X(av_packet_alloc) X(av_packet_free) \
    X(av_packet_unref) X(av_read_frame) X(av_strerror) X(avcodec_alloc_context3) X(avcodec_free_context) \
    X(avcodec_open2) X(avcodec_parameters_to_context) X(avcodec_receive_frame) X(avcodec_send_packet) \
    X(avformat_alloc_context) X(avformat_close_input) X(avformat_find_stream_info) X(avformat_open_input) \
    X(avio_alloc_context) X(avio_context_free) X(sws_getCachedContext) X(sws_scale) X(sws_freeContext)

struct ifc_ffmpeg {
#define IFC_FFMPEG_POINTER(name) __typeof__(&name) name;
    IFC_FFMPEG_FUNCTIONS(IFC_FFMPEG_POINTER)
#undef IFC_FFMPEG_POINTER
};

extern struct ifc_ffmpeg ifc_ffmpeg;

// Loads FFmpeg's libraries once (the versions this program was built with); 1 when every function was found, else 0
// with why in `message`.
int ifc_ffmpeg_load(char *message, size_t capacity);

#ifndef IFC_FFMPEG_LOADER
#define av_dict_free (ifc_ffmpeg.av_dict_free)
#define av_dict_set (ifc_ffmpeg.av_dict_set)
#define av_find_best_stream (ifc_ffmpeg.av_find_best_stream)
#define av_find_input_format (ifc_ffmpeg.av_find_input_format)
#define av_frame_alloc (ifc_ffmpeg.av_frame_alloc)
#define av_frame_free (ifc_ffmpeg.av_frame_free)
#define av_frame_unref (ifc_ffmpeg.av_frame_unref)
#define av_free (ifc_ffmpeg.av_free)
#define av_freep (ifc_ffmpeg.av_freep)
#define av_image_alloc (ifc_ffmpeg.av_image_alloc)
#define av_log_set_level (ifc_ffmpeg.av_log_set_level)
#define av_malloc (ifc_ffmpeg.av_malloc)
#define av_packet_alloc (ifc_ffmpeg.av_packet_alloc)
#define av_packet_free (ifc_ffmpeg.av_packet_free)
#define av_packet_unref (ifc_ffmpeg.av_packet_unref)
#define av_read_frame (ifc_ffmpeg.av_read_frame)
#define av_strerror (ifc_ffmpeg.av_strerror)
#define avcodec_alloc_context3 (ifc_ffmpeg.avcodec_alloc_context3)
#define avcodec_free_context (ifc_ffmpeg.avcodec_free_context)
#define avcodec_open2 (ifc_ffmpeg.avcodec_open2)
#define avcodec_parameters_to_context (ifc_ffmpeg.avcodec_parameters_to_context)
#define avcodec_receive_frame (ifc_ffmpeg.avcodec_receive_frame)
#define avcodec_send_packet (ifc_ffmpeg.avcodec_send_packet)
#define avformat_alloc_context (ifc_ffmpeg.avformat_alloc_context)
#define avformat_close_input (ifc_ffmpeg.avformat_close_input)
#define avformat_find_stream_info (ifc_ffmpeg.avformat_find_stream_info)
#define avformat_open_input (ifc_ffmpeg.avformat_open_input)
#define avio_alloc_context (ifc_ffmpeg.avio_alloc_context)
#define avio_context_free (ifc_ffmpeg.avio_context_free)
#define sws_getCachedContext (ifc_ffmpeg.sws_getCachedContext)
#define sws_scale (ifc_ffmpeg.sws_scale)
#define sws_freeContext (ifc_ffmpeg.sws_freeContext)
#endif

#endif
