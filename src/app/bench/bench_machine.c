/* bench_machine.c - the CPU model, the online CPU count, and which of the
 * run's CPU probes found a CPU slowest. */
#include "bench_machine.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The value of the first "model name : value" line, trimmed. */
static void read_cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        char *v = colon + 1 + strspn(colon + 1, " \t");
        v[strcspn(v, "\n")] = '\0';
        if (*v) snprintf(out, size, "%s", v);
        break;
    }
    fclose(f);
}

const bench_cpu_speeds *bench_machine_probe(const bench_machine *m, uint32_t i)
{
    return i ? &m->after[i - 1u] : &m->before;
}

uint32_t bench_machine_slowest(const bench_machine *m, uint32_t from)
{
    uint32_t slowest = from;
    for (uint32_t i = from + 1u; i <= m->after_count; i++)
        if (bench_probe_slowest(bench_machine_probe(m, i)) <
            bench_probe_slowest(bench_machine_probe(m, slowest)))
            slowest = i;
    return slowest;
}

void bench_machine_read(bench_machine *m)
{
    read_cpu_model(m->cpu, sizeof m->cpu);
    m->online = sysconf(_SC_NPROCESSORS_ONLN);
}
