/* world.h - private: the sim_world struct and the system callbacks. */
#ifndef SIM_WORLD_H
#define SIM_WORLD_H

#include "collide.h"
#include "grid.h"
#include "rng.h"
#include "walk.h"
#include "sim.h"

#include <float.h>

/* The state is the same on every processor only if float expressions are
 * evaluated in float: the build pins it where a target would widen them
 * (CMakeLists.txt). */
#if FLT_EVAL_METHOD != 0
#error "FLT_EVAL_METHOD is not 0: float expressions would be evaluated in a wider type"
#endif

/* Grid rows per band. At least 2, so that the contacts crossing one band
 * border never share a particle with those crossing the next. */
#define SIM_BAND_ROWS 4u

/* The contacts of one band, each list in detection order: inner, both
 * particles in the band's rows; cross, from its last row to the first row
 * of the next band. */
typedef struct sim_band {
    sim_contact_list inner, cross;
} sim_band;

/* One particle as drawn from a generator. */
typedef struct sim__particle {
    sim_vec2 pos, vel;
    float radius, life;
    sim_rgba color;
} sim__particle;

/* The ecs resources of the simulation: the data beside the components
 * that systems share, declared in their definitions (systems.c) so that
 * validation orders every writer against every other user. */
enum {
    SIM_R_GRID,     /* sim_grid: built by spatial_partition, read by collision and the solve */
    SIM_R_CONTACTS, /* sim_band_set: written by collision, read by solve_contacts */
    SIM_R_SPRAYS,   /* sim_spray_queue: owner code only (sim_spray, the step callback) */
    SIM_RESOURCE_COUNT
};

/* The contacts by band of SIM_BAND_ROWS grid rows (the last band may be
 * shorter). */
typedef struct sim_band_set {
    sim_band *bands;
    uint32_t band_count;
} sim_band_set;

/* Sprays drawn by sim_spray (owner thread, between steps), in call order,
 * waiting for the next step's callback to create them. Allocated (zeroed)
 * by the ecs; v by the simulation. */
typedef struct sim_spray_queue {
    sim__particle *v;
    uint32_t count, cap;
} sim_spray_queue;

/* What the systems read besides their components and resources: every
 * system's user data. Set by sim_create, never written while steps run. */
typedef struct sim_setup {
    sim_params p;
    sim_collide_fn collide; /* the collision kernel's */
    sim_walks walks;        /* the element-wise loops' dense walks, if any */
} sim_setup;

struct sim_world {
    sim_setup setup;
    ecs_context *ctx;
    /* Resources (SIM_R_*), reached through the ecs: */
    sim_grid grid;         /* SIM_R_GRID */
    sim_band_set contacts; /* SIM_R_CONTACTS */
    sim_kernel kernel;     /* resolved, never AUTO */
    sim_kernel loops;      /* the element-wise loops' level, resolved */
    uint64_t frame;
    uint32_t contact_total; /* last frame */
    uint32_t particles;    /* what sim_create and every new wave spawn */
    uint32_t fixed_limit;  /* fixed storage's entity limit; 0: dynamic */
    uint32_t wave;
    /* A step ran since the current wave's particles were made, and
     * collision ran in it: what sim_inspect reads of the last step (the
     * grid, the timeline) is theirs. */
    bool stepped, collided;
    sim_rng spray_rng;     /* draws the sprays of SIM_R_SPRAYS */
    uint32_t spray_issued;  /* this step: sprays taken from the queue ... */
    uint32_t spray_created; /* ... and created */
    uint32_t spray_dropped; /* the last step's issued - created */
    char step_error[240];   /* the last step's failure (sim_step_error), or "" */
    struct XXH3_state_s *hash_state; /* sim_hash's and sim_save_state's, reset by every call */
};

/* The system table: the thesis's DAG, plus fade -> render unless thesis_dag;
 * every system's user data is setup. */
void sim__system_defs(sim_setup *setup, bool thesis_dag, ecs_system_def out[SIM_SYSTEM_COUNT]);
/* System `system`'s definition (system < SIM_SYSTEM_COUNT), as the table
 * declares it: what sim_hash_written hashes. */
const ecs_system_def *sim__system_def(uint32_t system);
/* The resource table: owner pointers into w, the spray queue by the ecs. */
void sim__resource_defs(sim_world *w, ecs_resource_def out[SIM_RESOURCE_COUNT]);
/* The entity limit of cfg's fixed storage, by default just enough for its
 * particles; 0 for dynamic storage. */
uint32_t sim__fixed_limit(const sim_config *cfg);
/* The ecs definition of a world of cfg with these tables. */
ecs_config sim__ecs_config(const sim_config *cfg, const ecs_system_def *systems,
                          const ecs_resource_def *resources);

/* Spawning (spawn.c). Creates the world's particle count from the stream
 * of wave `wave` (wave 0: the seed itself), in grid order; on failure msg
 * says why. */
ecs_status sim__spawn_wave(sim_world *w, uint32_t wave, char *msg, size_t size);
/* The scratch bytes per particle spawn_all holds at once besides the
 * world's grid and the ecs (freed before the first step). */
size_t sim__spawn_bytes(void);
/* The generator of sprays: a stream of its own, from the seed. */
sim_rng sim__spray_stream(uint32_t seed);
/* The step callback (user: the world): creates the queued sprays, in
 * call order, before the systems run, and empties the queue. */
void sim__spray_enter(ecs_context *ctx, void *user);

/* One contact of solve_contacts: swap the two velocities, move the two
 * centers apart by the contact's push. */
static inline void sim__solve_contact(sim_vec2 *pos, sim_vec2 *vel, const sim_contact *c)
{
    sim_vec2 va = vel[c->a];
    vel[c->a] = vel[c->b];
    vel[c->b] = va;
    pos[c->a].x -= c->push.x;
    pos[c->a].y -= c->push.y;
    pos[c->b].x += c->push.x;
    pos[c->b].y += c->push.y;
}

/* keep_in_bounds for one particle: a circle crossing a wall is put back
 * against it and its velocity on that axis turned to point inwards. */
static inline void sim__keep_in_bounds(const sim_params *p, sim_vec2 *pos, sim_vec2 *vel, float r)
{
    if (pos->x < r) {
        pos->x = r;
        vel->x = fabsf(vel->x);
    } else if (pos->x > p->world_w - r) {
        pos->x = p->world_w - r;
        vel->x = -fabsf(vel->x);
    }
    if (pos->y < r) {
        pos->y = r;
        vel->y = fabsf(vel->y);
    } else if (pos->y > p->world_h - r) {
        pos->y = p->world_h - r;
        vel->y = -fabsf(vel->y);
    }
}

/* fade's alpha for a particle with life seconds left: life * k clamped to
 * [0, 255] by plain compares (fminf/fmaxf are libm calls here). */
static inline uint8_t sim__fade_alpha(float life, float k)
{
    float a = life * k;
    return (uint8_t)(a > 0.0f ? (a < 255.0f ? a : 255.0f) : 0.0f);
}

#endif /* SIM_WORLD_H */
