/* bench.h - `particles bench`: the headless benchmark mode. */
#ifndef BENCH_H
#define BENCH_H

/* argv[0] is "bench". Returns the exit status: 0 done, 1 a run failed or
 * the final hashes disagree, 2 bad input. */
int bench_main(int argc, char **argv);

#endif /* BENCH_H */
