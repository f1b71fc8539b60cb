/* bench_trace.h - the bench's runs in a --trace file: the first repeat of
 * each configuration is one process of the trace. */
#ifndef BENCH_TRACE_H
#define BENCH_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench_data.h"
#include "bench_progress.h"
#include "trace.h"

/* Starts cfg's process where t is not NULL and repeat (0-based) is the
 * first; a later repeat is not traced. */
void bench_trace_run_begin(app_trace *t, const bench_options *o, const bench_config *cfg,
                           uint32_t repeat);
/* Ends it; a run that completed (ok) before reaching the first traced
 * frame gets its note, after the progress line is cleared. */
void bench_trace_run_end(app_trace *t, bench_progress *p, bool ok);

#endif /* BENCH_TRACE_H */
