/* bench_export.c - the runs in files: CSV (one row per run), JSON
 * (machine, options, runs, per-configuration summary) and the chart, drawn
 * by gnuplot from a script (data included) sent through a pipe, the image
 * read back through another and written through out.h. */
#include "app_steady.h"
#include "bench_internal.h"
#include "out.h"
#include "stop.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h>
#else
#include <spawn.h>
#include <sys/wait.h>
#endif

/* ---- CSV ----------------------------------------------------------------- */

static void csv_head(FILE *f, const bench_set *s)
{
    fprintf(f, "count,inner_parallelism,storage,layout,threads,systems,repeat,seed,frames,total_ms,spawn_ms,"
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
    char systems[160];
    bench_systems_name(systems, sizeof systems, s->opt);
    for (char *p = systems; *p; p++) *p = *p == ',' ? '+' : *p; /* one field of the row */
    fprintf(f, "%u,%s,%s,%s,%u,%s,%u,%u,%llu,%.3f,%.3f,%.4f,%.4f,%.1f,%.2f,", (unsigned)k->count,
            bench_ip_name(k->ip_on), bench_storage_name(k->storage), sim_layout_name(k->layout),
            (unsigned)k->threads, systems, (unsigned)x->repeat, (unsigned)s->opt->sim.seed, (unsigned long long)x->frames,
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

/* ---- JSON ---------------------------------------------------------------- */

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
    for (uint32_t i = 0; i < o->sim.count_n; i++)
        fprintf(f, "%s%u", i ? ", " : "", (unsigned)o->sim.counts[i]);
    fprintf(f, "], \"inner_parallelism\": [");
    for (uint32_t i = 0; i < o->sim.ip_n; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", bench_ip_name(o->sim.ip_on[i]));
    fprintf(f, "], \"storage\": [");
    for (uint32_t i = 0; i < o->sim.storage_n; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", bench_storage_name(o->sim.storages[i]));
    fprintf(f, "], \"layout\": [");
    for (uint32_t i = 0; i < o->sim.layout_n; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", sim_layout_name((sim_layout)o->sim.layouts[i]));
    fprintf(f, "], \"systems\": [");
    for (uint32_t k = 0, n = 0; k < SIM_SYSTEM_COUNT; k++)
        if (o->system_on[k]) fprintf(f, "%s\"%s\"", n++ ? ", " : "", sim_system_name(k));
    const sim_params d = sim_default_params();
    /* One thread count: a number, as before lists; several: a list. */
    fprintf(f, "], \"threads\": %s", o->sim.thread_n > 1 ? "[" : "");
    for (uint32_t i = 0; i < o->sim.thread_n; i++)
        fprintf(f, "%s%u", i ? ", " : "", (unsigned)o->sim.threads[i]);
    fprintf(f, "%s, \"weak\": %s, \"repeat\": %u, \"seed\": %u, \"frames\": %u, "
               "\"fixed_limit\": %u, \"kernel\": \"%s\", \"loops\": \"%s\", \"world\": [%u, %u]},\n",
            o->sim.thread_n > 1 ? "]" : "", o->weak ? "true" : "false", (unsigned)o->repeat,
            (unsigned)o->sim.seed, (unsigned)o->frames,
            (unsigned)o->sim.fixed_limit, sim_kernel_name(sim_kernel_resolve(o->sim.kernel)),
            sim_kernel_name(sim_kernel_resolve(o->sim.loops)),
            o->sim.world_w ? (unsigned)o->sim.world_w : (unsigned)d.world_w,
            o->sim.world_w ? (unsigned)o->sim.world_h : (unsigned)d.world_h);
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
            APP_STEADY, c.unequal ? "true" : "false", c.busy ? "true" : "false", c.cpu,
            c.cpu_sweep ? "sweep" : "chain", c.cpu_speed, cpu_at,
            c.machine_sweep ? "sweep" : "chain", c.machine_speed, machine_at);
}

static void json_head(FILE *f, const bench_set *s)
{
    fprintf(f, "{\n  \"machine\": {\"cpu\": ");
    json_string(f, s->machine.cpu);
    fprintf(f, ", \"online_cpus\": %ld", s->machine.online);
    if (s->machine.probe_ms && !bench_probe_available()) {
        fprintf(f, ", \"cpu_speed\": null, \"cpu_check\": null");
    } else if (s->machine.probe_ms) {
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
               "\"layout\": \"%s\", \"threads\": %u, \"particles\": %u, \"world\": [%u, %u]",
            (unsigned)k->count, bench_ip_name(k->ip_on), bench_storage_name(k->storage),
            sim_layout_name(k->layout), (unsigned)k->threads, (unsigned)w.particles, (unsigned)w.w, (unsigned)w.h);
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
            (unsigned)x->repeat, (unsigned)s->opt->sim.seed,
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

/* ---- chart --------------------------------------------------------------- */

#define MAX_SERIES 8u

#if defined(_WIN32)

bool bench_chart_find(char *exe, size_t size)
{
    DWORD n = SearchPathA(NULL, "gnuplot.exe", NULL, size > MAXDWORD ? MAXDWORD : (DWORD)size,
                          exe, NULL);
    return n > 0 && n < size;
}

#else

bool bench_chart_find(char *exe, size_t size)
{
    char fallback[256] = "/usr/bin:/bin";
    const char *path = getenv("PATH");
    if (!path) {
        size_t n = confstr(_CS_PATH, fallback, sizeof fallback);
        if (n == 0 || n > sizeof fallback) snprintf(fallback, sizeof fallback, "/usr/bin:/bin");
        path = fallback;
    }
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, ":");
        struct stat st;
        /* An empty entry is the current directory, as for execvp. */
        int n = len ? snprintf(exe, size, "%.*s/gnuplot", (int)len, p)
                    : snprintf(exe, size, "./gnuplot");
        if (n > 0 && (size_t)n < size && stat(exe, &st) == 0 && S_ISREG(st.st_mode) &&
            access(exe, X_OK) == 0)
            return true;
        p += len;
        if (*p == ':') p++;
    }
    return false;
}

#endif

/* The selected configurations of the first count, baseline first: IP off
 * before on, fixed before dynamic, soa before thesis. */
static uint32_t series(const bench_set *s, bench_config out[MAX_SERIES])
{
    uint32_t n = 0;
    for (int i = 0; i < 2; i++)
        for (int k = ECS_STORAGE_FIXED; k >= 0; k--)
            for (int l = 0; l < SIM_LAYOUT_COUNT; l++) {
                bench_config c = {s->cfgs[0].count, i == 1, (ecs_storage)k, (sim_layout)l,
                                  s->cfgs[0].threads};
                if (bench_set_find(s, &c) >= 0) out[n++] = c;
            }
    return n;
}

/* The totals as the datablock $totals: count, then mean and sd of each
 * series. */
static void script_data(FILE *f, const bench_set *s, const bench_config *ser, uint32_t n)
{
    fprintf(f, "$totals << EOD\n");
    for (uint32_t i = 0; i < s->opt->sim.count_n; i++) {
        uint32_t count = s->opt->sim.counts[i];
        fprintf(f, "%u", (unsigned)count);
        for (uint32_t j = 0; j < n; j++) {
            bench_config k = ser[j];
            k.count = count;
            int c = bench_set_find(s, &k);
            fprintf(f, " %.3f %.3f", s->sums[c].total.mean, s->sums[c].total.sd);
        }
        fputc('\n', f);
    }
    fprintf(f, "EOD\n");
}

/* A gnuplot single-quoted string: no escapes but '' for a quote. */
static void put_quoted(FILE *f, const char *str)
{
    fputc('\'', f);
    for (const char *p = str; *p; p++) {
        if (*p == '\'') fputc('\'', f);
        fputc(*p, f);
    }
    fputc('\'', f);
}

static void script_terminal(FILE *f, bool svg)
{
    if (svg) {
        fprintf(f, "set terminal svg size 1100,650 dynamic font 'sans,12' background '#ffffff'\n");
        return;
    }
    fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "    set terminal pngcairo size 1100,650 font 'sans,11' background '#ffffff'\n"
               "} else {\n"
               "    set terminal png size 1100,650 background '#ffffff'\n"
               "}\n");
}

static void script_title(FILE *f, const bench_set *s)
{
    char line[256];
    fprintf(f, "set title ");
    snprintf(line, sizeof line, "particles bench: total ms per run, mean of %u, error bars 1 sd",
             (unsigned)s->opt->repeat);
    put_quoted(f, line);
    fprintf(f, " . \"\\n\" . ");
    snprintf(line, sizeof line, "%s, %u threads, seed %u", s->machine.cpu,
             (unsigned)s->opt->sim.threads[0], (unsigned)s->opt->sim.seed);
    put_quoted(f, line);
    fprintf(f, " noenhanced\n");
}

static void script_plot(FILE *f, const bench_config *ser, uint32_t n)
{
    fprintf(f, "plot ");
    for (uint32_t j = 0; j < n; j++)
        fprintf(f, "%s$totals using %u:%u%s title 'IP %s, %s, %s'", j ? ", " : "", 2u + 2u * j,
                3u + 2u * j, j == 0 ? ":xtic(1)" : "", bench_ip_name(ser[j].ip_on),
                bench_storage_name(ser[j].storage), sim_layout_name(ser[j].layout));
    fputc('\n', f);
}

static void write_bars(FILE *f, const bench_set *s, bool svg, const bench_config *ser,
                       uint32_t n)
{
    script_data(f, s, ser, n);
    script_terminal(f, svg);
    script_title(f, s);
    fprintf(f, "set style data histograms\n"
               "set style histogram errorbars gap 2 lw 1.5\n"
               "set style fill solid 0.85 border -1\n"
               "set boxwidth 0.9\n"
               "set xlabel 'particles'\n"
               "set ylabel 'total ms (create with spawning + every frame)'\n"
               "set yrange [0:*]\n"
               "set grid ytics\n"
               "set key outside right top\n");
    script_plot(f, ser, n);
    fprintf(f, "set output\n"); /* ends the image before gnuplot exits */
}

/* Several thread counts: speedup (weak: efficiency) against threads, one
 * line per (count, IP, storage) group, each a datablock $gN, with the
 * ideal line. */
static void write_scaling(FILE *f, const bench_set *s, bool svg)
{
    const bench_options *o = s->opt;
    uint32_t groups = s->cfg_n / o->sim.thread_n, base = bench_base_threads(o);
    for (uint32_t g = 0; g < groups; g++) {
        fprintf(f, "$g%u << EOD\n", (unsigned)g);
        for (uint32_t t = 0; t < o->sim.thread_n; t++) {
            bench_scale_point p = bench_scale_point_of(s, g * o->sim.thread_n + t);
            fprintf(f, "%u %.4f\n", (unsigned)p.threads, o->weak ? p.efficiency : p.speedup);
        }
        fprintf(f, "EOD\n");
    }
    script_terminal(f, svg);
    char line[256];
    fprintf(f, "set title ");
    snprintf(line, sizeof line, "particles bench: %s against threads, medians of %u",
             o->weak ? "weak-scaling efficiency T(base)/T(n)" : "speedup T(base)/T(n)",
             (unsigned)o->repeat);
    put_quoted(f, line);
    fprintf(f, " . \"\\n\" . ");
    snprintf(line, sizeof line, "%s, base %u thread%s, seed %u", s->machine.cpu, (unsigned)base,
             base == 1 ? "" : "s", (unsigned)o->sim.seed);
    put_quoted(f, line);
    fprintf(f, " noenhanced\n"
               "set xlabel 'threads'\n"
               "set ylabel '%s'\n"
               "set xrange [0:*]\n"
               "set yrange [0:*]\n"
               "set grid\n"
               "set key outside right top noenhanced\n",
            o->weak ? "efficiency (1: flat time as the world grows)" : "speedup");
    /* Ideal: efficiency 1; speedup = threads / base. */
    if (o->weak)
        fprintf(f, "plot 1 title 'ideal (efficiency 1)'");
    else if (base == 1)
        fprintf(f, "plot x title 'ideal (speedup = threads)'");
    else
        fprintf(f, "plot x / %u.0 title 'ideal (speedup = threads / %u)'", (unsigned)base,
                (unsigned)base);
    fprintf(f, " with lines dashtype 2 lc rgb '#808080'");
    for (uint32_t g = 0; g < groups; g++) {
        const bench_config *k = &s->cfgs[g * o->sim.thread_n];
        fprintf(f, ", $g%u using 1:2 with linespoints title '%u, IP %s, %s, %s'", (unsigned)g,
                (unsigned)k->count, bench_ip_name(k->ip_on), bench_storage_name(k->storage),
                sim_layout_name(k->layout));
    }
    fprintf(f, "\nset output\n");
}

/* The script: the data, the terminal, then the plot, last but for the
 * "set output" that ends the image. No file name is in it: the image goes
 * to gnuplot's standard output (the terminal's default output), which this
 * program copies to the file. */
static void write_script(FILE *f, const bench_set *s, bool svg, const bench_config *ser,
                         uint32_t n)
{
    if (s->opt->sim.thread_n > 1)
        write_scaling(f, s, svg);
    else
        write_bars(f, s, svg, ser, n);
}

/* gnuplot as a child process: its handle (Windows) or process id. */
#if defined(_WIN32)
typedef HANDLE chart_child;

/* Waits for gnuplot; a stop request meanwhile (the console's handler runs
 * on a thread of its own, so the wait looks for it every 100 ms) ends it. */
static bool wait_gnuplot(const char *exe, chart_child child)
{
    bool killed = false;
    while (WaitForSingleObject(child, 100) == WAIT_TIMEOUT)
        if (app_stop_signal() && !killed) killed = TerminateProcess(child, 128 + SIGTERM);
    DWORD status = 1;
    bool got = GetExitCodeProcess(child, &status);
    CloseHandle(child);
    if (app_stop_signal()) return false; /* the caller reports the stop */
    if (!got || status != 0) {
        bench_error("--chart: %s failed with exit status %lu (its messages are above)", exe,
                    (unsigned long)status);
        return false;
    }
    return true;
}

static void stop_gnuplot(chart_child child) { (void)TerminateProcess(child, 128 + SIGTERM); }

/* A pipe whose end *ours stays here and whose other end the child
 * inherits. */
static bool child_pipe(HANDLE *ours, HANDLE *theirs, bool to_child)
{
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, NULL, TRUE};
    HANDLE r, w;
    if (!CreatePipe(&r, &w, &inherit, 0)) {
        bench_error("--chart: cannot make a pipe to gnuplot (Windows error %lu)",
                    (unsigned long)GetLastError());
        return false;
    }
    *ours = to_child ? w : r;
    *theirs = to_child ? r : w;
    SetHandleInformation(*ours, HANDLE_FLAG_INHERIT, 0);
    return true;
}

/* Starts exe reading its script from a pipe (*to) and writing the image
 * to another (*from). Its messages go to this program's standard error. */
static bool start_gnuplot(const char *exe, chart_child *child, FILE **to, int *from)
{
    HANDLE in_ours, in_theirs, out_ours, out_theirs;
    if (!child_pipe(&in_ours, &in_theirs, true)) return false;
    if (!child_pipe(&out_ours, &out_theirs, false)) {
        CloseHandle(in_ours);
        CloseHandle(in_theirs);
        return false;
    }
    STARTUPINFOA si = {.cb = sizeof si, .dwFlags = STARTF_USESTDHANDLES};
    si.hStdInput = in_theirs;
    si.hStdOutput = out_theirs;
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    PROCESS_INFORMATION pi;
    char cmd[] = "gnuplot";
    bool started = CreateProcessA(exe, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi);
    DWORD err = GetLastError();
    CloseHandle(in_theirs);
    CloseHandle(out_theirs);
    int in_fd = started ? _open_osfhandle((intptr_t)in_ours, 0) : -1;
    *to = in_fd >= 0 ? fdopen(in_fd, "wb") : NULL;
    *from = started ? _open_osfhandle((intptr_t)out_ours, _O_RDONLY | _O_BINARY) : -1;
    if (!*to || *from < 0) {
        bench_error("--chart: cannot start %s (Windows error %lu)", exe, (unsigned long)err);
        if (*to) fclose(*to);
        else if (in_fd >= 0) close(in_fd);
        else CloseHandle(in_ours);
        if (*from >= 0) close(*from);
        else CloseHandle(out_ours);
        if (started) {
            TerminateProcess(pi.hProcess, 1);
            CloseHandle(pi.hProcess);
            CloseHandle(pi.hThread);
        }
        return false;
    }
    CloseHandle(pi.hThread);
    *child = pi.hProcess;
    return true;
}

#else

extern char **environ;

typedef pid_t chart_child;

/* A pipe whose end *ours stays here (close-on-exec) and whose other end
 * the child gets as fd. */
static bool child_pipe(posix_spawn_file_actions_t *fa, int fds[2], bool to_child, int fd)
{
    if (pipe(fds) != 0) {
        bench_error("--chart: cannot make a pipe to gnuplot: %s", strerror(errno));
        return false;
    }
    fcntl(fds[to_child ? 1 : 0], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_adddup2(fa, fds[to_child ? 0 : 1], fd);
    return true;
}

/* Starts exe reading its script from a pipe (*to) and writing the image
 * to another (*from), the signals this program handles or ignores back to
 * default. Its messages go to this program's standard error. */
static bool start_gnuplot(const char *exe, chart_child *pid, FILE **to, int *from)
{
    int in[2], out[2];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (!child_pipe(&fa, in, true, STDIN_FILENO)) {
        posix_spawn_file_actions_destroy(&fa);
        return false;
    }
    if (!child_pipe(&fa, out, false, STDOUT_FILENO)) {
        posix_spawn_file_actions_destroy(&fa);
        close(in[0]);
        close(in[1]);
        return false;
    }
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGHUP);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {(char *)"gnuplot", NULL};
    int err = posix_spawn(pid, exe, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(in[0]);
    close(out[1]);
    *to = err == 0 ? fdopen(in[1], "wb") : NULL;
    *from = out[0];
    if (err != 0 || !*to) {
        bench_error("--chart: cannot start %s: %s", exe, strerror(err ? err : errno));
        close(in[1]);
        close(out[0]);
        if (err == 0) waitpid(*pid, NULL, 0);
        return false;
    }
    return true;
}

/* Waits for gnuplot; a stop signal meanwhile ends it. */
static bool wait_gnuplot(const char *exe, chart_child pid)
{
    int status = 0;
    bool killed = false;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            bench_error("--chart: waiting for %s failed: %s", exe, strerror(errno));
            return false;
        }
        if (app_stop_signal() && !killed) killed = kill(pid, SIGTERM) == 0;
    }
    if (app_stop_signal()) return false; /* the caller reports the stop */
    if (WIFSIGNALED(status)) {
        bench_error("--chart: %s was killed by signal %d", exe, WTERMSIG(status));
        return false;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bench_error("--chart: %s failed with exit status %d (its messages are above)", exe,
                    WEXITSTATUS(status));
        return false;
    }
    return true;
}

static void stop_gnuplot(chart_child child) { (void)kill(child, SIGTERM); }

#endif

/* The last bytes gnuplot wrote, to tell a whole image from a cut one. */
#define TAIL_MAX 16u
typedef struct chart_copy {
    unsigned char tail[TAIL_MAX];
    size_t kept;      /* of tail */
    size_t total;     /* bytes copied */
    int read_err;     /* errno of a failed read, or 0 */
    bool write_failed;
} chart_copy;

/* Copies what gnuplot writes on from to f until it closes its end; a stop
 * signal ends the copy early (the caller then kills gnuplot). */
static void copy_image(int from, FILE *f, chart_copy *c)
{
    unsigned char buf[65536];
    for (;;) {
        ssize_t n = read(from, buf, sizeof buf);
        if (n < 0 && errno == EINTR && !app_stop_signal()) continue;
        if (n < 0) c->read_err = errno;
        if (n <= 0) return;
        if (!c->write_failed && fwrite(buf, 1, (size_t)n, f) != (size_t)n) c->write_failed = true;
        unsigned char both[2 * TAIL_MAX];
        size_t keep = (size_t)n < TAIL_MAX ? (size_t)n : TAIL_MAX;
        memcpy(both, c->tail, c->kept);
        memcpy(both + c->kept, buf + (size_t)n - keep, keep);
        size_t all = c->kept + keep, start = all > TAIL_MAX ? all - TAIL_MAX : 0u;
        memcpy(c->tail, both + start, all - start);
        c->kept = all - start;
        c->total += (size_t)n;
    }
}

/* Whether the copied bytes end as a whole image does: a PNG with its IEND
 * chunk, an SVG with its closing tag (and white space). */
static bool image_complete(const chart_copy *c, bool svg)
{
    size_t n = c->kept;
    const unsigned char *end = c->tail + n;
    if (!svg) {
        static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
        return n >= sizeof iend && memcmp(end - sizeof iend, iend, sizeof iend) == 0;
    }
    while (n > 0 && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t')) {
        end--;
        n--;
    }
    return n >= 6 && memcmp(end - 6, "</svg>", 6) == 0;
}

int bench_chart_write(const bench_set *s, const char *exe, app_out *out)
{
    const char *name = out->path;
    bool svg = strlen(name) >= 4 && strcasecmp(name + strlen(name) - 4, ".svg") == 0;
    bench_config ser[MAX_SERIES];
    uint32_t n = series(s, ser);
    FILE *f = app_out_begin(out);
    if (!f) return 1;
    chart_child pid;
    FILE *to;
    int from;
    if (!start_gnuplot(exe, &pid, &to, &from)) {
        app_out_end(out, f);
        return 1;
    }
    /* The whole script first, then the image: gnuplot reads every line up
     * to the plot before it writes, and what follows the plot is one short
     * line that the pipe holds, so neither side waits on the other. */
    write_script(to, s, svg, ser, n);
    bool sent = fflush(to) == 0 && !ferror(to);
    int err = errno;
    fclose(to);
    chart_copy c = {{0}, 0, 0, 0, false};
    copy_image(from, f, &c);
    close(from);
    if (app_stop_signal()) stop_gnuplot(pid);
    bool ok = wait_gnuplot(exe, pid);
    if (ok && !sent) {
        bench_error("--chart: sending the script to %s failed: %s", exe, strerror(err));
        ok = false;
    }
    if (ok && c.read_err) {
        bench_error("--chart: reading the image from %s failed: %s", exe, strerror(c.read_err));
        ok = false;
    }
    if (app_out_end(out, f) != 0) ok = false; /* a full disk: the message is out */
    else if (ok && !image_complete(&c, svg)) {
        bench_error("--chart %s: %s wrote %s %s image (%zu bytes); the file is left as it was",
                    name, exe, c.total ? "an incomplete" : "no", svg ? "SVG" : "PNG", c.total);
        ok = false;
    }
    return ok ? 0 : 1;
}
