/* params.c - the thesis workload's parameters, their sanity checks, and
 * the ones a running world changes. */
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The largest world side: keeps x / cell exact enough for the grid's 1 %
 * margin and the cell count small. */
#define WORLD_MAX ((float)SIM_WORLD_SIDE_MAX)
#define CELLS_MAX SIM_GRID_CELLS_MAX
/* Bounds on speeds and accelerations: velocities stay far from float
 * overflow for any number of frames a run can take. */
#define MAGNITUDE_MAX 1.0e6f

sim_params sim_default_params(void)
{
    return (sim_params){
        .world_w = 1440.0f,
        .world_h = 900.0f,
        .radius_min = 0.5f,
        .radius_max = 2.5f,
        .speed_max = 3.0f,
        .acceleration = {0.0f, 1.0f},
        .life_min = 5.0f,
        .life_max = 25.0f,
        .dt = 0.04f,
        .alpha_per_life = 10.0f,
        .seed = 0u,
    };
}

sim_config sim_default_config(void)
{
    return (sim_config){
        .params = sim_default_params(),
        .particles = 50000u,
        .storage = ECS_STORAGE_FIXED,
    };
}

/* pi, which ISO C leaves out of math.h. */
#define SIM_PI 3.14159265358979323846

uint32_t sim_max_particles(const sim_params *p)
{
    /* The mean of r^2 for r uniform in [a, b]: (a^2 + ab + b^2) / 3. */
    double a = p->radius_min, b = p->radius_max;
    double circle = SIM_PI * (a * a + a * b + b * b) / 3.0;
    double most = floor(SIM_COVERAGE_MAX * (double)p->world_w * (double)p->world_h / circle);
    if (!(most >= 0.0)) return 0; /* NaN or negative: parameters sim_params_check refuses */
    return most >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)most;
}

bool sim_params_check(const sim_params *p, char *msg, size_t size)
{
    const float values[] = {p->world_w, p->world_h, p->radius_min, p->radius_max, p->speed_max,
                            p->acceleration.x, p->acceleration.y, p->life_min, p->life_max,
                            p->dt, p->alpha_per_life};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        if (!isfinite(values[i])) {
            snprintf(msg, size, "parameters must be finite numbers");
            return false;
        }
    }
    if (!(p->world_w > 0.0f && p->world_h > 0.0f && p->world_w <= WORLD_MAX &&
          p->world_h <= WORLD_MAX)) {
        snprintf(msg, size, "world size %.9gx%.9g: each side must be in (0, %.9g]", (double)p->world_w,
                 (double)p->world_h, (double)WORLD_MAX);
        return false;
    }
    if (!(p->radius_min > 0.0f && p->radius_min <= p->radius_max)) {
        snprintf(msg, size, "radius range [%.9g, %.9g]: need 0 < min <= max", (double)p->radius_min,
                 (double)p->radius_max);
        return false;
    }
    if (!(2.0f * p->radius_max <= fminf(p->world_w, p->world_h))) {
        snprintf(msg, size, "radius max %.9g: the largest circle must fit in the %.9gx%.9g world",
                 (double)p->radius_max, (double)p->world_w, (double)p->world_h);
        return false;
    }
    float cell = sim_grid_cell_size(p->radius_max);
    if ((double)ceilf(p->world_w / cell) * (double)ceilf(p->world_h / cell) > (double)CELLS_MAX) {
        snprintf(msg, size,
                 "a %.9gx%.9g world needs over %u grid cells of %.2f units (radius max %.9g): "
                 "width x height must stay under about %.3g square units",
                 (double)p->world_w, (double)p->world_h, (unsigned)CELLS_MAX, (double)cell,
                 (double)p->radius_max, (double)CELLS_MAX * (double)cell * (double)cell);
        return false;
    }
    if (!(p->speed_max >= 0.0f && p->speed_max <= MAGNITUDE_MAX &&
          fabsf(p->acceleration.x) <= MAGNITUDE_MAX && fabsf(p->acceleration.y) <= MAGNITUDE_MAX)) {
        snprintf(msg, size, "speed %.9g and acceleration (%.9g, %.9g): each must be within [-%.9g, %.9g] "
                 "(speed >= 0)", (double)p->speed_max, (double)p->acceleration.x,
                 (double)p->acceleration.y, (double)MAGNITUDE_MAX, (double)MAGNITUDE_MAX);
        return false;
    }
    if (!(p->life_min > 0.0f && p->life_min <= p->life_max)) {
        snprintf(msg, size, "life range [%.9g, %.9g]: need 0 < min <= max", (double)p->life_min,
                 (double)p->life_max);
        return false;
    }
    if (!(p->dt > 0.0f && p->dt <= 1.0f)) {
        snprintf(msg, size, "time step %.9g must be in (0, 1]", (double)p->dt);
        return false;
    }
    if (!(p->alpha_per_life >= 0.0f)) {
        snprintf(msg, size, "alpha per life %.9g must be >= 0", (double)p->alpha_per_life);
        return false;
    }
    return true;
}

/* ---- a running world's parameters (sim.h, "Changing the workload") ------- */

sim_workload sim_config_workload(const sim_config *cfg)
{
    return (sim_workload){cfg->params, cfg->particles, sim__fixed_limit(cfg)};
}

static sim_workload workload(const sim_world *w)
{
    return (sim_workload){w->setup.p, w->particles, w->fixed_limit};
}

static uint32_t wave_size_max(uint32_t fixed_limit, const sim_params *p)
{
    uint32_t most = sim_max_particles(p);
    if (most > ECS_MAX_ENTITIES) most = ECS_MAX_ENTITIES;
    return fixed_limit && fixed_limit < most ? fixed_limit : most;
}

uint32_t sim_wave_size_max(const sim_world *w, const sim_params *p)
{
    return wave_size_max(w->fixed_limit, p);
}

/* Whether p keeps the values a world is made with; else one line naming
 * the first it changes. */
static bool keeps_fixed(const sim_params *now, const sim_params *p, char *msg, size_t size)
{
    static const char fixed[] = "as the world was made (what changes: acceleration, radius min, "
                                "speed, life, wave size)";
    const struct {
        const char *name;
        float is, was;
    } f[] = {{"world width", p->world_w, now->world_w},
             {"world height", p->world_h, now->world_h},
             {"radius max", p->radius_max, now->radius_max},
             {"time step", p->dt, now->dt},
             {"alpha per life", p->alpha_per_life, now->alpha_per_life}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (f[i].is != f[i].was) {
            snprintf(msg, size, "%s %.9g: stays %.9g, %s", f[i].name, (double)f[i].is,
                     (double)f[i].was, fixed);
            return false;
        }
    }
    if (p->seed != now->seed) {
        snprintf(msg, size, "seed %u: stays %u, %s", (unsigned)p->seed, (unsigned)now->seed, fixed);
        return false;
    }
    return true;
}

bool sim_workload_takes_params(const sim_workload *now, const sim_params *p, char *msg,
                               size_t size)
{
    if (!keeps_fixed(&now->params, p, msg, size) || !sim_params_check(p, msg, size)) return false;
    uint32_t most = wave_size_max(now->fixed_limit, p);
    if (p->radius_min != now->params.radius_min && now->wave_size > most) {
        snprintf(msg, size, "radius min %.9g: the wave of %u particles would be past the %u the "
                 "world holds at these radii", (double)p->radius_min, (unsigned)now->wave_size,
                 (unsigned)most);
        return false;
    }
    return true;
}

bool sim_workload_takes_wave_size(const sim_workload *now, uint32_t particles, char *msg,
                                  size_t size)
{
    const sim_params *p = &now->params;
    uint32_t most = wave_size_max(now->fixed_limit, p);
    if (particles >= 1u && particles <= most) return true;
    char why[120];
    if (most == now->fixed_limit)
        snprintf(why, sizeof why, "the fixed storage's limit");
    else if (most == ECS_MAX_ENTITIES)
        snprintf(why, sizeof why, "the most entities a world holds");
    else
        snprintf(why, sizeof why, "the density rule at radii [%.9g, %.9g] in the %.9gx%.9g world",
                 (double)p->radius_min, (double)p->radius_max, (double)p->world_w,
                 (double)p->world_h);
    snprintf(msg, size, "wave size %u: must be 1 to %u (%s)", (unsigned)particles, (unsigned)most,
             why);
    return false;
}

bool sim_params_settable(const sim_world *w, const sim_params *p, char *msg, size_t size)
{
    sim_workload now = workload(w);
    return sim_workload_takes_params(&now, p, msg, size);
}

ecs_status sim_set_params(sim_world *w, const sim_params *p)
{
    char msg[200];
    if (!sim_params_settable(w, p, msg, sizeof msg)) return ECS_ERR_INVALID;
    sim_vec2 a = p->acceleration, was = w->setup.p.acceleration;
    if (a.x != was.x || a.y != was.y) { /* at once: every live particle's */
        ecs_context *ctx = w->ctx;
        unsigned char *acc = ecs_column(ctx, SIM_C_ACCELERATION);
        size_t stride = ecs_column_stride(ctx, SIM_C_ACCELERATION);
        for (uint32_t i = 0, n = ecs_capacity(ctx); i < n; i++)
            if (!ecs_entity_is_null(ecs_handle(ctx, i)))
                memcpy(acc + (size_t)i * stride, &a, sizeof a);
    }
    w->setup.p = *p;
    return ECS_OK;
}

bool sim_wave_size_settable(const sim_world *w, uint32_t particles, char *msg, size_t size)
{
    sim_workload now = workload(w);
    return sim_workload_takes_wave_size(&now, particles, msg, size);
}

ecs_status sim_set_wave_size(sim_world *w, uint32_t particles)
{
    char msg[200];
    if (!sim_wave_size_settable(w, particles, msg, sizeof msg)) return ECS_ERR_INVALID;
    w->particles = particles;
    return ECS_OK;
}

uint32_t sim_wave_size(const sim_world *w) { return w->particles; }
