/* window_inspect.h - the inspector: a right click selects the particle
 * under the pointer (sim_pick); a ring marks it and its contacts, and a
 * panel shows what sim_inspect tells of it, step after step, until it
 * dies or a right click on empty space clears it. Each change of the
 * selection is one line on standard output. */
#ifndef WINDOW_INSPECT_H
#define WINDOW_INSPECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gfx.h"
#include "sim.h"
#include "window_hud.h"

/* A right press and release at most this many window pixels apart is a
 * click; farther, a drag (a pan). */
#define WINDOW_INSPECT_CLICK_PX 4.0f
/* A click picks a circle drawn smaller than this within this many
 * window pixels of its centre (sim_pick's reach). */
#define WINDOW_INSPECT_REACH_PX 6.0f

typedef struct window_inspect {
    ecs_entity selected;    /* the null handle: none */
    bool pressed;           /* the right button is down */
    float press_x, press_y; /* where it went down, window coordinates */
} window_inspect;

/* The right button went down or up at window point (x, y); scale:
 * drawable pixels per window coordinate. A click selects the particle
 * under it, or clears the selection on empty space, and says so on out. */
void window_inspect_button(window_inspect *s, sim_world *w, const gfx_renderer *r, bool down,
                           float x, float y, float scale, FILE *out);

/* The panel's rows (WINDOW_INSPECT_ROWS of them, each text in its
 * buffer) and title of one inspection. */
#define WINDOW_INSPECT_ROWS 10u
typedef struct window_inspect_text {
    char title[64];
    char text[WINDOW_INSPECT_ROWS][96];
    window_hud_row rows[WINDOW_INSPECT_ROWS];
} window_inspect_text;
void window_inspect_describe(const sim_inspection *in, window_inspect_text *t);

/* Where the panel goes in a drawable px_w wide (window_hud_side_place):
 * below the settings panel drawn at settings, its rows cut to end above
 * the timeline panel drawn at timeline (each x, y, w, h; w 0: none)
 * where they share columns. h 0 (and *rows 0): no room. */
window_hud_box window_inspect_place(const window_hud_layout *l, bool lens, int px_w,
                                    const float timeline[4], const float settings[4],
                                    uint32_t *rows);

/* Each drawn frame, after the particles, the settings panel and the
 * timeline panel (drawn at settings and timeline): follows the selection
 * by its handle (dropped, with a line on out, once the particle died),
 * rings it and its listed contacts, and queues the panel. */
void window_inspect_draw(window_inspect *s, sim_world *w, gfx_renderer *r,
                         const window_hud_layout *l, bool lens, int px_w,
                         const float timeline[4], const float settings[4], FILE *out);

#endif /* WINDOW_INSPECT_H */
