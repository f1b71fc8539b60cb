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

/* Room for n more bytes in the batch. */
static inline void room(sim_hasher *h, size_t n)
{
    if (sizeof h->b - h->n < n) flush(h);
}

/* v as 4 little-endian bytes at d (one store where the machine is
 * little-endian); the byte after them. */
static inline unsigned char *put_u32(unsigned char *d, uint32_t v)
{
    d[0] = (unsigned char)v;
    d[1] = (unsigned char)(v >> 8);
    d[2] = (unsigned char)(v >> 16);
    d[3] = (unsigned char)(v >> 24);
    return d + 4;
}

static inline unsigned char *put_words(unsigned char *d, const void *v, size_t count)
{
    const unsigned char *p = v;
    for (size_t i = 0; i < count; i++) {
        uint32_t word;
        memcpy(&word, p + 4u * i, sizeof word);
        d = put_u32(d, word);
    }
    return d;
}

/* The most bytes one component's fields take. */
#define COMPONENT_MAX 8u

/* Component c's fields: floats as their bits, the colour as r, g, b, a. */
static inline unsigned char *put_component(unsigned char *d, uint32_t c, const void *v)
{
    switch (c) {
    case SIM_C_POSITION:
    case SIM_C_VELOCITY:
    case SIM_C_ACCELERATION:
        return put_words(d, v, 2u);
    case SIM_C_COLOR: {
        const sim_rgba *p = v;
        return put_u32(d, (uint32_t)p->r | (uint32_t)p->g << 8 | (uint32_t)p->b << 16 |
                              (uint32_t)p->a << 24);
    }
    case SIM_C_CIRCLE:
    case SIM_C_LIFE:
        return put_words(d, v, 1u);
    default:
        assert(!"a component sim_hash does not know");
        return d;
    }
}

void sim__hash_u32(sim_hasher *h, uint32_t v)
{
    room(h, 4u);
    h->n = (size_t)(put_u32(h->b + h->n, v) - h->b);
}

void sim__hash_words(sim_hasher *h, const void *v, size_t count)
{
    const unsigned char *p = v;
    for (size_t i = 0; i < count; i++) {
        room(h, 4u);
        h->n = (size_t)(put_words(h->b + h->n, p + 4u * i, 1u) - h->b);
    }
}

void sim__hash_component(sim_hasher *h, uint32_t c, const void *v)
{
    room(h, COMPONENT_MAX);
    h->n = (size_t)(put_component(h->b + h->n, c, v) - h->b);
}

uint64_t sim__hash_end(sim_hasher *h)
{
    flush(h);
    return XXH3_64bits_digest(h->state);
}

void sim__columns(ecs_context *ctx, sim_columns *out)
{
    for (uint32_t c = 0; c < SIM_COMPONENT_COUNT; c++) {
        out->base[c] = ecs_column(ctx, c);
        out->stride[c] = ecs_column_stride(ctx, c);
    }
}

uint64_t sim_hash(const sim_world *w)
{
    ecs_context *ctx = w->ctx;
    sim_columns col;
    sim__columns(ctx, &col);
    sim_hasher h;
    sim__hash_begin(&h, w->hash_state);
    sim__hash_u32(&h, (uint32_t)w->frame);
    sim__hash_u32(&h, (uint32_t)(w->frame >> 32));
    uint32_t left = ecs_alive_count(ctx);
    for (uint32_t i = 0; left > 0; i++) { /* up to the last live index */
        if (ecs_entity_is_null(ecs_handle(ctx, i))) continue;
        left--;
        room(&h, 4u + SIM_COMPONENT_COUNT * COMPONENT_MAX);
        unsigned char *d = put_u32(h.b + h.n, i);
        for (uint32_t c = 0; c < SIM_COMPONENT_COUNT; c++)
            d = put_component(d, c, col.base[c] + i * col.stride[c]);
        h.n = (size_t)(d - h.b);
    }
    return sim__hash_end(&h);
}
