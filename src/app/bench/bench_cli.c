/* bench_cli.c - the options of `particles bench`: its own flags; the
 * simulation's are parsed by options.c. */
#include "bench_cli.h"
#include "bench_msg.h"

#include <string.h>
#include <strings.h>

enum {
    OPT_REPEAT = APP_OPT_MODE_FIRST,
    OPT_FRAMES,
    OPT_CSV,
    OPT_JSON,
    OPT_CHART,
    OPT_QUIET,
    OPT_PRINT_DAG
};

static const struct option LONGOPTS[] = {
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"csv", required_argument, NULL, OPT_CSV},
    {"json", required_argument, NULL, OPT_JSON},
    {"chart", required_argument, NULL, OPT_CHART},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"print-dag", no_argument, NULL, OPT_PRINT_DAG},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

static app_sim_options default_sim(void)
{
    return (app_sim_options){
        .counts = {50000u, 100000u, 200000u},
        .count_n = 3,
        .ip_on = {true, false},
        .ip_n = 2,
        .storages = {ECS_STORAGE_FIXED, ECS_STORAGE_DYNAMIC},
        .storage_n = 2,
        .threads = app_online_cpus(),
        .fixed_limit = BENCH_THESIS_FIXED_LIMIT,
    };
}

void bench_cli_usage(FILE *f)
{
    const app_sim_options d = default_sim();
    fputs("usage: particles bench [options]\n"
          "Runs the thesis particle simulation headless for every combination of the\n"
          "listed counts, inner parallelism (IP) and storage settings, --repeat times\n"
          "(for each repeat, each count, each IP, each storage), and prints the\n"
          "thesis's tables with its published figures beside ours.\n"
          "\n",
          f);
    app_options_usage(f, BENCH_MAX_LIST, &d);
    fprintf(f,
            "  --repeat R                repeats per configuration, 1..%u (default 3)\n"
            "  --frames F                stop after F frames, 0..%u (default 0: run until\n"
            "                            every particle died, as the thesis); a run also\n"
            "                            ends early once every particle died\n"
            "  --csv FILE                write one row per run\n"
            "  --json FILE               write machine, options, runs and per-configuration\n"
            "                            mean and sd\n"
            "  --chart FILE              draw mean total ms per count with sd error bars,\n"
            "                            FILE ending in .png or .svg (needs gnuplot)\n"
            "  --quiet                   no progress line and no tables on stdout; files\n"
            "                            are still written\n"
            "  --print-dag               print the system DAG as Graphviz dot and exit\n"
            "  -h, --help                print this and exit\n"
            "\n"
            "A value listed twice in one list is rejected. Files are written to FILE.tmp\n"
            "and renamed into place once every run succeeded. Total ms = sim_create\n"
            "(spawning included) + every sim_step. Exit status: 0 done, 1 a run failed\n"
            "or final hashes disagree, 2 bad input.\n",
            BENCH_MAX_REPEAT, BENCH_MAX_FRAMES);
}

/* The bench's own flags. */
typedef struct bench_parse {
    app_mode_cli cli;
    bench_options *o;
} bench_parse;

static bool apply(int c, const char *arg, void *ctx)
{
    const bench_parse *p = ctx;
    const app_mode_cli *cli = &p->cli;
    bench_options *o = p->o;
    switch (c) {
    case OPT_REPEAT: return app_parse_u32(cli, "--repeat", arg, 1u, BENCH_MAX_REPEAT, &o->repeat);
    case OPT_FRAMES: return app_parse_u32(cli, "--frames", arg, 0u, BENCH_MAX_FRAMES, &o->frames);
    case OPT_CSV: return app_parse_file(cli, "--csv", arg, &o->csv);
    case OPT_JSON: return app_parse_file(cli, "--json", arg, &o->json);
    case OPT_CHART: return app_parse_file(cli, "--chart", arg, &o->chart);
    case OPT_QUIET: o->quiet = true; return true;
    case OPT_PRINT_DAG: o->print_dag = true; return true;
    case 'h': o->help = true; return true;
    default: return false;
    }
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcasecmp(s + n - k, suffix) == 0;
}

static bool check_files(const bench_options *o)
{
    if (o->chart && !has_suffix(o->chart, ".png") && !has_suffix(o->chart, ".svg")) {
        bench_error("--chart: '%s' is not a file name ending in .png or .svg", o->chart);
        return false;
    }
    const char *files[3] = {o->csv, o->json, o->chart};
    const char *flags[3] = {"--csv", "--json", "--chart"};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (files[i] && files[j] && strcmp(files[i], files[j]) == 0) {
                bench_error("%s and %s both name '%s'", flags[i], flags[j], files[i]);
                return false;
            }
    return true;
}

int bench_cli_parse(int argc, char **argv, bench_options *o)
{
    app_sim_options sim = default_sim();
    *o = (bench_options){.repeat = 3};
    bench_parse p = {{BENCH_PROG, BENCH_MAX_LIST, LONGOPTS, apply, NULL}, o};
    p.cli.mode_options = &p;
    int rc = app_options_parse(argc, argv, &p.cli, &sim);
    memcpy(o->counts, sim.counts, sizeof o->counts);
    o->count_n = sim.count_n;
    memcpy(o->ip_on, sim.ip_on, sizeof o->ip_on);
    o->ip_n = sim.ip_n;
    memcpy(o->storages, sim.storages, sizeof o->storages);
    o->storage_n = sim.storage_n;
    o->threads = sim.threads;
    o->seed = sim.seed;
    o->fixed_limit = sim.fixed_limit;
    o->kernel = sim.kernel;
    o->world_w = sim.world_w;
    o->world_h = sim.world_h;
    if (rc != 0 || o->help) return rc;
    return check_files(o) ? 0 : 2;
}
