#include "CPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// The PNG bytes written so far.
typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
    int failed;
} sink_t;

static void sink_write(png_structp png, png_bytep data, png_size_t length) {
    sink_t *sink = png_get_io_ptr(png);
    if (sink->failed) return;
    if (sink->length + length > sink->capacity) {
        size_t capacity = (sink->length + length) * 2;
        uint8_t *grown = realloc(sink->bytes, capacity);
        if (!grown) { sink->failed = 1; png_error(png, "out of memory"); }
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->length, data, length);
    sink->length += length;
}

static void sink_flush(png_structp png) { (void)png; }

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

int kn_png_filter_up(void) { return PNG_FILTER_UP; }

void kn_png_free(uint8_t *bytes) { free(bytes); }

int kn_png_encode(const uint8_t *pixels, size_t stride, uint32_t width, uint32_t height,
                  int filters, int level, uint8_t **out, size_t *length) {
    *out = NULL;
    *length = 0;
    if (!pixels || width == 0 || height == 0 || stride < (size_t)width * 4) return -1;
    int opaque = 1;
    for (uint32_t y = 0; y < height && opaque; y++) {
        const uint8_t *row = pixels + y * stride;
        for (uint32_t x = 0; x < width; x++) {
            if (pixel_at(row, x) >> 24 != 255) { opaque = 0; break; }
        }
    }
    const size_t channels = opaque ? 3 : 4;
    // volatile: read after longjmp returns to the setjmp below.
    uint8_t *volatile line = malloc((size_t)width * channels);
    sink_t sink = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!line || !png || !info) {
        png_destroy_write_struct(&png, &info);
        free(line);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(line);
        free(sink.bytes);
        return -1;
    }
    png_set_write_fn(png, &sink, sink_write, sink_flush);
    png_set_IHDR(png, info, width, height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_compression_level(png, level);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + y * stride;
        uint8_t *o = line;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t p = pixel_at(row, x), alpha = p >> 24;
            uint32_t r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
            if (opaque) {
                o[0] = (uint8_t)r; o[1] = (uint8_t)g; o[2] = (uint8_t)b;
                o += 3;
            } else if (alpha == 0) {
                o[0] = o[1] = o[2] = o[3] = 0;
                o += 4;
            } else {
                o[0] = straight(r, alpha); o[1] = straight(g, alpha); o[2] = straight(b, alpha);
                o[3] = (uint8_t)alpha;
                o += 4;
            }
        }
        png_write_row(png, line);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(line);
    *out = sink.bytes;
    *length = sink.length;
    return 0;
}
