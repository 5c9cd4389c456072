#include <sixel.h>

// Maps pixels to the dither's palette (with its error diffusion) and returns them as palette indexes, allocated
// with the dither's allocator (malloc by default). libsixel exports it (it is what sixel_encode does before
// encoding RGB) but its public header leaves it out.
unsigned char *sixel_dither_apply_palette(sixel_dither_t *dither, unsigned char *pixels, int width, int height);
