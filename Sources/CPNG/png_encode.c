#include "CPNG.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

/// The most bytes of zlib stream one IDAT chunk carries (a chunk's length is at most
/// 2^31 − 1; libpng's writer splits at 8 KiB, any split decodes alike).
#define IDAT_MAX ((size_t)1 << 20)

/// Pixel `x` of a row: rows need not be 4-byte aligned (any stride is accepted).
static inline uint32_t pixel_at(const uint8_t *row, uint32_t x) {
    uint32_t p;
    memcpy(&p, row + (size_t)x * 4, 4);
    return p;
}

/// Cairo's un-premultiplication (cairo-png.c `unpremultiply_data`): c × 255 / alpha
/// rounded to nearest; 0 where alpha is 0.
static inline uint8_t straight(uint32_t c, uint32_t alpha) {
    return (uint8_t)((c * 255 + alpha / 2) / alpha);
}

/// One row of pixels as PNG samples: R, G, B (opaque) or straight R, G, B, A.
static void convert_row(const uint8_t *row, uint32_t width, int opaque, uint8_t *o) {
    if (opaque) {
        for (uint32_t x = 0; x < width; x++, o += 3) {
            uint32_t p = pixel_at(row, x);
            o[0] = (uint8_t)(p >> 16); o[1] = (uint8_t)(p >> 8); o[2] = (uint8_t)p;
        }
        return;
    }
    for (uint32_t x = 0; x < width; x++, o += 4) {
        uint32_t p = pixel_at(row, x), alpha = p >> 24;
        if (alpha == 0) {
            o[0] = o[1] = o[2] = o[3] = 0;
        } else if (alpha == 255) {
            o[0] = (uint8_t)(p >> 16); o[1] = (uint8_t)(p >> 8); o[2] = (uint8_t)p; o[3] = 255;
        } else {
            o[0] = straight((p >> 16) & 0xFF, alpha);
            o[1] = straight((p >> 8) & 0xFF, alpha);
            o[2] = straight(p & 0xFF, alpha);
            o[3] = (uint8_t)alpha;
        }
    }
}

/// Pixels [first, last] of `row` are the only ones that differ from `above`'s (the same
/// width); returns 0 when none does. Frames change in small places (a snowflake, a
/// caption): most rows equal the row above, and most of a changed row does too, so the
/// rows' filtered bytes are mostly zeros known without converting a pixel. Before this,
/// converting and filtering every pixel cost a fifth of the encoding (22 M of 101 M
/// instructions a 750×1334 snow frame; the rest is libdeflate's).
static int changed_span(const uint8_t *row, const uint8_t *above, uint32_t width,
                        uint32_t *first, uint32_t *last) {
    if (memcmp(row, above, (size_t)width * 4) == 0) return 0;
    uint32_t a = 0, b = width - 1;
    while (pixel_at(row, a) == pixel_at(above, a)) a++;
    while (pixel_at(row, b) == pixel_at(above, b)) b--;
    *first = a;
    *last = b;
    return 1;
}

/// Starts row `y` of the filtered image at `o`: its filter byte (2, Up) and zeros for every
/// sample outside [first, last], the pixels that differ from the row above (the first row's
/// "above" is zeros: all of it). Returns 0, the whole row zeros, when no pixel differs.
static int begin_row(const uint8_t *row, size_t stride, uint32_t y, uint32_t width, size_t channels,
                     uint8_t *o, uint32_t *first, uint32_t *last) {
    o[0] = 2;
    *first = 0;
    *last = width - 1;
    if (y > 0 && !changed_span(row, row - stride, width, first, last)) {
        memset(o + 1, 0, (size_t)width * channels);
        return 0;
    }
    memset(o + 1, 0, (size_t)*first * channels);
    memset(o + 1 + (size_t)(*last + 1) * channels, 0, (size_t)(width - 1 - *last) * channels);
    return 1;
}

/// Filters every row into `raw` (each row's filter byte, 2 for Up, then its samples less
/// the samples above) as RGB; returns 0, `raw` half written, at the first row with a pixel
/// that is not opaque. One pass over the pixels: a row's alpha is checked while it is in
/// the cache, and only where the row differs from the row above (checked already).
static int filter_opaque(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                         uint8_t *difference, uint8_t *raw) {
    const size_t line = (size_t)width * 3;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + y * stride;
        uint8_t *o = raw + y * (line + 1);
        uint32_t first, last;
        if (!begin_row(row, stride, y, width, 3, o, &first, &last)) continue;
        // The AND of the changed words keeps alpha 255 only when every one is opaque.
        uint32_t all = 0xFFFFFFFFu;
        for (uint32_t x = first; x <= last; x++) all &= pixel_at(row, x);
        if (all >> 24 != 255) return 0;
        // Up before packing: the samples are the pixels' bytes, so a row less the row above
        // is the words' bytes subtracted, which vectorizes.
        const uint8_t *changed = row + (size_t)first * 4;
        const size_t count = (size_t)(last - first + 1);
        if (y > 0) {
            const uint8_t *up = changed - stride;
            for (size_t i = 0; i < count * 4; i++) difference[i] = (uint8_t)(changed[i] - up[i]);
            changed = difference;
        }
        convert_row(changed, (uint32_t)count, 1, o + 1 + (size_t)first * 3);
    }
    return 1;
}

/// Filters every row into `raw` as straight RGBA. Un-premultiplying is not linear: the
/// changed pixels are converted, then the row above's converted samples subtracted.
/// `converted` holds the row above's straight samples (zeros above the first row) and is
/// updated where a row differs: an unchanged pixel converts to what it did above.
static void filter_translucent(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                               uint8_t *converted, uint8_t *raw) {
    const size_t line = (size_t)width * 4;
    uint8_t current[64 * 4];
    memset(converted, 0, line);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + y * stride;
        uint8_t *o = raw + y * (line + 1);
        uint32_t first, last;
        if (!begin_row(row, stride, y, width, 4, o, &first, &last)) continue;
        // In runs of 64 pixels through a buffer on the stack, so the subtraction vectorizes.
        for (uint32_t x = first; x <= last; x += 64) {
            const uint32_t n = last - x + 1 < 64 ? last - x + 1 : 64;
            convert_row(row + (size_t)x * 4, n, 0, current);
            uint8_t *above = converted + (size_t)x * 4, *out = o + 1 + (size_t)x * 4;
            for (size_t i = 0; i < (size_t)n * 4; i++) out[i] = (uint8_t)(current[i] - above[i]);
            memcpy(above, current, (size_t)n * 4);
        }
    }
}

static inline uint8_t *put32(uint8_t *o, uint32_t v) {
    o[0] = (uint8_t)(v >> 24); o[1] = (uint8_t)(v >> 16); o[2] = (uint8_t)(v >> 8); o[3] = (uint8_t)v;
    return o + 4;
}

/// Writes the chunk `type` with `length` bytes of `data` at `o` (data may already be in
/// place at o + 8) and returns the end.
static uint8_t *put_chunk(uint8_t *o, const char type[4], const uint8_t *data, size_t length) {
    o = put32(o, (uint32_t)length);
    memcpy(o, type, 4);
    if (length && data != o + 4) memmove(o + 4, data, length);
    uint32_t crc = libdeflate_crc32(0, o, 4 + length);
    return put32(o + 4 + length, crc);
}

void kn_png_free(uint8_t *bytes) { free(bytes); }

int kn_png_encode(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                  int level, uint8_t **out, size_t *length) {
    *out = NULL;
    *length = 0;
    if (!pixels || width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF ||
        stride < (size_t)width * 4 || level < 0 || level > 12) return -1;
    const size_t line4 = (size_t)width * 4;
    if (line4 + 1 > SIZE_MAX / height) return -1;
    // Room for RGBA rows; opaque images fill 3/4 of it (pages never touched cost nothing).
    uint8_t *raw = malloc((line4 + 1) * height), *lines = malloc(line4);
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    uint8_t *zlib = NULL, *png = NULL;
    int status = -1;
    if (!raw || !lines || !compressor) goto done;
    const int opaque = filter_opaque(pixels, stride, width, height, lines, raw);
    if (!opaque) filter_translucent(pixels, stride, width, height, lines, raw);
    const size_t raw_length = ((size_t)width * (opaque ? 3 : 4) + 1) * height;
    const size_t bound = libdeflate_zlib_compress_bound(compressor, raw_length);
    zlib = malloc(bound);
    if (!zlib) goto done;
    const size_t zlib_length = libdeflate_zlib_compress(compressor, raw, raw_length, zlib, bound);
    if (zlib_length == 0) goto done;
    // Signature, IHDR (25 bytes), the IDAT chunks (12 bytes each beside their data), IEND.
    const size_t chunks = (zlib_length + IDAT_MAX - 1) / IDAT_MAX;
    const size_t png_length = 8 + 25 + zlib_length + 12 * chunks + 12;
    png = malloc(png_length);
    if (!png) goto done;
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    memcpy(png, signature, 8);
    uint8_t header[13];
    put32(header, width);
    put32(header + 4, height);
    header[8] = 8;                 // bits per sample
    header[9] = opaque ? 2 : 6;    // colour type: RGB or RGBA
    header[10] = header[11] = header[12] = 0;  // deflate, adaptive filtering, no interlace
    uint8_t *o = put_chunk(png + 8, "IHDR", header, sizeof header);
    for (size_t at = 0; at < zlib_length; at += IDAT_MAX) {
        size_t n = zlib_length - at < IDAT_MAX ? zlib_length - at : IDAT_MAX;
        o = put_chunk(o, "IDAT", zlib + at, n);
    }
    o = put_chunk(o, "IEND", NULL, 0);
    *out = png;
    *length = (size_t)(o - png);
    png = NULL;
    status = 0;
done:
    libdeflate_free_compressor(compressor);
    free(raw);
    free(lines);
    free(zlib);
    free(png);
    return status;
}
