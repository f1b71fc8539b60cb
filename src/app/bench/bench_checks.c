/* bench_checks.c - the determinism check and the goal lines. */
#include "bench_checks.h"
#include "bench_msg.h"

#include <stdarg.h>
#include <stdio.h>

#define GOAL_THREADS 2u
#define GOAL_SPEEDUP 1.75
#define GOAL_RSS_COUNT 200000u
#define GOAL_RSS_MIB 64.0
#define UNEQUAL_CPUS 0.9 /* a probe speed below this: the CPUs differed */
#define RATIOS_LISTED 20u /* repeats whose own IP on/off ratio is listed */

typedef struct total_goal {
    uint32_t count;
    double max_ms;
} total_goal;

/* Issue 9's goals, for 2 threads. */
static const total_goal TOTAL_GOALS[] = {{50000u, 250.0}, {100000u, 500.0}, {200000u, 2000.0}};
static const uint32_t SPEEDUP_COUNTS[] = {100000u, 200000u};

/* ---- determinism ---------------------------------------------------------- */

static bool same_outcome(const bench_result *a, const bench_result *b)
{
    return a->frames == b->frames && a->hash == b->hash && a->has_check == b->has_check &&
           (!a->has_check || a->check_hash == b->check_hash) && a->has_half == b->has_half &&
           (!a->has_half || (a->half_frame == b->half_frame && a->half_hash == b->half_hash));
}

static void outcome_text(char *buf, size_t size, const bench_set *s, uint32_t r, uint32_t c)
{
    const bench_result *x = bench_set_run(s, r, c);
    int n = snprintf(buf, size, "IP %s, %s, repeat %u: ", bench_ip_name(s->cfgs[c].ip_on),
                     bench_storage_name(s->cfgs[c].storage), (unsigned)r + 1u);
    if (x->has_check && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "frame %u %016llx, ", BENCH_CHECK_FRAME,
                      (unsigned long long)x->check_hash);
    if (x->has_half && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "half dead at frame %llu %016llx, ",
                      (unsigned long long)x->half_frame, (unsigned long long)x->half_hash);
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "%llu frames, final %016llx",
                 (unsigned long long)x->frames, (unsigned long long)x->hash);
}

static void report_mismatch(const bench_set *s, uint32_t count, uint32_t r0, uint32_t c0,
                            uint32_t r1, uint32_t c1, bool print)
{
    char a[200], b[200];
    outcome_text(a, sizeof a, s, r0, c0);
    outcome_text(b, sizeof b, s, r1, c1);
    bench_error("determinism MISMATCH at %u particles: %s vs %s", (unsigned)count, a, b);
    if (print)
        printf("determinism: *** MISMATCH *** at %u particles: %s vs %s\n", (unsigned)count, a,
               b);
}

/* Compares every run of count against the first one that ran. */
static bool check_count(const bench_set *s, uint32_t count, bool print)
{
    const bench_result *ref = NULL;
    uint32_t r0 = 0, c0 = 0;
    for (uint32_t r = 0; r < s->opt->repeat; r++) {
        for (uint32_t c = 0; c < s->cfg_n; c++) {
            if (s->cfgs[c].count != count) continue;
            if (!ref) {
                ref = bench_set_run(s, r, c);
                r0 = r;
                c0 = c;
            } else if (!same_outcome(ref, bench_set_run(s, r, c))) {
                report_mismatch(s, count, r0, c0, r, c, print);
                return false;
            }
        }
    }
    return true;
}

bool bench_check_determinism(const bench_set *s, bool print)
{
    const bench_options *o = s->opt;
    bool ok = true;
    for (uint32_t i = 0; i < o->count_n; i++) ok = check_count(s, o->counts[i], print) && ok;
    if (!ok || !print) return ok;
    printf("\ndeterminism: OK: for each count, its %u run(s) (every IP, storage and repeat) "
           "agreed on the state hash with particles alive ",
           (unsigned)(o->ip_n * o->storage_n * o->repeat));
    const bench_result *x = &s->runs[0];
    if (x->has_check && x->has_half)
        printf("after frame %u and when half had died (frame %llu for %u)", BENCH_CHECK_FRAME,
               (unsigned long long)x->half_frame, (unsigned)s->cfgs[0].count);
    else if (x->has_check || x->has_half)
        printf("after frame %llu%s", x->has_check ? (unsigned long long)BENCH_CHECK_FRAME
                                                  : (unsigned long long)x->half_frame,
               x->has_check ? "" : ", when half had died");
    else
        printf("after the last frame");
    printf(", and on the frame count\n");
    return ok;
}

/* ---- goals ---------------------------------------------------------------- */

static void verdict(bool pass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("  %s  ", pass ? "PASS" : "MISS");
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static int total_goals(const bench_set *s)
{
    int lines = 0;
    for (size_t i = 0; i < sizeof TOTAL_GOALS / sizeof TOTAL_GOALS[0]; i++) {
        const total_goal *g = &TOTAL_GOALS[i];
        int c = bench_set_find(s, g->count, true, ECS_STORAGE_FIXED);
        if (c < 0) continue;
        double ms = s->sums[c].total.median;
        verdict(ms <= g->max_ms, "total at %u, IP on, fixed: median %.1f ms <= %.0f ms",
                (unsigned)g->count, ms, g->max_ms);
        lines++;
    }
    return lines;
}

static int speedup_goals(const bench_set *s)
{
    int lines = 0;
    for (size_t i = 0; i < sizeof SPEEDUP_COUNTS / sizeof SPEEDUP_COUNTS[0]; i++) {
        for (uint32_t k = 0; k < s->opt->storage_n; k++) {
            ecs_storage st = s->opt->storages[k];
            int on = bench_set_find(s, SPEEDUP_COUNTS[i], true, st);
            int off = bench_set_find(s, SPEEDUP_COUNTS[i], false, st);
            if (on < 0 || off < 0) continue;
            double x = s->sums[off].total.median / s->sums[on].total.median;
            verdict(x >= GOAL_SPEEDUP, "IP on vs off at %u, %s: medians %.2fx >= %.2fx",
                    (unsigned)SPEEDUP_COUNTS[i], bench_storage_name(st), x, GOAL_SPEEDUP);
            if (s->opt->repeat > 1) { /* each repeat's own pair: a phase of the machine shows */
                printf("        per repeat:");
                for (uint32_t r = 0; r < s->opt->repeat && r < RATIOS_LISTED; r++)
                    printf(" %.2fx", bench_set_run(s, r, (uint32_t)off)->total_ms /
                                         bench_set_run(s, r, (uint32_t)on)->total_ms);
                if (s->opt->repeat > RATIOS_LISTED)
                    printf(" ... (the first %u of %u)", RATIOS_LISTED, (unsigned)s->opt->repeat);
                putchar('\n');
            }
            lines++;
        }
    }
    return lines;
}

static int rss_goal(const bench_set *s)
{
    double peak = -1.0;
    uint32_t runs = 0;
    for (uint32_t r = 0; r < s->opt->repeat; r++)
        for (uint32_t c = 0; c < s->cfg_n; c++) {
            if (s->cfgs[c].count != GOAL_RSS_COUNT) continue;
            double mib = bench_set_run(s, r, c)->peak_rss_mib;
            peak = mib > peak ? mib : peak;
            runs++;
        }
    if (runs == 0) return 0;
    verdict(peak <= GOAL_RSS_MIB, "peak RSS at %u: %.1f MiB <= %.0f MiB (largest of %u runs%s)",
            (unsigned)GOAL_RSS_COUNT, peak, GOAL_RSS_MIB, (unsigned)runs,
            bench_set_rss_per_run(s) ? "" : "; getrusage: peak of the whole process");
    return 1;
}

/* Where a probe found a CPU below UNEQUAL_CPUS: which one, in which loop,
 * when. A ratio of two runs then depends on the CPUs they ran on. */
static void unequal_cpus_note(const bench_machine *m)
{
    if (!m->probe_ms) return;
    uint32_t when = bench_machine_slowest(m, 0u), k; /* 0: before the runs, r: after repeat r */
    const bench_cpu_speeds *worst = bench_machine_probe(m, when);
    bool sweep;
    double slowest = bench_probe_slowest_at(worst, &k, &sweep);
    if (slowest >= UNEQUAL_CPUS - 0.005) return; /* printed to 2 places: below 0.90 */
    char at[32];
    if (when)
        snprintf(at, sizeof at, "after repeat %u", (unsigned)when);
    else
        snprintf(at, sizeof at, "before the runs");
    printf("  note: the CPUs were unequal: cpu%d ran the %s at %.2f of the fastest (%s), so a\n"
           "        ratio of two runs also says which CPUs they ran on\n",
           worst->cpu[k], sweep ? "sweep" : "chain", slowest, at);
}

void bench_print_goals(const bench_set *s)
{
    if (s->opt->threads == GOAL_THREADS)
        printf("\ngoals (2 threads; PASS/MISS do not change the exit status):\n");
    else
        printf("\ngoals (defined for 2 threads, this run used %u, so only indicative; "
               "PASS/MISS do not change the exit status):\n",
               (unsigned)s->opt->threads);
    int lines = total_goals(s);
    lines += speedup_goals(s);
    lines += rss_goal(s);
    if (lines == 0) printf("  none apply: the goals are for 50000, 100000 and 200000 particles\n");
    else unequal_cpus_note(&s->machine);
}
