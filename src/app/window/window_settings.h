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
/* The lines below the title: the keys' hint, the rows, what stays fixed
 * when the world is made. */
#define WINDOW_SETTINGS_LINES (WINDOW_SETTINGS_ROWS + 2u)

typedef struct window_settings {
    bool shown;
    unsigned row; /* the one Left and Right change */
    /* Where the panel was last placed, drawable pixels: what a click hits
     * (w 0: not drawn); the rows drawn, from `first`, the first's top at
     * row_y; whether the hint and the fixed line are. */
    float x, y, w, h, pad, row_y, line_h, minus_x, plus_x, button_w;
    unsigned first, rows_drawn;
    bool hint, fixed;
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
/* A left click at drawable pixel (x, y): taken when it lies on the panel
 * as last placed; on a drawn row that row is picked, and on its - or +
 * changed by one step. */
window_settings_change window_settings_click(window_settings *s, const sim_world *w, float x,
                                             float y);
/* Where the panel goes when shown (window_hud_side_place; lens: the G
 * lens is drawn; it ends above the timeline panel drawn at timeline, x,
 * y, w, h, w 0: none) and what it holds there: the title, then as many
 * lines as fit, what stays fixed dropped first, then the keys' hint, then
 * rows, the picked one kept in view. Fills s's geometry (w 0: not shown,
 * or no room). */
void window_settings_place(window_settings *s, const window_hud_layout *l, bool lens, int px_w,
                           const float timeline[4]);
/* Places the panel and queues it. */
void window_settings_draw(window_settings *s, gfx_renderer *r, const sim_world *w,
                          const window_hud_layout *l, bool lens, int px_w,
                          const float timeline[4]);

#endif /* WINDOW_SETTINGS_H */
