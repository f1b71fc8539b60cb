/* bench_checks.h - the determinism check. */
#ifndef BENCH_CHECKS_H
#define BENCH_CHECKS_H

#include <stdbool.h>

#include "bench_data.h"

/* Whether every run of one count ended at the same frame with the same
 * hash (and agreed at BENCH_CHECK_FRAME). Prints the verdict on stdout
 * when print, and a mismatch on stderr always. */
bool bench_check_determinism(const bench_set *s, bool print);

#endif /* BENCH_CHECKS_H */
