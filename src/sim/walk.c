/* walk.c - the dense, masked walks of life and fade (walk.h). */
#include "walk.h"

#include "collide.h"

#include <stddef.h>

#ifdef SIM_X86_KERNELS
#include <immintrin.h>

/* Alpha is the top byte of a color read as a little-endian 32-bit word. */
_Static_assert(sizeof(sim_rgba) == 4 && offsetof(sim_rgba, a) == 3, "color is RGBA bytes");

/* The members among slots [i, i + 16), i a multiple of 16, cut to [lo, hi). */
static inline __mmask16 chunk_mask(const uint64_t *bits, uint32_t i, uint32_t lo, uint32_t hi)
{
    uint32_t m = (uint32_t)(bits[i >> 6] >> (i & 63u)) & 0xffffu;
    if (i < lo) m &= 0xffffu << (lo - i);
    if (hi - i < 16u) m &= (1u << (hi - i)) - 1u;
    return (__mmask16)m;
}

__attribute__((target("avx512f"))) static void life_avx512(ecs_iter *it, float *life, float dt)
{
    uint32_t lo, hi;
    const uint64_t *bits = ecs_iter_bits(it, &lo, &hi);
    const __m512 step = _mm512_set1_ps(dt), zero = _mm512_setzero_ps();
    for (uint32_t i = lo & ~15u; i < hi; i += 16u) {
        __mmask16 m = chunk_mask(bits, i, lo, hi);
        if (!m) continue;
        __m512 l = _mm512_sub_ps(_mm512_maskz_loadu_ps(m, life + i), step);
        _mm512_mask_storeu_ps(life + i, m, l);
        /* <= as the scalar test: ordered, false for NaN. */
        uint32_t dead = _mm512_mask_cmp_ps_mask(m, l, zero, _CMP_LE_OQ);
        while (dead) {
            uint32_t j = i + (uint32_t)__builtin_ctz(dead);
            dead &= dead - 1u;
            ecs_iter_kill(it, ecs_iter_handle(it, j));
        }
    }
}

__attribute__((target("avx512f"))) static void fade_avx512(const ecs_iter *it, const float *life,
                                                           sim_rgba *color, float k)
{
    uint32_t lo, hi;
    const uint64_t *bits = ecs_iter_bits(it, &lo, &hi);
    const __m512 scale = _mm512_set1_ps(k), zero = _mm512_setzero_ps();
    const __m512 top = _mm512_set1_ps(255.0f);
    const __m512i rgb = _mm512_set1_epi32(0x00ffffff);
    for (uint32_t i = lo & ~15u; i < hi; i += 16u) {
        __mmask16 m = chunk_mask(bits, i, lo, hi);
        if (!m) continue;
        __m512 a = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, life + i), scale);
        /* max gives its second operand for NaN and for two zeros: 0, as the
         * scalar a > 0 ? .. : 0; then min against 255 and truncation. */
        a = _mm512_min_ps(_mm512_max_ps(a, zero), top);
        __m512i alpha = _mm512_slli_epi32(_mm512_cvttps_epi32(a), 24);
        __m512i c = _mm512_maskz_loadu_epi32(m, color + i);
        c = _mm512_or_si512(_mm512_and_si512(c, rgb), alpha);
        _mm512_mask_storeu_epi32(color + i, m, c);
    }
}

sim_walks sim__walks(sim_kernel k)
{
    if (sim_kernel_resolve(k) == SIM_KERNEL_AVX512 && sim_kernel_available(SIM_KERNEL_AVX512))
        return (sim_walks){.life = life_avx512, .fade = fade_avx512};
    return (sim_walks){0};
}

#else

sim_walks sim__walks(sim_kernel k)
{
    (void)k;
    return (sim_walks){0};
}

#endif /* SIM_X86_KERNELS */
