/* bench_baseline.h - a run against an earlier one: the total ms of each
 * configuration, read back from a JSON the bench wrote (--baseline,
 * --compare) or taken from this run, and per configuration the change of
 * the median and whether it is beyond the noise (Mann-Whitney U test over
 * the repeats). */
#ifndef BENCH_BASELINE_H
#define BENCH_BASELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench_data.h"

/* counts x 2 IP x 2 storages x thread counts */
#define BENCH_SAMPLES_MAX_CFG (BENCH_MAX_LIST * 4u * BENCH_MAX_LIST)

/* The options that change what a configuration's time means. */
typedef struct bench_sample_opts {
    uint32_t threads; /* the one thread count of every run; 0: several */
    uint32_t frames, seed, world_w, world_h;
    char kernel[16];
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

/* Reads path (given as flag) into *b. Returns 0, or 2 after one line
 * naming the flag and the file: it cannot be read, is not JSON, or is not
 * a JSON written by `particles bench --json`. */
int bench_samples_load(bench_samples *b, const char *flag, const char *path);
/* This run's samples; false if out of memory. */
bool bench_samples_of_set(bench_samples *b, const bench_set *s);
void bench_samples_free(bench_samples *b);

/* Whether two runs' configurations are told apart by their thread counts
 * too: when either ran several (one each: the note names a difference). */
bool bench_samples_by_threads(uint32_t threads_a, uint32_t threads_b);
/* The index of configuration c in b, or -1; by_threads: the thread counts
 * must match too. */
int bench_samples_find(const bench_samples *b, const bench_config *c, bool by_threads);
/* Whether some configuration of o (or of cur) is in b; else one line
 * naming flag and b's file. */
bool bench_samples_match(const bench_samples *b, const char *flag, const bench_options *o);
bool bench_samples_overlap(const bench_samples *b, const char *flag, const bench_samples *cur);

/* The comparison of cur against base, one line per configuration of cur,
 * on stdout. */
void bench_baseline_print(const bench_samples *base, const bench_samples *cur);

#endif /* BENCH_BASELINE_H */
