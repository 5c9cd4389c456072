#ifndef IMAGEFEED_CTIFF_SHIM_H
#define IMAGEFEED_CTIFF_SHIM_H
#include <tiffio.h>
#endif
