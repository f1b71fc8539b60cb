/* world.c - creating the simulation, spawning particles, stepping, hashing. */
#include "rng.h"
#include "world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ecs_component_def components[SIM_COMPONENT_COUNT] = {
    [SIM_C_POSITION] = {"position", sizeof(sim_vec2), _Alignof(sim_vec2)},
    [SIM_C_VELOCITY] = {"velocity", sizeof(sim_vec2), _Alignof(sim_vec2)},
    [SIM_C_ACCELERATION] = {"acceleration", sizeof(sim_vec2), _Alignof(sim_vec2)},
    [SIM_C_COLOR] = {"color", sizeof(sim_rgba), _Alignof(sim_rgba)},
    [SIM_C_CIRCLE] = {"circle", sizeof(float), _Alignof(float)},
    [SIM_C_LIFE] = {"life", sizeof(float), _Alignof(float)},
};

static ecs_status fail(ecs_error *err, ecs_status st, const char *msg)
{
    if (err) {
        err->status = st;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return st;
}

/* One particle as drawn from the generator. */
typedef struct particle {
    sim_vec2 pos, vel;
    float radius, life;
    sim_rgba color;
} particle;

/* Draws one particle in the thesis's order: position, radius, velocity,
 * color, life. */
static particle draw(const sim_params *p, sim_rng *rng)
{
    particle q;
    q.pos.x = sim_rng_range(rng, 0.0f, p->world_w);
    q.pos.y = sim_rng_range(rng, 0.0f, p->world_h);
    q.radius = sim_rng_range(rng, p->radius_min, p->radius_max);
    q.vel.x = sim_rng_range(rng, -p->speed_max, p->speed_max);
    q.vel.y = sim_rng_range(rng, -p->speed_max, p->speed_max);
    q.color.r = sim_rng_byte(rng);
    q.color.g = sim_rng_byte(rng);
    q.color.b = sim_rng_byte(rng);
    q.color.a = 255u;
    q.life = sim_rng_range(rng, p->life_min, p->life_max);
    return q;
}

static ecs_status spawn_one(sim_world *w, const particle *q)
{
    ecs_entity e;
    ecs_status st = ecs_create(w->ctx, &e);
    const void *values[SIM_COMPONENT_COUNT] = {
        [SIM_C_POSITION] = &q->pos,  [SIM_C_VELOCITY] = &q->vel,
        [SIM_C_ACCELERATION] = &w->p.acceleration, [SIM_C_COLOR] = &q->color,
        [SIM_C_CIRCLE] = &q->radius, [SIM_C_LIFE] = &q->life,
    };
    for (uint32_t c = 0; c < SIM_COMPONENT_COUNT && st == ECS_OK; c++)
        st = ecs_add(w->ctx, e, c, values[c]);
    return st;
}

/* Draws every particle in generator order, then creates the entities in
 * grid order (row-major cells, draw order within a cell), so that entity
 * indices follow space: neighbours in the world are neighbours in the
 * component columns, which is what the contact solver and the grid build
 * touch at random otherwise. The particles are the same; only which index
 * holds which differs. */
static ecs_status spawn_all(sim_world *w, uint32_t n, char *msg, size_t size)
{
    size_t m = n ? n : 1u;
    particle *all = malloc(m * sizeof *all);
    float *xy = malloc(m * 2u * sizeof *xy), *radius = malloc(m * sizeof *radius);
    uint32_t *idx = malloc(m * sizeof *idx);
    sim_grid order = {0}; /* freeable even if never or half initialised */
    ecs_status st = ECS_ERR_NOMEM;
    snprintf(msg, size, "out of memory spawning %u particles", (unsigned)n);
    if (all && xy && radius && idx &&
        sim_grid_init(&order, w->p.world_w, w->p.world_h, w->p.radius_max, 1u) == 0) {
        sim_rng rng = sim_rng_seed(w->p.seed);
        for (uint32_t i = 0; i < n; i++) {
            all[i] = draw(&w->p, &rng);
            xy[2u * i] = all[i].pos.x;
            xy[2u * i + 1u] = all[i].pos.y;
            radius[i] = all[i].radius;
            idx[i] = i;
        }
        if (sim_grid_build(&order, xy, radius, idx, n) == 0) st = ECS_OK;
        for (uint32_t k = 0; k < order.count && st == ECS_OK; k++) {
            st = spawn_one(w, &all[order.entity[k]]);
            if (st != ECS_OK)
                snprintf(msg, size, "spawning particle %u of %u: %s", (unsigned)k + 1u,
                         (unsigned)n, ecs_status_name(st));
        }
    }
    sim_grid_free(&order);
    free(all);
    free(xy);
    free(radius);
    free(idx);
    return st;
}

ecs_status sim_create(const sim_config *cfg, sim_world **out, ecs_error *err)
{
    *out = NULL;
    char msg[200];
    if (!sim_params_check(&cfg->params, msg, sizeof msg)) return fail(err, ECS_ERR_INVALID, msg);
    if (cfg->storage == ECS_STORAGE_FIXED && cfg->capacity && cfg->particles > cfg->capacity) {
        snprintf(msg, sizeof msg, "%u particles exceed the fixed entity limit of %u",
                 (unsigned)cfg->particles, (unsigned)cfg->capacity);
        return fail(err, ECS_ERR_FULL, msg);
    }
    sim_world *w = calloc(1, sizeof *w);
    if (!w) return fail(err, ECS_ERR_NOMEM, "out of memory");
    w->p = cfg->params;
    ecs_system_def systems[SIM_SYSTEM_COUNT];
    sim__system_defs(w, cfg->thesis_dag, systems);
    ecs_config ec = ecs_default_config();
    ec.components = components;
    ec.component_count = SIM_COMPONENT_COUNT;
    ec.systems = systems;
    ec.system_count = SIM_SYSTEM_COUNT;
    ec.storage = cfg->storage;
    /* Fixed: the limit, by default just enough. Dynamic: the initial size,
     * by default the ecs's, growing while the particles are spawned. */
    ec.capacity = cfg->capacity;
    if (cfg->storage == ECS_STORAGE_FIXED && !ec.capacity)
        ec.capacity = cfg->particles ? cfg->particles : 1u;
    ec.workers = cfg->workers;
    ec.inner_parallelism_off = cfg->inner_parallelism_off;
    ecs_status st = ecs_context_create(&ec, &w->ctx, err);
    if (st != ECS_OK) {
        sim_destroy(w);
        return st;
    }
    /* One grid part per subtask: spatial_partition splits per worker. */
    if (sim_grid_init(&w->grid, w->p.world_w, w->p.world_h, w->p.radius_max,
                      ecs_worker_count(w->ctx)) != 0) {
        sim_destroy(w);
        return fail(err, ECS_ERR_NOMEM, "out of memory for the grid");
    }
    st = spawn_all(w, cfg->particles, msg, sizeof msg);
    if (st != ECS_OK) {
        sim_destroy(w);
        return fail(err, st, msg);
    }
    ecs_refresh(w->ctx);
    *out = w;
    return ECS_OK;
}

void sim_destroy(sim_world *w)
{
    if (!w) return;
    if (w->ctx) ecs_context_destroy(w->ctx);
    sim_grid_free(&w->grid);
    free(w);
}

ecs_status sim_step(sim_world *w)
{
    w->grid_failed = 0;
    ecs_status st = ecs_step(w->ctx, NULL, NULL);
    w->frame++;
    if (st == ECS_OK && w->grid_failed) st = ECS_ERR_NOMEM;
    return st;
}

uint32_t sim_alive(const sim_world *w) { return ecs_alive_count(w->ctx); }
uint64_t sim_frame(const sim_world *w) { return w->frame; }
uint32_t sim_contacts(const sim_world *w) { return w->contacts; }
const sim_params *sim_get_params(const sim_world *w) { return &w->p; }
ecs_context *sim_ecs(sim_world *w) { return w->ctx; }

static uint64_t fnv1a(uint64_t h, const void *data, size_t size)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < size; i++) h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}

uint64_t sim_hash(const sim_world *w)
{
    ecs_context *ctx = w->ctx;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    uint32_t cap = ecs_capacity(ctx);
    h = fnv1a(h, &w->frame, sizeof w->frame);
    for (uint32_t i = 0; i < cap; i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        h = fnv1a(h, &i, sizeof i);
        for (uint32_t c = 0; c < SIM_COMPONENT_COUNT; c++) {
            const void *v = ecs_get(ctx, e, c);
            if (v) h = fnv1a(h, v, components[c].size);
        }
    }
    return h;
}

uint32_t sim_render_batches(const sim_world *w) { return ecs_output_subtasks(w->ctx, SIM_S_RENDER); }

const sim_instance *sim_render_batch(const sim_world *w, uint32_t batch, uint32_t *count)
{
    return ecs_output(w->ctx, SIM_S_RENDER, batch, count);
}
