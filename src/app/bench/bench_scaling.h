/* bench_scaling.h - several thread counts: per (count, IP, storage) the
 * speedup and parallel efficiency of each thread count over the smallest,
 * the parallelism the timeline saw, and each system's speedup. */
#ifndef BENCH_SCALING_H
#define BENCH_SCALING_H

#include "bench_data.h"

/* One thread count of one (count, IP, storage) group, from the medians
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
 * (count, IP, storage) the points, then each system's ms per frame and
 * speedup. */
void bench_print_scaling(const bench_set *s);

#endif /* BENCH_SCALING_H */
