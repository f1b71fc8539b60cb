/* options.h - the command line shared by the modes of `particles`.
 *
 * The flags that describe a simulation (--entities, --threads,
 * --inner-parallelism, --storage, --fixed-limit, --seed) mean the same in
 * every mode and are parsed here, once, by app_options_parse, together
 * with the mode's own flags. A mode that runs one simulation at a time
 * (the window) takes one value where the bench takes a list. */
#ifndef APP_OPTIONS_H
#define APP_OPTIONS_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ecs.h"
#include "sim.h"

#define APP_MAX_LIST 32u /* items in a list flag */
#define APP_MAX_THREADS 256u
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
    APP_OPT_MODE_FIRST
};

/* The simulation flags as given (or their defaults). */
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
    uint32_t world_w, world_h;  /* --world WxH; 0: the thesis's 1440x900 */
} app_sim_options;

#define APP_GIVEN(code) (1u << ((code) - APP_OPT_ENTITIES))

/* What a mode tells the shared parser. */
typedef struct app_mode_cli {
    const char *prog;                /* "particles bench": prefixes every message */
    uint32_t list_max;               /* items allowed in a list flag: 1 for one run,
                                        where "a,b" is refused as not one value */
    const struct option *longopts;   /* the mode's own flags, NULL-terminated */
    /* Applies one of the mode's own flags; false after printing why not. */
    bool (*apply)(int code, const char *arg, void *mode_options);
    void *mode_options;
    /* The other mode, named where a user gives one of its flags here
     * ("--csv is a flag of particles bench"): its name and its own flags,
     * NULL-terminated; NULL for none. */
    const char *other_mode;
    const char *const *other_flags;
} app_mode_cli;

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

/* s[0..len) as plain decimal digits in [lo, hi] and nothing else (no
 * sign, space or suffix), for the parts of sizes like WxH; prints nothing. */
bool app_scan_u32(const char *s, size_t len, uint32_t lo, uint32_t hi, uint32_t *out);

/* What app_scan_count found. */
typedef enum app_count_status {
    APP_COUNT_OK,
    APP_COUNT_FORM,     /* not one of the forms below */
    APP_COUNT_FRACTION, /* a form, but not a whole number: 1.2345k */
    APP_COUNT_RANGE     /* a whole number outside [lo, hi] (or past 64 bits) */
} app_count_status;

/* s[0..len) as a count in [lo, hi], in the forms people type: digits
 * (200000), with single '_' between digits (200_000), a decimal point
 * (1.5k), then either a k/K (10^3), M (10^6) or G (10^9) suffix or a
 * power of ten eN/EN (2e5, 1.5E6), N of one or two digits. The value must
 * be a whole number exactly. No sign, space or comma. Prints nothing. */
app_count_status app_scan_count(const char *s, size_t len, uint32_t lo, uint32_t hi,
                                uint32_t *out);

#define APP_NAME_MAX 64u /* longest name app_edit_distance compares */

/* The edit distance (insert, delete, substitute, swap two neighbours)
 * between a[0..n) and the string b; names longer than APP_NAME_MAX count
 * as wholly different. */
size_t app_edit_distance(const char *a, size_t n, const char *b);
/* Of names[0..n), the nearest to typed[0..len) that is close enough to be
 * a slip of the keyboard (at most 1 edit for names up to 4 letters, 2 up
 * to 8, 3 beyond, and fewer edits than typed has letters); the first of
 * equals; NULL if none is. */
const char *app_nearest(const char *typed, size_t len, const char *const *names, size_t n);
/* Of the options all (NULL-terminated), the one nearest to the unknown
 * "--name" or "--name=value" elem (app_nearest), or NULL. */
const char *app_nearest_option(const struct option *all, const char *elem);

/* Helpers for a mode's own flags; each prints one line on failure:
 * "<prog>: <flag>: '<value>' is not ...". Numbers are read by
 * app_scan_count. */
bool app_parse_u32(const app_mode_cli *cli, const char *flag, const char *arg, uint32_t lo,
                   uint32_t hi, uint32_t *out);
/* One of words[0..n), its index in *out. */
bool app_parse_word(const app_mode_cli *cli, const char *flag, const char *arg,
                    const char *const *words, uint32_t n, uint32_t *out);
bool app_parse_file(const app_mode_cli *cli, const char *flag, const char *arg,
                    const char **out);

/* One line on stderr: "<prog>: <message>". */
void app_verror(const char *prog, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 0)))
#endif
    ;
void app_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The help text of the shared flags, for a mode's --help: list flags
 * described as lists when list_max > 1. */
void app_options_usage(FILE *f, uint32_t list_max, const app_sim_options *defaults);
/* The paragraph on how numbers are written (app_scan_count), for the
 * notes under a mode's flags. */
void app_options_usage_numbers(FILE *f, uint32_t list_max);

#endif /* APP_OPTIONS_H */
