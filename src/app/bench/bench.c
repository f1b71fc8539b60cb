/* bench.c - `particles bench`: parse, check every output before the first
 * run, run every configuration, report, write the files together, check
 * determinism. */
#include "bench.h"
#include "bench_internal.h"
#include "mem_limit.h"
#include "hashes.h"
#include "out.h"
#include "record.h"
#include "stop.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define CHART_FAILED 3 /* documented in bench_options_usage */

/* OUT_STATE last: the outputs before it must not replace --load-state's
 * file; the state may (the file is read whole before the run). */
enum { OUT_CSV, OUT_JSON, OUT_CHART, OUT_TRACE, OUT_HASHES, OUT_STATE, OUT_COUNT };

typedef struct bench_outputs {
    app_out out[OUT_COUNT];
    char gnuplot[PATH_MAX];
    app_trace *trace; /* --trace's frames, kept while the runs go */
    app_hashes hashes; /* --hashes, written while its one run goes */
    app_state_file load; /* --load-state's, read before the runs */
} bench_outputs;

static int stage_outputs(const bench_options *o, bench_outputs *b)
{
    int rc = app_out_stage(&b->out[OUT_CSV], BENCH_PROG, "--csv", o->csv, APP_OUT_ALLOW_STDOUT);
    if (rc == 0)
        rc = app_out_stage(&b->out[OUT_JSON], BENCH_PROG, "--json", o->json,
                           APP_OUT_ALLOW_STDOUT);
    if (rc == 0) rc = app_out_stage(&b->out[OUT_CHART], BENCH_PROG, "--chart", o->chart, 0);
    if (rc == 0)
        rc = app_out_stage(&b->out[OUT_TRACE], BENCH_PROG, "--trace", o->trace,
                           APP_OUT_ALLOW_STDOUT);
    if (rc == 0) rc = app_hashes_stage(&b->hashes, &b->out[OUT_HASHES], BENCH_PROG, o);
    if (rc == 0)
        rc = app_out_stage(&b->out[OUT_STATE], BENCH_PROG, "--save-state", o->save_state, 0);
    if (rc == 0) rc = app_out_check_distinct(b->out, OUT_COUNT);
    if (rc == 0) rc = app_out_check_input(b->out, OUT_STATE, "--load-state", o->load_state);
    if (rc == 0) rc = app_out_check_input(b->out, OUT_COUNT, "--baseline", o->baseline);
    if (rc == 0) rc = app_out_check_input(b->out, OUT_COUNT, "--compare", o->compare);
    if (rc == 0 && o->chart && !bench_chart_find(b->gnuplot, sizeof b->gnuplot)) {
        bench_error("--chart %s: gnuplot is not installed, or not on PATH (%s)", o->chart,
                    BENCH_GNUPLOT_HINT);
        rc = 2;
    }
    return rc;
}

/* Whether any output goes to standard output (then the tables do not). */
static bool uses_stdout(const bench_outputs *b)
{
    for (int i = 0; i < OUT_COUNT; i++)
        if (b->out[i].kind == APP_OUT_STDOUT) return true;
    return false;
}

/* For each repeat, each count, each IP value, each storage: interleaving
 * the repeats spreads slow drift of the machine over every configuration.
 * With probe, each CPU's speed is measured before the runs and after each
 * repeat (--cpu-probe): snapshots of the machine at the ends of repeats. */
static int run_all(bench_set *s, bool probe, bench_outputs *b)
{
    bench_runner r;
    bench_runner_init(&r, s->opt, bench_set_run_count(s));
    r.trace = b->trace;
    r.hashes = &b->hashes;
    r.load = b->load.bytes ? &b->load : NULL;
    r.save = b->out[OUT_STATE].kind ? &b->out[OUT_STATE] : NULL;
    bench_mem_init();
    int rc = 0;
    uint32_t i = 0;
    uint32_t ms = probe ? s->opt->cpu_probe_ms : 0u;
    s->machine.probe_ms = ms;
    if (ms) bench_probe_cpus(&s->machine.before, ms);
    for (uint32_t rep = 0; rep < s->opt->repeat && rc == 0; rep++) {
        for (uint32_t c = 0; c < s->cfg_n && rc == 0; c++, i++)
            rc = bench_run(&r, i, rep, &s->cfgs[c], &s->runs[(size_t)rep * s->cfg_n + c],
                           s->systems);
        if (ms && rc == 0 && !app_stop_signal())
            bench_probe_cpus(&s->machine.after[s->machine.after_count++], ms);
    }
    bench_runner_free(&r);
    return rc;
}

static int write_table(app_out *out, const bench_set *s, bool deterministic, bool json)
{
    FILE *f = app_out_begin(out);
    if (!f) return 1;
    if (json)
        bench_export_json(f, s, deterministic);
    else
        bench_export_csv(f, s);
    return app_out_end(out, f);
}

static int commit_outputs(void *outs) { return app_out_commit_all(outs, OUT_COUNT); }

/* Writes the CSV and JSON then the chart, each to its temporary (or in
 * place: standard output, a FIFO, a device); then, if none of CSV and JSON
 * failed and no signal came first, renames every temporary into place
 * (app_stop_unless: no signal slips in between that check and the
 * renames). A failed chart is left out and reported: CHART_FAILED. */
static int write_outputs(bench_outputs *b, const bench_set *s, bool deterministic)
{
    app_out *o = b->out;
    int rc = 0;
    if (o[OUT_CSV].kind) rc = write_table(&o[OUT_CSV], s, deterministic, false);
    if (rc == 0 && o[OUT_JSON].kind) rc = write_table(&o[OUT_JSON], s, deterministic, true);
    if (rc == 0 && o[OUT_TRACE].kind) rc = app_trace_write_out(b->trace, &o[OUT_TRACE]);
    bool chart_ok = true;
    if (rc == 0 && o[OUT_CHART].kind && !app_stop_signal()) {
        chart_ok = bench_chart_write(s, b->gnuplot, &o[OUT_CHART]) == 0;
        if (!chart_ok) app_out_discard(&o[OUT_CHART]);
    }
    if (rc != 0) return app_stop_signal() ? app_stop_status() : rc;
    /* -1: a stop came first and nothing was replaced. */
    rc = app_stop_unless(commit_outputs, o);
    if (rc < 0) return app_stop_status();
    if (rc == 0 && !chart_ok) {
        bench_error("--chart %s: not written; the other outputs were", o[OUT_CHART].path);
        rc = CHART_FAILED;
    }
    return rc;
}

static void print_report(const bench_set *s)
{
    bench_print_header(s);
    bench_print_tables(s);
    bench_print_breakdown(s);
    bench_print_scaling(s);
}

/* The exit status after the report and the files: a failed write first,
 * then a determinism mismatch, then standard output's reader gone. */
static int final_status(int write_rc, bool deterministic, int stdout_rc, const bench_outputs *b)
{
    if (write_rc != 0 && write_rc != CHART_FAILED) return write_rc;
    if (stdout_rc == 1) return 1;
    if (!deterministic) return 1;
    if (write_rc != 0) return write_rc;
    for (int i = 0; i < OUT_COUNT; i++)
        if (b->out[i].pipe_closed) return 128 + 13; /* SIGPIPE */
    return stdout_rc;
}

/* This run against the baseline, after the determinism check. */
static void compare_run(const bench_samples *base, const bench_set *s)
{
    bench_samples cur;
    if (!bench_samples_of_set(&cur, s)) {
        bench_error("--baseline: out of memory for the comparison; the run is reported above");
        return;
    }
    bench_baseline_print(base, &cur);
    bench_samples_free(&cur);
}

static int benchmark(const bench_options *o, bench_outputs *b, const bench_samples *base)
{
    bench_set s;
    if (!bench_set_init(&s, o)) {
        bench_error("out of memory for the result tables");
        return 1;
    }
    /* The CPU speeds go to the tables and the JSON: not probed for neither. */
    bool tables = !o->quiet && !uses_stdout(b);
    int rc = bench_run_check_memory(o, s.cfgs, s.cfg_n, b->load.bytes ? &b->load : NULL);
    if (rc == 0) rc = run_all(&s, o->cpu_probe_ms && (tables || o->json), b);
    if (rc == 0) {
        bench_summarize(&s);
        if (tables) print_report(&s);
        bool deterministic = bench_check_determinism(&s, tables);
        if (tables && base) compare_run(base, &s);
        int out_rc = tables ? app_stdout_finish(BENCH_PROG) : 0;
        rc = write_outputs(b, &s, deterministic);
        if (rc < 128) rc = final_status(rc, deterministic, out_rc, b);
    }
    bench_set_free(&s);
    return rc;
}

/* --baseline, read and checked before the first run: 0, or 2 after one line. */
static int load_baseline(const bench_options *o, const bench_outputs *b, bench_samples *base)
{
    if (uses_stdout(b)) {
        bench_error("--baseline %s: the comparison is printed with the tables, which an "
                    "output to standard output (-) leaves out", o->baseline);
        return 2;
    }
    int rc = bench_samples_load(base, "--baseline", o->baseline);
    if (rc == 0 && !bench_samples_match(base, "--baseline", o)) rc = 2;
    return rc;
}

/* --load-state, read and checked before the first run: the snapshot's
 * wave count, world and seed stand for --entities, --world and --seed in
 * the reports. 0, or 2 after one line naming the file. */
static int load_state(bench_options *o, bench_outputs *b)
{
    int rc = app_state_read(BENCH_PROG, o->load_state, &b->load);
    if (rc != 0) return rc;
    const sim_state_info *i = &b->load.info;
    o->sim.counts[0] = i->particles;
    o->sim.count_n = 1;
    o->sim.world_w = (uint32_t)i->params.world_w;
    o->sim.world_h = (uint32_t)i->params.world_h;
    o->sim.seed = i->params.seed;
    return 0;
}

/* --compare: two files, no run. */
static int compare_files(const bench_options *o)
{
    bench_samples base, cur;
    int rc = bench_samples_load(&base, "--baseline", o->baseline);
    if (rc != 0) return rc;
    rc = bench_samples_load(&cur, "--compare", o->compare);
    if (rc == 0) {
        if (bench_samples_overlap(&base, "--baseline", &cur)) {
            bench_baseline_print(&base, &cur);
            rc = app_stdout_finish(BENCH_PROG);
        } else {
            rc = 2;
        }
        bench_samples_free(&cur);
    }
    bench_samples_free(&base);
    return rc;
}

/* --replay: the recording's world on this run's threads, IP, layout and
 * levels (and storage, where given), stepped as fast as it goes. */
static int replay(const bench_options *o)
{
    app_replay r;
    int rc = app_replay_load(&r, BENCH_PROG, o->replay, o);
    if (rc != 0) return rc;
    sim_config cfg = r.cfg;
    cfg.workers = o->sim.threads[0];
    cfg.max_workers = 0;
    cfg.inner_parallelism_off = !o->sim.ip_on[0];
    cfg.layout = (sim_layout)o->sim.layouts[0];
    cfg.kernel = (sim_kernel)o->sim.kernel;
    cfg.loops = (sim_kernel)o->sim.loops;
    sim_world *w = NULL;
    ecs_error err = {0};
    if (!app_mem_check(BENCH_PROG, &cfg, "--replay", o->replay)) {
        rc = 2;
    } else if (sim_create(&cfg, &w, &err) != ECS_OK) {
        bench_error("--replay %s: the recording's world could not be created: %s", o->replay,
                    err.message);
        rc = 1;
    } else {
        rc = app_replay_run(&r, w);
        if (rc == 0) rc = app_stdout_finish(BENCH_PROG);
    }
    sim_destroy(w);
    app_replay_free(&r);
    return rc;
}

int bench_main(int argc, char **argv)
{
    bench_options o;
    int rc = bench_options_parse(argc, argv, &o);
    if (rc != 0) return rc;
    if (o.help) {
        return app_print_to_stdout(BENCH_PROG, bench_options_usage);
    }
    app_stop_install();
    if (app_stdout_was_closed() && (o.print_dag || !o.quiet)) {
        bench_error("standard output is closed: nothing could be printed (redirect it, or "
                    "use --quiet with --csv/--json)");
        return 2;
    }
    if (o.print_dag) {
        rc = bench_run_print_dag(&o);
        return rc == 0 ? app_stdout_finish(BENCH_PROG) : rc;
    }
    if (o.compare) return compare_files(&o);
    if (o.replay) return replay(&o);
    bench_outputs b;
    bench_samples base;
    memset(&b, 0, sizeof b);
    memset(&base, 0, sizeof base);
    rc = stage_outputs(&o, &b);
    if (rc == 0 && o.trace && !(b.trace = app_trace_new(BENCH_PROG, &o.trace_frames))) {
        bench_error("--trace %s: out of memory", o.trace);
        rc = 1;
    }
    if (rc == 0 && o.load_state) rc = load_state(&o, &b);
    if (rc == 0 && o.baseline) rc = load_baseline(&o, &b, &base);
    if (rc == 0) rc = benchmark(&o, &b, o.baseline ? &base : NULL);
    bench_samples_free(&base);
    app_hashes_discard(&b.hashes);
    for (int i = 0; i < OUT_COUNT; i++) app_out_discard(&b.out[i]);
    app_trace_free(b.trace);
    app_state_free(&b.load);
    return rc;
}
