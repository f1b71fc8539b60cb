/* bench_machine.c - the CPU model, the online CPU count, and what the
 * run's CPU probes say: which found a CPU slowest, and whether the CPUs
 * were unequal or the machine busy. */
#include "bench_machine.h"

#include "ecs.h"

#include <stdio.h>
#include <string.h>

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
    m->online = (long)ecs_cpu_count();
}

void bench_machine_probe_name(uint32_t i, char *buf, size_t size)
{
    if (i)
        snprintf(buf, size, "after repeat %u", (unsigned)i);
    else
        snprintf(buf, size, "before the runs");
}

bench_machine_check bench_machine_check_of(const bench_machine *m)
{
    bench_machine_check c = {.cpu_speed = 1.0, .machine_speed = 1.0};
    if (!m->probe_ms) return c;
    double best[2] = {0.0, 0.0}; /* the fastest CPU's best chain and sweep rates */
    for (uint32_t i = 0; i <= m->after_count; i++) {
        const bench_cpu_speeds *p = bench_machine_probe(m, i);
        if (!p->count) continue;
        c.probed = true;
        best[0] = p->fastest > best[0] ? p->fastest : best[0];
        best[1] = p->mem_fastest > best[1] ? p->mem_fastest : best[1];
        uint32_t k;
        bool sweep;
        double v = bench_probe_slowest_at(p, &k, &sweep);
        if (v < c.cpu_speed) {
            c.cpu_speed = v;
            c.cpu = p->cpu[k];
            c.cpu_sweep = sweep;
            c.cpu_probe = i;
        }
    }
    for (uint32_t i = 0; c.probed && i <= m->after_count; i++) {
        const bench_cpu_speeds *p = bench_machine_probe(m, i);
        if (!p->count) continue;
        for (int loop = 0; loop < 2; loop++) {
            double v = (loop ? p->mem_fastest : p->fastest) / best[loop];
            if (v >= c.machine_speed) continue;
            c.machine_speed = v;
            c.machine_sweep = loop == 1;
            c.machine_probe = i;
        }
    }
    /* Printed to two places: 0.895 reads 0.90, and is let pass. */
    c.unequal = c.cpu_speed < BENCH_MACHINE_STEADY - 0.005;
    c.busy = c.machine_speed < BENCH_MACHINE_STEADY - 0.005;
    return c;
}
