// PNG files of Cairo's premultiplied ARGB32 pixels, written through libpng with a
// compression setting of our own: Cairo's writer (libpng's defaults: every filter tried
// on every row) spent 46 % of a PNG-frames render choosing filters and 33 % in zlib
// (issue 42). KineticEncode's PNG.swift is the only caller.
//
// In C because libpng reports errors with longjmp, which Swift cannot catch.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

/// Encodes `width` × `height` premultiplied ARGB32 pixels (native-endian words, rows
/// `stride` bytes apart) as an 8-bit PNG: RGB when every pixel is opaque, else RGBA with
/// each colour un-premultiplied and rounded as Cairo's PNG writer rounds it. Rows are
/// filtered with `filters` (libpng's PNG_FILTER_* bits) and deflated at zlib `level`.
/// On success returns 0 and sets `*out` (release it with `kn_png_free`) and `*length`;
/// on failure returns -1 and `*out` is NULL. No timestamp or other metadata is written.
int kn_png_encode(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                  int filters, int level, uint8_t **out, size_t *length);

/// The filter bits `kn_png_encode` is given for "Up" only (libpng's PNG_FILTER_UP).
int kn_png_filter_up(void);

void kn_png_free(uint8_t *bytes);

#endif
