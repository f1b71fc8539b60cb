/* written.c - sim_hash_written: a hash of what one system writes, for
 * finding the first system at which two runs differ. */
#include "hash.h"
#include "world.h"

#include <assert.h>
#include <stddef.h>

_Static_assert(sizeof(sim_contact) == 5u * sizeof(uint32_t), "a contact is five 4-byte fields");
_Static_assert(offsetof(sim_instance, color) == 3u * sizeof(float), "an instance is x, y, radius, colour");

/* The grid's slots in order: entity, then x, y and radius. */
static void hash_grid(sim_hasher *h, const sim_grid *g)
{
    sim__hash_u32(h, g->count);
    if (g->count == 0) return;
    sim__hash_words(h, g->entity, g->count);
    sim__hash_words(h, g->x, g->count);
    sim__hash_words(h, g->y, g->count);
    sim__hash_words(h, g->r, g->count);
}

static void hash_list(sim_hasher *h, const sim_contact_list *l)
{
    sim__hash_u32(h, l->n);
    sim__hash_words(h, l->v, (size_t)l->n * 5u);
}

/* Band by band: its inner list, then its cross list. */
static void hash_contacts(sim_hasher *h, const sim_band_set *c)
{
    for (uint32_t b = 0; b < c->band_count; b++) {
        hash_list(h, &c->bands[b].inner);
        hash_list(h, &c->bands[b].cross);
    }
}

uint64_t sim_hash_written(const sim_world *w, uint32_t system)
{
    if (system >= SIM_SYSTEM_COUNT) return 0;
    const ecs_system_def *d = sim__system_def(system);
    ecs_context *ctx = w->ctx;
    sim_hasher h;
    sim__hash_begin(&h, w->hash_state);
    if (d->writes.count) {
        sim_columns col;
        sim__columns(ctx, &col);
        uint32_t cap = ecs_capacity(ctx);
        for (uint32_t i = 0; i < cap; i++) {
            if (ecs_entity_is_null(ecs_handle(ctx, i))) continue;
            sim__hash_u32(&h, i);
            for (uint32_t k = 0; k < d->writes.count; k++) {
                uint32_t c = d->writes.ids[k];
                sim__hash_component(&h, c, col.base[c] + i * col.stride[c]);
            }
        }
    }
    for (uint32_t k = 0; k < d->resource_writes.count; k++) {
        uint32_t r = d->resource_writes.ids[k];
        if (r == SIM_R_GRID) hash_grid(&h, ecs_resource_read(ctx, r));
        else if (r == SIM_R_CONTACTS) hash_contacts(&h, ecs_resource_read(ctx, r));
    }
    if (d->output_size) { /* render's instances: x, y, radius, then the colour */
        assert(d->output_size == sizeof(sim_instance));
        uint32_t batches = ecs_output_batches(ctx, system);
        for (uint32_t b = 0; b < batches; b++) {
            uint32_t count = 0;
            const sim_instance *in = ecs_output(ctx, system, b, &count);
            for (uint32_t i = 0; i < count; i++) {
                sim__hash_words(&h, &in[i], 3u);
                sim__hash_component(&h, SIM_C_COLOR, &in[i].color);
            }
        }
    }
    return sim__hash_end(&h);
}
