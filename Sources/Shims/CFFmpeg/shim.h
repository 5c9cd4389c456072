#ifndef IMAGEFEED_CFFMPEG_SHIM_H
#define IMAGEFEED_CFFMPEG_SHIM_H
// FFmpeg's demuxers, decoders and scaler: videos (Imgur's gifv and mp4 items) a frame at a time.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#endif
