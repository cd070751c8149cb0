// PNG files of Cairo's premultiplied ARGB32 pixels: the scanlines filtered here and
// deflated whole by libdeflate, the chunks written here. zlib (through libpng) spent
// 60 % of a PNG-frames render of snow deflating; libdeflate makes files of the same
// size in about half its time (issue 42). KineticEncode's PNG.swift is the only caller.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

/// Encodes `width` × `height` premultiplied ARGB32 pixels (native-endian words, rows
/// `stride` bytes apart) as an 8-bit PNG: RGB when every pixel is opaque, else RGBA with
/// each colour un-premultiplied and rounded as Cairo's PNG writer rounds it. Every row is
/// filtered with Up and the whole image deflated at libdeflate's `level` (0–12).
/// On success returns 0 and sets `*out` (release it with `kn_png_free`) and `*length`;
/// on failure (a bad argument, no memory) returns -1 and `*out` is NULL. No timestamp or
/// other metadata is written.
int kn_png_encode(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                  int level, uint8_t **out, size_t *length);

void kn_png_free(uint8_t *bytes);

#endif
