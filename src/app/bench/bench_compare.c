/* bench_compare.c - two runs side by side: per configuration the medians,
 * their change, and whether it is beyond the noise of the repeats. */
#include "bench_baseline.h"
#include "bench_mwu.h"
#include "bench_stats.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static double median_of(const double *v, uint32_t n)
{
    double copy[BENCH_MAX_REPEAT];
    memcpy(copy, v, n * sizeof *v);
    return bench_percentile(copy, n, 50.0);
}

/* The fewest runs on the compared side that, against nb baseline runs,
 * could give a p below the threshold; 0 if none up to BENCH_MAX_REPEAT. */
static uint32_t runs_needed(uint32_t nb)
{
    for (uint32_t k = 1; k <= BENCH_MAX_REPEAT; k++)
        if (bench_mwu_p_min(k, nb) < BENCH_MWU_ALPHA) return k;
    return 0;
}

/* Appends ", " (unless buf is empty) and the formatted text to buf. */
static void append(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used && used < size) used += (size_t)snprintf(buf + used, size - used, ", ");
    if (used >= size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

/* "threads 1, frames 10": a's values of the options where a and b differ. */
static void differing(char *buf, size_t size, const bench_sample_opts *a,
                      const bench_sample_opts *b)
{
    buf[0] = '\0';
    if (a->threads != b->threads && a->threads && b->threads)
        append(buf, size, "threads %u", (unsigned)a->threads);
    if (a->frames != b->frames)
        append(buf, size, "frames %u%s", (unsigned)a->frames, a->frames ? "" : " (to the end)");
    if (a->seed != b->seed) append(buf, size, "seed %u", (unsigned)a->seed);
    if (a->world_w != b->world_w || a->world_h != b->world_h)
        append(buf, size, "world %ux%u", (unsigned)a->world_w, (unsigned)a->world_h);
    if (strcmp(a->kernel, b->kernel) != 0) append(buf, size, "kernel %s", a->kernel);
}

static void print_line(const bench_samples *base, const bench_samples *cur, uint32_t c,
                       bool by_threads)
{
    const bench_config *k = &cur->cfg[c];
    printf("%9u  IP %-3s  %-7s  ", (unsigned)k->count, bench_ip_name(k->ip_on),
           bench_storage_name(k->storage));
    if (by_threads) printf("%3u threads  ", (unsigned)k->threads);
    int b = bench_samples_find(base, k, by_threads);
    if (b < 0) {
        printf("not in the baseline\n");
        return;
    }
    uint32_t nc = cur->n[c], nb = base->n[b];
    double mc = median_of(cur->ms[c], nc), mb = median_of(base->ms[b], nb);
    printf("median %9.1f -> %9.1f ms  %+7.1f %%  ", mb, mc, mb > 0.0 ? (mc - mb) / mb * 100.0 : 0.0);
    bench_mwu t = bench_mwu_test(cur->ms[c], nc, base->ms[b], nb);
    if (t.p_min >= BENCH_MWU_ALPHA) {
        uint32_t need = runs_needed(nb);
        printf("too few runs to tell a change from noise (%u vs %u: no result could reach p < "
               "%.2f", (unsigned)nb, (unsigned)nc, BENCH_MWU_ALPHA);
        if (need) printf("; against %u baseline run%s at least %u are needed: --repeat %u",
                         (unsigned)nb, nb == 1 ? "" : "s", (unsigned)need, (unsigned)need);
        printf(")\n");
        return;
    }
    const char *verdict = "no significant change";
    if (t.p < BENCH_MWU_ALPHA)
        verdict = t.u > (double)nc * (double)nb / 2.0 ? "slower" : "faster";
    if (t.p < 0.001)
        printf("%s (p < 0.001, %u vs %u runs)\n", verdict, (unsigned)nb, (unsigned)nc);
    else
        printf("%s (p = %.3f, %u vs %u runs)\n", verdict, t.p, (unsigned)nb, (unsigned)nc);
}

void bench_baseline_print(const bench_samples *base, const bench_samples *cur)
{
    if (cur->name)
        printf("%s against the baseline %s", cur->name, base->name);
    else
        printf("\nagainst the baseline %s", base->name);
    printf(" (total ms per run, medians; Mann-Whitney U test over the runs, two-sided, "
           "p < %.2f: beyond the noise):\n", BENCH_MWU_ALPHA);
    char theirs[160], ours[160];
    differing(theirs, sizeof theirs, &base->opts, &cur->opts);
    differing(ours, sizeof ours, &cur->opts, &base->opts);
    if (theirs[0])
        printf("note: the baseline ran with %s, %s with %s: a change comes from that too\n",
               theirs, cur->name ? cur->name : "this run", ours);
    bool by_threads = bench_samples_by_threads(base->opts.threads, cur->opts.threads);
    for (uint32_t c = 0; c < cur->cfg_n; c++) print_line(base, cur, c, by_threads);
}
