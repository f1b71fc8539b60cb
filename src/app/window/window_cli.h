/* window_cli.h - the options of the window mode (`particles`, `particles run`). */
#ifndef WINDOW_CLI_H
#define WINDOW_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "trace.h"
#include "window_colors.h"

#define WINDOW_MAX_FRAMES 100000000u

typedef enum window_draw {
    WINDOW_DRAW_POINTS = 0, /* point sprites: one vertex per particle */
    WINDOW_DRAW_QUADS       /* instanced quads: four vertices per particle */
} window_draw;

typedef enum window_switch {
    WINDOW_AUTO = 0, /* decided by the window's size */
    WINDOW_OFF,
    WINDOW_ON
} window_switch;

typedef struct window_options {
    /* The simulation's flags as options.h parsed them, one value each:
     * counts[0] particles in the first wave and every new one, threads[0]
     * workers at start, ip_on[0], storages[0]. */
    app_sim_options sim;
    uint32_t max_threads;   /* the most `+` may reach: max(threads[0], online CPUs) */
    uint32_t frames;        /* 0: until the window is closed */
    const char *screenshot; /* NULL: none at exit */
    bool vsync;
    const char *assets;     /* NULL: next to the executable, then the install prefix */
    window_draw draw;
    uint32_t width, height; /* the window's initial size (--size WxH) */
    const char *trace;      /* --trace: NULL: none */
    app_trace_frames trace_frames; /* --trace-frames */
    window_color color;     /* --color: the initial colouring */
    float zoom;             /* --zoom: the initial zoom, 1 the whole world */
    const char *center_given; /* --center X,Y as given, NULL if not: the view's centre */
    float center_x, center_y;
    window_switch timeline; /* the timeline panel at start (--timeline) */
    const char *timeline_report; /* --timeline-report FILE, or NULL */
    bool help;
} window_options;

/* Parses argv (argv[0] is "run", or the program when no mode was given).
 * Returns 0, or 2 after printing one line naming the flag and what is
 * allowed. */
int window_cli_parse(int argc, char **argv, window_options *o);

void window_cli_usage(FILE *f);

#endif /* WINDOW_CLI_H */
