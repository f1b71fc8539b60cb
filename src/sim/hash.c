/* hash.c - sim_hash: XXH3 over the state written as little-endian bytes,
 * the same bytes for the same state on every processor. */
#include "hash.h"
#include "world.h"

#include <assert.h>
#include <string.h>
#include <xxhash.h>

_Static_assert(SIM_COMPONENT_COUNT == 6, "sim_hash writes each component's fields: add the new one");

static void flush(sim_hasher *h)
{
    XXH3_64bits_update(h->state, h->b, h->n);
    h->n = 0;
}

void sim__hash_begin(sim_hasher *h, XXH3_state_t *state)
{
    h->state = state;
    h->n = 0;
    XXH3_64bits_reset(state);
}

void sim__hash_u32(sim_hasher *h, uint32_t v)
{
    if (sizeof h->b - h->n < 4u) flush(h);
    for (unsigned i = 0; i < 4; i++) h->b[h->n++] = (unsigned char)(v >> (8u * i));
}

void sim__hash_words(sim_hasher *h, const void *v, size_t count)
{
    const unsigned char *p = v;
    for (size_t i = 0; i < count; i++) {
        uint32_t word;
        memcpy(&word, p + 4u * i, sizeof word);
        sim__hash_u32(h, word);
    }
}

void sim__hash_component(sim_hasher *h, uint32_t c, const void *v)
{
    switch (c) {
    case SIM_C_POSITION:
    case SIM_C_VELOCITY:
    case SIM_C_ACCELERATION:
        sim__hash_words(h, v, 2u);
        break;
    case SIM_C_COLOR: {
        const sim_rgba *p = v;
        sim__hash_u32(h, (uint32_t)p->r | (uint32_t)p->g << 8 | (uint32_t)p->b << 16 |
                             (uint32_t)p->a << 24);
        break;
    }
    case SIM_C_CIRCLE:
    case SIM_C_LIFE:
        sim__hash_words(h, v, 1u);
        break;
    default:
        assert(!"a component sim_hash does not know");
    }
}

uint64_t sim__hash_end(sim_hasher *h)
{
    flush(h);
    return XXH3_64bits_digest(h->state);
}

uint64_t sim_hash(const sim_world *w)
{
    ecs_context *ctx = w->ctx;
    sim_hasher h;
    sim__hash_begin(&h, w->hash_state);
    sim__hash_u32(&h, (uint32_t)w->frame);
    sim__hash_u32(&h, (uint32_t)(w->frame >> 32));
    uint32_t cap = ecs_capacity(ctx);
    for (uint32_t i = 0; i < cap; i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        sim__hash_u32(&h, i);
        for (uint32_t c = 0; c < SIM_COMPONENT_COUNT; c++) {
            const void *v = ecs_get(ctx, e, c);
            if (v) sim__hash_component(&h, c, v);
        }
    }
    return sim__hash_end(&h);
}
