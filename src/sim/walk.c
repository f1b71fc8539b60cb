/* walk.c - the dense, masked walks of life, fade and keep_in_bounds (walk.h). */
#include "walk.h"

#include "collide.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

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

/* The 16 slots of m as the 32 lanes of their x, y pairs: lanes 2k and
 * 2k + 1 of the first half (slots 0-7) in lo, of the second in hi. */
static inline void pair_masks(__mmask16 m, __mmask16 *lo, __mmask16 *hi)
{
    uint32_t b[2] = {m & 0xffu, (uint32_t)m >> 8};
    for (int h = 0; h < 2; h++) { /* spread 8 bits to the even bits, then pair them */
        uint32_t x = b[h];
        x = (x | x << 4) & 0x0f0fu;
        x = (x | x << 2) & 0x3333u;
        x = (x | x << 1) & 0x5555u;
        b[h] = x | x << 1;
    }
    *lo = (__mmask16)b[0];
    *hi = (__mmask16)b[1];
}

/* Each lane's alpha, from its life l, in the top byte of a word. */
__attribute__((target("avx512f"))) static inline __m512i alpha_of(__m512 l, __m512 scale)
{
    const __m512 zero = _mm512_setzero_ps(), top = _mm512_set1_ps(255.0f);
    __m512 a = _mm512_mul_ps(l, scale);
    /* max gives its second operand for NaN and for two zeros: 0, as the
     * scalar a > 0 ? .. : 0; then min against 255 and truncation. */
    a = _mm512_min_ps(_mm512_max_ps(a, zero), top);
    return _mm512_slli_epi32(_mm512_cvttps_epi32(a), 24);
}

/* The color words at w under m, their alpha replaced by alpha's. */
__attribute__((target("avx512f"))) static inline void put_alpha(uint32_t *w, __mmask16 m,
                                                                __m512i alpha)
{
    const __m512i rgb = _mm512_set1_epi32(0x00ffffff);
    __m512i c = _mm512_maskz_loadu_epi32(m, w);
    _mm512_mask_storeu_epi32(w, m, _mm512_or_si512(_mm512_and_si512(c, rgb), alpha));
}

/* cs: the color's stride in words, 1 (a column) or 2 (every other word,
 * as the thesis layout's group of circle and color). For 2, the 16
 * slots' colors are the even lanes of two vectors, slots 0-7 in the
 * first, and each alpha is spread to lanes 2k and 2k + 1 of its half. */
__attribute__((target("avx512f"))) static void fade_avx512(const ecs_iter *it, const float *life,
                                                           sim_rgba *color, size_t cs, float k)
{
    assert(cs == 1u || cs == 2u);
    uint32_t lo, hi;
    const uint64_t *bits = ecs_iter_bits(it, &lo, &hi);
    const __m512 scale = _mm512_set1_ps(k);
    const __m512i first = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
    const __m512i second = _mm512_add_epi32(first, _mm512_set1_epi32(8));
    uint32_t *words = (uint32_t *)(void *)color;
    for (uint32_t i = lo & ~15u; i < hi; i += 16u) {
        __mmask16 m = chunk_mask(bits, i, lo, hi), m0, m1;
        if (!m) continue;
        __m512i alpha = alpha_of(_mm512_maskz_loadu_ps(m, life + i), scale);
        if (cs == 1u) {
            put_alpha(words + i, m, alpha);
            continue;
        }
        pair_masks(m, &m0, &m1);
        m0 &= 0x5555u; /* the colors: even lanes */
        m1 &= 0x5555u;
        uint32_t *w = words + 2u * i;
        if (m0) put_alpha(w, m0, _mm512_permutexvar_epi32(first, alpha));
        if (m1) put_alpha(w + 16, m1, _mm512_permutexvar_epi32(second, alpha));
    }
}

/* Eight slots' positions and velocities, their x, y pairs in one vector
 * each, against r (each slot's radius twice) and the far walls. */
__attribute__((target("avx512f"))) static inline void bounds8(float *p, float *v, __mmask16 m,
                                                              __m512 r, __m512 far)
{
    const __m512i sign = _mm512_set1_epi32((int)0x80000000u);
    __m512 pos = _mm512_maskz_loadu_ps(m, p), vel = _mm512_maskz_loadu_ps(m, v);
    __m512 hi = _mm512_sub_ps(far, r);
    /* < and > as the scalar tests (ordered: false for NaN); the far wall
     * only where the near one did not apply, as the scalar else. */
    __mmask16 below = _mm512_mask_cmp_ps_mask(m, pos, r, _CMP_LT_OQ);
    __mmask16 above = _mm512_mask_cmp_ps_mask(m & ~below, pos, hi, _CMP_GT_OQ);
    __m512i vi = _mm512_castps_si512(vel);
    __m512i abs = _mm512_andnot_si512(sign, vi), neg = _mm512_or_si512(vi, sign);
    pos = _mm512_mask_mov_ps(_mm512_mask_mov_ps(pos, below, r), above, hi);
    vi = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(vi, below, abs), above, neg);
    _mm512_mask_storeu_ps(p, m, pos);
    _mm512_mask_storeu_ps(v, m, _mm512_castsi512_ps(vi));
}

/* rs: the radius's stride in words, 1 (a column) or 2 (the thesis
 * layout's group): for 2, slot k's radius is lane 2k of the vector of
 * its half, and moveldup copies it to lane 2k + 1. */
__attribute__((target("avx512f"))) static void bounds_avx512(const ecs_iter *it, sim_vec2 *pos,
                                                             sim_vec2 *vel, const float *radius,
                                                             size_t rs, float world_w,
                                                             float world_h)
{
    assert(rs == 1u || rs == 2u);
    uint32_t lo, hi;
    const uint64_t *bits = ecs_iter_bits(it, &lo, &hi);
    /* Lane 2k is slot k's x (far wall world_w), lane 2k + 1 its y. */
    const __m512 far = _mm512_set_ps(world_h, world_w, world_h, world_w, world_h, world_w,
                                     world_h, world_w, world_h, world_w, world_h, world_w,
                                     world_h, world_w, world_h, world_w);
    const __m512i first = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
    const __m512i second = _mm512_add_epi32(first, _mm512_set1_epi32(8));
    for (uint32_t i = lo & ~15u; i < hi; i += 16u) {
        __mmask16 m = chunk_mask(bits, i, lo, hi), m0, m1;
        if (!m) continue;
        pair_masks(m, &m0, &m1);
        float *p = &pos[i].x, *v = &vel[i].x;
        __m512 r0, r1;
        if (rs == 1u) {
            __m512 r = _mm512_maskz_loadu_ps(m, radius + i);
            r0 = _mm512_permutexvar_ps(first, r);
            r1 = _mm512_permutexvar_ps(second, r);
        } else {
            const float *r = radius + 2u * i;
            r0 = _mm512_moveldup_ps(_mm512_maskz_loadu_ps(m0 & 0x5555u, r));
            r1 = _mm512_moveldup_ps(_mm512_maskz_loadu_ps(m1 & 0x5555u, r + 16));
        }
        if (m0) bounds8(p, v, m0, r0, far);
        if (m1) bounds8(p + 16, v + 16, m1, r1, far);
    }
}

sim_walks sim__walks(sim_kernel k)
{
    if (sim_kernel_resolve(k) == SIM_KERNEL_AVX512 && sim_kernel_available(SIM_KERNEL_AVX512))
        return (sim_walks){.life = life_avx512, .fade = fade_avx512, .bounds = bounds_avx512};
    return (sim_walks){0};
}

#else

sim_walks sim__walks(sim_kernel k)
{
    (void)k;
    return (sim_walks){0};
}

#endif /* SIM_X86_KERNELS */
