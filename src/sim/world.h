/* world.h - private: the sim_world struct and the system callbacks. */
#ifndef SIM_WORLD_H
#define SIM_WORLD_H

#include "grid.h"
#include "sim.h"

struct sim_world {
    sim_params p;
    ecs_context *ctx;
    sim_grid grid;         /* owned by spatial_partition, read by collision */
    int grid_failed;       /* set by spatial_partition's finish on OOM */
    uint64_t frame;
    uint32_t contacts;     /* last frame */
};

/* The system table: the thesis's DAG, plus fade -> render unless thesis_dag. */
void sim__system_defs(sim_world *w, bool thesis_dag, ecs_system_def out[SIM_SYSTEM_COUNT]);

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
