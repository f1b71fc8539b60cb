/* world.c - creating the simulation, stepping, threading. */
#include "world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static const ecs_component_def components[SIM_COMPONENT_COUNT] = {
    [SIM_C_POSITION] = {"position", sizeof(sim_vec2), _Alignof(sim_vec2)},
    [SIM_C_VELOCITY] = {"velocity", sizeof(sim_vec2), _Alignof(sim_vec2)},
    [SIM_C_ACCELERATION] = {"acceleration", sizeof(sim_vec2), _Alignof(sim_vec2)},
    [SIM_C_COLOR] = {"color", sizeof(sim_rgba), _Alignof(sim_rgba)},
    [SIM_C_CIRCLE] = {"circle", sizeof(float), _Alignof(float)},
    [SIM_C_LIFE] = {"life", sizeof(float), _Alignof(float)},
};

/* The thesis layout's one group: what render reads beside the position. */
static const ecs_group_def thesis_groups[] = {
    {"circle+color", ECS_IDS_INIT(SIM_C_CIRCLE, SIM_C_COLOR)},
};

static const char *const layout_names[SIM_LAYOUT_COUNT] = {"soa", "thesis"};

const char *sim_layout_name(sim_layout l) { return l < SIM_LAYOUT_COUNT ? layout_names[l] : "?"; }

static ecs_status fail(ecs_error *err, ecs_status st, const char *msg)
{
    if (err) {
        err->status = st;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return st;
}

uint32_t sim__fixed_limit(const sim_config *cfg)
{
    if (cfg->storage != ECS_STORAGE_FIXED) return 0u;
    return cfg->capacity ? cfg->capacity : cfg->particles ? cfg->particles : 1u;
}

ecs_config sim__ecs_config(const sim_config *cfg, const ecs_system_def *systems,
                          const ecs_resource_def *resources)
{
    ecs_config ec = ecs_default_config();
    ec.components = components;
    ec.component_count = SIM_COMPONENT_COUNT;
    ec.systems = systems;
    ec.system_count = SIM_SYSTEM_COUNT;
    ec.resources = resources;
    ec.resource_count = SIM_RESOURCE_COUNT;
    if (cfg->layout == SIM_LAYOUT_THESIS) {
        ec.groups = thesis_groups;
        ec.group_count = 1;
    }
    ec.storage = cfg->storage;
    /* Dynamic: the initial size, by default the ecs's, growing while the
     * particles are spawned. */
    ec.capacity = cfg->storage == ECS_STORAGE_FIXED ? sim__fixed_limit(cfg) : cfg->capacity;
    ec.workers = cfg->workers;
    ec.max_workers = cfg->max_workers;
    ec.inner_parallelism_off = cfg->inner_parallelism_off;
    ec.split_within_cpus = !cfg->split_every_worker;
    return ec;
}

/* Whether kernel k of this CPU and build can run what; else msg says why. */
static bool kernel_ok(sim_kernel k, const char *what, char *msg, size_t size)
{
    if (k < SIM_KERNEL_COUNT && sim_kernel_available(k)) return true;
    snprintf(msg, size, "%s %s is not available on this CPU", what, sim_kernel_name(k));
    return false;
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
    if ((unsigned)cfg->layout >= SIM_LAYOUT_COUNT) {
        snprintf(msg, sizeof msg, "layout %u is not one of %s, %s", (unsigned)cfg->layout,
                 sim_layout_name(SIM_LAYOUT_SOA), sim_layout_name(SIM_LAYOUT_THESIS));
        return fail(err, ECS_ERR_INVALID, msg);
    }
    if (!kernel_ok(cfg->kernel, "collision kernel", msg, sizeof msg) ||
        !kernel_ok(cfg->loops, "loops kernel", msg, sizeof msg))
        return fail(err, ECS_ERR_INVALID, msg);
    sim_world *w = calloc(1, sizeof *w);
    if (!w) return fail(err, ECS_ERR_NOMEM, "out of memory");
    w->kernel = sim_kernel_resolve(cfg->kernel);
    w->setup.collide = sim__collide_fn(w->kernel);
    w->loops = sim_kernel_resolve(cfg->loops);
    w->setup.walks = sim__walks(w->loops);
    w->setup.p = cfg->params;
    w->particles = cfg->particles;
    w->spray_rng = sim__spray_stream(w->setup.p.seed);
    if (!(w->hash_state = XXH3_createState())) {
        sim_destroy(w);
        return fail(err, ECS_ERR_NOMEM, "out of memory");
    }
    ecs_system_def systems[SIM_SYSTEM_COUNT];
    ecs_resource_def resources[SIM_RESOURCE_COUNT];
    sim__system_defs(&w->setup, cfg->thesis_dag, systems);
    sim__resource_defs(w, resources);
    ecs_config ec = sim__ecs_config(cfg, systems, resources);
    w->fixed_limit = sim__fixed_limit(cfg);
    ecs_status st = ecs_context_create(&ec, &w->ctx, err);
    if (st != ECS_OK) {
        sim_destroy(w);
        return st;
    }
    /* One grid part per subtask: systems split per worker, and
     * sim_set_workers may later ask for up to the most the pool started. */
    uint32_t parts = ecs_max_workers(w->ctx);
    const sim_params *p = &w->setup.p;
    if (sim_grid_init(&w->grid, p->world_w, p->world_h, p->radius_max, parts) != 0 ||
        !(w->contacts.bands = calloc((w->grid.rows + SIM_BAND_ROWS - 1u) / SIM_BAND_ROWS,
                                     sizeof *w->contacts.bands))) {
        sim_destroy(w);
        return fail(err, ECS_ERR_NOMEM, "out of memory for the grid");
    }
    w->contacts.band_count = (w->grid.rows + SIM_BAND_ROWS - 1u) / SIM_BAND_ROWS;
    st = sim__spawn_wave(w, 0u, msg, sizeof msg);
    if (st != ECS_OK) {
        sim_destroy(w);
        return fail(err, st, msg);
    }
    *out = w;
    return ECS_OK;
}

uint64_t sim_memory_needed(const sim_config *cfg)
{
    const sim_params *p = &cfg->params;
    uint64_t n = cfg->particles;
    sim_setup setup = {.p = *p};
    ecs_system_def systems[SIM_SYSTEM_COUNT];
    sim__system_defs(&setup, cfg->thesis_dag, systems);
    ecs_config ec = sim__ecs_config(cfg, systems, NULL);
    uint32_t parts = cfg->max_workers ? cfg->max_workers : cfg->workers ? cfg->workers : ecs_cpu_count();
    float cell = sim_grid_cell_size(p->radius_max);
    uint64_t cells = (uint64_t)ceilf(p->world_w / cell) * (uint64_t)ceilf(p->world_h / cell);
    uint32_t most = sim_max_particles(p);
    double coverage = most ? SIM_COVERAGE_MAX * (double)n / most : SIM_COVERAGE_MAX;
    uint64_t contacts = (uint64_t)(1.9 * coverage * (double)n) * sizeof(sim_contact);
    uint64_t spawn = n * sim__spawn_bytes();
    return n * ecs_entity_bytes(&ec) + sim_grid_bytes(cells, cfg->particles, parts ? parts : 1u) +
           (spawn > contacts ? spawn : contacts);
}

void sim_destroy(sim_world *w)
{
    if (!w) return;
    if (w->ctx) {
        sim_spray_queue *q = ecs_resource(w->ctx, SIM_R_SPRAYS);
        free(q->v);
        ecs_context_destroy(w->ctx);
    }
    sim_grid_free(&w->grid);
    for (uint32_t b = 0; b < w->contacts.band_count; b++) {
        sim_contact_list_free(&w->contacts.bands[b].inner);
        sim_contact_list_free(&w->contacts.bands[b].cross);
    }
    free(w->contacts.bands);
    XXH3_freeState(w->hash_state);
    free(w);
}

/* Why the step failed (sim_step_error), from the ecs's answer: what ran
 * out and, past the density rule, that the world is too dense. Collision
 * fails for its contact lists, spatial_partition for its grid, the step
 * callback (no system) for the sprays fixed storage had no room for. */
static void explain(sim_world *w, ecs_failure f, uint32_t particles, uint64_t contacts)
{
    char *m = w->step_error;
    size_t size = sizeof w->step_error;
    unsigned long long frame = (unsigned long long)w->frame;
    ecs_status st = f.status;
    int n;
    if (st == ECS_ERR_NOMEM && f.system == SIM_S_COLLISION)
        n = snprintf(m, size, "frame %llu: out of memory for the contacts (%llu found, %u particles)",
                     frame, (unsigned long long)contacts, (unsigned)particles);
    else if (st == ECS_ERR_NOMEM && f.system == SIM_S_SPATIAL_PARTITION)
        n = snprintf(m, size, "frame %llu: out of memory for the broadphase grid (%u particles)",
                     frame, (unsigned)particles);
    else if (st == ECS_ERR_NOMEM)
        n = snprintf(m, size, "frame %llu: out of memory (%u particles)", frame, (unsigned)particles);
    else if (st == ECS_ERR_FULL)
        n = snprintf(m, size, "frame %llu: fixed storage full: %u sprayed particles dropped", frame,
                     (unsigned)w->spray_dropped);
    else if (st == ECS_ERR_INVALID && f.system == SIM_S_SPATIAL_PARTITION)
        n = snprintf(m, size, "frame %llu: spatial_partition ran more subtasks than the grid was "
                     "made for", frame);
    else
        n = snprintf(m, size, "frame %llu: %s", frame, ecs_status_name(st));
    const sim_params *p = &w->setup.p;
    uint32_t most = sim_max_particles(p);
    if (st == ECS_ERR_NOMEM && particles > most && n > 0 && (size_t)n < size)
        snprintf(m + n, size - (size_t)n, ": the %gx%g world is too dense for that many particles "
                 "(at most %u)", (double)p->world_w, (double)p->world_h, (unsigned)most);
}

/* Before a step: its tallies cleared; returns the particles it starts with. */
static uint32_t begin_step(sim_world *w)
{
    w->spray_issued = w->spray_created = 0;
    w->step_error[0] = '\0';
    return ecs_alive_count(w->ctx);
}

/* After a step that returned st, f its first failure: the frame count,
 * the sprays and contacts tallied, and why it failed. */
static ecs_status end_step(sim_world *w, ecs_status st, ecs_failure f, uint32_t particles)
{
    w->frame++;
    w->stepped = true;
    w->collided = ecs_system_enabled(w->ctx, SIM_S_COLLISION);
    w->spray_dropped = w->spray_issued - w->spray_created;
    uint64_t contacts = 0;
    const sim_band_set *c = ecs_resource_read(w->ctx, SIM_R_CONTACTS);
    for (uint32_t b = 0; b < c->band_count; b++)
        contacts += c->bands[b].inner.n + c->bands[b].cross.n;
    w->contact_total = contacts > UINT32_MAX ? UINT32_MAX : (uint32_t)contacts;
    if (st != ECS_OK) explain(w, f, particles, contacts);
    return st;
}

ecs_status sim_step(sim_world *w)
{
    uint32_t particles = begin_step(w);
    ecs_status st = ecs_step(w->ctx, sim__spray_enter, w);
    return end_step(w, st, ecs_step_failure(w->ctx), particles);
}

/* Every system runs, as in sim_step, whatever failed before it. */
ecs_status sim_step_watched(sim_world *w, sim_watch_fn watch, void *user)
{
    uint32_t particles = begin_step(w);
    ecs_status first = ECS_OK;
    ecs_failure f = {ECS_OK, ECS_NONE, ECS_NONE};
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        uint32_t system = sim_watch_order(k);
        ecs_status st = ecs_step_systems(w->ctx, (ecs_ids){&system, 1u}, false,
                                         k == 0 ? sim__spray_enter : NULL, w);
        if (st != ECS_OK && first == ECS_OK) {
            first = st;
            f = ecs_step_failure(w->ctx);
        }
        if (watch) watch(w, system, user);
    }
    return end_step(w, first, f, particles);
}

const char *sim_step_error(const sim_world *w) { return w->step_error; }

ecs_status sim_set_workers(sim_world *w, uint32_t workers) { return ecs_set_workers(w->ctx, workers); }
uint32_t sim_workers(const sim_world *w) { return ecs_worker_count(w->ctx); }
uint32_t sim_max_workers(const sim_world *w) { return ecs_max_workers(w->ctx); }
void sim_set_inner_parallelism(sim_world *w, bool on) { ecs_set_inner_parallelism(w->ctx, on); }
bool sim_inner_parallelism(const sim_world *w) { return ecs_inner_parallelism(w->ctx); }

ecs_status sim_enable_system(sim_world *w, uint32_t system, bool on)
{
    if (system >= SIM_SYSTEM_COUNT) return ECS_ERR_INVALID;
    ecs_status st = ecs_system_enable(w->ctx, system, on);
    /* Collision off: no contacts, so solve_contacts pushes nothing rather
     * than replaying the last step's pushes every frame. */
    if (st == ECS_OK && !on && system == SIM_S_COLLISION)
        for (uint32_t b = 0; b < w->contacts.band_count; b++)
            w->contacts.bands[b].inner.n = w->contacts.bands[b].cross.n = 0;
    return st;
}

bool sim_system_enabled(const sim_world *w, uint32_t system)
{
    return system < SIM_SYSTEM_COUNT && ecs_system_enabled(w->ctx, system);
}

sim_grid_layout sim_get_grid_layout(const sim_world *w)
{
    return (sim_grid_layout){w->grid.cell_size, w->grid.cols, w->grid.rows};
}

uint32_t sim_cell_at(const sim_world *w, float x, float y) { return sim_grid_cell(&w->grid, x, y); }

uint32_t sim_alive(const sim_world *w) { return ecs_alive_count(w->ctx); }
sim_kernel sim_get_kernel(const sim_world *w) { return w->kernel; }
uint64_t sim_frame(const sim_world *w) { return w->frame; }
uint32_t sim_contacts(const sim_world *w) { return w->contact_total; }
sim_kernel sim_get_loops(const sim_world *w) { return w->loops; }
const sim_params *sim_get_params(const sim_world *w) { return &w->setup.p; }
ecs_context *sim_ecs(sim_world *w) { return w->ctx; }

uint32_t sim_render_batches(const sim_world *w) { return ecs_system_subtasks(w->ctx, SIM_S_RENDER); }

const sim_instance *sim_render_batch(const sim_world *w, uint32_t batch, uint32_t *count)
{
    return ecs_output(w->ctx, SIM_S_RENDER, batch, count);
}
