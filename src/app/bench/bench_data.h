/* bench_data.h - one benchmark's configurations, runs and summaries. */
#ifndef BENCH_DATA_H
#define BENCH_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_cli.h"
#include "bench_machine.h"
#include "sim.h"

#define BENCH_NAME_MAX 32u
/* Frame whose state is hashed besides the final one (and the frame when
 * half the particles have died): a run until every particle died ends
 * empty, so its final hash covers the frame count only. */
#define BENCH_CHECK_FRAME 100u

typedef struct bench_config {
    uint32_t count; /* as given: with --weak, the particles at the smallest thread count */
    bool ip_on;
    ecs_storage storage;
    uint32_t threads;
} bench_config;

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
    uint32_t cfg_n;        /* counts x IP values x storages x thread counts */
    bench_config *cfgs;    /* in (count, IP, storage, threads) order of the options */
    bench_result *runs;    /* repeat r of configuration c at r * cfg_n + c */
    bench_summary *sums;   /* per configuration */
    char systems[SIM_SYSTEM_COUNT][BENCH_NAME_MAX];
} bench_set;

/* Allocates the tables for o's configurations; false if out of memory. */
bool bench_set_init(bench_set *s, const bench_options *o);
void bench_set_free(bench_set *s);

uint32_t bench_set_run_count(const bench_set *s);
const bench_result *bench_set_run(const bench_set *s, uint32_t repeat, uint32_t cfg);
/* The index of a configuration, or -1 if it was not selected. */
int bench_set_find(const bench_set *s, uint32_t count, bool ip_on, ecs_storage storage,
                   uint32_t threads);
/* False if some run fell back to getrusage for its peak memory. */
bool bench_set_rss_per_run(const bench_set *s);

const char *bench_ip_name(bool on);
const char *bench_storage_name(ecs_storage storage);

#endif /* BENCH_DATA_H */
