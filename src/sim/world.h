/* world.h - private: the sim_world struct and the system callbacks. */
#ifndef SIM_WORLD_H
#define SIM_WORLD_H

#include "claim.h"
#include "collide.h"
#include "grid.h"
#include "rng.h"
#include "walk.h"
#include "sim.h"

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

struct sim_world {
    sim_params p;
    ecs_context *ctx;
    sim_grid grid;         /* owned by spatial_partition, read by collision */
    int grid_failed;       /* set by spatial_partition's finish: 1 OOM, 2 parts out of range */
    sim_kernel kernel;     /* resolved, never AUTO */
    sim_collide_fn collide;
    sim_walks walks;       /* the kernel's dense walks, if any */
    /* Contacts by band of SIM_BAND_ROWS grid rows (the last band may be
     * shorter): written by collision, solved by solve_contacts. */
    sim_band *bands;
    uint32_t band_count;
    /* Collision's bands by subtask, dealt when the grid is built: subtask
     * k owns claims[k] (balanced by particles) and takes its bands from
     * the front; a subtask done with its own takes others' from the back,
     * so no one range gates the barrier. One per possible worker. */
    sim_claim *claims;
    uint32_t claim_count;
    uint64_t frame;
    uint32_t contacts;     /* last frame */
    uint32_t particles;    /* what sim_create and every new wave spawn */
    uint32_t wave;
    /* Sprays: drawn by sim_spray (owner thread, between steps), handed to
     * the ecs by the life system's subtask 0 in the next step. */
    sim_rng spray_rng;
    sim__particle *spray;  /* pending, in call order */
    uint32_t spray_count, spray_cap;
    uint32_t spray_issued;  /* this step: deferred creates recorded ... */
    uint32_t spray_created; /* ... and carried out (counted by their init) */
    uint32_t spray_dropped; /* the last step's issued - created */
    char step_error[240];   /* the last step's failure (sim_step_error), or "" */
};

/* The system table: the thesis's DAG, plus fade -> render unless thesis_dag. */
void sim__system_defs(sim_world *w, bool thesis_dag, ecs_system_def out[SIM_SYSTEM_COUNT]);

/* Spawning (spawn.c). Creates the world's particle count from the stream
 * of wave `wave` (wave 0: the seed itself), in grid order; on failure msg
 * says why. */
ecs_status sim__spawn_wave(sim_world *w, uint32_t wave, char *msg, size_t size);
/* The generator of sprays: a stream of its own, from the seed. */
sim_rng sim__spray_stream(uint32_t seed);
/* Inside the life system's subtask 0: records one deferred create per
 * pending spray particle and empties the queue. */
void sim__spray_issue(sim_world *w, ecs_iter *it);

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

#endif /* SIM_WORLD_H */
