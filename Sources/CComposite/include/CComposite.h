// A tint painted through an alpha image OVER premultiplied ARGB32 pixels: a layer's
// blurred shadow, composited each frame from its cached silhouette (KineticCairo's
// `CairoContext.paint(_:through:…)`, the only caller). It is in C because pixman, as
// Debian builds it, does this with SSE2 four pixels at a time, 1.2 ns a pixel on the
// bench machine, the cost of a blurred card shadow (docs/extensions.md); these loops take
// 8 or 16 pixels at a time with AVX2 or AVX-512BW.
//
// Every loop gives pixman's bits (its OVER of a solid source through an A8 mask):
//
//     mul(a, b) = (t + (t >> 8)) >> 8  with  t = a × b + 128    (a × b / 255, rounded)
//     s = mul(tint, m)                                          in every channel
//     d = min(255, s + mul(d, 255 − s.alpha))                   in every channel
//
// Plain data in, pixels changed in place: nothing is allocated or kept (but which
// instructions the processor has, asked once).
#ifndef CCOMPOSITE_H
#define CCOMPOSITE_H

#include <stddef.h>
#include <stdint.h>

/// The widest loop the processor runs: 2 for AVX-512BW (with VL), 1 for AVX2, 0 for
/// neither (then pixman's SSE2 loop beats the portable one, and callers let Cairo paint).
int kn_over_tinted_level(void);

/// Paints the premultiplied ARGB32 colour `tint` through `mask` (one byte a pixel, rows
/// `mask_stride` bytes apart) OVER `dst` (rows `dst_stride` bytes apart, a multiple of
/// 4), `width` × `height` pixels, by the formula above. `level` caps the loop used (tests
/// pass 0 and 1 to check the narrower ones give the same bits); a level above the
/// processor's is lowered to it.
void kn_over_tinted(uint32_t tint, const uint8_t *mask, ptrdiff_t mask_stride, uint32_t *dst, ptrdiff_t dst_stride,
                    ptrdiff_t width, ptrdiff_t height, int level);

#endif
