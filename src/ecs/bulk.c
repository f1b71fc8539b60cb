/* bulk.c - creating and killing many entities in one call: the same state
 * as the one-by-one calls, with the per-call checks done once and the
 * component values copied by runs of consecutive indices. */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>

#include <string.h>

/* Takes the lowest free index and as many of the indices right after it
 * as are free too, up to max; returns the first, the run's length in *len. */
static uint32_t take_free_run(ecs_context *ctx, uint32_t max, uint32_t *len)
{
    uint32_t w = ctx->free_lo;
    while (ctx->free_bits[w] == 0) w++;
    ctx->free_lo = w;
    uint64_t bits = ctx->free_bits[w];
    uint32_t first = w * 64u + (uint32_t)__builtin_ctzll(bits), n = 0;
    /* Whole words at a time: the run of set bits from `first` on. */
    for (uint32_t at = first; n < max;) {
        uint32_t word = at >> 6, bit = at & 63u;
        uint64_t rest = ctx->free_bits[word] >> bit; /* bit 0: index at */
        uint32_t ones = ~rest ? (uint32_t)__builtin_ctzll(~rest) : 64u - bit;
        if (ones > max - n) ones = max - n;
        if (ones == 0) break;
        uint64_t take = (ones == 64u ? ~UINT64_C(0) : (UINT64_C(1) << ones) - 1u) << bit;
        ctx->free_bits[word] &= ~take;
        n += ones;
        at += ones;
        if ((at & 63u) != 0 || at >= ctx->capacity) break; /* the run ended inside the word */
    }
    ctx->free_count -= n;
    *len = n;
    return first;
}

/* Makes [first, first + n) alive with the component set mask and entity
 * k of the call's values at index first + j (k = done + j). */
static void fill_run(ecs_context *ctx, uint32_t first, uint32_t n, uint64_t mask,
                     ecs_ids components, const void *const *values, uint32_t done,
                     ecs_entity *out)
{
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = first + j;
        /* As in ecs_create: a free index is below the last generation. */
        assert(ctx->generations[i] < UINT32_MAX);
        ctx->generations[i]++;
        ctx->states[i] = ECS_SLOT_ALIVE;
        ctx->masks[i] = mask;
        ecs_sset_add(&ctx->to_match, i);
        if (out) out[done + j] = (ecs_entity){i, ctx->generations[i]};
    }
    for (uint32_t k = 0; k < components.count; k++) {
        uint32_t c = components.ids[k];
        size_t size = ctx->components[c].size, stride = ctx->strides[c];
        if (size == 0) continue;
        const unsigned char *src =
            values && values[k] ? (const unsigned char *)values[k] + (size_t)done * size : NULL;
        if (stride != size) { /* a group member or a sparse component: one by one */
            for (uint32_t j = 0; j < n; j++) {
                void *dst = ctx->sparse_mask >> c & 1
                                ? ecs__sparse_put(&ctx->sparse[c], first + j)
                                : ecs__slot(ctx, first + j, c);
                if (src) memcpy(dst, src + (size_t)j * size, size);
                else memset(dst, 0, size);
            }
            continue;
        }
        unsigned char *dst = ctx->columns[c] + (size_t)first * size;
        ecs__prefault(dst, (size_t)n * size);
        if (src) memcpy(dst, src, (size_t)n * size);
        else memset(dst, 0, (size_t)n * size);
    }
}

/* Room for n new holders of each sparse component in mask: their values,
 * and the pages of the indices the call will take (the lowest `reuse`
 * free ones, then [high, high + fresh)), so that filling cannot fail. */
static bool sparse_ready(ecs_context *ctx, uint64_t mask, uint32_t n, uint32_t reuse,
                         uint32_t fresh)
{
    for (uint64_t m = mask & ctx->sparse_mask; m; m &= m - 1u) {
        ecs_sparse *sp = &ctx->sparse[__builtin_ctzll(m)];
        if (!ecs__sparse_reserve(ctx, sp, n)) return false;
        uint32_t seen = 0;
        for (uint32_t w = ctx->free_lo; seen < reuse; w++)
            for (uint64_t bits = ctx->free_bits[w]; bits && seen < reuse; bits &= bits - 1u, seen++)
                if (!ecs__sparse_page(sp, w * 64u + (uint32_t)__builtin_ctzll(bits))) return false;
        for (uint64_t i = ctx->high; i < (uint64_t)ctx->high + fresh; i += ECS_SPARSE_PAGE)
            if (!ecs__sparse_page(sp, (uint32_t)i)) return false;
        if (fresh && !ecs__sparse_page(sp, ctx->high + fresh - 1u)) return false;
    }
    return true;
}

ecs_status ecs_create_bulk(ecs_context *ctx, uint32_t n, ecs_ids components,
                           const void *const *values, ecs_entity *out)
{
    ecs_status st = ecs__check_structural(ctx, "ecs_create_bulk");
    if (st != ECS_OK) return st;
    if (components.count && !components.ids) return ECS_ERR_INVALID;
    uint64_t mask = 0;
    for (uint32_t k = 0; k < components.count; k++) {
        uint32_t c = components.ids[k];
        if (c >= ctx->component_count) return ECS_ERR_UNKNOWN_COMPONENT;
        if (mask >> c & 1) return ECS_ERR_INVALID; /* listed twice */
        mask |= UINT64_C(1) << c;
    }
    if (n == 0) return ECS_OK;
    uint32_t reuse = n < ctx->free_count ? n : ctx->free_count, fresh = n - reuse;
    if (fresh > ctx->limit - ctx->high) return ECS_ERR_FULL;
    /* The values may be the context's own (cloning entities): the buffers
     * growth replaces are freed only once they are copied. */
    ecs__hold_frees(ctx);
    bool ready = true;
    if (ctx->high + fresh > ctx->capacity) {
        uint64_t want = (uint64_t)ctx->capacity * 2;
        if (want < (uint64_t)ctx->high + fresh) want = (uint64_t)ctx->high + fresh;
        if (want > ctx->limit) want = ctx->limit;
        ready = ecs__grow(ctx, (uint32_t)want);
    }
    if (!ready || !sparse_ready(ctx, mask, n, reuse, fresh)) {
        ecs__release_held(ctx);
        return ECS_ERR_NOMEM;
    }
    /* Lowest free indices first, then never-used ones: what n calls of
     * ecs_create would hand out, in the same order. */
    uint32_t done = 0;
    while (done < reuse) {
        uint32_t len, first = take_free_run(ctx, reuse - done, &len);
        fill_run(ctx, first, len, mask, components, values, done, out);
        done += len;
    }
    if (fresh) {
        ecs__prefault(ctx->generations + ctx->high, (size_t)fresh * sizeof *ctx->generations);
        ecs__prefault(ctx->states + ctx->high, (size_t)fresh * sizeof *ctx->states);
        ecs__prefault(ctx->masks + ctx->high, (size_t)fresh * sizeof *ctx->masks);
        memset(ctx->generations + ctx->high, 0, (size_t)fresh * sizeof *ctx->generations);
        fill_run(ctx, ctx->high, fresh, mask, components, values, done, out);
        ctx->high += fresh;
    }
    ecs__release_held(ctx);
    ctx->alive += n;
    return ECS_OK;
}

ecs_status ecs_kill_bulk(ecs_context *ctx, const ecs_entity *entities, uint32_t n)
{
    ecs_status st = ecs__check_structural(ctx, "ecs_kill_bulk");
    if (st != ECS_OK) return st;
    if (n && !entities) return ECS_ERR_INVALID;
    uint32_t dead = 0;
    for (uint32_t k = 0; k < n; k++) {
        ecs_entity e = entities[k];
        if (!ecs__alive(ctx, e)) {
            dead++;
            continue;
        }
        ctx->states[e.index] = ECS_SLOT_DYING;
        ecs_sset_add(&ctx->to_match, e.index);
    }
    ctx->alive -= n - dead;
    ctx->kills_pending += n - dead;
    return dead ? ECS_ERR_DEAD : ECS_OK;
}
