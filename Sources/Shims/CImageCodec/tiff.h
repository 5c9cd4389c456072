// libtiff, loaded when the first TIFF is decoded, not when the program starts: it brings six libraries of its own
// (zstd, lzma, Lerc, jbig, libdeflate, libwebp), whose loading took 0.6 ms of every start (a previewer's `render`
// takes about 13) though TIFFs are rare. formats.c calls libtiff by its own names; here those names become the functions found in the library.
#ifndef IMAGEFEED_TIFF_H
#define IMAGEFEED_TIFF_H

#include <stddef.h>

#include <tiffio.h>

// Each function formats.c calls (X(name)).
#define IFC_TIFF_FUNCTIONS(X) \
    X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFOpenOptionsSetMaxSingleMemAlloc) X(TIFFClientOpenExt) \
    X(TIFFGetField) X(TIFFReadRGBAImageOriented) X(TIFFClose)

struct ifc_tiff {
#define IFC_TIFF_POINTER(name) __typeof__(&name) name;
    IFC_TIFF_FUNCTIONS(IFC_TIFF_POINTER)
#undef IFC_TIFF_POINTER
};

extern struct ifc_tiff ifc_tiff;

// Loads libtiff once (the ABI this program was built with); 1 when every function was found, else 0 with why in
// `message`.
int ifc_tiff_load(char *message, size_t capacity);

#ifndef IFC_TIFF_LOADER
#define TIFFOpenOptionsAlloc (ifc_tiff.TIFFOpenOptionsAlloc)
#define TIFFOpenOptionsFree (ifc_tiff.TIFFOpenOptionsFree)
#define TIFFOpenOptionsSetErrorHandlerExtR (ifc_tiff.TIFFOpenOptionsSetErrorHandlerExtR)
#define TIFFOpenOptionsSetWarningHandlerExtR (ifc_tiff.TIFFOpenOptionsSetWarningHandlerExtR)
#define TIFFOpenOptionsSetMaxSingleMemAlloc (ifc_tiff.TIFFOpenOptionsSetMaxSingleMemAlloc)
#define TIFFClientOpenExt (ifc_tiff.TIFFClientOpenExt)
#define TIFFGetField (ifc_tiff.TIFFGetField)
#define TIFFReadRGBAImageOriented (ifc_tiff.TIFFReadRGBAImageOriented)
#define TIFFClose (ifc_tiff.TIFFClose)
#endif

#endif
