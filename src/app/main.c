/* main.c - `particles [MODE] [options]`: dispatches to a mode; no mode (or
 * options first) is the window, `run`. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "diff.h"
#include "options.h"
#include "out.h"
#ifdef PARTICLES_WINDOW
#include "window.h"
#include "window_cli.h"
#endif

#ifndef PARTICLES_VERSION
#define PARTICLES_VERSION "unknown"
#endif

typedef struct app_mode {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the mode's name */
    const char *summary;
} app_mode;

static const app_mode MODES[] = {
#ifdef PARTICLES_WINDOW
    {"run", window_main, "(the default) open a window on the simulation, with live controls"},
#endif
    {"bench", bench_main,
     "run the thesis workload headless: tables beside the thesis's\n"
     "           figures, CSV, JSON, a chart"},
    {"diff", diff_main,
     "the first frame (and system) at which two --hashes files differ"},
};

#define MODE_COUNT (sizeof MODES / sizeof MODES[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: particles [MODE] [options]\n\nmodes:\n");
    for (size_t i = 0; i < MODE_COUNT; i++)
        fprintf(f, "  %-8s %s\n", MODES[i].name, MODES[i].summary);
    fprintf(f, "\n  particles MODE --help    the options of one mode\n"
               "  particles --help         this list\n"
               "  particles --version      the version\n");
#ifdef PARTICLES_WINDOW
    fprintf(f, "\nWith no mode, or options first, `particles` is `particles run`:\n\n");
    window_cli_usage(f);
#else
    fprintf(f, "\nThis build has no window mode (built with PARTICLES_WINDOW=OFF).\n");
#endif
}

static const app_mode *find_mode(const char *name)
{
    for (size_t i = 0; i < MODE_COUNT; i++)
        if (strcmp(MODES[i].name, name) == 0) return &MODES[i];
    return NULL;
}

static void print_version(FILE *f) { fprintf(f, "particles %s\n", PARTICLES_VERSION); }

static bool is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0;
}

/* No mode, or options first ("-" alone is not one). */
static bool is_default(int argc, char **argv)
{
    return argc < 2 || (argv[1][0] == '-' && argv[1][1] != '\0');
}

int main(int argc, char **argv)
{
    app_std_fds_guard();
    bool help = argc >= 2 && is_help(argv[1]);
    if (help || (argc >= 2 && strcmp(argv[1], "--version") == 0)) {
        if (argc > 2) {
            fprintf(stderr, "particles: %s takes no argument, got '%s' (try 'particles --help')\n",
                    argv[1], argv[2]);
            return 2;
        }
        return app_print_to_stdout("particles", help ? usage : print_version);
    }
#ifdef PARTICLES_WINDOW
    if (is_default(argc, argv)) return window_main(argc, argv);
#else
    if (is_default(argc, argv) || strcmp(argv[1], "run") == 0) {
        fprintf(stderr, "particles: this build has no window mode (PARTICLES_WINDOW=OFF); "
                        "use 'particles bench' (try 'particles --help')\n");
        return 2;
    }
#endif
    const app_mode *mode = find_mode(argv[1]);
    if (!mode) {
        const char *names[MODE_COUNT];
        for (size_t i = 0; i < MODE_COUNT; i++) names[i] = MODES[i].name;
        const char *near = app_nearest(argv[1], strlen(argv[1]), names, MODE_COUNT);
        if (near)
            fprintf(stderr, "particles: unknown mode '%s': did you mean %s? (try 'particles "
                            "--help')\n", argv[1], near);
        else
            fprintf(stderr, "particles: unknown mode '%s' (try 'particles --help')\n", argv[1]);
        return 2;
    }
    return mode->run(argc - 1, argv + 1);
}
