/* sim.h - the thesis particle simulation on the ecs module: the one public
 * header of src/sim.
 *
 * Six components (position, velocity, acceleration, color, circle, life)
 * and nine systems wired as the thesis's DAG plus the fade -> render edge:
 *
 *     acceleration -> velocity -> keep_in_bounds -> spatial_partition
 *                  -> collision -> solve_contacts -> render
 *     life -> fade -> render
 *
 * One sim_step is one frame of fixed dt. The state after N frames depends
 * only on the parameters and the seed: never on the worker count, inner
 * parallelism or the storage kind.
 */
#ifndef SIM_H
#define SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Component ids (indices into the ecs context's component table). */
enum sim_component {
    SIM_C_POSITION,     /* sim_vec2 */
    SIM_C_VELOCITY,     /* sim_vec2 */
    SIM_C_ACCELERATION, /* sim_vec2 */
    SIM_C_COLOR,        /* sim_rgba */
    SIM_C_CIRCLE,       /* float radius */
    SIM_C_LIFE,         /* float seconds left */
    SIM_COMPONENT_COUNT
};

/* System ids, in declaration order. */
enum sim_system {
    SIM_S_ACCELERATION,
    SIM_S_VELOCITY,
    SIM_S_KEEP_IN_BOUNDS,
    SIM_S_SPATIAL_PARTITION,
    SIM_S_COLLISION,
    SIM_S_SOLVE_CONTACTS,
    SIM_S_RENDER,
    SIM_S_LIFE,
    SIM_S_FADE,
    SIM_SYSTEM_COUNT
};

typedef struct sim_vec2 {
    float x, y;
} sim_vec2;

typedef struct sim_rgba {
    uint8_t r, g, b, a;
} sim_rgba;

/* What the render system emits per particle, one array per subtask: what
 * the GPU draws (a window) or what a headless run builds and drops. */
typedef struct sim_instance {
    float x, y, radius;
    sim_rgba color; /* alpha already faded */
} sim_instance;

/* The workload. sim_default_params() is the thesis's (workload.md). */
typedef struct sim_params {
    float world_w, world_h;       /* bounds: [0, w] x [0, h] */
    float radius_min, radius_max; /* spawn radius, uniform */
    float speed_max;              /* spawn velocity per axis, uniform in [-s, s] */
    sim_vec2 acceleration;        /* the same for every particle */
    float life_min, life_max;     /* spawn life, uniform */
    float dt;                     /* fixed time step per frame */
    float alpha_per_life;         /* fade: alpha = min(255, life * this) */
    uint32_t seed;                /* Park-Miller seed; 0 behaves as 1 */
} sim_params;

sim_params sim_default_params(void);

/* Checks that parameters describe a runnable world (finite, ordered ranges,
 * the largest circle fits). Returns false and writes one line to msg. */
bool sim_params_check(const sim_params *p, char *msg, size_t msg_size);

typedef struct sim_config {
    sim_params params;
    uint32_t particles;         /* spawned before the first frame */
    ecs_storage storage;        /* fixed: capacity is the limit */
    uint32_t capacity;          /* fixed: the limit (0: particles); dynamic: the
                                   initial size (0: the ecs default, then grows) */
    uint32_t workers;           /* 0: online CPUs */
    bool inner_parallelism_off; /* every system as one subtask */
    bool thesis_dag;            /* declare the thesis's DAG exactly (no fade ->
                                   render): validation must reject it */
} sim_config;

sim_config sim_default_config(void);

typedef struct sim_world sim_world;

/* Builds the ecs context, its systems and the particles. On failure *out is
 * NULL and err says why (ECS_ERR_FULL: more particles than a fixed limit;
 * ECS_ERR_INVALID: bad parameters; a validation status for the DAG). */
ecs_status sim_create(const sim_config *cfg, sim_world **out, ecs_error *err);
void sim_destroy(sim_world *w);

/* One frame: every system along the DAG, then the refresh that removes the
 * particles whose life ran out. */
ecs_status sim_step(sim_world *w);

uint32_t sim_alive(const sim_world *w);
uint64_t sim_frame(const sim_world *w);
/* Contacts the collision system found in the last frame. */
uint32_t sim_contacts(const sim_world *w);
/* FNV-1a over every live particle's components in index order. */
uint64_t sim_hash(const sim_world *w);
const sim_params *sim_get_params(const sim_world *w);

/* The last frame's render output: batches in subtask order. */
uint32_t sim_render_batches(const sim_world *w);
const sim_instance *sim_render_batch(const sim_world *w, uint32_t batch, uint32_t *count);

/* The underlying context, for statistics (ecs_system_stats_get), the DAG
 * (ecs_dot) and inspection. Owned by the world. */
ecs_context *sim_ecs(sim_world *w);

#ifdef __cplusplus
}
#endif
#endif /* SIM_H */
