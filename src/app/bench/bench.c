/* bench.c - `particles bench`: parse, check the outputs can be written, run
 * every configuration, report, write the files, check determinism. */
#include "bench.h"
#include "bench_chart.h"
#include "bench_checks.h"
#include "bench_export.h"
#include "bench_mem.h"
#include "bench_msg.h"
#include "bench_out.h"
#include "bench_run.h"
#include "bench_summary.h"
#include "bench_tables.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum { OUT_CSV, OUT_JSON, OUT_CHART, OUT_COUNT };

static int stage_outputs(const bench_options *o, bench_out outs[OUT_COUNT])
{
    int rc = bench_out_stage(&outs[OUT_CSV], "--csv", o->csv);
    if (rc == 0) rc = bench_out_stage(&outs[OUT_JSON], "--json", o->json);
    if (rc == 0) rc = bench_out_stage(&outs[OUT_CHART], "--chart", o->chart);
    return rc;
}

/* For each repeat, each count, each IP value, each storage: interleaving
 * the repeats spreads slow drift of the machine over every configuration. */
static int run_all(bench_set *s)
{
    bench_runner r;
    bench_runner_init(&r, s->opt, bench_set_run_count(s));
    bench_mem_init();
    int rc = 0;
    uint32_t i = 0;
    for (uint32_t rep = 0; rep < s->opt->repeat && rc == 0; rep++)
        for (uint32_t c = 0; c < s->cfg_n && rc == 0; c++, i++)
            rc = bench_run(&r, i, rep, &s->cfgs[c], &s->runs[(size_t)rep * s->cfg_n + c],
                           s->systems);
    bench_runner_free(&r);
    return rc;
}

static int write_file(const bench_out *out, const bench_set *s, bool deterministic, bool json)
{
    FILE *f = fopen(out->tmp, "w");
    bool ok = f != NULL;
    if (ok) {
        if (json)
            bench_export_json(f, s, deterministic);
        else
            bench_export_csv(f, s);
        ok = !ferror(f);
        ok = fclose(f) == 0 && ok;
    }
    if (!ok) bench_error("%s: writing %s failed: %s", out->flag, out->tmp, strerror(errno));
    return ok ? 0 : 1;
}

/* Every file to its .tmp first; renamed only once all were written. */
static int write_outputs(bench_out outs[OUT_COUNT], const bench_set *s, bool deterministic)
{
    int rc = 0;
    if (outs[OUT_CSV].tmp) rc = write_file(&outs[OUT_CSV], s, deterministic, false);
    if (rc == 0 && outs[OUT_JSON].tmp) rc = write_file(&outs[OUT_JSON], s, deterministic, true);
    if (rc == 0 && outs[OUT_CHART].tmp)
        rc = bench_chart_write(s, outs[OUT_CHART].tmp, outs[OUT_CHART].path);
    for (int i = 0; i < OUT_COUNT && rc == 0; i++) rc = bench_out_commit(&outs[i]);
    return rc;
}

static void print_report(const bench_set *s)
{
    bench_print_header(s);
    bench_print_table1(s);
    bench_print_table2(s);
    bench_print_breakdown(s);
}

static int benchmark(const bench_options *o, bench_out outs[OUT_COUNT])
{
    bench_set s;
    if (!bench_set_init(&s, o)) {
        bench_error("out of memory for the result tables");
        return 1;
    }
    int rc = run_all(&s);
    if (rc == 0) {
        bench_summarize(&s);
        if (!o->quiet) print_report(&s);
        bool deterministic = bench_check_determinism(&s, !o->quiet);
        if (!o->quiet) bench_print_goals(&s);
        fflush(stdout);
        rc = write_outputs(outs, &s, deterministic);
        if (rc == 0 && !deterministic) rc = 1;
    }
    bench_set_free(&s);
    return rc;
}

int bench_main(int argc, char **argv)
{
    bench_options o;
    int rc = bench_cli_parse(argc, argv, &o);
    if (rc != 0) return rc;
    if (o.help) {
        bench_cli_usage(stdout);
        return 0;
    }
    if (o.print_dag) return bench_run_print_dag(&o);
    if (o.chart && !bench_chart_available()) {
        bench_error("--chart %s: gnuplot is not installed (apt-get install gnuplot-nox)", o.chart);
        return 2;
    }
    bench_out outs[OUT_COUNT] = {{0}};
    rc = stage_outputs(&o, outs);
    if (rc == 0) rc = benchmark(&o, outs);
    for (int i = 0; i < OUT_COUNT; i++) bench_out_discard(&outs[i]);
    return rc;
}
