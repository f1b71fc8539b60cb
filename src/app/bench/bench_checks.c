/* bench_checks.c - the determinism check: every run of one count ends in
 * the same state. */
#include "bench_checks.h"
#include "bench_msg.h"

#include <stdio.h>

static bool same_outcome(const bench_result *a, const bench_result *b)
{
    return a->frames == b->frames && a->hash == b->hash && a->has_check == b->has_check &&
           (!a->has_check || a->check_hash == b->check_hash) && a->has_half == b->has_half &&
           (!a->has_half || (a->half_frame == b->half_frame && a->half_hash == b->half_hash));
}

static void outcome_text(char *buf, size_t size, const bench_set *s, uint32_t r, uint32_t c)
{
    const bench_result *x = bench_set_run(s, r, c);
    int n = snprintf(buf, size, "IP %s, %s, %u threads, repeat %u: ",
                     bench_ip_name(s->cfgs[c].ip_on), bench_storage_name(s->cfgs[c].storage),
                     (unsigned)s->cfgs[c].threads, (unsigned)r + 1u);
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

/* Compares every run of count (and of threads, unless 0) against the
 * first one that ran. */
static bool check_count(const bench_set *s, uint32_t count, uint32_t threads, bool print)
{
    const bench_result *ref = NULL;
    uint32_t r0 = 0, c0 = 0;
    for (uint32_t r = 0; r < s->opt->repeat; r++) {
        for (uint32_t c = 0; c < s->cfg_n; c++) {
            if (s->cfgs[c].count != count || (threads && s->cfgs[c].threads != threads)) continue;
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
    /* --weak: each thread count simulates its own world. */
    for (uint32_t i = 0; i < o->count_n; i++)
        for (uint32_t t = 0; t < (o->weak ? o->thread_n : 1u); t++)
            ok = check_count(s, o->counts[i], o->weak ? o->threads[t] : 0u, print) && ok;
    if (!ok || !print) return ok;
    printf("\ndeterminism: OK: for each count%s, its %u run(s) (every IP, storage, %srepeat) "
           "agreed on the state hash with particles alive ",
           o->weak ? " and thread count (weak scaling: one world each)" : "",
           (unsigned)(o->ip_n * o->storage_n * o->repeat * (o->weak ? 1u : o->thread_n)),
           o->weak ? "" : "thread count and ");
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
