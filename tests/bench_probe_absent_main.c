/* bench_probe_absent_main.c - `particles bench` alone, for a build of the
 * bench where the CPU probe cannot pin threads (BENCH_PROBE_FORCE_ABSENT,
 * as off Linux): argv[1] must be "bench". */
#include "bench.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "bench") != 0) {
        fprintf(stderr, "usage: %s bench [options]\n", argv[0]);
        return 2;
    }
    return bench_main(argc - 1, argv + 1);
}
