/* bench_checks.h - the determinism check and the goal lines. */
#ifndef BENCH_CHECKS_H
#define BENCH_CHECKS_H

#include <stdbool.h>

#include "bench_data.h"

/* Whether every run of one count ended at the same frame with the same
 * hash (and agreed at BENCH_CHECK_FRAME). Prints the verdict on stdout
 * when print, and a mismatch on stderr always. */
bool bench_check_determinism(const bench_set *s, bool print);

/* PASS/MISS lines for the goals that apply to the counts that ran. */
void bench_print_goals(const bench_set *s);

#endif /* BENCH_CHECKS_H */
