/* hash.c - sim_hash: XXH3 over the state written as little-endian bytes,
 * the same bytes for the same state on every processor. */
#include "world.h"

#include <assert.h>
#include <string.h>
#include <xxhash.h>

_Static_assert(SIM_COMPONENT_COUNT == 6, "sim_hash writes each component's fields: add the new one");

/* Bytes are gathered here and handed to XXH3 a batch at a time. */
typedef struct hash_buf {
    XXH3_state_t *state;
    size_t n;
    unsigned char b[4096];
} hash_buf;

/* The most one particle adds: its index and every component's fields. */
#define PARTICLE_MAX (4u + 3u * 8u + 4u + 4u + 4u)

static void put_u32(hash_buf *h, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++) h->b[h->n++] = (unsigned char)(v >> (8u * i));
}

static void put_f32(hash_buf *h, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    put_u32(h, bits);
}

static void put_component(hash_buf *h, uint32_t c, const void *v)
{
    switch (c) {
    case SIM_C_POSITION:
    case SIM_C_VELOCITY:
    case SIM_C_ACCELERATION: {
        const sim_vec2 *p = v;
        put_f32(h, p->x);
        put_f32(h, p->y);
        break;
    }
    case SIM_C_COLOR: {
        const sim_rgba *p = v;
        const unsigned char rgba[4] = {p->r, p->g, p->b, p->a};
        memcpy(h->b + h->n, rgba, sizeof rgba);
        h->n += sizeof rgba;
        break;
    }
    case SIM_C_CIRCLE:
    case SIM_C_LIFE:
        put_f32(h, *(const float *)v);
        break;
    default:
        assert(!"a component sim_hash does not know");
    }
}

static void flush(hash_buf *h)
{
    XXH3_64bits_update(h->state, h->b, h->n);
    h->n = 0;
}

uint64_t sim_hash(const sim_world *w)
{
    ecs_context *ctx = w->ctx;
    hash_buf h = {.state = w->hash_state};
    XXH3_64bits_reset(h.state);
    put_u32(&h, (uint32_t)w->frame);
    put_u32(&h, (uint32_t)(w->frame >> 32));
    uint32_t cap = ecs_capacity(ctx);
    for (uint32_t i = 0; i < cap; i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        if (sizeof h.b - h.n < PARTICLE_MAX) flush(&h);
        put_u32(&h, i);
        for (uint32_t c = 0; c < SIM_COMPONENT_COUNT; c++) {
            const void *v = ecs_get(ctx, e, c);
            if (v) put_component(&h, c, v);
        }
    }
    flush(&h);
    return XXH3_64bits_digest(h.state);
}
