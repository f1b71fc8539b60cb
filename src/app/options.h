/* options.h - the command line shared by the modes of `particles`.
 *
 * The flags that describe a simulation (--entities, --threads,
 * --inner-parallelism, --storage, --fixed-limit, --seed) mean the same in
 * every mode and are parsed here, once, by app_options_parse, together
 * with the mode's own flags. A mode that runs one simulation at a time
 * (the window) takes one value where the bench takes a list. */
#ifndef APP_OPTIONS_H
#define APP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "args.h"
#include "ecs.h"
#include "sim.h"

#define APP_MAX_LIST 32u /* items in a list flag */
#define APP_MAX_THREADS ECS_MAX_WORKERS /* the most a context accepts */
#define APP_THESIS_FIXED_LIMIT 400000u
/* The Park-Miller generator works modulo 2^31 - 1: seeds above this would
 * repeat smaller ones, so they are refused. */
#define APP_SEED_MAX 2147483646u

/* getopt_long codes of the shared flags; a mode numbers its own flags
 * from APP_OPT_MODE_FIRST. */
enum {
    APP_OPT_ENTITIES = 256,
    APP_OPT_IP,
    APP_OPT_STORAGE,
    APP_OPT_THREADS,
    APP_OPT_SEED,
    APP_OPT_FIXED_LIMIT,
    APP_OPT_KERNEL,
    APP_OPT_WORLD,
    APP_OPT_LOOPS,
    APP_OPT_MODE_FIRST
};

/* The simulation flags as given (or their defaults). Each mode holds one
 * (bench_options.sim, window_options.sim) that app_options_parse fills. */
typedef struct app_sim_options {
    uint32_t counts[APP_MAX_LIST]; /* particle counts, in the order given */
    uint32_t count_n;
    bool ip_on[2]; /* inner parallelism values, in the order given */
    uint32_t ip_n;
    ecs_storage storages[2]; /* in the order given */
    uint32_t storage_n;
    uint32_t threads[APP_MAX_LIST]; /* workers, the caller included, in the order given */
    uint32_t thread_n;
    uint32_t seed;
    uint32_t fixed_limit;
    uint32_t given; /* set by the parser: APP_GIVEN(code) of each shared flag given */
    sim_kernel kernel;          /* --kernel: AUTO unless given; an unavailable
                                   one is refused by the parser */
    sim_kernel loops;           /* --loops: the same, for the element-wise
                                   loops (life, fade, keep_in_bounds) */
    uint32_t world_w, world_h;  /* --world WxH; 0: the thesis's 1440x900 */
} app_sim_options;

#define APP_GIVEN(code) (1u << ((code) - APP_OPT_ENTITIES))

/* The number of online CPUs, at least 1 and at most APP_MAX_THREADS. */
uint32_t app_online_cpus(void);

/* Parses argv (argv[0] is the mode's name) into *sim (which holds the
 * mode's defaults on entry) and, through cli->apply, the mode's options;
 * -h/--help is the mode's business (give it in longopts with the code
 * 'h'; a mode's flag whose code is a letter is also that short flag).
 * Unless 'h' was given, checks the shared values against each other (with
 * fixed storage selected, every count within --fixed-limit). A flag that
 * takes a value may be given once, and its value, when it is the next
 * argument, must not start with '-' (then the value is missing: "--csv
 * --quiet"; "--csv=-x" passes it). Parsing stops at the first argument
 * that is not an option. Returns 0, or 2 after printing one line naming
 * the flag as typed, the value and what is allowed, or the unknown or
 * ambiguous option, the flag missing its value, the unexpected argument. */
int app_options_parse(int argc, char **argv, const app_mode_cli *cli, app_sim_options *sim);

/* The name (without "--") of one shared flag in a given mask, or NULL. */
const char *app_shared_flag_name(uint32_t given);

/* The help text of the shared flags, for a mode's --help: list flags
 * described as lists when list_max > 1. */
void app_options_usage(FILE *f, uint32_t list_max, const app_sim_options *defaults);
/* The paragraph on how numbers are written (app_scan_count), for the
 * notes under a mode's flags. */
void app_options_usage_numbers(FILE *f, uint32_t list_max);

#endif /* APP_OPTIONS_H */
