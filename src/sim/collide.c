/* collide.c - the collision kernels (scalar, AVX2, AVX-512) and their
 * run-time selection. */
#include "collide.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef SIM_X86_KERNELS
#include <immintrin.h>
#include <pthread.h>
#endif

/* Candidates per block: one slot against at most this many at a time. */
#define BLOCK 64u
/* A vector kernel stores whole vectors of hits: room past the last one. */
#define HIT_SLACK 16u

#define WALK_CAT_(a, b) a##b
#define WALK_CAT(a, b) WALK_CAT_(a, b)

void sim_contact_list_free(sim_contact_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

bool sim_contact_list_grow(sim_contact_list *l, uint32_t more)
{
    if (l->cap - l->n >= more) return true;
    uint64_t need = (uint64_t)l->n + more, cap = l->cap ? l->cap : 1024u;
    while (cap < need) cap *= 2u;
    sim_contact *v = cap <= UINT32_MAX ? realloc(l->v, (size_t)cap * sizeof *v) : NULL;
    if (!v) return false;
    l->v = v;
    l->cap = (uint32_t)cap;
    return true;
}

/* Pairs found and not yet made into contacts: both entities, the axis
 * from a to b and the sum of the radii, as the touching test computed them. */
#define PENDING_MAX 512u
typedef struct sim_pending {
    uint32_t n;
    float dx[PENDING_MAX + HIT_SLACK], dy[PENDING_MAX + HIT_SLACK], rs[PENDING_MAX + HIT_SLACK];
    uint32_t a[PENDING_MAX + HIT_SLACK], b[PENDING_MAX + HIT_SLACK];
} sim_pending;

/* ---- scalar --------------------------------------------------------------- */

/* Branch-free: every candidate is written, the count advances past the
 * touching ones only (touching is a coin flip in crowded cells). */
static inline void tile_scalar(const sim_grid *g, uint32_t i, uint32_t lo, uint32_t hi,
                               sim_pending *p)
{
    float xi = g->x[i], yi = g->y[i], ri = g->r[i];
    uint32_t n = p->n, a = g->entity[i];
    for (uint32_t j = lo; j < hi; j++) {
        float dx = g->x[j] - xi, dy = g->y[j] - yi, rs = ri + g->r[j];
        p->dx[n] = dx;
        p->dy[n] = dy;
        p->rs[n] = rs;
        p->a[n] = a;
        p->b[n] = g->entity[j];
        n += sim_touching(dx, dy, rs);
    }
    p->n = n;
}

/* Makes p's contacts, appends them to out and empties p: grid.h's
 * arithmetic over the whole buffer, then the contacts put together. Each
 * kernel's flush is this, inlined and vectorised for its target. */
static inline __attribute__((always_inline)) bool flush_pending(sim_pending *p,
                                                                sim_contact_list *out)
{
    uint32_t n = p->n;
    assert(n <= PENDING_MAX);
    if (!sim_contact_list_reserve(out, n)) return false;
    float d[PENDING_MAX], px[PENDING_MAX], py[PENDING_MAX];
    sim_contacts_of(n, p->dx, p->dy, p->rs, d, px, py);
    sim_contact *dst = out->v + out->n;
    for (uint32_t k = 0; k < n; k++)
        dst[k] = (sim_contact){p->a[k], p->b[k], d[k], {px[k], py[k]}};
    out->n += n;
    p->n = 0;
    return true;
}

static bool flush_scalar(sim_pending *p, sim_contact_list *out) { return flush_pending(p, out); }

#define WALK_NAME collide_scalar
#define WALK_ATTR
#define WALK_TILE tile_scalar
#define WALK_WIDTH 0u
#define WALK_PAIR(...) ((void)0)
#define WALK_FLUSH flush_scalar
#include "collide_walk.h"

#ifdef SIM_X86_KERNELS

/* ---- AVX2: 8 candidates per compare; the touching lanes are packed by a
 * permutation looked up by the compare's mask. ------------------------------ */

#define AVX2_TARGET __attribute__((target("avx2,popcnt")))

static uint8_t pack8[256][8]; /* mask -> the lanes of its set bits, ascending */
static pthread_once_t pack8_once = PTHREAD_ONCE_INIT;

static void pack8_init(void)
{
    for (uint32_t m = 0; m < 256; m++)
        for (uint32_t lane = 0, k = 0; lane < 8; lane++)
            if (m >> lane & 1u) pack8[m][k++] = (uint8_t)lane;
}

/* Appends the lanes of mask m (ascending) to p: packed by the permutation
 * of m, then stored whole; branch-free (m may be empty). */
AVX2_TARGET static inline void append_avx2(sim_pending *p, uint32_t m, __m256 dx, __m256 dy,
                                           __m256 rs, __m256i a, __m256i b)
{
    uint32_t n = p->n;
    __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)pack8[m]));
    _mm256_storeu_ps(p->dx + n, _mm256_permutevar8x32_ps(dx, perm));
    _mm256_storeu_ps(p->dy + n, _mm256_permutevar8x32_ps(dy, perm));
    _mm256_storeu_ps(p->rs + n, _mm256_permutevar8x32_ps(rs, perm));
    _mm256_storeu_si256((__m256i *)(void *)(p->a + n), a);
    _mm256_storeu_si256((__m256i *)(void *)(p->b + n), _mm256_permutevar8x32_epi32(b, perm));
    p->n = n + (uint32_t)_mm_popcnt_u32(m);
}

/* The touching lanes of live: dx, dy and rs of slot i against the loaded
 * candidates, as sim_touching computes them. */
AVX2_TARGET static inline uint32_t touch_avx2(const sim_grid *g, uint32_t i, __m256 x, __m256 y,
                                              __m256 r, __m256i live, __m256 *dx, __m256 *dy,
                                              __m256 *rs)
{
    *dx = _mm256_sub_ps(x, _mm256_set1_ps(g->x[i]));
    *dy = _mm256_sub_ps(y, _mm256_set1_ps(g->y[i]));
    *rs = _mm256_add_ps(_mm256_set1_ps(g->r[i]), r);
    __m256 d2 = _mm256_add_ps(_mm256_mul_ps(*dx, *dx), _mm256_mul_ps(*dy, *dy));
    __m256 le = _mm256_cmp_ps(d2, _mm256_mul_ps(*rs, *rs), _CMP_LE_OQ);
    return (uint32_t)_mm256_movemask_ps(_mm256_and_ps(le, _mm256_castsi256_ps(live)));
}

AVX2_TARGET static inline void tile_avx2(const sim_grid *g, uint32_t i, uint32_t lo, uint32_t hi,
                                         sim_pending *p)
{
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i a = _mm256_set1_epi32((int)g->entity[i]);
    for (uint32_t j = lo; j < hi; j += 8) {
        __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(hi - j)), lanes);
        __m256 dx, dy, rs;
        uint32_t m = touch_avx2(g, i, _mm256_maskload_ps(g->x + j, live),
                                _mm256_maskload_ps(g->y + j, live),
                                _mm256_maskload_ps(g->r + j, live), live, &dx, &dy, &rs);
        append_avx2(p, m, dx, dy, rs, a,
                    _mm256_maskload_epi32((const int *)(const void *)(g->entity + j), live));
    }
}

/* Lanes [0, nr) from v + rlo, lanes [nr, ...) of mb from v + blo: masked
 * loads zero the other lanes, so an or joins them (masked-off lanes are
 * never read, so the second address may point before the array). */
AVX2_TARGET static inline __m256i load2_avx2(const void *v, uint32_t rlo, uint32_t blo,
                                             uint32_t nr, __m256i mr, __m256i mb)
{
    const int *w = v;
    const int *bsrc = (const int *)(const void *)((uintptr_t)(w + blo) - (uintptr_t)nr * sizeof *w);
    return _mm256_or_si256(_mm256_maskload_epi32(w + rlo, mr), _mm256_maskload_epi32(bsrc, mb));
}

AVX2_TARGET static inline void pair_avx2(const sim_grid *g, uint32_t i, uint32_t rlo, uint32_t nr,
                                         uint32_t blo, uint32_t nb, bool sparse,
                                         sim_pending *prow, sim_pending *pbelow)
{
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i mr = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)nr), lanes);
    __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(nr + nb)), lanes);
    __m256i mb = _mm256_andnot_si256(mr, live);
    __m256 dx, dy, rs;
    uint32_t m = touch_avx2(g, i, _mm256_castsi256_ps(load2_avx2(g->x, rlo, blo, nr, mr, mb)),
                            _mm256_castsi256_ps(load2_avx2(g->y, rlo, blo, nr, mr, mb)),
                            _mm256_castsi256_ps(load2_avx2(g->r, rlo, blo, nr, mr, mb)), live, &dx,
                            &dy, &rs);
    if (sparse) {
        if (!m) return; /* most slots touch nothing: skip the stores */
    }
    __m256i a = _mm256_set1_epi32((int)g->entity[i]);
    __m256i b = load2_avx2(g->entity, rlo, blo, nr, mr, mb);
    uint32_t row_lanes = (1u << nr) - 1u;
    if (prow == pbelow) { /* one list (all rows of a band but its last): one append */
        append_avx2(prow, m, dx, dy, rs, a, b);
        return;
    }
    append_avx2(prow, m & row_lanes, dx, dy, rs, a, b);
    append_avx2(pbelow, m & ~row_lanes, dx, dy, rs, a, b);
}

AVX2_TARGET static bool flush_avx2(sim_pending *p, sim_contact_list *out)
{
    return flush_pending(p, out);
}

#define WALK_NAME collide_avx2_walk
#define WALK_ATTR AVX2_TARGET
#define WALK_TILE tile_avx2
#define WALK_WIDTH 8u
#define WALK_PAIR pair_avx2
#define WALK_FLUSH flush_avx2
#include "collide_walk.h"

static bool collide_avx2(const sim_grid *g, uint32_t from, uint32_t to, sim_contact_list *row,
                         sim_contact_list *below)
{
    pthread_once(&pack8_once, pack8_init);
    return collide_avx2_walk(g, from, to, row, below);
}

/* ---- AVX-512: 16 candidates per compare under a tail mask; the touching
 * lanes are compressed in a register, then stored whole (a compress
 * straight to memory is microcoded and slow on some CPUs). ----------------- */

#define AVX512_TARGET __attribute__((target("avx512f,popcnt")))

/* Appends the lanes of t (ascending) to p: a compress in a register per
 * array, then one whole store; branch-free (t may be empty). */
AVX512_TARGET static inline void append_avx512(sim_pending *p, __mmask16 t, __m512 dx, __m512 dy,
                                               __m512 rs, __m512i a, __m512i b)
{
    uint32_t n = p->n;
    _mm512_storeu_ps(p->dx + n, _mm512_maskz_compress_ps(t, dx));
    _mm512_storeu_ps(p->dy + n, _mm512_maskz_compress_ps(t, dy));
    _mm512_storeu_ps(p->rs + n, _mm512_maskz_compress_ps(t, rs));
    _mm512_storeu_si512((void *)(p->a + n), a);
    _mm512_storeu_si512((void *)(p->b + n), _mm512_maskz_compress_epi32(t, b));
    p->n = n + (uint32_t)_mm_popcnt_u32((uint32_t)t);
}

AVX512_TARGET static inline void tile_avx512(const sim_grid *g, uint32_t i, uint32_t lo,
                                             uint32_t hi, sim_pending *p)
{
    const __m512 xi = _mm512_set1_ps(g->x[i]), yi = _mm512_set1_ps(g->y[i]);
    const __m512 ri = _mm512_set1_ps(g->r[i]);
    const __m512i a = _mm512_set1_epi32((int)g->entity[i]);
    for (uint32_t j = lo; j < hi; j += 16) {
        uint32_t left = hi - j;
        __mmask16 live = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1u);
        __m512 dx = _mm512_sub_ps(_mm512_maskz_loadu_ps(live, g->x + j), xi);
        __m512 dy = _mm512_sub_ps(_mm512_maskz_loadu_ps(live, g->y + j), yi);
        __m512 rs = _mm512_add_ps(ri, _mm512_maskz_loadu_ps(live, g->r + j));
        __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        __mmask16 t = _mm512_mask_cmp_ps_mask(live, d2, _mm512_mul_ps(rs, rs), _CMP_LE_OQ);
        append_avx512(p, t, dx, dy, rs, a, _mm512_maskz_loadu_epi32(live, g->entity + j));
    }
}

/* Lanes [0, nr) from v + rlo, lanes [nr, nr + nb) from v + blo: two masked
 * loads into one vector (masked-off lanes are never read, so the second
 * address may point before the array). */
AVX512_TARGET static inline __m512i load2_avx512(const void *v, uint32_t rlo, uint32_t blo,
                                                 uint32_t nr, __mmask16 mr, __mmask16 mb)
{
    const uint32_t *w = v;
    const void *bsrc = (const void *)((uintptr_t)(w + blo) - (uintptr_t)nr * sizeof *w);
    return _mm512_mask_loadu_epi32(_mm512_maskz_loadu_epi32(mr, w + rlo), mb, bsrc);
}

AVX512_TARGET static inline void pair_avx512(const sim_grid *g, uint32_t i, uint32_t rlo,
                                             uint32_t nr, uint32_t blo, uint32_t nb, bool sparse,
                                             sim_pending *prow, sim_pending *pbelow)
{
    __mmask16 mr = (__mmask16)((1u << nr) - 1u);
    __mmask16 live = (__mmask16)((1u << (nr + nb)) - 1u), mb = (__mmask16)(live & ~mr);
    __m512 dx = _mm512_sub_ps(_mm512_castsi512_ps(load2_avx512(g->x, rlo, blo, nr, mr, mb)),
                              _mm512_set1_ps(g->x[i]));
    __m512 dy = _mm512_sub_ps(_mm512_castsi512_ps(load2_avx512(g->y, rlo, blo, nr, mr, mb)),
                              _mm512_set1_ps(g->y[i]));
    __m512 rs = _mm512_add_ps(_mm512_set1_ps(g->r[i]),
                              _mm512_castsi512_ps(load2_avx512(g->r, rlo, blo, nr, mr, mb)));
    __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    __mmask16 t = _mm512_mask_cmp_ps_mask(live, d2, _mm512_mul_ps(rs, rs), _CMP_LE_OQ);
    if (sparse) {
        if (!t) return; /* most slots touch nothing: skip the stores */
    }
    __m512i a = _mm512_set1_epi32((int)g->entity[i]);
    __m512i b = load2_avx512(g->entity, rlo, blo, nr, mr, mb);
    if (prow == pbelow) { /* one list (all rows of a band but its last): one append */
        append_avx512(prow, t, dx, dy, rs, a, b);
        return;
    }
    append_avx512(prow, (__mmask16)(t & mr), dx, dy, rs, a, b);
    append_avx512(pbelow, (__mmask16)(t & mb), dx, dy, rs, a, b);
}

AVX512_TARGET static bool flush_avx512(sim_pending *p, sim_contact_list *out)
{
    return flush_pending(p, out);
}

#define WALK_NAME collide_avx512
#define WALK_ATTR AVX512_TARGET
#define WALK_TILE tile_avx512
#define WALK_WIDTH 16u
#define WALK_PAIR pair_avx512
#define WALK_FLUSH flush_avx512
#include "collide_walk.h"

#endif /* SIM_X86_KERNELS */

/* ---- selection ------------------------------------------------------------ */

static const char *const kernel_names[SIM_KERNEL_COUNT] = {
    [SIM_KERNEL_AUTO] = "auto",
    [SIM_KERNEL_SCALAR] = "scalar",
    [SIM_KERNEL_AVX2] = "avx2",
    [SIM_KERNEL_AVX512] = "avx512",
};

const char *sim_kernel_name(sim_kernel k) { return k < SIM_KERNEL_COUNT ? kernel_names[k] : "?"; }

bool sim_kernel_available(sim_kernel k)
{
    switch (k) {
    case SIM_KERNEL_AUTO:
    case SIM_KERNEL_SCALAR: return true;
#ifdef SIM_X86_KERNELS
    case SIM_KERNEL_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    case SIM_KERNEL_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt");
#endif
    default: return false;
    }
}

sim_kernel sim_kernel_resolve(sim_kernel k)
{
    if (k != SIM_KERNEL_AUTO) return k;
    if (sim_kernel_available(SIM_KERNEL_AVX512)) return SIM_KERNEL_AVX512;
    if (sim_kernel_available(SIM_KERNEL_AVX2)) return SIM_KERNEL_AVX2;
    return SIM_KERNEL_SCALAR;
}

sim_collide_fn sim__collide_fn(sim_kernel k)
{
    k = sim_kernel_resolve(k);
    if (!sim_kernel_available(k)) return NULL;
    switch (k) {
    case SIM_KERNEL_SCALAR: return collide_scalar;
#ifdef SIM_X86_KERNELS
    case SIM_KERNEL_AVX2: return collide_avx2;
    case SIM_KERNEL_AVX512: return collide_avx512;
#endif
    default: return NULL;
    }
}
