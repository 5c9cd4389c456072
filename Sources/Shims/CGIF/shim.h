#ifndef IMAGEFEED_CGIF_SHIM_H
#define IMAGEFEED_CGIF_SHIM_H
#include <gif_lib.h>
#endif
