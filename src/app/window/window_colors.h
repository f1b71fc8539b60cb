/* window_colors.h - how the window colours its particles: the thesis's
 * colours, or the particles' speed, the worker that ran their render
 * subtask in the last step, or their broadphase grid cell. */
#ifndef WINDOW_COLORS_H
#define WINDOW_COLORS_H

#include <stddef.h>
#include <stdint.h>

#include "gfx.h"
#include "options.h"
#include "sim.h"

typedef enum window_color {
    WINDOW_COLOR_THESIS = 0, /* each particle's own colour, alpha following its life */
    WINDOW_COLOR_SPEED,      /* a ramp from slow (blue) to fast (red) */
    WINDOW_COLOR_WORKER,     /* the worker that ran the render subtask of its batch */
    WINDOW_COLOR_CELL,       /* its grid cell: neighbouring cells differ */
    WINDOW_COLOR_COUNT
} window_color;

/* "thesis", "speed", "worker", "cell": --color's words, in enum order
 * (the table of flags holds them, options.h). */
#define WINDOW_COLOR_NAMES APP_COLOR_NAMES
_Static_assert(WINDOW_COLOR_COUNT == sizeof APP_COLOR_NAMES / sizeof APP_COLOR_NAMES[0],
               "a --color word per colouring");

/* The colours told apart per worker; worker w gets entry w mod this. */
#define WINDOW_WORKER_COLORS 12u
gfx_color window_color_worker(uint32_t worker);
/* speed over full: 0 blue, then cyan, green, yellow, red at full and above. */
gfx_color window_color_speed(float speed, float full);
/* Nine colours by column and row mod 3: a cell's eight neighbours all
 * differ from it. */
gfx_color window_color_cell(uint32_t col, uint32_t row);

/* The recoloured copy of the render output (owned, grown as needed). */
typedef struct window_colors {
    gfx_instance *items;
    size_t cap;
    gfx_batch *batches; /* max_batches of them */
    uint32_t max_batches;
    /* WINDOW_COLOR_WORKER: the worker of each batch of the last call
     * (UINT32_MAX where the timeline did not say), for the HUD's key. */
    uint32_t *worker_of;
    uint32_t worker_batches; /* how many worker_of holds */
} window_colors;

/* Room for max_batches batches; 0, or -1 out of memory. */
int window_colors_init(window_colors *c, uint32_t max_batches);
void window_colors_fini(window_colors *c);

/* The batches to draw in `mode` (thesis: `raw` itself), their count in
 * *out_n. Speed reads the particles' velocities from the ECS (read only,
 * after the step: the same particles the render system saw, less the
 * dead, plus the sprayed); worker reads the last step's timeline. NULL
 * when memory ran out (draw `raw` then). */
const gfx_batch *window_colors_apply(window_colors *c, window_color mode, sim_world *w,
                                     const gfx_batch *raw, uint32_t n, uint32_t *out_n);

/* The workers the last WINDOW_COLOR_WORKER call coloured, each once, in
 * ascending order: up to max of them into out; returns how many. */
uint32_t window_colors_workers(const window_colors *c, uint32_t *out, uint32_t max);

/* One entry of a colouring's key on the HUD: a swatch and its label. */
typedef struct window_color_key {
    gfx_color color;
    char label[16];
} window_color_key;

#define WINDOW_COLOR_KEY_MAX WINDOW_WORKER_COLORS
/* The key of `mode` as the last window_colors_apply drew it, up to
 * WINDOW_COLOR_KEY_MAX entries into out; returns how many: worker, each
 * worker shown (its number); speed, the ramp's ends and middle (world
 * units per second, the last "and more"); none for the others. */
uint32_t window_colors_key(const window_colors *c, window_color mode, const sim_world *w,
                           window_color_key *out);
/* What the labels of `mode`'s key count where they are numbers of a unit
 * (speed: "u/s", world units per second), for the HUD to say before them;
 * NULL where they are not (worker: the lanes' names, w0, w1...). */
const char *window_colors_key_unit(window_color mode);

#endif /* WINDOW_COLORS_H */
