/* bench_options.c - the options of `particles bench`: its defaults, its
 * flags (the table's, options.h) checked against each other, --help, and
 * the one way the bench reports a failure. */
#include "bench_internal.h"
#include "bench_machine.h"
#include "hashes.h"
#include "options.h"
#include "state_file.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>

static bench_options defaults(void)
{
    bench_options d = {.sim = {.counts = {50000u, 100000u, 200000u},
                                   .count_n = 3,
                                   .ip_on = {1u, 0u},
                                   .ip_n = 2,
                                   .storages = {ECS_STORAGE_FIXED, ECS_STORAGE_DYNAMIC},
                                   .storage_n = 2,
                                   .layouts = {SIM_LAYOUT_THESIS, SIM_LAYOUT_SOA},
                                   .layout_n = 2,
                                   .threads = {app_online_cpus()},
                                   .thread_n = 1,
                                   .fixed_limit = BENCH_THESIS_FIXED_LIMIT},
                           .repeat = 3,
                           .cpu_probe_ms = BENCH_CPU_PROBE_MS,
                           .trace_frames = {.first = APP_TRACE_FIRST_DEFAULT,
                                            .last = APP_TRACE_LAST_DEFAULT}};
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) d.system_on[k] = true;
    return d;
}

void bench_options_usage(FILE *f)
{
    const bench_options d = defaults();
    fputs("usage: particles bench [options]\n"
          "Runs the thesis particle simulation headless for every combination of the\n"
          "listed counts, inner parallelism (IP), storage settings, layouts and thread\n"
          "counts, --repeat times (for each repeat, each count, each IP, each storage,\n"
          "each layout, each thread count), and prints the thesis's tables with its\n"
          "published figures beside ours, the layouts side by side (and, for several\n"
          "thread counts, the scaling tables).\n"
          "\n",
          f);
    app_options_usage(f, APP_BENCH, &d);
    fprintf(f,
            "\n"
            "Files: every FILE is checked before the first run (two flags naming one\n"
            "file, a directory, a file that cannot be written, a name with a control\n"
            "character, another user's file in a sticky directory are bad input). A regular\n"
            "FILE is written to a new temporary in its directory and renamed over it at\n"
            "the end, keeping its mode: all of CSV, JSON, trace, hashes and chart\n"
            "replace their files together, or none does. A symbolic link is followed (the link\n"
            "stays); a FIFO or device (/dev/stdout) is written in place. With - as a\n"
            "FILE the tables are not printed. The chart is the image gnuplot prints,\n"
            "kept only when gnuplot exits 0 and the image is whole. SIGINT, SIGTERM\n"
            "or SIGHUP stop at the next frame (or a wait on a FIFO), remove the\n"
            "temporaries and leave every file as it was.\n"
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

/* --print-dag and --compare run nothing: a run option with them would be
 * ignored; --compare needs the baseline it compares with, and a comparison
 * is printed with the tables, which --quiet leaves out. */
static bool check_no_run(const bench_options *o)
{
    static const char *const no_run[] = {"print-dag", "help", "baseline", "compare", NULL};
    const char *other = app_options_first_given(o, no_run);
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

/* --window-args: the quick benchmark where the window's command line
 * leaves a value at its default. */
static void quick_defaults(bench_options *o)
{
    if (!app_options_given(o, "entities")) {
        o->sim.counts[0] = 50000u;
        o->sim.count_n = 1;
    }
    if (!app_options_given(o, "inner-parallelism")) {
        o->sim.ip_on[0] = 0u;
        o->sim.ip_on[1] = 1u;
    }
    if (!app_options_given(o, "repeat")) o->repeat = 1;
}

/* --systems without life: no particle dies, so a run to the end would
 * never end. */
static bool check_systems(const bench_options *o)
{
    if (o->system_on[SIM_S_LIFE] || o->frames) return true;
    bench_error("--systems without life: no particle dies, so the runs would not end; give "
                "--frames N or list life");
    return false;
}

/* --save-state writes one run's state: one value of every list, one
 * repeat; --load-state's snapshot holds the count and world --weak grows. */
static bool check_state(const bench_options *o)
{
    if (!app_state_check_options(BENCH_PROG, o)) return false;
    if (o->load_state && o->weak) {
        bench_error("--load-state %s: --weak grows the world, which the snapshot holds",
                    o->load_state);
        return false;
    }
    if (!o->save_state) return true;
    if (!o->system_on[SIM_S_SPATIAL_PARTITION]) {
        bench_error("--save-state %s: --systems leaves out spatial_partition, whose grid a "
                    "snapshot does not hold", o->save_state);
        return false;
    }
    return app_check_one_run(BENCH_PROG, "--save-state", o->save_state, "the state", o);
}

int bench_options_parse(int argc, char **argv, bench_options *o)
{
    *o = defaults();
    int rc = app_options_parse(argc, argv, APP_BENCH, BENCH_PROG, o);
    if (rc != 0 || o->help) return rc;
    if (o->window_args) quick_defaults(o);
    if (!app_replay_check_flags(BENCH_PROG, o, APP_BENCH) || !check_no_run(o) || !check_weak(o) ||
        !check_systems(o) || !check_state(o) || !app_hashes_check(BENCH_PROG, o) ||
        !app_trace_check_options(BENCH_PROG, o->trace, &o->trace_frames, o->frames))
        return 2;
    if (o->left_out[0]) bench_error("left out, for the window only: %s", o->left_out);
    return 0;
}

/* ---- messages ------------------------------------------------------------ */

void bench_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    app_verror(BENCH_PROG, fmt, ap);
    va_end(ap);
}
