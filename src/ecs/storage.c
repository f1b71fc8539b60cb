/* storage.c - where component values live: the three storage kinds.
 *
 * A column or a group member is reached as columns[c] + index *
 * strides[c]: one pointer and a multiply, the same for both, so the
 * systems' loops pay nothing for groups beyond the stride they step by.
 *
 * A sparse component is a paged sparse set rather than a hash map: a
 * lookup is two dependent loads (page, then slot) with no hashing and no
 * probe sequence, insertion and removal never rehash (so the values of
 * other entities stay where they are while a refresh works), and the
 * dense values stay in insertion order, which the refresh makes the same
 * for any worker count. Its memory follows the holders: the values and
 * owners (size + 4 bytes per holder, doubling), a 4 KiB page per stretch
 * of ECS_SPARSE_PAGE indices holding any of them, and one pointer per
 * ECS_SPARSE_PAGE indices of capacity for the page table (8 bytes per
 * 1024 entities, against size bytes per entity for a column). */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

static size_t align_up(size_t v, size_t a) { return (v + a - 1u) / a * a; }

/* Columns and group buffers are aligned to a cache line at least. */
static size_t buffer_align(size_t align) { return align > 64 ? align : 64; }

ecs_status ecs__storage_init(ecs_context *ctx, const ecs_config *cfg, ecs_error *err)
{
    uint32_t n = ctx->component_count, g = cfg->group_count;
    ctx->strides = ecs_alloc((n + 1) * sizeof *ctx->strides, 0);
    ctx->offsets = ecs_alloc((n + 1) * sizeof *ctx->offsets, 0);
    ctx->group_of = ecs_alloc((n + 1) * sizeof *ctx->group_of, 0);
    ctx->sparse = ecs_alloc((n + 1) * sizeof *ctx->sparse, 0);
    ctx->groups = ecs_alloc(((size_t)g + 1) * sizeof *ctx->groups, 0);
    ctx->held_cap = n + g + 1u;
    ctx->held = ecs_alloc(ctx->held_cap * sizeof *ctx->held, 0);
    if (!ctx->strides || !ctx->offsets || !ctx->group_of || !ctx->sparse || !ctx->groups ||
        !ctx->held)
        return ecs__fail(err, ECS_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; k < cfg->sparse.count; k++)
        ctx->sparse_mask |= UINT64_C(1) << cfg->sparse.ids[k];
    for (uint32_t c = 0; c < n; c++) {
        const ecs_component_def *d = &ctx->components[c];
        bool sparse = ctx->sparse_mask >> c & 1;
        ctx->group_of[c] = UINT32_MAX;
        ctx->strides[c] = sparse ? 0 : d->size;
        ctx->sparse[c].size = d->size;
        ctx->sparse[c].align = d->align;
    }
    /* Members in the order listed, each at its alignment; the element
     * padded to the largest, so every element's members stay aligned. */
    ctx->group_count = g;
    for (uint32_t k = 0; k < g; k++) {
        ecs_group *grp = &ctx->groups[k];
        size_t at = 0, align = 1;
        for (uint32_t m = 0; m < cfg->groups[k].components.count; m++) {
            uint32_t c = cfg->groups[k].components.ids[m];
            const ecs_component_def *d = &ctx->components[c];
            at = align_up(at, d->align);
            ctx->offsets[c] = at;
            ctx->group_of[c] = k;
            at += d->size;
            if (d->align > align) align = d->align;
        }
        grp->size = align_up(at, align);
        grp->align = align;
        for (uint32_t m = 0; m < cfg->groups[k].components.count; m++)
            ctx->strides[cfg->groups[k].components.ids[m]] = grp->size;
    }
    return ECS_OK;
}

void ecs__storage_fini(ecs_context *ctx)
{
    for (uint32_t c = 0; ctx->columns && ctx->group_of && c < ctx->component_count; c++)
        if (ctx->group_of[c] == UINT32_MAX) ecs_free(ctx->columns[c]);
    for (uint32_t k = 0; ctx->groups && k < ctx->group_count; k++) ecs_free(ctx->groups[k].data);
    for (uint32_t c = 0; ctx->sparse && c < ctx->component_count; c++) {
        ecs_sparse *sp = &ctx->sparse[c];
        for (uint32_t p = 0; p < sp->page_count; p++) ecs_free(sp->pages[p]);
        ecs_free(sp->pages);
        ecs_free(sp->values);
        ecs_free(sp->owners);
    }
    ecs__release_held(ctx);
    ecs_free(ctx->held);
    ecs_free(ctx->sparse);
    ecs_free(ctx->groups);
    ecs_free(ctx->group_of);
    ecs_free(ctx->offsets);
    ecs_free(ctx->strides);
}

void ecs__drop(ecs_context *ctx, void *buffer)
{
    if (!buffer) return;
    if (ctx->holding) {
        assert(ctx->held_count < ctx->held_cap); /* one per column, group and sparse */
        if (ctx->held_count < ctx->held_cap) {
            ctx->held[ctx->held_count++] = buffer;
            return;
        }
    }
    ecs_free(buffer);
}

void ecs__hold_frees(ecs_context *ctx) { ctx->holding = true; }

void ecs__release_held(ecs_context *ctx)
{
    for (uint32_t k = 0; k < ctx->held_count; k++) ecs_free(ctx->held[k]);
    ctx->held_count = 0;
    ctx->holding = false;
}

/* A buffer of new_n elements with the old one's first old_n; the old one
 * goes to ecs__drop. */
static bool regrow(ecs_context *ctx, unsigned char **p, size_t elem, uint32_t old_n,
                   uint32_t new_n, size_t align)
{
    if (elem && new_n > SIZE_MAX / elem) return false;
    unsigned char *q = ecs_alloc((size_t)new_n * elem, align);
    if (!q) return false;
    if (*p) memcpy(q, *p, (size_t)old_n * elem);
    ecs__drop(ctx, *p);
    *p = q;
    return true;
}

/* Columns, groups (their members' columns moved along) and the sparse
 * page tables. On failure what did grow keeps its contents. */
bool ecs__storage_grow(ecs_context *ctx, uint32_t capacity)
{
    uint32_t old = ctx->capacity;
    for (uint32_t c = 0; c < ctx->component_count; c++) {
        const ecs_component_def *d = &ctx->components[c];
        if (d->size == 0 || (ctx->sparse_mask >> c & 1) || ctx->group_of[c] != UINT32_MAX) continue;
        if (!regrow(ctx, &ctx->columns[c], d->size, old, capacity, buffer_align(d->align)))
            return false;
    }
    for (uint32_t k = 0; k < ctx->group_count; k++) {
        ecs_group *grp = &ctx->groups[k];
        if (!regrow(ctx, &grp->data, grp->size, old, capacity, buffer_align(grp->align)))
            return false;
        /* At once: a later group's failure must leave no member pointing
         * into the buffer this one just dropped. */
        for (uint32_t c = 0; c < ctx->component_count; c++)
            if (ctx->group_of[c] == k) ctx->columns[c] = grp->data + ctx->offsets[c];
    }
    uint32_t pages = (uint32_t)(((uint64_t)capacity + ECS_SPARSE_PAGE - 1u) / ECS_SPARSE_PAGE);
    for (uint32_t c = 0; c < ctx->component_count; c++) {
        ecs_sparse *sp = &ctx->sparse[c];
        if (!(ctx->sparse_mask >> c & 1) || pages <= sp->page_count) continue;
        uint32_t **q = ecs_realloc(sp->pages, sp->page_count * sizeof *q, pages * sizeof *q, 0);
        if (!q) return false;
        sp->pages = q;
        sp->page_count = pages;
    }
    return true;
}

void *ecs__slot(const ecs_context *ctx, uint32_t index, uint32_t component)
{
    if (ctx->sparse_mask >> component & 1) {
        const ecs_sparse *sp = &ctx->sparse[component];
        const uint32_t *page = sp->pages[index / ECS_SPARSE_PAGE];
        uint32_t at = page ? page[index % ECS_SPARSE_PAGE] : 0u;
        return at ? sp->values + (size_t)(at - 1u) * sp->size : NULL;
    }
    return ctx->columns[component] + (size_t)index * ctx->strides[component];
}

bool ecs__sparse_reserve(ecs_context *ctx, ecs_sparse *sp, uint32_t more)
{
    if (more > UINT32_MAX - sp->count) return false;
    uint32_t need = sp->count + more;
    if (need <= sp->cap) return true;
    uint32_t cap = sp->cap ? sp->cap : 16u;
    while (cap < need) cap = cap > UINT32_MAX / 2 ? need : cap * 2u;
    /* Owners first: their old array is never read by a caller, while the
     * old values may be what is being copied in (held until done). */
    uint32_t *owners = ecs_realloc(sp->owners, sp->count * sizeof *owners, cap * sizeof *owners, 0);
    if (!owners) return false;
    sp->owners = owners;
    if (!regrow(ctx, &sp->values, sp->size, sp->count, cap, sp->align)) return false;
    sp->cap = cap;
    return true;
}

bool ecs__sparse_page(ecs_sparse *sp, uint32_t index)
{
    uint32_t p = index / ECS_SPARSE_PAGE;
    assert(p < sp->page_count);
    if (!sp->pages[p]) sp->pages[p] = ecs_alloc(ECS_SPARSE_PAGE * sizeof(uint32_t), 0);
    return sp->pages[p] != NULL;
}

void *ecs__sparse_put(ecs_sparse *sp, uint32_t index)
{
    uint32_t *at = &sp->pages[index / ECS_SPARSE_PAGE][index % ECS_SPARSE_PAGE];
    if (!*at) {
        assert(sp->count < sp->cap);
        sp->owners[sp->count] = index;
        *at = ++sp->count;
    }
    return sp->values + (size_t)(*at - 1u) * sp->size;
}

/* The last value moves into the hole, so the values stay dense. */
void ecs__sparse_drop(ecs_sparse *sp, uint32_t index)
{
    uint32_t *page = sp->pages[index / ECS_SPARSE_PAGE];
    uint32_t at = page ? page[index % ECS_SPARSE_PAGE] : 0u;
    if (!at) return;
    page[index % ECS_SPARSE_PAGE] = 0;
    uint32_t last = --sp->count;
    if (at - 1u == last) return;
    uint32_t moved = sp->owners[last];
    memcpy(sp->values + (size_t)(at - 1u) * sp->size, sp->values + (size_t)last * sp->size,
           sp->size);
    sp->owners[at - 1u] = moved;
    sp->pages[moved / ECS_SPARSE_PAGE][moved % ECS_SPARSE_PAGE] = at;
}

void ecs__sparse_release(ecs_context *ctx, uint32_t index)
{
    uint64_t held = ctx->masks[index] & ctx->sparse_mask;
    for (; held; held &= held - 1u) ecs__sparse_drop(&ctx->sparse[__builtin_ctzll(held)], index);
}
