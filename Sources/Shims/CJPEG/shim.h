#ifndef IMAGEFEED_CJPEG_SHIM_H
#define IMAGEFEED_CJPEG_SHIM_H
// jpeglib.h uses FILE and size_t without including their headers.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#endif
