/* window_hud.h - the heads-up display: figures, the per-system chart, the
 * help panel and the highlighted grid cell. */
#ifndef WINDOW_HUD_H
#define WINDOW_HUD_H

#include <stdbool.h>
#include <stdint.h>

#include "gfx.h"
#include "sim.h"
#include "window_stats.h"

typedef struct window_hud {
    const window_stats *stats;
    const char *system_names[SIM_SYSTEM_COUNT];
    uint32_t alive, contacts, wave;
    uint64_t frame;
    uint32_t workers, max_workers;
    bool ip_on;
    const char *kernel;     /* the collision kernel's name */
    ecs_storage storage;
    uint32_t fixed_limit;
    bool paused, help, vsync_on;
    gfx_draw draw;
    const char *notice; /* one line for a few seconds, or NULL */
} window_hud;

/* Queues the HUD's overlay for this frame (pixels scaled by `scale`, the
 * drawable's pixels per window coordinate). */
void window_hud_draw(gfx_renderer *r, const window_hud *h, float scale);

/* Outlines cell `cell` of the grid (and, fainter, the four cells the
 * broadphase tests it against: the next one and the three below). */
void window_hud_cell(gfx_renderer *r, const sim_grid_layout *g, uint32_t cell, float world_w,
                     float world_h);

/* The world rectangle a cell covers; border cells reach out to infinity,
 * since the grid files points outside the world there. */
void window_hud_cell_rect(const sim_grid_layout *g, uint32_t cell, float out[4]);

#endif /* WINDOW_HUD_H */
