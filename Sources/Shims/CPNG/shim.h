#ifndef IMAGEFEED_CPNG_SHIM_H
#define IMAGEFEED_CPNG_SHIM_H
#include <png.h>
#endif
