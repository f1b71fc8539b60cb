/* mem_limit.h - the memory this process may still take, and the check of
 * a world's need against it before the world is made. */
#ifndef APP_MEM_LIMIT_H
#define APP_MEM_LIMIT_H

#include "sim.h"

#include <stdbool.h>
#include <stdint.h>

/* The tightest limit on this process's memory: the one that leaves the
 * least free. */
typedef struct app_mem_limit {
    bool known;     /* false: no limit found (none, or none this system tells) */
    uint64_t limit; /* bytes */
    uint64_t free;  /* bytes the process may still take under it */
    char what[200]; /* "cgroup /a/b", "RLIMIT_AS", ... */
} app_mem_limit;

/* Reads every limit that applies (Linux: cgroup v2 memory.max and v1
 * memory.limit_in_bytes of the process's cgroup and each ancestor,
 * RLIMIT_AS, RLIMIT_DATA; Windows: the job object's process and job
 * memory limits) and keeps the tightest. */
app_mem_limit app_mem_limit_get(void);

/* Whether a world of cfg (sim_memory_needed, with the headroom of
 * docs/benchmark.md, "Memory") fits under app_mem_limit_get(); if not,
 * one line "<prog>: --entities N with --world WxH needs about ...; the
 * memory limit of this process (...) leaves too little", the world named
 * "<flag> <file> (N particles in WxH)" where it comes from a file
 * (flag: NULL for none). */
bool app_mem_check(const char *prog, const sim_config *cfg, const char *flag, const char *file);

#endif /* APP_MEM_LIMIT_H */
