/* bench_export.c - the runs as CSV (one row per run) and as JSON (machine,
 * options, runs, per-configuration summary). */
#include "bench_export.h"

#include <stdio.h>

/* ---- CSV ------------------------------------------------------------------ */

static void csv_head(FILE *f, const bench_set *s)
{
    fprintf(f, "count,inner_parallelism,storage,threads,repeat,seed,frames,total_ms,spawn_ms,"
               "step_mean_ms,step_p99_ms,contacts_per_frame,peak_rss_mib,hash_frame%u,half_dead_frame,"
               "hash_half_dead,final_hash",
            BENCH_CHECK_FRAME);
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) fprintf(f, ",ms_%s", s->systems[k]);
    fprintf(f, ",particles,world_w,world_h,work_ms,span_ms,wall_ms,available,achieved,busy\n");
}

static void csv_row(FILE *f, const bench_set *s, uint32_t r, uint32_t c)
{
    const bench_config *k = &s->cfgs[c];
    const bench_result *x = bench_set_run(s, r, c);
    fprintf(f, "%u,%s,%s,%u,%u,%u,%llu,%.3f,%.3f,%.4f,%.4f,%.1f,%.2f,", (unsigned)k->count,
            bench_ip_name(k->ip_on), bench_storage_name(k->storage), (unsigned)k->threads,
            (unsigned)x->repeat, (unsigned)s->opt->seed, (unsigned long long)x->frames,
            x->total_ms, x->spawn_ms, x->step_mean_ms, x->step_p99_ms, x->contacts_per_frame,
            x->peak_rss_mib);
    if (x->has_check) fprintf(f, "%016llx", (unsigned long long)x->check_hash);
    fputc(',', f);
    if (x->has_half)
        fprintf(f, "%llu,%016llx", (unsigned long long)x->half_frame,
                (unsigned long long)x->half_hash);
    else
        fputc(',', f);
    fprintf(f, ",%016llx", (unsigned long long)x->hash);
    for (uint32_t i = 0; i < SIM_SYSTEM_COUNT; i++) fprintf(f, ",%.4f", x->system_ms[i]);
    bench_world w = bench_world_of(s->opt, k->count, k->threads);
    fprintf(f, ",%u,%u,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f\n", (unsigned)w.particles, (unsigned)w.w,
            (unsigned)w.h, x->work_ms, x->span_ms, x->wall_ms, x->available, x->achieved,
            x->busy);
}

void bench_export_csv(FILE *f, const bench_set *s)
{
    csv_head(f, s);
    for (uint32_t r = 0; r < s->opt->repeat; r++)
        for (uint32_t c = 0; c < s->cfg_n; c++) csv_row(f, s, r, c);
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_string(FILE *f, const char *str)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_options(FILE *f, const bench_options *o)
{
    fprintf(f, "  \"options\": {\"entities\": [");
    for (uint32_t i = 0; i < o->count_n; i++)
        fprintf(f, "%s%u", i ? ", " : "", (unsigned)o->counts[i]);
    fprintf(f, "], \"inner_parallelism\": [");
    for (uint32_t i = 0; i < o->ip_n; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", bench_ip_name(o->ip_on[i]));
    fprintf(f, "], \"storage\": [");
    for (uint32_t i = 0; i < o->storage_n; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", bench_storage_name(o->storages[i]));
    const sim_params d = sim_default_params();
    /* One thread count: a number, as before lists; several: a list. */
    fprintf(f, "], \"threads\": %s", o->thread_n > 1 ? "[" : "");
    for (uint32_t i = 0; i < o->thread_n; i++)
        fprintf(f, "%s%u", i ? ", " : "", (unsigned)o->threads[i]);
    fprintf(f, "%s, \"weak\": %s, \"repeat\": %u, \"seed\": %u, \"frames\": %u, "
               "\"fixed_limit\": %u, \"kernel\": \"%s\", \"world\": [%u, %u]},\n",
            o->thread_n > 1 ? "]" : "", o->weak ? "true" : "false", (unsigned)o->repeat,
            (unsigned)o->seed, (unsigned)o->frames,
            (unsigned)o->fixed_limit, sim_kernel_name(sim_kernel_resolve(o->kernel)),
            o->world_w ? (unsigned)o->world_w : (unsigned)d.world_w,
            o->world_w ? (unsigned)o->world_h : (unsigned)d.world_h);
}

/* {"fastest_steps_per_s": R, "fastest_sweep_bytes_per_s": B, "cpus":
 * [{"cpu": N, "speed": S, "sweep_speed": M}, ...]}, or null where not
 * measured. */
static void json_cpu_speeds(FILE *f, const bench_cpu_speeds *c)
{
    if (!c->count) {
        fprintf(f, "null");
        return;
    }
    fprintf(f, "{\"fastest_steps_per_s\": %.0f, \"fastest_sweep_bytes_per_s\": %.0f, \"cpus\": [",
            c->fastest, c->mem_fastest);
    for (uint32_t k = 0; k < c->count; k++)
        fprintf(f, "%s{\"cpu\": %d, \"speed\": %.4g, \"sweep_speed\": %.4g}", k ? ", " : "",
                c->cpu[k], c->speed[k], c->mem_speed[k]);
    fprintf(f, "]}");
}

/* , "cpu_check": {...}: what the tables' warning line sums up, with the
 * threshold below which it is printed. */
static void json_machine_check(FILE *f, const bench_machine *m)
{
    bench_machine_check c = bench_machine_check_of(m);
    if (!c.probed) {
        fprintf(f, ", \"cpu_check\": null");
        return;
    }
    char cpu_at[32], machine_at[32];
    bench_machine_probe_name(c.cpu_probe, cpu_at, sizeof cpu_at);
    bench_machine_probe_name(c.machine_probe, machine_at, sizeof machine_at);
    fprintf(f, ", \"cpu_check\": {\"threshold\": %.2f, \"unequal\": %s, \"busy\": %s, "
               "\"slowest_cpu\": {\"cpu\": %d, \"loop\": \"%s\", \"speed\": %.4g, \"when\": \"%s\"}, "
               "\"slowest_machine\": {\"loop\": \"%s\", \"speed\": %.4g, \"when\": \"%s\"}}",
            BENCH_MACHINE_STEADY, c.unequal ? "true" : "false", c.busy ? "true" : "false", c.cpu,
            c.cpu_sweep ? "sweep" : "chain", c.cpu_speed, cpu_at,
            c.machine_sweep ? "sweep" : "chain", c.machine_speed, machine_at);
}

static void json_head(FILE *f, const bench_set *s)
{
    fprintf(f, "{\n  \"machine\": {\"cpu\": ");
    json_string(f, s->machine.cpu);
    fprintf(f, ", \"online_cpus\": %ld", s->machine.online);
    if (s->machine.probe_ms) {
        fprintf(f, ", \"cpu_speed\": {\"probe_ms\": %u, \"sweep_kib\": %u, \"before\": ",
                (unsigned)s->machine.probe_ms, (unsigned)BENCH_PROBE_SWEEP_KIB);
        json_cpu_speeds(f, &s->machine.before);
        uint32_t n = s->machine.after_count;
        fprintf(f, ", \"after\": ");
        if (n)
            json_cpu_speeds(f, &s->machine.after[n - 1u]);
        else
            fprintf(f, "null");
        fprintf(f, ", \"after_each_repeat\": [");
        for (uint32_t r = 0; r < n; r++) {
            if (r) fputs(", ", f);
            json_cpu_speeds(f, &s->machine.after[r]);
        }
        fprintf(f, "]}");
        json_machine_check(f, &s->machine);
    }
    fprintf(f, "},\n");
    json_options(f, s->opt);
    fprintf(f, "  \"peak_rss_source\": \"%s\",\n  \"check_frame\": %u,\n  \"systems\": [",
            bench_set_rss_per_run(s) ? "VmHWM after clear_refs, per run"
                                     : "getrusage ru_maxrss, process peak",
            BENCH_CHECK_FRAME);
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++)
        fprintf(f, "%s\"%s\"", k ? ", " : "", s->systems[k]);
    fprintf(f, "],\n");
}

static void json_config(FILE *f, const bench_set *s, const bench_config *k)
{
    bench_world w = bench_world_of(s->opt, k->count, k->threads);
    fprintf(f, "\"count\": %u, \"inner_parallelism\": \"%s\", \"storage\": \"%s\", "
               "\"threads\": %u, \"particles\": %u, \"world\": [%u, %u]",
            (unsigned)k->count, bench_ip_name(k->ip_on), bench_storage_name(k->storage),
            (unsigned)k->threads, (unsigned)w.particles, (unsigned)w.w, (unsigned)w.h);
}

static void json_run(FILE *f, const bench_set *s, uint32_t r, uint32_t c)
{
    const bench_result *x = bench_set_run(s, r, c);
    fprintf(f, "    {");
    json_config(f, s, &s->cfgs[c]);
    fprintf(f, ", \"repeat\": %u, \"seed\": %u, \"frames\": %llu, "
               "\"total_ms\": %.3f, \"spawn_ms\": %.3f, \"step_mean_ms\": %.4f, "
               "\"step_p99_ms\": %.4f, \"contacts_per_frame\": %.1f, \"peak_rss_mib\": %.2f, "
               "\"final_hash\": \"%016llx\", \"hash_frame%u\": ",
            (unsigned)x->repeat, (unsigned)s->opt->seed,
            (unsigned long long)x->frames, x->total_ms, x->spawn_ms, x->step_mean_ms,
            x->step_p99_ms, x->contacts_per_frame, x->peak_rss_mib, (unsigned long long)x->hash,
            BENCH_CHECK_FRAME);
    if (x->has_check)
        fprintf(f, "\"%016llx\"", (unsigned long long)x->check_hash);
    else
        fprintf(f, "null");
    if (x->has_half)
        fprintf(f, ", \"half_dead_frame\": %llu, \"hash_half_dead\": \"%016llx\"",
                (unsigned long long)x->half_frame, (unsigned long long)x->half_hash);
    else
        fprintf(f, ", \"half_dead_frame\": null, \"hash_half_dead\": null");
    fprintf(f, ", \"work_ms\": %.3f, \"span_ms\": %.3f, \"wall_ms\": %.3f, \"available\": %.4f, "
               "\"achieved\": %.4f, \"busy\": %.4f",
            x->work_ms, x->span_ms, x->wall_ms, x->available, x->achieved, x->busy);
    fprintf(f, ", \"systems_ms\": {");
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++)
        fprintf(f, "%s\"%s\": %.4f", k ? ", " : "", s->systems[k], x->system_ms[k]);
    fprintf(f, "}}");
}

static void json_stat(FILE *f, const char *name, bench_stat v)
{
    fprintf(f, ", \"%s\": {\"mean\": %.4f, \"sd\": %.4f, \"median\": %.4f}", name, v.mean, v.sd,
            v.median);
}

static void json_summary(FILE *f, const bench_set *s, uint32_t c)
{
    const bench_summary *m = &s->sums[c];
    fprintf(f, "    {");
    json_config(f, s, &s->cfgs[c]);
    fprintf(f, ", \"runs\": %u, \"frames\": %.1f", (unsigned)s->opt->repeat, m->frames);
    json_stat(f, "total_ms", m->total);
    json_stat(f, "spawn_ms", m->spawn);
    json_stat(f, "step_mean_ms", m->step_mean);
    json_stat(f, "step_p99_ms", m->step_p99);
    json_stat(f, "contacts_per_frame", m->contacts);
    json_stat(f, "peak_rss_mib", m->rss);
    json_stat(f, "available", m->available);
    json_stat(f, "achieved", m->achieved);
    json_stat(f, "busy", m->busy);
    fprintf(f, ", \"systems_ms\": {");
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        fprintf(f, "%s\"%s\": {\"mean\": %.4f, \"sd\": %.4f}", k ? ", " : "", s->systems[k],
                m->system[k].mean, m->system[k].sd);
    }
    fprintf(f, "}}");
}

void bench_export_json(FILE *f, const bench_set *s, bool deterministic)
{
    json_head(f, s);
    fprintf(f, "  \"runs\": [\n");
    uint32_t n = 0, total = bench_set_run_count(s);
    for (uint32_t r = 0; r < s->opt->repeat; r++)
        for (uint32_t c = 0; c < s->cfg_n; c++) {
            json_run(f, s, r, c);
            fprintf(f, "%s\n", ++n < total ? "," : "");
        }
    fprintf(f, "  ],\n  \"summary\": [\n");
    for (uint32_t c = 0; c < s->cfg_n; c++) {
        json_summary(f, s, c);
        fprintf(f, "%s\n", c + 1 < s->cfg_n ? "," : "");
    }
    fprintf(f, "  ],\n  \"determinism_check\": \"per count, every run agrees on hash_frame%u, "
               "half_dead_frame and hash_half_dead (taken with particles alive; the last "
               "frame's hash where a run reaches neither) and on frames\",\n"
               "  \"deterministic\": %s\n}\n",
            BENCH_CHECK_FRAME, deterministic ? "true" : "false");
}
