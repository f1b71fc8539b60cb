/* options.h - the command line of `particles`: one table of every flag
 * (flags.c), from which follow the parsing of both modes, their --help,
 * the hint for a flag of the other mode, and the window's command line
 * run headless (bench --window-args).
 *
 * A row names a flag, the placeholder of its value, the modes that take
 * it, how its value is read and where it is stored in app_options, and
 * its help. Adding a flag is one row (and a field for its value) plus the
 * code that uses the value. */
#ifndef APP_OPTIONS_H
#define APP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
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
/* The most frames one run traces (B - A + 1): a frame of a run on 16
 * workers takes some hundreds of KB of JSON. */
#define APP_TRACE_MAX_FRAMES 100u
#define APP_TRACE_FIRST_DEFAULT 1u
#define APP_TRACE_LAST_DEFAULT 5u
#define APP_BENCH_MAX_REPEAT 1000u
#define APP_BENCH_MAX_FRAMES 1000000u
#define APP_WINDOW_MAX_FRAMES 100000000u
#define APP_WINDOW_SIZE_MIN 64u /* pixels, each side of --size */
#define APP_WINDOW_SIZE_MAX 16384u
#define APP_ZOOM_MAX 64u /* --zoom is 1..this */
#define APP_RATE_MIN 1u /* --rate, steps per second */
#define APP_RATE_MAX 1000u

/* The modes, as a row's set of them. */
enum { APP_WINDOW = 1u, APP_BENCH = 2u, APP_BOTH = 3u };

/* The frames to trace, 1-based, first..last inclusive. */
typedef struct app_trace_frames {
    uint32_t first, last;
    bool given; /* --trace-frames was given */
} app_trace_frames;

/* The simulation's flags, the same in both modes: a list in the bench
 * (every combination runs), one value in the window. */
typedef struct app_sim_options {
    uint32_t counts[APP_MAX_LIST]; /* particle counts, in the order given */
    uint32_t count_n;
    uint32_t ip_on[2]; /* inner parallelism: 1 on, 0 off, in the order given */
    uint32_t ip_n;
    uint32_t storages[2]; /* ecs_storage values, in the order given */
    uint32_t storage_n;
    uint32_t layouts[2]; /* sim_layout values, in the order given */
    uint32_t layout_n;
    uint32_t threads[APP_MAX_LIST]; /* threads, the caller included, in the order given */
    uint32_t thread_n;
    uint32_t seed;
    uint32_t fixed_limit;
    uint32_t kernel;            /* sim_kernel: AUTO unless given */
    uint32_t loops;             /* sim_kernel of the element-wise loops */
    uint32_t world_w, world_h;  /* --world WxH; 0: the thesis's 1440x900 */
} app_sim_options;

/* Every flag's value, each mode reading those of the flags it takes. */
typedef struct app_options {
    app_sim_options sim;
    uint32_t frames;                /* 0: no limit */
    const char *trace;              /* NULL: no trace */
    const char *hashes;             /* --hashes FILE; NULL: none */
    bool hashes_systems;            /* --hashes-systems: each system's hash too */
    const char *save_state;         /* NULL: not saved */
    const char *load_state;         /* NULL: a fresh world */
    const char *replay;             /* a recording to replay; NULL: none */
    app_trace_frames trace_frames;
    bool help;
    /* the bench's */
    uint32_t repeat;
    uint32_t cpu_probe_ms;          /* each CPU's speed probe; 0: none */
    const char *csv, *json, *chart; /* NULL: not written */
    const char *baseline;           /* an earlier --json; NULL: none */
    const char *compare;            /* a later --json, compared with the baseline */
    bool quiet, print_dag, weak;    /* weak: particles and world grow with the threads */
    bool window_args;               /* the window's command line, run headless */
    bool system_on[SIM_SYSTEM_COUNT]; /* --systems: those that run (all unless given) */
    char left_out[256];             /* window_args: the window's flags as given */
    /* the window's */
    uint32_t threads_max;           /* the most `+` may reach: max(threads, online CPUs) */
    const char *screenshot;         /* NULL: none at exit */
    uint32_t vsync;                 /* 1 on, 0 off */
    uint32_t trails;                /* 1 on, 0 off */
    const char *assets;             /* NULL: next to the executable, then the prefix */
    uint32_t draw;                  /* window_draw */
    uint32_t width, height;         /* the window's initial size */
    uint32_t rate;                  /* steps per second (window_rate.h); 0: max */
    uint32_t color;                 /* window_color: the initial colouring */
    float zoom;                     /* the initial zoom, 1 the whole world */
    const char *center_given;       /* --center X,Y as given, NULL if not */
    float center_x, center_y;
    uint32_t timeline;              /* window_switch: the timeline panel at start */
    const char *timeline_report;    /* NULL: none */
    const char *record;             /* the recording written; NULL: none */
    uint64_t given;                 /* set by the parser: bit i for row i of the table */
} app_options;

/* How a row's value is read. */
typedef enum app_flag_kind {
    APP_SWITCH, /* no value: sets a bool */
    APP_COUNT,  /* a whole number in [lo, hi] (app_scan_count's forms) */
    APP_COUNTS, /* the same, a list in the bench (ranges LO..HI where ranges) */
    APP_WORD,   /* one of words[0..word_n), stored as its index */
    APP_WORDS,  /* the same, a list in the bench (of two words, "both" alone:
                   the second, then the first) */
    APP_FILE,   /* a name, not empty; ending in one of words[] where given */
    APP_CUSTOM  /* read by parse() */
} app_flag_kind;

typedef struct app_flag {
    const char *name;   /* without "--" */
    const char *arg;    /* the value's placeholder in --help; NULL: takes none */
    uint32_t modes;     /* APP_WINDOW, APP_BENCH or APP_BOTH */
    app_flag_kind kind;
    size_t at;          /* offsetof(app_options, the value) */
    size_t n_at;        /* APP_COUNTS, APP_WORDS: offsetof the item count */
    uint32_t lo, hi;    /* APP_COUNT(S) */
    const char *const *words; /* APP_WORD(S); APP_FILE: the suffixes allowed */
    uint32_t word_n;
    bool ranges;        /* APP_COUNTS: items may be ranges LO..HI */
    /* APP_CUSTOM: reads arg into *o; false after one line naming the flag
     * (prog prefixes it). */
    bool (*parse)(const char *prog, const char *arg, app_options *o);
    /* For --help, wrapped: {lo} and {hi} stand for the limits, {default}
     * for the mode's default value; a value kind without {default} ends
     * in "(default ...)". */
    const char *help;
} app_flag;

extern const app_flag APP_FLAGS[];
extern const uint32_t APP_FLAG_COUNT;

/* The --color words, in window_color order. */
extern const char *const APP_COLOR_NAMES[4];
/* The number of online CPUs, at least 1 and at most APP_MAX_THREADS. */
uint32_t app_online_cpus(void);

/* Parses argv (argv[0] is the mode's name) for mode (APP_WINDOW or
 * APP_BENCH) into *o, which holds the mode's defaults on entry. Only the
 * mode's rows are flags; a long flag may be shortened to a prefix naming
 * one; a flag with a value is given once, its value, when the next
 * argument, not starting with '-'. With --window-args first (the bench),
 * the window's own flags are left out, as given, in o->left_out.
 * Unless --help was given, checks the simulation's values against each
 * other (fixed storage's limit, the world's density). Returns 0, or 2
 * after printing one line "<prog>: ..." naming the flag as typed, the
 * value and what is allowed (a flag of the other mode: that mode). */
int app_options_parse(int argc, char **argv, uint32_t mode, const char *prog, app_options *o);

/* The name of the first row in the table given in o, skipping the names
 * in skip (NULL-terminated), or NULL. */
const char *app_options_first_given(const app_options *o, const char *const *skip);
/* Whether the flag name was given. */
bool app_options_given(const app_options *o, const char *name);

/* --replay against the other flags of mode (APP_WINDOW or APP_BENCH):
 * not with --record, nor a flag whose value the recording holds (the
 * world, seed, particles, fixed limit) or that a replay does not take
 * (--frames; in the bench, all but --threads, --inner-parallelism,
 * --storage, --layout, --kernel and --loops, one value each). True, or
 * false after one line naming both. */
/* Whether o describes one run (one value of each list, --repeat 1; a
 * --load-state snapshot gives the count), as `flag file` (writing `what`)
 * needs; else one line naming the list with more. */
bool app_check_one_run(const char *prog, const char *flag, const char *file, const char *what,
                       const app_options *o);
bool app_replay_check_flags(const char *prog, const app_options *o, uint32_t mode);

/* The mode's flags for its --help, in table order, with the defaults d. */
void app_options_usage(FILE *f, uint32_t mode, const app_options *d);

#endif /* APP_OPTIONS_H */
