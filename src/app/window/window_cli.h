/* window_cli.h - the options of the window mode (`particles`, `particles run`). */
#ifndef WINDOW_CLI_H
#define WINDOW_CLI_H

#include <stdio.h>

#include "options.h"

/* --draw's values (app_options.draw). */
typedef enum window_draw {
    WINDOW_DRAW_POINTS = 0, /* point sprites: one vertex per particle */
    WINDOW_DRAW_QUADS       /* instanced quads: four vertices per particle */
} window_draw;

/* --timeline's values (app_options.timeline). */
typedef enum window_switch {
    WINDOW_AUTO = 0, /* decided by the window's size */
    WINDOW_OFF,
    WINDOW_ON
} window_switch;

/* The window's options: the command line's values (options.h), the
 * simulation's one each: counts[0] particles in the first wave and every
 * new one, threads[0] at start, ip_on[0], storages[0]. */
typedef app_options window_options;

/* Parses argv (argv[0] is "run", or the program when no mode was given).
 * Returns 0, or 2 after printing one line naming the flag and what is
 * allowed. */
int window_cli_parse(int argc, char **argv, window_options *o);

/* --center against the world the run makes (a snapshot's or recording's
 * size where one is read, not the default's). Returns 0, or 2 after one
 * line naming the flag and the world's range. */
int window_cli_check_center(const char *prog, const window_options *o, sim_params world);

void window_cli_usage(FILE *f);

#endif /* WINDOW_CLI_H */
