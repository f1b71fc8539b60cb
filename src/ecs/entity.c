/* entity.c - entity slots, handles, and the calls that reach component
 * values (the storage kinds themselves are in storage.c). */
#include "ecs_internal.h"

#include "alloc.h"

#include <assert.h>

#include <stdint.h>
#include <string.h>

static bool grow_array(void *pp, size_t elem, uint32_t old_n, uint32_t new_n, size_t align)
{
    void **p = pp;
    if (elem && new_n > SIZE_MAX / elem) return false;
    void *q = ecs_realloc(*p, (size_t)old_n * elem, (size_t)new_n * elem, align);
    if (!q) return false;
    *p = q;
    return true;
}

/* Grows every per-entity array to capacity slots. On failure the arrays
 * that did grow keep their old contents: the context stays consistent at
 * its old capacity. */
bool ecs__grow(ecs_context *ctx, uint32_t capacity)
{
    uint32_t old = ctx->capacity;
    if (capacity <= old) return true;
    if (!ecs__storage_grow(ctx, capacity) || !grow_array(&ctx->masks, sizeof *ctx->masks, old, capacity, 0) ||
        !grow_array(&ctx->generations, sizeof *ctx->generations, old, capacity, 0) ||
        !grow_array(&ctx->states, sizeof *ctx->states, old, capacity, 0) ||
        !grow_array(&ctx->free_bits, sizeof *ctx->free_bits, (old + 63u) / 64u,
                    (capacity + 63u) / 64u, 0) ||
        !ecs_sset_grow(&ctx->to_match, capacity) || !ecs_sset_grow(&ctx->batch_match, capacity))
        return false;
    /* A list's membership bits cover every index; a class's one list
     * grows once (a follower's own list is made when it leaves). */
    for (uint32_t s = 0; s < ctx->system_count; s++)
        if (ctx->systems[s].leader == s && !ecs_oset_grow(&ctx->systems[s].own, capacity)) return false;
    if (!ecs__queries_grow(ctx, capacity)) return false;
    ctx->capacity = capacity;
    return true;
}

size_t ecs_entity_bytes(const ecs_config *cfg)
{
    const ecs_context *c = NULL; /* for the sizes of its arrays' elements */
    size_t n = sizeof *c->masks + sizeof *c->generations + sizeof *c->states;
    size_t index = sizeof *c->systems[0].own.dense;
    for (uint32_t k = 0; k < cfg->component_count; k++) n += cfg->components[k].size;
    bool shared = false;
    for (uint32_t s = 0; s < cfg->system_count; s++) {
        const ecs_system_def *d = &cfg->systems[s];
        bool alone = d->reads.count + d->writes.count == 0 || d->on_subscribe || d->on_unsubscribe;
        if (alone || !shared) n += index;
        shared = shared || !alone;
        n += d->output_size;
    }
    return n;
}

void ecs__release_index(ecs_context *ctx, uint32_t index)
{
    if (ctx->masks[index] & ctx->sparse_mask) ecs__sparse_release(ctx, index);
    if (ctx->generations[index] == UINT32_MAX) {
        ctx->states[index] = ECS_SLOT_RETIRED;
        return;
    }
    ctx->states[index] = ECS_SLOT_FREE;
    uint32_t word = index >> 6;
    ctx->free_bits[word] |= UINT64_C(1) << (index & 63u);
    ctx->free_count++;
    if (word < ctx->free_lo) ctx->free_lo = word;
}

/* The lowest free index, taken out of the free set (which is not empty). */
static uint32_t take_lowest_free(ecs_context *ctx)
{
    uint32_t w = ctx->free_lo;
    while (ctx->free_bits[w] == 0) w++;
    ctx->free_lo = w;
    uint64_t bits = ctx->free_bits[w];
    ctx->free_bits[w] = bits & (bits - 1u);
    ctx->free_count--;
    return w * 64u + (uint32_t)__builtin_ctzll(bits);
}

ecs_status ecs_create(ecs_context *ctx, ecs_entity *out)
{
    if (!ecs__out_arg(ctx, out, "ecs_create", "out")) return ECS_ERR_MISUSE;
    *out = ECS_NULL_ENTITY;
    ecs_status st = ecs__check_structural(ctx, "ecs_create");
    if (st != ECS_OK) return st;
    uint32_t index;
    if (ctx->free_count) {
        index = take_lowest_free(ctx);
    } else {
        if (ctx->high == ctx->limit) return ECS_ERR_FULL;
        if (ctx->high == ctx->capacity) {
            uint64_t want = (uint64_t)ctx->capacity * 2;
            if (want > ctx->limit) want = ctx->limit;
            if (!ecs__grow(ctx, (uint32_t)want)) return ECS_ERR_NOMEM;
        }
        index = ctx->high++;
        ctx->generations[index] = 0;
    }
    /* Generations count reuses; 0 is the null handle's. A free index is
     * below the last generation (ecs__release_index retires it there). */
    assert(ctx->generations[index] < UINT32_MAX);
    ctx->generations[index]++;
    ctx->states[index] = ECS_SLOT_ALIVE;
    ctx->masks[index] = 0;
    ctx->alive++;
    ecs_sset_add(&ctx->to_match, index);
    *out = (ecs_entity){index, ctx->generations[index]};
    return ECS_OK;
}

ecs_status ecs_kill(ecs_context *ctx, ecs_entity e)
{
    ecs_status st = ecs__check_structural(ctx, "ecs_kill");
    if (st != ECS_OK) return st;
    if (!ecs__alive(ctx, e)) return ECS_ERR_DEAD;
    ctx->states[e.index] = ECS_SLOT_DYING;
    ctx->alive--;
    ctx->kills_pending++;
    ecs_sset_add(&ctx->to_match, e.index); /* the refresh reclaims it: it is dying */
    return ECS_OK;
}

bool ecs_alive(const ecs_context *ctx, ecs_entity e) { return ecs__alive(ctx, e); }

ecs_entity ecs_handle(const ecs_context *ctx, uint32_t index)
{
    if (index >= ctx->high || ctx->states[index] != ECS_SLOT_ALIVE) return ECS_NULL_ENTITY;
    return (ecs_entity){index, ctx->generations[index]};
}

uint32_t ecs_alive_count(const ecs_context *ctx) { return ctx->alive; }
uint32_t ecs_capacity(const ecs_context *ctx) { return ctx->capacity; }

/* A sparse component's slot for the entity, made when it has none (the
 * value copied in may be one of the component's own: held until then). */
static void *sparse_slot(ecs_context *ctx, uint32_t index, uint32_t c)
{
    ecs_sparse *sp = &ctx->sparse[c];
    void *have = ecs__slot(ctx, index, c);
    if (have) return have;
    if (!ecs__sparse_page(sp, index) || !ecs__sparse_reserve(ctx, sp, 1)) return NULL;
    return ecs__sparse_put(sp, index);
}

ecs_status ecs_add(ecs_context *ctx, ecs_entity e, uint32_t component, const void *value)
{
    ecs_status st = ecs__check_structural(ctx, "ecs_add");
    if (st != ECS_OK) return st;
    if (component >= ctx->component_count) return ECS_ERR_UNKNOWN_COMPONENT;
    if (!ecs__alive(ctx, e)) return ECS_ERR_DEAD;
    size_t size = ctx->components[component].size;
    if (size) {
        ecs__hold_frees(ctx);
        void *dst = ctx->sparse_mask >> component & 1 ? sparse_slot(ctx, e.index, component)
                                                      : ecs__slot(ctx, e.index, component);
        if (dst && value) memmove(dst, value, size); /* value may be dst itself */
        else if (dst) memset(dst, 0, size);
        ecs__release_held(ctx);
        if (!dst) return ECS_ERR_NOMEM;
    }
    uint64_t bit = UINT64_C(1) << component;
    if (!(ctx->masks[e.index] & bit)) {
        ctx->masks[e.index] |= bit;
        ecs_sset_add(&ctx->to_match, e.index);
    }
    return ECS_OK;
}

ecs_status ecs_remove(ecs_context *ctx, ecs_entity e, uint32_t component)
{
    ecs_status st = ecs__check_structural(ctx, "ecs_remove");
    if (st != ECS_OK) return st;
    if (component >= ctx->component_count) return ECS_ERR_UNKNOWN_COMPONENT;
    if (!ecs__alive(ctx, e)) return ECS_ERR_DEAD;
    uint64_t bit = UINT64_C(1) << component;
    if (ctx->masks[e.index] & bit) {
        ctx->masks[e.index] &= ~bit;
        ecs_sset_add(&ctx->to_match, e.index);
        if (ctx->sparse_mask & bit) ecs__sparse_drop(&ctx->sparse[component], e.index);
    }
    return ECS_OK;
}

static bool has(const ecs_context *ctx, ecs_entity e, uint32_t component, const char *fn)
{
    return ecs__component_arg(ctx, component, fn) && ecs__alive(ctx, e) &&
           (ctx->masks[e.index] >> component & 1);
}

bool ecs_has(const ecs_context *ctx, ecs_entity e, uint32_t component)
{
    return has(ctx, e, component, "ecs_has");
}

void *ecs_get(ecs_context *ctx, ecs_entity e, uint32_t component)
{
    if (!has(ctx, e, component, "ecs_get") || ctx->components[component].size == 0) return NULL;
    return ecs__slot(ctx, e.index, component);
}

void *ecs_column(ecs_context *ctx, uint32_t component)
{
    return ecs__component_arg(ctx, component, "ecs_column") ? ctx->columns[component] : NULL;
}

size_t ecs_column_stride(const ecs_context *ctx, uint32_t component)
{
    return ecs__component_arg(ctx, component, "ecs_column_stride") ? ctx->strides[component] : 0;
}

const uint32_t *ecs_subscribed(const ecs_context *ctx, uint32_t system, uint32_t *count)
{
    if (!ecs__out_arg(ctx, count, "ecs_subscribed", "count")) return NULL;
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_subscribed");
    *count = sys ? sys->subs->count : 0u;
    return sys ? sys->subs->dense : NULL;
}

bool ecs_is_subscribed(const ecs_context *ctx, uint32_t system, ecs_entity e)
{
    const ecs_sys *sys = ecs__system_arg(ctx, system, "ecs_is_subscribed");
    return sys && ecs__alive(ctx, e) && ecs_oset_contains(sys->subs, e.index);
}
