/* mem_limit.c - the tightest memory limit on this process (see
 * mem_limit.h): Linux's cgroups and resource limits, or on Windows the
 * limits of the job object that holds the process (what a container or a
 * service manager sets there, as cgroups do on Linux). */
#include "mem_limit.h"

#include "args.h"

#include <stdio.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <psapi.h>
#else
#include <sys/resource.h>
#include <unistd.h>
#endif

/* The headroom above sim_memory_needed (docs/benchmark.md, "Memory"). */
#define HEADROOM_FIXED ((uint64_t)64 << 20)

static void consider(app_mem_limit *m, uint64_t limit, uint64_t used, const char *what)
{
    uint64_t free = used < limit ? limit - used : 0u;
    if (m->known && free >= m->free) return;
    m->known = true;
    m->limit = limit;
    m->free = free;
    snprintf(m->what, sizeof m->what, "%s", what);
}

#if defined(_WIN32)
app_mem_limit app_mem_limit_get(void)
{
    app_mem_limit m = {0};
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION job;
    /* NULL: the job of the calling process; fails where there is none. */
    if (!QueryInformationJobObject(NULL, JobObjectExtendedLimitInformation, &job, sizeof job, NULL))
        return m;
    DWORD flags = job.BasicLimitInformation.LimitFlags;
    PROCESS_MEMORY_COUNTERS pm = {0};
    (void)GetProcessMemoryInfo(GetCurrentProcess(), &pm, sizeof pm);
    if (flags & JOB_OBJECT_LIMIT_PROCESS_MEMORY)
        consider(&m, job.ProcessMemoryLimit, pm.PagefileUsage, "job object, per process");
    if (flags & JOB_OBJECT_LIMIT_JOB_MEMORY) /* its peak: Windows tells no current total */
        consider(&m, job.JobMemoryLimit, job.PeakJobMemoryUsed, "job object");
    return m;
}
#else
/* The number at the start of dir/name; false when there is none ("max"). */
static bool read_u64(const char *dir, const char *name, uint64_t *v)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    unsigned long long x;
    bool ok = fscanf(f, "%llu", &x) == 1;
    fclose(f);
    if (ok) *v = x;
    return ok;
}

/* A cgroup hierarchy: where it is mounted, the cgroup at its root, and
 * this process's cgroup in it (as /proc/self/cgroup names it). */
typedef struct hierarchy {
    char mnt[1024], root[1024], path[2048];
    const char *max, *usage; /* the limit's file and the usage's */
} hierarchy;

/* The limit of h's cgroup and of every ancestor the mount shows. */
static void walk(app_mem_limit *m, const hierarchy *h)
{
    const char *p = h->path;
    size_t rl = strcmp(h->root, "/") == 0 ? 0u : strlen(h->root);
    if (strncmp(p, h->root, rl) != 0 || (p[rl] && p[rl] != '/')) return; /* outside the mount */
    char rel[2048];
    snprintf(rel, sizeof rel, "%s", p + rl);
    for (;;) {
        size_t n = strlen(rel);
        while (n && rel[n - 1] == '/') rel[--n] = '\0';
        char dir[4200], what[sizeof m->what];
        snprintf(dir, sizeof dir, "%s%s", h->mnt, rel);
        uint64_t max, used;
        /* A v1 hierarchy without a limit reads a number near 2^63. */
        if (read_u64(dir, h->max, &max) && max < (UINT64_C(1) << 62) && read_u64(dir, h->usage, &used)) {
            snprintf(what, sizeof what, "cgroup %.100s%.90s", rl ? h->root : "", n || rl ? rel : "/");
            consider(m, max, used, what);
        }
        char *slash = strrchr(rel, '/');
        if (!slash) break;
        *slash = '\0';
    }
}

/* The cgroup2 mount and the v1 memory one, from /proc/self/mountinfo. */
static void find_mounts(hierarchy *v2, hierarchy *v1)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        char root[1024], mnt[1024], type[64], opts[1024] = "";
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", root, mnt) != 2 ||
            sscanf(dash + 3, "%63s %*s %1021s", type, opts + 1) < 1)
            continue;
        opts[0] = ',';
        strcat(opts, ",");
        hierarchy *h = strcmp(type, "cgroup2") == 0                               ? v2
                     : strcmp(type, "cgroup") == 0 && strstr(opts, ",memory,") ? v1
                                                                                : NULL;
        if (!h || h->mnt[0]) continue;
        snprintf(h->mnt, sizeof h->mnt, "%s", strcmp(mnt, "/") == 0 ? "" : mnt);
        snprintf(h->root, sizeof h->root, "%s", root);
    }
    if (f) fclose(f);
}

/* This process's cgroup in each, from /proc/self/cgroup: "0::PATH" for
 * v2, "N:CONTROLLERS:PATH" with memory among the controllers for v1. */
static void find_paths(hierarchy *v2, hierarchy *v1)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;
        if (!path) continue;
        *path++ = '\0';
        char list[1100];
        snprintf(list, sizeof list, ",%s,", ctl + 1);
        hierarchy *h = strcmp(line, "0") == 0 && !ctl[1] ? v2 : strstr(list, ",memory,") ? v1 : NULL;
        if (h) snprintf(h->path, sizeof h->path, "%s", path);
    }
    if (f) fclose(f);
}

/* Field `field` (1-based) of /proc/self/statm, in bytes. */
static uint64_t statm_bytes(int field)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long v[6] = {0};
    if (f) {
        if (fscanf(f, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
            v[field - 1] = 0;
        fclose(f);
    }
    long page = sysconf(_SC_PAGESIZE);
    return v[field - 1] * (uint64_t)(page > 0 ? page : 4096);
}

app_mem_limit app_mem_limit_get(void)
{
    app_mem_limit m = {0};
    hierarchy v2 = {.max = "memory.max", .usage = "memory.current"};
    hierarchy v1 = {.max = "memory.limit_in_bytes", .usage = "memory.usage_in_bytes"};
    find_mounts(&v2, &v1);
    find_paths(&v2, &v1);
    if (v2.mnt[0] && v2.path[0]) walk(&m, &v2);
    if (v1.mnt[0] && v1.path[0]) walk(&m, &v1);
    /* The address space counts every mapping (statm's size), the data
     * limit the data and stack (statm's sixth field). */
    const struct { int resource, field; const char *name; } rl[] = {
        {RLIMIT_AS, 1, "RLIMIT_AS"},
        {RLIMIT_DATA, 6, "RLIMIT_DATA"},
    };
    for (size_t k = 0; k < sizeof rl / sizeof rl[0]; k++) {
        struct rlimit r;
        if (getrlimit(rl[k].resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
            consider(&m, (uint64_t)r.rlim_cur, statm_bytes(rl[k].field), rl[k].name);
    }
    return m;
}
#endif

/* bytes as "1.5 GiB", or "300 MiB" below one GiB, into buf. */
static const char *size_text(char *buf, size_t size, uint64_t bytes)
{
    double gib = (double)bytes / (1u << 30);
    if (gib >= 1.0) snprintf(buf, size, "%.1f GiB", gib);
    else snprintf(buf, size, "%.0f MiB", (double)bytes / (1u << 20));
    return buf;
}

bool app_mem_check(const char *prog, const sim_config *cfg, const char *flag, const char *file)
{
    app_mem_limit m = app_mem_limit_get();
    uint64_t need = sim_memory_needed(cfg);
    if (!m.known || need + need / 4u + HEADROOM_FIXED <= m.free) return true;
    char what[320], a[32], b[32], c[32];
    unsigned n = (unsigned)cfg->particles;
    double w = cfg->params.world_w, h = cfg->params.world_h;
    if (flag) snprintf(what, sizeof what, "%s %.200s (%u particles in %gx%g)", flag, file, n, w, h);
    else snprintf(what, sizeof what, "--entities %u with --world %gx%g", n, w, h);
    app_error(prog, "%s needs about %s; the memory limit of this process (%s: %s, %s free) leaves too little",
              what, size_text(a, sizeof a, need), m.what, size_text(b, sizeof b, m.limit),
              size_text(c, sizeof c, m.free));
    return false;
}
