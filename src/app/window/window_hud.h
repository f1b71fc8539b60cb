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

/* Where the HUD's panels go this frame, in drawable pixels: the figures
 * top left; the help beside them, or in their place when the drawable is
 * too narrow for both; the lens bottom right, as large as fits below the
 * help and beside the figures (lens_side 0: no room for it). */
typedef struct window_hud_layout {
    float scale;                  /* drawable pixels per window coordinate */
    float x, y, w, h;             /* the figures' panel */
    float help_x, help_y, help_w, help_h;
    bool help_in_place;           /* the help replaces the figures */
    float lens_x, lens_y, lens_side;
    float hint_y;                 /* the "H: help" line, at the window's bottom */
} window_hud_layout;

/* Anchored to the window's corners, not the world's box, so that a world
 * whose shape differs from the window's keeps its panels in the bars. */
window_hud_layout window_hud_layout_of(const gfx_renderer *r, bool help, int px_w, int px_h,
                                       float scale);

/* Queues the HUD's overlay for this frame. */
void window_hud_draw(gfx_renderer *r, const window_hud *h, const window_hud_layout *l);

/* The grid cell under the mouse (thesis figure 16.2). */
typedef struct window_hud_cell_view {
    const sim_grid_layout *grid;
    uint32_t cell;
    uint32_t count;         /* particles whose centre is in it */
    float world_w, world_h;
} window_hud_cell_view;

/* Outlines the cell (and, fainter, the four cells the broadphase tests it
 * against: the next one and the three below), then draws it magnified in
 * the bottom-right corner with the same outlines and a caption. Call it
 * after gfx_draw_particles: it draws the particles again, through a lens. */
void window_hud_cell(gfx_renderer *r, const window_hud_cell_view *v, const window_hud_layout *l);

/* The world rectangle a cell covers; border cells reach out to infinity,
 * since the grid files points outside the world there. */
void window_hud_cell_rect(const sim_grid_layout *g, uint32_t cell, float out[4]);

#endif /* WINDOW_HUD_H */
