/* bench_data.c - the configuration and result tables of one benchmark. */
#include "bench_data.h"

#include <stdlib.h>

bool bench_set_init(bench_set *s, const bench_options *o)
{
    *s = (bench_set){.opt = o};
    bench_machine_read(&s->machine);
    s->cfg_n = o->count_n * o->ip_n * o->storage_n;
    s->cfgs = calloc(s->cfg_n, sizeof *s->cfgs);
    s->runs = calloc((size_t)s->cfg_n * o->repeat, sizeof *s->runs);
    s->sums = calloc(s->cfg_n, sizeof *s->sums);
    s->machine.after = calloc(o->repeat, sizeof *s->machine.after);
    if (!s->cfgs || !s->runs || !s->sums || !s->machine.after) {
        bench_set_free(s);
        return false;
    }
    uint32_t c = 0;
    for (uint32_t i = 0; i < o->count_n; i++)
        for (uint32_t j = 0; j < o->ip_n; j++)
            for (uint32_t k = 0; k < o->storage_n; k++)
                s->cfgs[c++] = (bench_config){o->counts[i], o->ip_on[j], o->storages[k]};
    return true;
}

void bench_set_free(bench_set *s)
{
    free(s->cfgs);
    free(s->runs);
    free(s->sums);
    free(s->machine.after);
    s->cfgs = NULL;
    s->runs = NULL;
    s->sums = NULL;
    s->machine.after = NULL;
}

uint32_t bench_set_run_count(const bench_set *s) { return s->cfg_n * s->opt->repeat; }

const bench_result *bench_set_run(const bench_set *s, uint32_t repeat, uint32_t cfg)
{
    return &s->runs[(size_t)repeat * s->cfg_n + cfg];
}

int bench_set_find(const bench_set *s, uint32_t count, bool ip_on, ecs_storage storage)
{
    for (uint32_t c = 0; c < s->cfg_n; c++) {
        const bench_config *k = &s->cfgs[c];
        if (k->count == count && k->ip_on == ip_on && k->storage == storage) return (int)c;
    }
    return -1;
}

bool bench_set_rss_per_run(const bench_set *s)
{
    for (uint32_t i = 0; i < bench_set_run_count(s); i++)
        if (!s->runs[i].rss_per_run) return false;
    return true;
}

const char *bench_ip_name(bool on) { return on ? "on" : "off"; }

const char *bench_storage_name(ecs_storage storage)
{
    return storage == ECS_STORAGE_FIXED ? "fixed" : "dynamic";
}
