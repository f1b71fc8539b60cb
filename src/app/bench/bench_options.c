/* bench_options.c - the options of `particles bench`: its own flags (the
 * simulation's are parsed by options.c), their checks against each other,
 * --help, and the one way the bench reports a failure. */
#include "bench_internal.h"
#include "bench_machine.h"
#include "options.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>

enum {
    OPT_REPEAT = APP_OPT_MODE_FIRST,
    OPT_FRAMES,
    OPT_CSV,
    OPT_JSON,
    OPT_CHART,
    OPT_QUIET,
    OPT_CPU_PROBE,
    OPT_PRINT_DAG,
    OPT_BASELINE,
    OPT_COMPARE,
    OPT_WEAK,
    OPT_TRACE,
    OPT_TRACE_FRAMES
};

static const struct option LONGOPTS[] = {
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"csv", required_argument, NULL, OPT_CSV},
    {"json", required_argument, NULL, OPT_JSON},
    {"chart", required_argument, NULL, OPT_CHART},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"cpu-probe", required_argument, NULL, OPT_CPU_PROBE},
    {"print-dag", no_argument, NULL, OPT_PRINT_DAG},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"weak", no_argument, NULL, OPT_WEAK},
    {"trace", required_argument, NULL, OPT_TRACE},
    {"trace-frames", required_argument, NULL, OPT_TRACE_FRAMES},
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
        .threads = {app_online_cpus()},
        .thread_n = 1,
        .fixed_limit = BENCH_THESIS_FIXED_LIMIT,
    };
}

void bench_options_usage(FILE *f)
{
    const app_sim_options d = default_sim();
    fputs("usage: particles bench [options]\n"
          "Runs the thesis particle simulation headless for every combination of the\n"
          "listed counts, inner parallelism (IP), storage settings and thread counts,\n"
          "--repeat times (for each repeat, each count, each IP, each storage, each\n"
          "thread count), and prints the thesis's tables with its published figures\n"
          "beside ours (and, for several thread counts, the scaling tables).\n"
          "\n",
          f);
    app_options_usage(f, BENCH_MAX_LIST, &d);
    fprintf(f,
            "  --repeat R                repeats per configuration, 1..%u (default 3)\n"
            "  --frames F                stop after F frames, 0..%u (default 0: run\n"
            "                            until every particle died, as the thesis); a run\n"
            "                            also ends early once every particle died\n"
            "  --csv FILE                write one row per run (- : standard output)\n"
            "  --json FILE               write machine, options, runs and per-configuration\n"
            "                            mean, sd and median (- : standard output)\n"
            "  --chart FILE              draw mean total ms per count with sd error bars;\n"
            "                            with several thread counts, speedup (--weak:\n"
            "                            efficiency) against threads per (count, IP,\n"
            "                            storage) with the ideal line; FILE ending in\n"
            "                            .png or .svg (needs gnuplot)\n"
            "  --weak                    weak scaling, with two or more thread counts:\n"
            "                            --entities and --world are what the smallest\n"
            "                            thread count B runs; at T threads the particles\n"
            "                            are scaled by T/B and each world side by\n"
            "                            sqrt(T/B) (both rounded): constant density\n"
            "  --quiet                   no progress line and no tables on stdout; files\n"
            "                            are still written\n"
            "  --cpu-probe MS            before the runs and after each repeat, time each\n"
            "                            CPU (the first 64 this process may use) for MS\n"
            "                            ms, all at once, 0..%u (default %u; 0: not at\n"
            "                            all): half a chain of dependent multiply-adds,\n"
            "                            half a sweep of loads and stores over 256 KiB;\n"
            "                            their speeds go under the header and into the\n"
            "                            JSON (not probed when neither is written). A\n"
            "                            shared virtual machine's cores can differ for\n"
            "                            minutes, which caps any speedup from threads\n"
            "  --baseline FILE           compare each configuration's total ms with the\n"
            "                            same configuration (particles, IP, storage) in\n"
            "                            FILE, a JSON an earlier run wrote with --json:\n"
            "                            the medians, their change, and whether it is\n"
            "                            beyond the noise (see Baseline below)\n"
            "  --compare FILE            with --baseline: compare FILE, a later --json,\n"
            "                            with the baseline instead of running; takes no\n"
            "                            other option\n"
            "  --trace FILE              write the ECS timeline of frames --trace-frames of\n"
            "                            each configuration's first repeat as a Chrome\n"
            "                            trace, JSON (- : standard output; see Traces)\n"
            "  --trace-frames A:B        the frames --trace keeps, 1-based, A through B,\n"
            "                            1 <= A <= B, at most %u (default %u:%u); with\n"
            "                            --frames N, B <= N (the default stops at N)\n"
            "  --print-dag               print the system DAG as Graphviz dot and exit;\n"
            "                            takes no other option\n"
            "  -h, --help                print this and exit\n"
            "\n"
            "A flag that takes a value is given once; a value starting with '-' goes\n"
            "after '=' (--csv=-x.csv). A value listed twice in one list is rejected.\n"
            "A long flag may be shortened to any prefix that names only it (--ent\n"
            "1000 for --entities 1000; --s is refused: --seed or --storage).\n",
            BENCH_MAX_REPEAT, BENCH_MAX_FRAMES, BENCH_PROBE_MAX_MS, BENCH_CPU_PROBE_MS,
            APP_TRACE_MAX_FRAMES, APP_TRACE_FIRST_DEFAULT, APP_TRACE_LAST_DEFAULT);
    app_options_usage_numbers(f, BENCH_MAX_LIST);
    fprintf(f,
            "\n"
            "Files: every FILE is checked before the first run (two flags naming one\n"
            "file, a directory, a file that cannot be written are bad input). A regular\n"
            "FILE is written to a new temporary in its directory and renamed over it at\n"
            "the end, keeping its mode: all of CSV, JSON, trace and chart replace their\n"
            "files together, or none does. A symbolic link is followed (the link\n"
            "stays); a FIFO or device (/dev/stdout) is written in place. With - as a\n"
            "FILE the tables are not printed. SIGINT, SIGTERM or SIGHUP stop at the\n"
            "next frame, remove the temporaries and leave every file as it was.\n"
            "\n"
            "Baseline: a Mann-Whitney U test of this run's total ms against the\n"
            "baseline's, per configuration, over the repeats of each (two-sided; exact\n"
            "for up to %u runs a side without ties, else the normal approximation with\n"
            "tie and continuity corrections). Below p = %.2f the line says faster or\n"
            "slower with the change of the median in percent, otherwise no significant\n"
            "change; where the runs are too few for any result to reach p < %.2f (1\n"
            "against 1, 3 against 3) it says so. A baseline that ran with other\n"
            "threads, frames, seed, world or kernel is named in a note. The comparison\n"
            "is printed with the tables and does not change the exit status; a FILE\n"
            "that cannot be read, is not this bench's JSON or shares no configuration\n"
            "with the run is bad input.\n"
            "\n"
            "Traces: --trace FILE.json opens in ui.perfetto.dev (or chrome://tracing):\n"
            "one process per configuration, traced on its first repeat only (the\n"
            "later repeats run untraced), one track per worker and one for each\n"
            "sim_step call. Every subtask and finish callback is an event named for\n"
            "its system, with frame, subtask, pass, entities and index range; a\n"
            "worker's sleeps are events named sleep. Frames are placed at the time\n"
            "their steps started. A run that ends before frame A (every particle\n"
            "died) is named in a note on stderr and has no frames in the file.\n"
            "\n"
            "Determinism: for each count, every run (each IP, storage and repeat) must\n"
            "agree on the state hash taken while particles are alive: after frame %u and\n"
            "at the frame when half of them have died (or after the last frame, if a\n"
            "short --frames reaches neither), and on the frame count. The final hash is\n"
            "reported too; a run to the end leaves nothing alive, so it is the same for\n"
            "every count and seed.\n"
            "\n"
            "Scaling: with several thread counts, each is a configuration like a count,\n"
            "and after the per-system table come, per (count, IP, storage), the median\n"
            "total ms at each thread count, the speedup T(B)/T(T) over the smallest\n"
            "count B, the parallel efficiency speedup x B/T, and each system's ms per\n"
            "frame and speedup. With --weak the efficiency is T(B)/T(T) (1: the time\n"
            "stays flat while the world grows) and the speedup is that x T/B. Every run\n"
            "sums the ECS timeline over its frames (the system phase of each step):\n"
            "work = all subtask and finish time, span = the critical path through the\n"
            "system DAG, wall = the phase's length; available parallelism = work/span\n"
            "(what the DAG offers), achieved = work/wall (what the run got, at most the\n"
            "threads), busy = the workers' mean share of wall spent in subtasks. Table 1\n"
            "shows achieved and busy for IP off and on, which a busy machine's wall\n"
            "clock hides. In the CSV and JSON, every run carries its threads.\n"
            "\n"
            "Total ms = sim_create (spawning included) + every sim_step.\n"
            "Exit status: 0 done; 1 a run failed, the determinism check failed, or an\n"
            "output could not be written (no file replaced); 2 bad input; 3 only the\n"
            "chart failed (CSV and JSON were written); 128+N stopped by signal N (130\n"
            "SIGINT, 143 SIGTERM, 129 SIGHUP, no file replaced); 141 standard output's\n"
            "reader went away (files written).\n",
            (unsigned)BENCH_MWU_EXACT_MAX, BENCH_MWU_ALPHA, BENCH_MWU_ALPHA, BENCH_CHECK_FRAME);
}

/* The bench's own flags. */
typedef struct bench_parse {
    app_mode_cli cli;
    bench_options *o;
    const char *run_flag; /* the first flag given that --print-dag ignores */
} bench_parse;

static bool apply(int c, const char *arg, void *ctx)
{
    bench_parse *p = ctx;
    const app_mode_cli *cli = &p->cli;
    bench_options *o = p->o;
    if (c != OPT_PRINT_DAG && c != 'h' && c != OPT_BASELINE && c != OPT_COMPARE && !p->run_flag) {
        for (const struct option *l = LONGOPTS; l->name; l++)
            if (l->val == c) p->run_flag = l->name;
    }
    switch (c) {
    case OPT_REPEAT: return app_parse_u32(cli, "--repeat", arg, 1u, BENCH_MAX_REPEAT, &o->repeat);
    case OPT_FRAMES: return app_parse_u32(cli, "--frames", arg, 0u, BENCH_MAX_FRAMES, &o->frames);
    case OPT_CSV: return app_parse_file(cli, "--csv", arg, &o->csv);
    case OPT_JSON: return app_parse_file(cli, "--json", arg, &o->json);
    case OPT_CHART: return app_parse_file(cli, "--chart", arg, &o->chart);
    case OPT_QUIET: o->quiet = true; return true;
    case OPT_CPU_PROBE:
        return app_parse_u32(cli, "--cpu-probe", arg, 0u, BENCH_PROBE_MAX_MS, &o->cpu_probe_ms);
    case OPT_PRINT_DAG: o->print_dag = true; return true;
    case OPT_BASELINE: return app_parse_file(cli, "--baseline", arg, &o->baseline);
    case OPT_COMPARE: return app_parse_file(cli, "--compare", arg, &o->compare);
    case OPT_WEAK: o->weak = true; return true;
    case OPT_TRACE: return app_parse_file(cli, "--trace", arg, &o->trace);
    case OPT_TRACE_FRAMES: return app_trace_parse_frames(cli, arg, &o->trace_frames);
    case 'h': o->help = true; return true;
    default: return false;
    }
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcasecmp(s + n - k, suffix) == 0;
}

/* The chart's name; whether two flags name one file is checked on the
 * files themselves (bench.c, out.h). */
static bool check_files(const bench_options *o)
{
    if (o->chart && !has_suffix(o->chart, ".png") && !has_suffix(o->chart, ".svg")) {
        bench_error("--chart: '%s' is not a file name ending in .png or .svg", o->chart);
        return false;
    }
    return true;
}

/* --print-dag and --compare run nothing: a run option with them would be
 * ignored; --compare needs the baseline it compares with, and a comparison
 * is printed with the tables, which --quiet leaves out. */
static bool check_no_run(const bench_parse *p, uint32_t given)
{
    const bench_options *o = p->o;
    const char *other = p->run_flag ? p->run_flag : app_shared_flag_name(given);
    if (o->print_dag && (other || o->baseline || o->compare)) {
        bench_error("--print-dag prints the system graph and runs nothing: --%s does not apply",
                    other ? other : o->baseline ? "baseline" : "compare");
        return false;
    }
    if (o->compare && !o->baseline) {
        bench_error("--compare %s needs --baseline FILE, the earlier run to compare it with",
                    o->compare);
        return false;
    }
    if (o->compare && other) {
        bench_error("--compare compares two files and runs nothing: --%s does not apply", other);
        return false;
    }
    if (o->baseline && o->quiet) {
        bench_error("--baseline %s: the comparison is printed with the tables, which "
                    "--quiet leaves out", o->baseline);
        return false;
    }
    return true;
}

/* --weak: two thread counts or more, no baseline (its configurations ran
 * other worlds), and every scaled configuration a world the simulation
 * takes: its sides, its density, its fixed storage. */
static bool check_weak(const bench_options *o)
{
    if (!o->weak) return true;
    if (o->sim.thread_n < 2) {
        bench_error("--weak grows the world with the thread count: give two or more in "
                    "--threads (e.g. --threads 1,2,4)");
        return false;
    }
    if (o->baseline) {
        bench_error("--weak with --baseline %s: a weak-scaling run is not compared with a "
                    "baseline; compare its JSON files by hand", o->baseline);
        return false;
    }
    char why[200];
    for (uint32_t i = 0; i < o->sim.count_n; i++)
        for (uint32_t t = 0; t < o->sim.thread_n; t++)
            if (!bench_world_check(o, o->sim.counts[i], o->sim.threads[t], why, sizeof why)) {
                bench_error("--weak: --entities %u at --threads %u: %s", (unsigned)o->sim.counts[i],
                            (unsigned)o->sim.threads[t], why);
                return false;
            }
    return true;
}

int bench_options_parse(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){.sim = default_sim(),
                         .repeat = 3,
                         .cpu_probe_ms = BENCH_CPU_PROBE_MS,
                         .trace_frames = {.first = APP_TRACE_FIRST_DEFAULT,
                                          .last = APP_TRACE_LAST_DEFAULT}};
    static const char *const window_flags[] = {"screenshot", "vsync",    "assets",
                                               "draw",       "size",     "color",
                                               "zoom",       "center",   "timeline",
                                               "timeline-report", NULL};
    bench_parse p = {{BENCH_PROG, BENCH_MAX_LIST, LONGOPTS, apply, NULL, "particles",
                      window_flags},
                     o, NULL};
    p.cli.mode_options = &p;
    int rc = app_options_parse(argc, argv, &p.cli, &o->sim);
    if (rc != 0 || o->help) return rc;
    return check_no_run(&p, o->sim.given) && check_files(o) && check_weak(o) &&
                   app_trace_check_options(BENCH_PROG, o->trace, &o->trace_frames, o->frames)
               ? 0
               : 2;
}

/* ---- messages ------------------------------------------------------------ */

void bench_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    app_verror(BENCH_PROG, fmt, ap);
    va_end(ap);
}
