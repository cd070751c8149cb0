// Bilinear sampling (see CResample.h). On x86-64, spans go through AVX2 where the
// processor has it (asked once) and SSE2 (the baseline) otherwise, clamped samples
// through SSE2; other hosts, and a last odd sample, take the portable path. All give
// the same bits.
#include "CResample.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define KN_AVX2 1
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#endif

_Static_assert(KN_BILINEAR_SPAN == 8, "the kernels step spans of 8 samples: (end − start) >> 3");

/// One sample, the formula of the header in four 16-bit lanes of a 64-bit word.
static inline uint32_t sample(const uint32_t *p, ptrdiff_t words, uint64_t tx, uint64_t ty) {
    const uint64_t mask = 0x00FF00FF00FF00FFull, half = 0x0080008000800080ull;
#define LANES(w) (((uint64_t)(w) | (uint64_t)(w) << 24) & mask)
    uint64_t top = (LANES(p[0]) * (256 - tx) + LANES(p[1]) * tx + half) >> 8 & mask;
    uint64_t bottom = (LANES(p[words]) * (256 - tx) + LANES(p[words + 1]) * tx + half) >> 8 & mask;
#undef LANES
    uint64_t v = (top * (256 - ty) + bottom * ty + half) >> 8 & mask;
    return (uint32_t)((v & 0x00FF00FFu) | (v >> 24 & 0xFF00FF00u));
}

#if defined(__SSE2__)
static inline __m128i lerp8(__m128i a, __m128i b, __m128i t) {
    const __m128i full = _mm_set1_epi16(256), half = _mm_set1_epi16(128);
    // Products stay below 2¹⁶ (255 × 256), and so do their sums: unsigned 16-bit lanes.
    return _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(a, _mm_sub_epi16(full, t)),
                                                      _mm_mullo_epi16(b, t)), half), 8);
}

/// Two samples, written to out[0] and out[1]: top-left texels at p0 and p1, weights
/// tx0, tx1, ty0, ty1. Each sample's [top-left, bottom-left] texels blend across
/// against its [top-right, bottom-right] in one vector, then both samples' top rows
/// blend down against their bottom rows in another.
static inline void sample2(const uint32_t *p0, const uint32_t *p1, ptrdiff_t words,
                           int tx0, int tx1, int ty0, int ty1, uint32_t *out) {
    const __m128i zero = _mm_setzero_si128();
    __m128i t0 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p0), zero);
    __m128i b0 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(p0 + words)), zero);
    __m128i t1 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p1), zero);
    __m128i b1 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(p1 + words)), zero);
    __m128i h0 = lerp8(_mm_unpacklo_epi64(t0, b0), _mm_unpackhi_epi64(t0, b0), _mm_set1_epi16((short)tx0));
    __m128i h1 = lerp8(_mm_unpacklo_epi64(t1, b1), _mm_unpackhi_epi64(t1, b1), _mm_set1_epi16((short)tx1));
    __m128i wy = _mm_set_epi16((short)ty1, (short)ty1, (short)ty1, (short)ty1,
                               (short)ty0, (short)ty0, (short)ty0, (short)ty0);
    __m128i v = lerp8(_mm_unpacklo_epi64(h0, h1), _mm_unpackhi_epi64(h0, h1), wy);
    _mm_storel_epi64((__m128i *)out, _mm_packus_epi16(v, v));
}
#endif

/// One span of 8 samples from (u, v) by (du, dv), two at a time where SSE2 is there.
static void span(const uint32_t *pixels, ptrdiff_t words, int64_t u, int64_t v, int64_t du, int64_t dv,
                 uint32_t *out) {
    for (int k = 0; k < KN_BILINEAR_SPAN; k += 2) {
#if defined(__SSE2__)
        int64_t u1 = u + du, v1 = v + dv;
        sample2(pixels + (v >> 16) * words + (u >> 16), pixels + (v1 >> 16) * words + (u1 >> 16), words,
                (int)(u >> 8 & 255), (int)(u1 >> 8 & 255), (int)(v >> 8 & 255), (int)(v1 >> 8 & 255), out + k);
#else
        out[k] = sample(pixels + (v >> 16) * words + (u >> 16), words, u >> 8 & 255, v >> 8 & 255);
        out[k + 1] = sample(pixels + ((v + dv) >> 16) * words + ((u + du) >> 16), words,
                            (u + du) >> 8 & 255, (v + dv) >> 8 & 255);
#endif
        u += 2 * du;
        v += 2 * dv;
    }
}

#if KN_AVX2
/// Whether the processor and the system both support AVX2 (the system saves the wide
/// registers): asked once, then 1 (no) or 2 (yes).
static atomic_int avx2State;

static int hasAVX2(void) {
    int state = atomic_load_explicit(&avx2State, memory_order_relaxed);
    if (state == 0) {
        unsigned a, b, c, d, supported = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
            unsigned lo, hi;
            __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) supported = 1;
        }
        state = supported ? 2 : 1;
        atomic_store_explicit(&avx2State, state, memory_order_relaxed);
    }
    return state == 2;
}

/// `lerp` in the 16-bit lanes of eight pixels' blue and red (or green and alpha)
/// channels, with t × 128 in both halves of each pixel's word: a + (b − a) × t / 256
/// rounded, which is what `lerp` computes (a × 256 is a multiple of 256), and what a
/// rounding high multiply gives in one instruction: ((b − a) × 128t + 2¹⁴) >> 15.
__attribute__((target("avx2"))) static inline __m256i lerp16(__m256i a, __m256i b, __m256i t128) {
    return _mm256_add_epi16(a, _mm256_mulhrs_epi16(_mm256_sub_epi16(b, a), t128));
}

/// A 64-bit word at p in every 64-bit lane: a load alone, without the shuffle port.
/// (The empty asm keeps the compiler from rewriting broadcast and blend into shuffles.)
__attribute__((target("avx2"))) static inline __m256i broadcast(const uint32_t *p) {
    long long pair;
    memcpy(&pair, p, sizeof pair);
    __m256i v = _mm256_set1_epi64x(pair);
    __asm__("" : "+x"(v));
    return v;
}

/// The low 32 bits of the 64-bit word at p (x86 is little-endian: its first four bytes)
/// in every 32-bit lane: a load alone.
__attribute__((target("avx2"))) static inline __m256i broadcast32(const int64_t *p) {
    int32_t low;
    memcpy(&low, p, sizeof low);
    __m256i v = _mm256_set1_epi32(low);
    __asm__("" : "+x"(v));
    return v;
}

/// The texel pairs (left, right) at p0, p1, p2, p3, one a 64-bit lane: loaded by
/// broadcasts and merged by blends, which keeps them off the shuffle port that the
/// rest of the loop needs (a gather instruction is slower still on processors with the
/// Downfall fix).
__attribute__((target("avx2")))
static inline __m256i pairs(const uint32_t *p0, const uint32_t *p1, const uint32_t *p2, const uint32_t *p3) {
    __m256i v = _mm256_blend_epi32(broadcast(p0), broadcast(p1), 0x0C);
    v = _mm256_blend_epi32(v, broadcast(p2), 0x30);
    return _mm256_blend_epi32(v, broadcast(p3), 0xC0);
}

/// Left texels (`left` true) or right ones of pixels 0…7 in order, from pairs of
/// pixels 0 1 4 5 and of 2 3 6 7.
__attribute__((target("avx2"))) static inline __m256i texels(__m256i a, __m256i b, int left) {
    return left ? _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88))
                : _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0xDD));
}

/// `kn_bilinear_spans` eight samples a step, a pixel a 32-bit lane: blue and red blend
/// in the 16-bit lanes of one vector, green and alpha in another, so only the texel
/// loads need shuffling. Positions and texel indices are in 32-bit lanes (the caller
/// checks that the image is small enough for them).
__attribute__((target("avx2")))
static void spans8(const uint32_t *pixels, ptrdiff_t words, const int64_t *knots, ptrdiff_t spans, uint32_t *out) {
    const __m256i weight = _mm256_set1_epi32(255 << 7), low = _mm256_set1_epi32(0x00FF00FF);
    // Lanes k hold k × d as d, 2d and 4d masked by the bits of k: adds and shifts,
    // whose short latency keeps several spans in flight (a multiply takes 10 cycles).
    const __m256i odd = _mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1), twos = _mm256_setr_epi32(0, 0, -1, -1, 0, 0, -1, -1);
    const __m256i fours = _mm256_setr_epi32(0, 0, 0, 0, -1, -1, -1, -1);
    // A texel's index as one multiply-add of 16-bit halves: (row, column) · (words, 1).
    const __m256i columnHalf = _mm256_set1_epi32((int)0xFFFF0000), rowWords = _mm256_set1_epi32((int)words | 1 << 16);
    int32_t index[8] __attribute__((aligned(32)));
    for (ptrdiff_t s = 0; s < spans; s++, knots += 2, out += KN_BILINEAR_SPAN) {
        // Knots broadcast straight from memory (their low halves: positions inside the
        // image fit 32 bits) and steps in vector lanes: moving numbers from general
        // registers to vector ones would take the shuffle port.
        __m256i u0 = broadcast32(knots), v0 = broadcast32(knots + 1);
        __m256i du = _mm256_srai_epi32(_mm256_sub_epi32(broadcast32(knots + 2), u0), 3);
        __m256i dv = _mm256_srai_epi32(_mm256_sub_epi32(broadcast32(knots + 3), v0), 3);
        __m256i us = _mm256_add_epi32(_mm256_add_epi32(u0, _mm256_and_si256(du, odd)),
                                      _mm256_add_epi32(_mm256_and_si256(_mm256_slli_epi32(du, 1), twos),
                                                       _mm256_and_si256(_mm256_slli_epi32(du, 2), fours)));
        __m256i vs = _mm256_add_epi32(_mm256_add_epi32(v0, _mm256_and_si256(dv, odd)),
                                      _mm256_add_epi32(_mm256_and_si256(_mm256_slli_epi32(dv, 1), twos),
                                                       _mm256_and_si256(_mm256_slli_epi32(dv, 2), fours)));
        __m256i rowColumn = _mm256_or_si256(_mm256_srli_epi32(vs, 16), _mm256_and_si256(us, columnHalf));
        // Through memory, read back as it stands (volatile): extracting the lanes would
        // take the shuffle port again.
        _mm256_store_si256((__m256i *)index, _mm256_madd_epi16(rowColumn, rowWords));
        const volatile int32_t *at = index;
        const uint32_t *p0 = pixels + at[0], *p1 = pixels + at[1], *p2 = pixels + at[2], *p3 = pixels + at[3];
        const uint32_t *p4 = pixels + at[4], *p5 = pixels + at[5], *p6 = pixels + at[6], *p7 = pixels + at[7];
        __m256i topA = pairs(p0, p1, p4, p5), topB = pairs(p2, p3, p6, p7);
        __m256i bottomA = pairs(p0 + words, p1 + words, p4 + words, p5 + words);
        __m256i bottomB = pairs(p2 + words, p3 + words, p6 + words, p7 + words);
        __m256i tl = texels(topA, topB, 1), tr = texels(topA, topB, 0);
        __m256i bl = texels(bottomA, bottomB, 1), br = texels(bottomA, bottomB, 0);
        // Weights × 128, in both halves of each pixel's word.
        __m256i tx = _mm256_and_si256(_mm256_srli_epi32(us, 1), weight), ty = _mm256_and_si256(_mm256_srli_epi32(vs, 1), weight);
        tx = _mm256_or_si256(tx, _mm256_slli_epi32(tx, 16));
        ty = _mm256_or_si256(ty, _mm256_slli_epi32(ty, 16));
        __m256i blueRed = lerp16(lerp16(_mm256_and_si256(tl, low), _mm256_and_si256(tr, low), tx),
                                 lerp16(_mm256_and_si256(bl, low), _mm256_and_si256(br, low), tx), ty);
        __m256i greenAlpha = lerp16(lerp16(_mm256_srli_epi16(tl, 8), _mm256_srli_epi16(tr, 8), tx),
                                    lerp16(_mm256_srli_epi16(bl, 8), _mm256_srli_epi16(br, 8), tx), ty);
        _mm256_storeu_si256((__m256i *)out, _mm256_or_si256(blueRed, _mm256_slli_epi16(greenAlpha, 8)));
    }
}
#endif

void kn_bilinear_spans(const uint32_t *pixels, ptrdiff_t words, ptrdiff_t rows, const int64_t *knots, ptrdiff_t spans,
                       uint32_t *out, int allow_avx2) {
#if KN_AVX2
    // Inside the image a position is below 2¹⁵ pixels each way and an index below 2³¹.
    if (words < 32768 && rows < 32768 && (int64_t)words * rows < INT32_MAX && allow_avx2 && hasAVX2()) {
        spans8(pixels, words, knots, spans, out);
        return;
    }
#endif
    (void)rows;
    (void)allow_avx2;
    // >> on a negative step floors (arithmetic shift), as the header says.
    for (ptrdiff_t s = 0; s < spans; s++, knots += 2, out += KN_BILINEAR_SPAN) {
        span(pixels, words, knots[0], knots[1], (knots[2] - knots[0]) >> 3, (knots[3] - knots[1]) >> 3, out);
    }
}

void kn_bilinear_clamped(const uint32_t *pixels, ptrdiff_t words, ptrdiff_t columns, ptrdiff_t rows,
                         const int64_t *positions, ptrdiff_t count, uint32_t *out) {
    // The last position whose four texels lie inside, each way.
    const int64_t maxU = ((int64_t)(columns - 1) << 16) - 1, maxV = ((int64_t)(rows - 1) << 16) - 1;
    ptrdiff_t index[2];
    int tx[2], ty[2];
    for (ptrdiff_t k = 0; k < count; k++) {
        int64_t u = positions[2 * k], v = positions[2 * k + 1];
        u = u < 0 ? 0 : u > maxU ? maxU : u;
        v = v < 0 ? 0 : v > maxV ? maxV : v;
        index[k & 1] = (ptrdiff_t)(v >> 16) * words + (ptrdiff_t)(u >> 16);
        tx[k & 1] = (int)(u >> 8 & 255);
        ty[k & 1] = (int)(v >> 8 & 255);
#if defined(__SSE2__)
        if (k & 1) {
            sample2(pixels + index[0], pixels + index[1], words, tx[0], tx[1], ty[0], ty[1], out + k - 1);
        } else if (k == count - 1) {
            out[k] = sample(pixels + index[0], words, (uint64_t)tx[0], (uint64_t)ty[0]);
        }
#else
        out[k] = sample(pixels + index[k & 1], words, (uint64_t)tx[k & 1], (uint64_t)ty[k & 1]);
#endif
    }
}
