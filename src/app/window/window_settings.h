/* window_settings.h - the settings panel (P): the workload's values a
 * running world changes (sim.h, "Changing the workload"), a row each.
 * Up and Down pick a row, Left and Right (with Shift, bigger steps) or a
 * click on the row's - or + change it. The panel only proposes: each
 * change is an input (record.h, APP_INPUT_PARAM) that the window applies
 * and records like a spray, so that a replay makes it again. */
#ifndef WINDOW_SETTINGS_H
#define WINDOW_SETTINGS_H

#include <stdbool.h>

#include "gfx.h"
#include "record.h"
#include "sim.h"
#include "window_hud.h"

/* gravity, wave size, radius min, speed, life min, life max. */
#define WINDOW_SETTINGS_ROWS 6u

typedef struct window_settings {
    bool shown;
    unsigned row; /* the one Left and Right change */
    /* Where the panel was last drawn, drawable pixels: what a click hits
     * (w 0: not drawn). */
    float x, y, w, h, row_y, line_h, minus_x, plus_x, button_w;
    unsigned rows_drawn;
} window_settings;

/* What a key or a click did. */
typedef struct window_settings_change {
    bool taken;       /* the panel used the event (no spray, no other key) */
    bool apply;       /* `in` holds a change to apply and record */
    app_input in;
    char notice[192]; /* a line to show ("" none): the new value, or why not */
} window_settings_change;

/* Keys while the panel is shown: arrows with `shift` for bigger steps.
 * `key` is an SDL keycode. */
window_settings_change window_settings_key(window_settings *s, const sim_world *w, int key,
                                           bool shift);
/* A left click at drawable pixel (x, y): taken when it lies on the panel;
 * on a row's - or + that row is picked and changed by one step. */
window_settings_change window_settings_click(window_settings *s, const sim_world *w, float x,
                                             float y);
/* Queues the panel (when shown) at the drawable's right edge, below the
 * help when that is beside the figures. */
void window_settings_draw(window_settings *s, gfx_renderer *r, const sim_world *w,
                          const window_hud_layout *l, int px_w);

#endif /* WINDOW_SETTINGS_H */
