// The pixel loop of a projected layer (KineticRender's ProjectiveResampler): where a
// projective map sends a destination row, and bilinear samples of a premultiplied
// ARGB32 image there. It is in C because it is the one loop where Swift's code
// generation (lane shuffles, checked conversions) cost twice the time.
//
// Positions are in 16.16 fixed point, pixel i's centre at i. A bilinear sample at a
// position reads the 2 × 2 texels whose top-left one holds it, blends each row across by
// the x weight, then the two rows down by the y weight (weights in 1/256ths of a pixel,
// each blend rounded half up):
//
//     lerp(a, b, t) = (a × (256 − t) + b × t + 128) >> 8   in every channel.
//
// Every function gives the same bits as that formula, whichever instructions the host
// has. Plain data in, pixels out: nothing is allocated or kept (but whether the
// processor has AVX2, asked once).
#ifndef CRESAMPLE_H
#define CRESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/// Where the projective map `m` (row vectors: (x, y, 1) · m, then divided by the third
/// coordinate; m[0…2] its first row) sends the pixel centres (x0 + c + ½, y + ½) of
/// columns c = min(first + k × step, last), k = 0 ... count: in 16.16 fixed point, x at
/// out[2k] and y at out[2k + 1]. A point at or behind the horizon, or not within
/// `window_x` and `window_y` of the origin (beyond which a position only ever clamps),
/// gets INT64_MIN for both.
void kn_projective_positions(const double m[9], double x0, double y, ptrdiff_t first, ptrdiff_t step,
                             ptrdiff_t last, ptrdiff_t count, double window_x, double window_y, int64_t *out);

/// Pixels in a span of `kn_bilinear_spans`.
#define KN_BILINEAR_SPAN 8

/// `spans` runs of KN_BILINEAR_SPAN samples written to out[0 ..< spans × 8]. Span s
/// starts at the 16.16 position (knots[2s], knots[2s + 1]) and steps towards the next
/// knot by (knots[2s + 2] − knots[2s]) >> 3 (floored) in x and likewise in y, so `knots` holds
/// spans + 1 positions. `pixels` is an image of `rows` rows, `words_per_row` words
/// apart; every sample's four texels must lie inside it. With `allow_avx2` nonzero the
/// spans go through AVX2 where the processor has it (tests pass 0 to check that the
/// other path gives the same bits).
void kn_bilinear_spans(const uint32_t *pixels, ptrdiff_t words_per_row, ptrdiff_t rows,
                       const int64_t *knots, ptrdiff_t spans, uint32_t *out, int allow_avx2);

/// `count` samples at the 16.16 positions (positions[2k], positions[2k + 1]), written
/// to out[k]. Each position is first clamped to the image of `columns` × `rows` pixels
/// (INT64_MIN, a point without a position, goes to the top-left corner): with a
/// transparent border round the image, a clamped sample is what the texels beyond the
/// edge would give.
void kn_bilinear_clamped(const uint32_t *pixels, ptrdiff_t words_per_row, ptrdiff_t columns, ptrdiff_t rows,
                         const int64_t *positions, ptrdiff_t count, uint32_t *out);

#endif
