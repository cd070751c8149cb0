// A tint through an alpha image OVER ARGB32 (see CComposite.h). On x86-64 rows go
// through AVX-512BW or AVX2 where the processor has them, 16 or 8 pixels at a time;
// other hosts take the portable loop. All give the same bits.
#include "CComposite.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define KN_X86 1
#include <immintrin.h>
#endif

static inline uint32_t mul(uint32_t a, uint32_t b) {
    uint32_t t = a * b + 128;
    return (t + (t >> 8)) >> 8;
}

static void row_portable(uint32_t tint, const uint8_t *mask, uint32_t *dst, ptrdiff_t n) {
    for (ptrdiff_t i = 0; i < n; i++) {
        uint32_t m = mask[i];
        // mul(d, 255) = d: a pixel under a clear mask keeps its bits.
        if (m == 0) continue;
        uint32_t alpha = mul(tint >> 24, m), d = dst[i], out = 0;
        for (int shift = 0; shift < 32; shift += 8) {
            uint32_t v = mul(tint >> shift & 255, m) + mul(d >> shift & 255, 255 - alpha);
            out |= (v > 255 ? 255 : v) << shift;
        }
        dst[i] = out;
    }
}

#if KN_X86
int kn_over_tinted_level(void) {
    // __builtin_cpu_supports also asks whether the system saves the wide registers.
    static int level = -1;
    int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") ? 2
                : __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&level, known, __ATOMIC_RELAXED);
    }
    return known;
}

// Channels widen to 16-bit lanes: pixels 0–1 (and 4–5, …) by the low unpack, 2–3 by the
// high one; the pack puts them back in order. mul is pixman's: (t × 257) >> 16 equals
// (t + (t >> 8)) >> 8 for every t below 2¹⁶.
#define KN_MUL(W, a, b) _mm##W##_mulhi_epu16(_mm##W##_adds_epu16(_mm##W##_mullo_epi16(a, b), half), n257)
#define KN_ALPHAS(W, v) _mm##W##_shufflehi_epi16(_mm##W##_shufflelo_epi16(v, 0xFF), 0xFF)

__attribute__((target("avx2")))
static ptrdiff_t blocks_avx2(uint32_t tint, const uint8_t *mask, uint32_t *dst, ptrdiff_t n) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi16(128), n257 = _mm256_set1_epi16(257),
                  n255 = _mm256_set1_epi16(255), spread = _mm256_set1_epi32(0x01010101);
    const __m256i tint16 = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)tint), zero);
    ptrdiff_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m8;
        memcpy(&m8, mask + i, 8);
        if (m8 == 0) continue;
        // Each pixel's mask value in all four of its bytes.
        __m256i m = _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)m8)), spread);
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        __m256i slo = KN_MUL(256, tint16, _mm256_unpacklo_epi8(m, zero));
        __m256i shi = KN_MUL(256, tint16, _mm256_unpackhi_epi8(m, zero));
        __m256i dlo = KN_MUL(256, _mm256_unpacklo_epi8(d, zero), _mm256_xor_si256(KN_ALPHAS(256, slo), n255));
        __m256i dhi = KN_MUL(256, _mm256_unpackhi_epi8(d, zero), _mm256_xor_si256(KN_ALPHAS(256, shi), n255));
        _mm256_storeu_si256((__m256i *)(dst + i),
                            _mm256_packus_epi16(_mm256_adds_epu16(slo, dlo), _mm256_adds_epu16(shi, dhi)));
    }
    return i;
}

// A row's last pixels go through the same loop from a copy padded with clear mask
// values (which leave a pixel as it is).
__attribute__((target("avx2")))
static void row_avx2(uint32_t tint, const uint8_t *mask, uint32_t *dst, ptrdiff_t n) {
    ptrdiff_t i = blocks_avx2(tint, mask, dst, n);
    if (i == n) return;
    uint8_t m[8] = {0};
    uint32_t d[8] = {0};
    memcpy(m, mask + i, (size_t)(n - i));
    memcpy(d, dst + i, (size_t)(n - i) * 4);
    blocks_avx2(tint, m, d, 8);
    memcpy(dst + i, d, (size_t)(n - i) * 4);
}

// Sixteen pixels at a time, a row's last ones by masked loads and stores (lanes past
// the end are neither read nor written).
__attribute__((target("avx512bw,avx512vl,avx512f")))
static void row_avx512(uint32_t tint, const uint8_t *mask, uint32_t *dst, ptrdiff_t n) {
    const __m512i zero = _mm512_setzero_si512(), half = _mm512_set1_epi16(128), n257 = _mm512_set1_epi16(257),
                  n255 = _mm512_set1_epi16(255), spread = _mm512_set1_epi32(0x01010101);
    const __m512i tint16 = _mm512_unpacklo_epi8(_mm512_set1_epi32((int)tint), zero);
    for (ptrdiff_t i = 0; i < n; i += 16) {
        __mmask16 lanes = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1);
        __m128i m16 = _mm_maskz_loadu_epi8(lanes, mask + i);
        if (_mm_testz_si128(m16, m16)) continue;
        __m512i m = _mm512_mullo_epi32(_mm512_cvtepu8_epi32(m16), spread);
        __m512i d = _mm512_maskz_loadu_epi32(lanes, dst + i);
        __m512i slo = KN_MUL(512, tint16, _mm512_unpacklo_epi8(m, zero));
        __m512i shi = KN_MUL(512, tint16, _mm512_unpackhi_epi8(m, zero));
        __m512i dlo = KN_MUL(512, _mm512_unpacklo_epi8(d, zero), _mm512_xor_si512(KN_ALPHAS(512, slo), n255));
        __m512i dhi = KN_MUL(512, _mm512_unpackhi_epi8(d, zero), _mm512_xor_si512(KN_ALPHAS(512, shi), n255));
        _mm512_mask_storeu_epi32(dst + i, lanes, _mm512_packus_epi16(_mm512_adds_epu16(slo, dlo), _mm512_adds_epu16(shi, dhi)));
    }
}
#else
int kn_over_tinted_level(void) { return 0; }
#endif

void kn_over_tinted(uint32_t tint, const uint8_t *mask, ptrdiff_t mask_stride, uint32_t *dst, ptrdiff_t dst_stride,
                    ptrdiff_t width, ptrdiff_t height, int level) {
    if (width <= 0 || height <= 0 || !mask || !dst) return;
    int host = kn_over_tinted_level();
    if (level > host) level = host;
    for (ptrdiff_t y = 0; y < height; y++) {
        const uint8_t *m = mask + y * mask_stride;
        uint32_t *d = (uint32_t *)((uint8_t *)dst + y * dst_stride);
#if KN_X86
        // The target's rows were last touched when the background was painted, long gone
        // from the nearest caches: fetch two rows ahead (a card grid's shadows take a
        // quarter less time).
        if (y + 2 < height) {
            const char *ahead = (const char *)dst + (y + 2) * dst_stride;
            for (ptrdiff_t b = 0; b < width * 4; b += 64) _mm_prefetch(ahead + b, _MM_HINT_T0);
        }
        if (level >= 2) { row_avx512(tint, m, d, width); continue; }
        if (level == 1) { row_avx2(tint, m, d, width); continue; }
#endif
        row_portable(tint, m, d, width);
    }
}
