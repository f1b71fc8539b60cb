/* bench_out.h - output files written whole or not at all: FILE.tmp first,
 * renamed into place at the end. */
#ifndef BENCH_OUT_H
#define BENCH_OUT_H

#include <stdbool.h>

typedef struct bench_out {
    const char *flag; /* "--csv", for messages */
    const char *path; /* NULL: not requested */
    char *tmp;        /* path + ".tmp" while staged */
} bench_out;

/* Creates path.tmp, empty, to prove the file can be written before any run.
 * Returns 0 (also when path is NULL), or 2 after printing why not. */
int bench_out_stage(bench_out *o, const char *flag, const char *path);
/* Renames path.tmp to path. Returns 0, or 1 after printing why not. */
int bench_out_commit(bench_out *o);
/* Removes path.tmp if still there and frees it. */
void bench_out_discard(bench_out *o);

#endif /* BENCH_OUT_H */
