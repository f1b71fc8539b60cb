/* bench_cli.h - what ecs_bench needs for its command line and its --csv
 * file, on the C library and POSIX alone (the bench uses the ecs module's
 * public header and nothing else of the project). Every failure prints one
 * line, "ecs_bench: ...", and exits: 2 for bad input, 1 for a failed write. */
#ifndef BENCH_CLI_H
#define BENCH_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* One line on stderr, then exit(code). */
_Noreturn void bench_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A count of flag in [lo, hi], as people type it: digits (200000), with
 * single '_' between digits (200_000), a decimal point, then a k/K, M or
 * G suffix (200k, 1.5M) or a power of ten eN/EN (2e5): a whole number
 * exactly. Anything else exits 2 naming the flag and the value. */
uint32_t bench_parse_count(const char *flag, const char *s, uint32_t lo, uint32_t hi);

/* Exits 2 for the unknown option arg ("--name" or "--name=value"),
 * naming the nearest of longopts (NULL-terminated) where one is a slip
 * of the keyboard away. */
_Noreturn void bench_unknown_option(const char *arg, const struct option *longopts);

/* The --csv file. Staged before the run: a regular file (or a name not
 * there yet, or a link to either) gets a temporary beside it, which
 * replaces it whole at commit; a FIFO or device is written in place at
 * commit. Staging exits 2 when the file cannot be made (a missing or
 * read-only directory, a directory named); SIGINT, SIGTERM and SIGHUP
 * then remove the temporary and end the program as the signal does. */
typedef struct bench_csv {
    const char *path; /* as given */
    char *target;     /* the file replaced: path with its links followed */
    char *tmp;        /* the temporary while staged; NULL writing in place */
    int fd;
} bench_csv;

void bench_csv_stage(bench_csv *csv, const char *path);
/* The stream to write to; bench_csv_commit closes it and puts the file in
 * place (exits 1 when either fails). */
FILE *bench_csv_begin(bench_csv *csv);
void bench_csv_commit(bench_csv *csv, FILE *f);

#endif /* BENCH_CLI_H */
