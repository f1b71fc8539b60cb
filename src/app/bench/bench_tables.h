/* bench_tables.h - the tables on stdout: header, thesis Tables 1 and 2 with
 * the published figures beside ours, and the per-system breakdown. */
#ifndef BENCH_TABLES_H
#define BENCH_TABLES_H

#include "bench_data.h"

/* Machine, threads, repeats, seed, frames mode (and a note if peak memory
 * fell back to getrusage). */
void bench_print_header(const bench_set *s);
/* IP off (baseline) vs on per count and storage, beside the thesis. */
void bench_print_table1(const bench_set *s);
/* Fixed (baseline) vs dynamic per count and IP, beside the thesis. */
void bench_print_table2(const bench_set *s);
/* Mean ms per frame per system, frames, contacts, p99 step, memory, hash. */
void bench_print_breakdown(const bench_set *s);

#endif /* BENCH_TABLES_H */
