#ifndef IMAGEFEED_CWEBP_SHIM_H
#define IMAGEFEED_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/demux.h>
#endif
