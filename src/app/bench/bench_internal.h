/* bench_internal.h - what the files of `particles bench` share: its
 * options, one benchmark's configurations, runs and summaries, and the
 * functions that run, report and export them (bench.h is the mode's
 * entry point). */
#ifndef BENCH_INTERNAL_H
#define BENCH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_machine.h"
#include "ecs.h"
#include "options.h"
#include "out.h"
#include "sim.h"
#include "state_file.h"
#include "trace.h"

/* ---- options ---- */

#define BENCH_PROG "particles bench"
#define BENCH_MAX_LIST APP_MAX_LIST /* items in --entities */
#define BENCH_MAX_THREADS APP_MAX_THREADS
#define BENCH_MAX_REPEAT APP_BENCH_MAX_REPEAT
#define BENCH_CPU_PROBE_MS 200u /* --cpu-probe default */
#define BENCH_THESIS_FIXED_LIMIT APP_THESIS_FIXED_LIMIT

/* The bench's options: the command line's values (options.h), the
 * simulation's as lists: every combination runs. */
typedef app_options bench_options;

/* Parses argv (argv[0] is the mode's name) into *o, checking every value
 * and the options against each other. Returns 0, or 2 after printing one
 * line naming the flag, the value and what is allowed. */
int bench_options_parse(int argc, char **argv, bench_options *o);

void bench_options_usage(FILE *f);

/* One line on stderr, prefixed "particles bench: " (app_error's). */
void bench_error(const char *fmt, ...) APP_PRINTF(1, 2);

/* ---- configurations, runs and summaries ---- */

#define BENCH_NAME_MAX 32u
/* Frame whose state is hashed besides the final one (and the frame when
 * half the particles have died): a run until every particle died ends
 * empty, so its final hash covers the frame count only. */
#define BENCH_CHECK_FRAME 100u

/* One configuration: a value of each of the simulation's lists. */
typedef struct bench_config {
    uint32_t count; /* as given: with --weak, the particles at the smallest thread count */
    bool ip_on;
    ecs_storage storage;
    sim_layout layout;
    uint32_t threads;
} bench_config;

/* Every configuration of o, in (count, IP, storage, layout, threads)
 * order of the options, into out (room for bench_config_count(o)). */
uint32_t bench_config_count(const bench_options *o);
void bench_configs_of(const bench_options *o, bench_config *out);
/* Whether a and b are one configuration (their threads too, where
 * by_threads). */
bool bench_config_same(const bench_config *a, const bench_config *b, bool by_threads);
/* "IP on, fixed, soa, 4 threads" into buf. */
void bench_config_name(char *buf, size_t size, const bench_config *c);
/* The systems --systems runs, comma-separated, or "all". */
void bench_systems_name(char *buf, size_t size, const bench_options *o);

/* What one configuration simulates: with --weak its particles and world
 * sides grow with threads / the smallest thread count (the particles by
 * that ratio, rounded; each side by its square root, rounded: constant
 * density); otherwise the count and the world given. */
typedef struct bench_world {
    uint32_t particles, w, h;
} bench_world;

bench_world bench_world_of(const bench_options *o, uint32_t count, uint32_t threads);
/* Whether the simulation takes bench_world_of(o, count, threads): its sides,
 * grid, density and fixed storage limit; else what is wrong, in why. */
bool bench_world_check(const bench_options *o, uint32_t count, uint32_t threads, char *why,
                       size_t size);
/* The smallest thread count given: the base of speedups and of --weak. */
uint32_t bench_base_threads(const bench_options *o);

/* One run of one configuration. Times in ms, memory in MiB. */
typedef struct bench_result {
    uint32_t repeat; /* 1-based */
    uint64_t frames;
    double total_ms, spawn_ms, step_mean_ms, step_p99_ms;
    double contacts_per_frame;
    double peak_rss_mib;
    bool rss_per_run;   /* VmHWM after a reset; false: getrusage, process peak */
    uint64_t hash;       /* final state: nothing alive after a run to the end */
    uint64_t check_hash; /* state after BENCH_CHECK_FRAME frames */
    bool has_check;      /* the run reached BENCH_CHECK_FRAME */
    uint64_t half_frame; /* the first frame after which at most half the particles lived */
    uint64_t half_hash;  /* the state then */
    bool has_half;       /* the run reached it */
    double system_ms[SIM_SYSTEM_COUNT]; /* mean per frame */
    /* The timeline's profile summed over the frames (system phase only):
     * work (every subtask and finish), span (critical path), wall. */
    double work_ms, span_ms, wall_ms;
    double available, achieved; /* work / span, work / wall */
    double busy;                /* mean over the workers of their busy share of wall */
} bench_result;

typedef struct bench_stat {
    double mean, sd, median;
} bench_stat;

/* Every repeat of one configuration. */
typedef struct bench_summary {
    bench_stat total, spawn, step_mean, step_p99, contacts, rss;
    bench_stat available, achieved, busy;
    bench_stat system[SIM_SYSTEM_COUNT];
    double frames; /* mean (equal across repeats unless something is wrong) */
} bench_summary;

typedef struct bench_set {
    const bench_options *opt;
    bench_machine machine;
    uint32_t cfg_n;        /* counts x IP values x storages x layouts x thread counts */
    bench_config *cfgs;    /* bench_configs_of's */
    bench_result *runs;    /* repeat r of configuration c at r * cfg_n + c */
    bench_summary *sums;   /* per configuration */
    char systems[SIM_SYSTEM_COUNT][BENCH_NAME_MAX];
} bench_set;

/* Allocates the tables for o's configurations; false if out of memory. */
bool bench_set_init(bench_set *s, const bench_options *o);
void bench_set_free(bench_set *s);

uint32_t bench_set_run_count(const bench_set *s);
const bench_result *bench_set_run(const bench_set *s, uint32_t repeat, uint32_t cfg);
/* The index of configuration k, or -1 if it was not selected. */
int bench_set_find(const bench_set *s, const bench_config *k);
/* False if some run fell back to getrusage for its peak memory. */
bool bench_set_rss_per_run(const bench_set *s);

const char *bench_ip_name(bool on);
const char *bench_storage_name(ecs_storage storage);

double bench_mean(const double *v, size_t n);
/* Sample standard deviation (n - 1); 0 when n < 2. */
double bench_sd(const double *v, size_t n);
/* The p-th percentile (0..100), interpolating linearly between closest
 * ranks. Sorts v in place. 0 when n is 0. */
double bench_percentile(double *v, size_t n, double p);

/* Fills s->sums from s->runs. */
void bench_summarize(bench_set *s);

/* ---- running ---- */

/* The progress line on stderr, rewritten in place. */
typedef struct bench_progress {
    bool on;        /* stderr is a terminal and not --quiet */
    double last_ms; /* when the line was last drawn */
    int width;      /* characters drawn, to blank the rest */
} bench_progress;

/* State kept across runs: the per-frame time buffer and the progress line. */
typedef struct bench_runner {
    const bench_options *opt;
    double *step_ms; /* one entry per frame of the current run */
    size_t step_cap;
    bench_progress progress;
    uint32_t run_n;  /* runs in the whole benchmark, for the progress line */
    app_trace *trace; /* --trace; NULL: none */
    struct app_hashes *hashes; /* --hashes (hashes.h); NULL: none */
    const app_state_file *load; /* --load-state, read and checked; NULL: none */
    app_out *save;    /* --save-state, staged (the one run's state); NULL: none */
} bench_runner;

void bench_runner_init(bench_runner *r, const bench_options *o, uint32_t run_n);
void bench_runner_free(bench_runner *r);

/* Run number index (0-based) of the benchmark: repeat (0-based) of cfg.
 * Fills *out, and names[] with the systems' names. Returns 0, 1 after
 * printing one line with the ecs message, or app_stop_status() when a
 * signal asked to stop (the run ends at the next frame). */
int bench_run(bench_runner *r, uint32_t index, uint32_t repeat, const bench_config *cfg,
              bench_result *out, char names[SIM_SYSTEM_COUNT][BENCH_NAME_MAX]);

/* Before any run: whether every one of the n configurations (each with
 * --load-state's snapshot, when load is given) fits in the memory this
 * process may take (app_mem_check). 0, or 2 after one line naming the
 * first that does not. */
int bench_run_check_memory(const bench_options *o, const bench_config *cfgs, uint32_t n,
                           const app_state_file *load);

/* --print-dag: builds the first configuration with no particles and prints
 * ecs_dot's text on stdout. Returns 0, or 1 after printing why not. */
int bench_run_print_dag(const bench_options *o);

/* ---- reports on stdout ---- */

/* Machine, threads, repeats, seed, frames mode (and a note if peak memory
 * fell back to getrusage). */
void bench_print_header(const bench_set *s);
/* Table 1, IP off (baseline) vs on per count, storage and layout, and
 * Table 2, fixed (baseline) vs dynamic per count, IP and layout, beside
 * the thesis; Table 3, soa (baseline) vs thesis layout per count, IP and
 * storage. Each per thread count, where two values of what it compares
 * ran. */
void bench_print_tables(const bench_set *s);
/* Mean ms per frame per system, frames, contacts, p99 step, memory, hash. */
void bench_print_breakdown(const bench_set *s);

/* One thread count of one (count, IP, storage, layout) group, from the medians
 * over the repeats. Strong scaling: speedup = T(base) / T(threads),
 * efficiency = speedup * base / threads. Weak (--weak): efficiency =
 * T(base) / T(threads) and speedup = efficiency * threads / base (the
 * scaled speedup), base the smallest thread count. */
typedef struct bench_scale_point {
    uint32_t threads;
    double total_ms, speedup, efficiency;
    double available, achieved, busy;
} bench_scale_point;

/* The point of configuration cfg against its group's base thread count. */
bench_scale_point bench_scale_point_of(const bench_set *s, uint32_t cfg);

/* The scaling tables, printed only with more than one thread count: per
 * (count, IP, storage, layout) the points, then each system's ms per frame and
 * speedup. */
void bench_print_scaling(const bench_set *s);

/* Whether every run of one count ended at the same frame with the same
 * hash (and agreed at BENCH_CHECK_FRAME). Prints the verdict on stdout
 * when print, and a mismatch on stderr always. */
bool bench_check_determinism(const bench_set *s, bool print);

/* ---- baseline ---- */

/* The Mann-Whitney U test: whether two sets of timings differ beyond
 * what their spread explains, without assuming a distribution. */
#define BENCH_MWU_ALPHA 0.05
/* Up to this many values on each side without ties, the p-value is exact. */
#define BENCH_MWU_EXACT_MAX 20u

typedef struct bench_mwu {
    double u;     /* pairs (x_i, y_j) with x_i > y_j, each tie counting half */
    double p;     /* two-sided p-value */
    bool exact;   /* from the exact distribution of U (no ties, both sides
                     within BENCH_MWU_EXACT_MAX); else the normal
                     approximation with tie and continuity corrections */
    double p_min; /* the smallest two-sided p any two sets of these sizes
                     can give: 2 / C(nx + ny, nx), at most 1 */
} bench_mwu;

/* The smallest two-sided p two sets of nx and ny values can give. */
double bench_mwu_p_min(size_t nx, size_t ny);

/* The test of x[0..nx) against y[0..ny), both non-empty. */
bench_mwu bench_mwu_test(const double *x, size_t nx, const double *y, size_t ny);

/* counts x 2 IP x 2 storages x 2 layouts x thread counts */
#define BENCH_SAMPLES_MAX_CFG (BENCH_MAX_LIST * 8u * BENCH_MAX_LIST)

/* The options that change what a configuration's time means. */
typedef struct bench_sample_opts {
    uint32_t threads; /* the one thread count of every run; 0: several */
    uint32_t frames, seed, world_w, world_h;
    char kernel[16];
    char systems[160]; /* bench_systems_name's */
} bench_sample_opts;

/* Every run's total ms, grouped by configuration. */
typedef struct bench_samples {
    const char *name; /* the file, or NULL for this run */
    bench_sample_opts opts;
    uint32_t cfg_n;
    bench_config cfg[BENCH_SAMPLES_MAX_CFG];
    uint32_t n[BENCH_SAMPLES_MAX_CFG];
    double *ms[BENCH_SAMPLES_MAX_CFG]; /* n[c] values each, owned */
} bench_samples;

/* Reads path (given as flag) into *b. Returns 0, app_stop_status() with
 * nothing printed where a stop signal ended the reading (a FIFO waits for
 * its writer), or 2 after one line naming the flag and the file: it
 * cannot be read, is not JSON, or is not a JSON written by
 * `particles bench --json`. */
int bench_samples_load(bench_samples *b, const char *flag, const char *path);
/* This run's samples; false if out of memory. */
bool bench_samples_of_set(bench_samples *b, const bench_set *s);
void bench_samples_free(bench_samples *b);

/* Whether some configuration of o (or of cur) is in b; else one line
 * naming flag and b's file. */
bool bench_samples_match(const bench_samples *b, const char *flag, const bench_options *o);
bool bench_samples_overlap(const bench_samples *b, const char *flag, const bench_samples *cur);

/* The comparison of cur against base, one line per configuration of cur,
 * on stdout. */
void bench_baseline_print(const bench_samples *base, const bench_samples *cur);

/* ---- files ---- */

/* CSV: a header, then one row per run in the order they ran. */
void bench_export_csv(FILE *f, const bench_set *s);
/* {machine, options, peak_rss_source, check_frame, systems, runs[],
 * summary[] (mean and sd per configuration), deterministic}. */
void bench_export_json(FILE *f, const bench_set *s, bool deterministic);

/* The gnuplot that bench_chart_write will run, into exe: the first
 * executable regular file named gnuplot in a PATH entry (PATH unset: the
 * system's default path; Windows: gnuplot.exe where SearchPath finds
 * it). False if there is none, and BENCH_GNUPLOT_HINT says what to get. */
bool bench_chart_find(char *exe, size_t size);
#if defined(_WIN32)
#define BENCH_GNUPLOT_HINT "gnuplot.exe"
#else
#define BENCH_GNUPLOT_HINT "apt-get install gnuplot-nox"
#endif

/* Runs exe to draw the chart, as PNG or SVG after the extension of the
 * name the user gave, and writes the image gnuplot prints through out
 * (app_out_begin / app_out_end; the caller commits). The image counts
 * only where gnuplot exits 0 and it ends as a whole one does (a PNG's IEND
 * chunk, an SVG's closing tag). Returns 0, or 1 after printing why not
 * (nothing printed when a stop signal ended it). */
int bench_chart_write(const bench_set *s, const char *exe, app_out *out);

#endif /* BENCH_INTERNAL_H */
