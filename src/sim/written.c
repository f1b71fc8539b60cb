/* written.c - sim_hash_written: a hash of what one system writes, for
 * finding the first system at which two runs differ. */
#include "hash.h"
#include "world.h"

_Static_assert(sizeof(sim_contact) == 5u * sizeof(uint32_t), "a contact has no padding");

/* The grid's slots in order: entity, then x, y and radius. */
static uint64_t hash_grid(uint64_t h, const sim_grid *g)
{
    size_t n = g->count;
    h = sim__hash(h, &g->count, sizeof g->count);
    if (n == 0) return h;
    h = sim__hash(h, g->entity, n * sizeof *g->entity);
    h = sim__hash(h, g->x, n * sizeof *g->x);
    h = sim__hash(h, g->y, n * sizeof *g->y);
    return sim__hash(h, g->r, n * sizeof *g->r);
}

static uint64_t hash_list(uint64_t h, const sim_contact_list *l)
{
    h = sim__hash(h, &l->n, sizeof l->n);
    return l->n ? sim__hash(h, l->v, l->n * sizeof *l->v) : h;
}

/* Band by band: its inner list, then its cross list. */
static uint64_t hash_contacts(uint64_t h, const sim_band_set *c)
{
    for (uint32_t b = 0; b < c->band_count; b++)
        h = hash_list(hash_list(h, &c->bands[b].inner), &c->bands[b].cross);
    return h;
}

uint64_t sim_hash_written(const sim_world *w, uint32_t system)
{
    if (system >= SIM_SYSTEM_COUNT) return 0;
    const ecs_system_def *d = sim__system_def(system);
    ecs_context *ctx = w->ctx;
    uint64_t h = SIM__HASH_START;
    if (d->writes.count) {
        uint32_t cap = ecs_capacity(ctx);
        for (uint32_t i = 0; i < cap; i++) {
            ecs_entity e = ecs_handle(ctx, i);
            if (ecs_entity_is_null(e)) continue;
            h = sim__hash(h, &i, sizeof i);
            for (uint32_t k = 0; k < d->writes.count; k++) {
                uint32_t c = d->writes.ids[k];
                const void *v = ecs_get(ctx, e, c);
                if (v) h = sim__hash(h, v, sim__component_size(c));
            }
        }
    }
    for (uint32_t k = 0; k < d->resource_writes.count; k++) {
        uint32_t r = d->resource_writes.ids[k];
        if (r == SIM_R_GRID) h = hash_grid(h, ecs_resource_read(ctx, r));
        else if (r == SIM_R_CONTACTS) h = hash_contacts(h, ecs_resource_read(ctx, r));
    }
    if (d->output_size) {
        uint32_t batches = ecs_output_batches(ctx, system);
        for (uint32_t b = 0; b < batches; b++) {
            uint32_t count = 0;
            const void *items = ecs_output(ctx, system, b, &count);
            if (count) h = sim__hash(h, items, (size_t)count * d->output_size);
        }
    }
    return h;
}
