/* bench_machine.c - the CPU model and the online CPU count. */
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

void bench_machine_read(bench_machine *m)
{
    read_cpu_model(m->cpu, sizeof m->cpu);
    m->online = sysconf(_SC_NPROCESSORS_ONLN);
}
