/* bench_baseline.c - a run against an earlier one: reading a run back
 * from the bench's JSON, comparing two runs configuration by
 * configuration, and the Mann-Whitney U test that says whether a change
 * is beyond the noise of the repeats. */
#include "bench_internal.h"
#include "args.h"
#include "read_file.h"
#include "stop.h"

#include <assert.h>
#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILE_MAX ((uint64_t)256 << 20) /* a JSON of the most runs is far smaller */
#define TOTAL_MS_MAX 1e12                 /* over 30 years: no run of this bench */
#define TOTAL_MS_MIN 1e-3 /* the JSON's precision: a run's total is written with %.3f */

/* ---- samples ------------------------------------------------------------- */

static bool bench_samples_by_threads(uint32_t threads_a, uint32_t threads_b)
{
    return threads_a == 0 || threads_b == 0;
}

static int bench_samples_find(const bench_samples *b, const bench_config *c, bool by_threads)
{
    for (uint32_t i = 0; i < b->cfg_n; i++)
        if (bench_config_same(&b->cfg[i], c, by_threads)) return (int)i;
    return -1;
}

/* Appends one run's total ms to its configuration; false if out of room
 * or memory. */
static bool add_sample(bench_samples *b, const bench_config *c, double ms)
{
    int i = bench_samples_find(b, c, true);
    if (i < 0) {
        if (b->cfg_n == BENCH_SAMPLES_MAX_CFG) return false;
        i = (int)b->cfg_n++;
        b->cfg[i] = *c;
    }
    if (b->n[i] == BENCH_MAX_REPEAT) return false;
    double *ms_all = realloc(b->ms[i], (b->n[i] + 1u) * sizeof *ms_all);
    if (!ms_all) return false;
    ms_all[b->n[i]++] = ms;
    b->ms[i] = ms_all;
    return true;
}

void bench_samples_free(bench_samples *b)
{
    for (uint32_t i = 0; i < b->cfg_n; i++) free(b->ms[i]);
    memset(b, 0, sizeof *b);
}

bool bench_samples_of_set(bench_samples *b, const bench_set *s)
{
    const bench_options *o = s->opt;
    const sim_params d = sim_default_params();
    memset(b, 0, sizeof *b);
    b->opts = (bench_sample_opts){o->sim.thread_n == 1 ? o->sim.threads[0] : 0u, o->frames,
                                  o->sim.seed,
                                  o->sim.world_w ? o->sim.world_w : (uint32_t)d.world_w,
                                  o->sim.world_w ? o->sim.world_h : (uint32_t)d.world_h, "", ""};
    snprintf(b->opts.kernel, sizeof b->opts.kernel, "%s",
             sim_kernel_name(sim_kernel_resolve(o->sim.kernel)));
    bench_systems_name(b->opts.systems, sizeof b->opts.systems, o);
    for (uint32_t r = 0; r < o->repeat; r++)
        for (uint32_t c = 0; c < s->cfg_n; c++)
            if (!add_sample(b, &s->cfgs[c], bench_set_run(s, r, c)->total_ms)) {
                bench_samples_free(b);
                return false;
            }
    return true;
}

/* ---- reading the JSON ---------------------------------------------------- */

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* v a whole number from 0 to max, or false (a cast of a negative or huge
 * double to uint32_t would be undefined). */
static bool u32_in(const cJSON *v, uint32_t max, uint32_t *out)
{
    if (!cJSON_IsNumber(v)) return false;
    double x = v->valuedouble;
    if (!(x >= 0.0) || x > max || x != (double)(uint32_t)x) return false;
    *out = (uint32_t)x;
    return true;
}

/* o's member key a whole number from 0 to max, or false. */
static bool u32_of(const cJSON *o, const char *key, uint32_t max, uint32_t *out)
{
    return u32_in(cJSON_GetObjectItemCaseSensitive(o, key), max, out);
}

/* One element of "runs": its configuration and total ms, which must be
 * at least 0.001 (every run spends time spawning, and the JSON holds
 * thousandths: a smaller total is not one it wrote, and would make the
 * change in percent any size) and finite (cJSON reads 1e999 as
 * infinity), or the medians and their change would be meaningless. */
static bool read_run(const cJSON *r, uint32_t threads, bench_config *c, double *ms)
{
    const cJSON *t_run = cJSON_GetObjectItemCaseSensitive(r, "threads");
    c->threads = threads;
    if (t_run && (!u32_in(t_run, BENCH_MAX_THREADS, &c->threads) || c->threads == 0))
        return false;
    if (c->threads == 0) return false; /* several thread counts: each run names its own */
    const char *ip = str_of(r, "inner_parallelism"), *st = str_of(r, "storage");
    const char *layout = str_of(r, "layout");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "total_ms");
    if (!u32_of(r, "count", ECS_MAX_ENTITIES, &c->count) || c->count == 0 || !ip || !st ||
        !cJSON_IsNumber(t) || !(t->valuedouble >= TOTAL_MS_MIN && t->valuedouble <= TOTAL_MS_MAX))
        return false;
    if (strcmp(ip, "on") && strcmp(ip, "off")) return false;
    if (strcmp(st, "fixed") && strcmp(st, "dynamic")) return false;
    /* No layout: a run of the one layout there was, soa. */
    c->layout = SIM_LAYOUT_SOA;
    if (cJSON_GetObjectItemCaseSensitive(r, "layout")) {
        if (!layout) return false;
        for (c->layout = 0; c->layout < SIM_LAYOUT_COUNT; c->layout++)
            if (strcmp(layout, sim_layout_name(c->layout)) == 0) break;
        if (c->layout == SIM_LAYOUT_COUNT) return false;
    }
    c->ip_on = strcmp(ip, "on") == 0;
    c->storage = strcmp(st, "fixed") == 0 ? ECS_STORAGE_FIXED : ECS_STORAGE_DYNAMIC;
    *ms = t->valuedouble;
    return true;
}

/* "options": what bench_export_json writes. */
static bool read_opts(const cJSON *o, bench_sample_opts *out)
{
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "world");
    const cJSON *w0 = cJSON_IsArray(w) ? cJSON_GetArrayItem(w, 0) : NULL;
    const cJSON *w1 = cJSON_IsArray(w) ? cJSON_GetArrayItem(w, 1) : NULL;
    const char *kernel = str_of(o, "kernel");
    const cJSON *threads = cJSON_GetObjectItemCaseSensitive(o, "threads");
    out->threads = 0; /* a list: several */
    if ((!cJSON_IsArray(threads) && !u32_in(threads, UINT32_MAX, &out->threads)) ||
        !u32_of(o, "frames", UINT32_MAX, &out->frames) ||
        !u32_of(o, "seed", UINT32_MAX, &out->seed) || !kernel ||
        !u32_in(w0, UINT32_MAX, &out->world_w) || !u32_in(w1, UINT32_MAX, &out->world_h))
        return false;
    app_escape(out->kernel, sizeof out->kernel, kernel); /* printed: no escape codes */
    /* "systems": the names that ran; none given: all of them. */
    const cJSON *sys = cJSON_GetObjectItemCaseSensitive(o, "systems"), *name;
    snprintf(out->systems, sizeof out->systems, "all");
    if (!sys) return true;
    if (!cJSON_IsArray(sys)) return false;
    char list[sizeof out->systems] = "";
    int n = 0;
    cJSON_ArrayForEach(name, sys) {
        if (!cJSON_IsString(name)) return false;
        size_t used = strlen(list);
        if (n++ && used + 1 < sizeof list) list[used++] = ',';
        app_escape(list + used, sizeof list - used, name->valuestring);
    }
    if (n < SIM_SYSTEM_COUNT) snprintf(out->systems, sizeof out->systems, "%s", list);
    return true;
}

#define WEAK_REFUSED                                                                         \
    "a --weak run (its particles and world grow with the threads), which --baseline and "  \
    "--compare do not take"

/* What the bench's JSON holds: "options", a "runs" list with each run's
 * configuration and total ms, and "determinism_check". */
static const char *read_tree(const cJSON *root, bench_samples *b)
{
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
    if (!str_of(root, "determinism_check") || !cJSON_IsArray(runs))
        return "it has no \"runs\" list and \"determinism_check\"";
    const cJSON *opts = cJSON_GetObjectItemCaseSensitive(root, "options");
    if (!read_opts(opts, &b->opts))
        return "its \"options\" lack threads, frames, seed, kernel or world";
    /* A weak sweep's runs hold more particles in a larger world at each
     * thread count than their count says: no run here compares with them. */
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opts, "weak")))
        return WEAK_REFUSED;
    const cJSON *r;
    cJSON_ArrayForEach(r, runs) {
        bench_config c;
        double ms;
        if (!read_run(r, b->opts.threads, &c, &ms))
            return "a run lacks count, inner_parallelism, storage, threads or total_ms (a "
                   "number of ms from 0.001 to 1e12), or names a layout other than soa and thesis";
        if (!add_sample(b, &c, ms))
            return "more runs of one configuration than --repeat allows, more configurations "
                   "than a run can have, or out of memory";
    }
    return b->cfg_n ? NULL : "its \"runs\" list is empty";
}

/* cJSON's allocations, which say when one failed: cJSON itself then
 * reports the text as not valid. Only the main thread reads JSON. */
static bool json_out_of_memory;

static void *json_malloc(size_t size)
{
    void *p = malloc(size);
    if (!p) json_out_of_memory = true;
    return p;
}

/* Where cJSON stopped reading text[0..len): "line N" of the text. */
static unsigned line_of(const char *text, const char *stop)
{
    unsigned line = 1;
    for (const char *c = text; c < stop; c++) line += *c == '\n';
    return line;
}

int bench_samples_load(bench_samples *b, const char *flag, const char *path)
{
    memset(b, 0, sizeof *b);
    b->name = path;
    unsigned char *bytes;
    size_t len;
    char why[120];
    app_read_status st = app_read_file(path, FILE_MAX, &bytes, &len, why, sizeof why);
    if (st == APP_READ_STOPPED) return app_stop_status(); /* the run stops as any run does */
    if (st != APP_READ_OK) {
        bench_error("%s %s: %s", flag, path, why);
        return 2;
    }
    char *text = (char *)bytes;
    const char *err;
    const char *stop = NULL;
    cJSON_Hooks hooks = {json_malloc, free};
    cJSON_InitHooks(&hooks);
    json_out_of_memory = false;
    /* The whole text must be one JSON value: nothing but space after it. */
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &stop, false);
    if (!root && json_out_of_memory) {
        bench_error("%s %s: out of memory reading its JSON", flag, path);
        free(text);
        return 1;
    }
    if (root && stop) {
        while (stop < text + len && (*stop == ' ' || *stop == '\n' || *stop == '\r' || *stop == '\t'))
            stop++;
        if (stop != text + len) {
            cJSON_Delete(root);
            root = NULL;
        }
    }
    if (!root) {
        const char *at = stop ? stop : cJSON_GetErrorPtr();
        bench_error("%s %s: not a JSON written by particles bench --json: not valid JSON "
                    "(line %u)", flag, path, at && at >= text && at <= text + len ? line_of(text, at) : 1u);
        free(text);
        return 2;
    }
    err = cJSON_IsObject(root) ? read_tree(root, b) : "it is not a JSON object";
    cJSON_Delete(root);
    free(text);
    if (!err) return 0;
    bench_samples_free(b);
    if (strcmp(err, WEAK_REFUSED) == 0) bench_error("%s %s: %s", flag, path, err);
    else bench_error("%s %s: not a JSON written by particles bench --json: %s", flag, path, err);
    return 2;
}

/* One line: none of base's configurations is among what is compared. */
static bool no_match(const bench_samples *b, const char *flag, const char *what)
{
    char first[96];
    bench_config_name(first, sizeof first, &b->cfg[0]);
    bench_error("%s %s: none of its configurations (particles, inner parallelism, storage, "
                "layout, threads; first %u, %s) is one of %s", flag, b->name,
                (unsigned)b->cfg[0].count, first, what);
    return false;
}

bool bench_samples_match(const bench_samples *b, const char *flag, const bench_options *o)
{
    bool by_threads = bench_samples_by_threads(b->opts.threads,
                                               o->sim.thread_n == 1 ? o->sim.threads[0] : 0u);
    uint32_t n = bench_config_count(o);
    bench_config *cfgs = malloc(n * sizeof *cfgs);
    if (!cfgs) {
        bench_error("%s %s: out of memory", flag, b->name);
        return false;
    }
    bench_configs_of(o, cfgs);
    bool found = false;
    for (uint32_t c = 0; c < n && !found; c++) found = bench_samples_find(b, &cfgs[c], by_threads) >= 0;
    free(cfgs);
    return found || no_match(b, flag, "this run's");
}

bool bench_samples_overlap(const bench_samples *b, const char *flag, const bench_samples *cur)
{
    bool by_threads = bench_samples_by_threads(b->opts.threads, cur->opts.threads);
    for (uint32_t i = 0; i < cur->cfg_n; i++)
        if (bench_samples_find(b, &cur->cfg[i], by_threads) >= 0) return true;
    return no_match(b, flag, cur->name);
}

/* ---- comparison ---------------------------------------------------------- */

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
static void append(char *buf, size_t size, const char *fmt, ...) APP_PRINTF(3, 4);
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
    if (strcmp(a->systems, b->systems) != 0) append(buf, size, "systems %s", a->systems);
}

static void print_line(const bench_samples *base, const bench_samples *cur, uint32_t c,
                       bool by_threads)
{
    const bench_config *k = &cur->cfg[c];
    printf("%9u  IP %-3s  %-7s  %-6s  ", (unsigned)k->count, bench_ip_name(k->ip_on),
           bench_storage_name(k->storage), sim_layout_name(k->layout));
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
    char theirs[400], ours[400];
    differing(theirs, sizeof theirs, &base->opts, &cur->opts);
    differing(ours, sizeof ours, &cur->opts, &base->opts);
    if (theirs[0])
        printf("note: the baseline ran with %s, %s with %s: a change comes from that too\n",
               theirs, cur->name ? cur->name : "this run", ours);
    bool by_threads = bench_samples_by_threads(base->opts.threads, cur->opts.threads);
    for (uint32_t c = 0; c < cur->cfg_n; c++) print_line(base, cur, c, by_threads);
}

/* ---- Mann-Whitney U test ------------------------------------------------- */

/* C(n, k) as a double (exact up to 2^53, ample for p_min). */
static double choose(size_t n, size_t k)
{
    double c = 1.0;
    for (size_t i = 1; i <= k; i++) c = c * (double)(n - k + i) / (double)i;
    return c;
}

double bench_mwu_p_min(size_t nx, size_t ny) { return fmin(1.0, 2.0 / choose(nx + ny, nx)); }

/* P(U <= u) and P(U >= u) when all arrangements of m values of one side
 * among m + n are equally likely: counts of arrangements per U through
 * c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u) (the largest value
 * comes from the first side, above all n of the other, or not). Returns
 * false when out of memory. */
static bool exact_tails(size_t m, size_t n, double u, double *le, double *ge)
{
    size_t width = m * n + 1;
    double *prev = calloc((n + 1) * width, sizeof *prev);
    double *cur = calloc((n + 1) * width, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return false;
    }
    for (size_t i = 0; i <= m; i++) {
        for (size_t j = 0; j <= n; j++) {
            double *c = cur + j * width;
            for (size_t v = 0; v < width; v++) {
                if (i == 0 || j == 0) {
                    c[v] = v == 0;
                    continue;
                }
                c[v] = (v >= j ? prev[j * width + v - j] : 0.0) + cur[(j - 1) * width + v];
            }
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double total = 0.0, below = 0.0, above = 0.0;
    for (size_t v = 0; v < width; v++) {
        double k = prev[n * width + v];
        total += k;
        if ((double)v <= u) below += k;
        if ((double)v >= u) above += k;
    }
    free(prev);
    free(cur);
    *le = below / total;
    *ge = above / total;
    return true;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Sum over groups of equal values of t^3 - t (t values in the group). */
static double tie_sum(const double *x, size_t nx, const double *y, size_t ny)
{
    size_t n = nx + ny;
    double *all = malloc(n * sizeof *all), sum = 0.0;
    if (!all) return NAN;
    for (size_t i = 0; i < n; i++) all[i] = i < nx ? x[i] : y[i - nx];
    qsort(all, n, sizeof *all, cmp_double);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && all[j] == all[i]) j++;
        double t = (double)(j - i);
        sum += t * t * t - t;
        i = j;
    }
    free(all);
    return sum;
}

bench_mwu bench_mwu_test(const double *x, size_t nx, const double *y, size_t ny)
{
    assert(nx > 0 && ny > 0);
    bench_mwu r = {0};
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) r.u += x[i] > y[j] ? 1.0 : x[i] == y[j] ? 0.5 : 0.0;
    double n = (double)(nx + ny), mean = (double)nx * (double)ny / 2.0;
    r.p_min = bench_mwu_p_min(nx, ny);
    double ties = tie_sum(x, nx, y, ny);
    double le, ge;
    if (ties == 0.0 && nx <= BENCH_MWU_EXACT_MAX && ny <= BENCH_MWU_EXACT_MAX &&
        exact_tails(nx, ny, r.u, &le, &ge)) {
        r.exact = true;
        r.p = fmin(1.0, 2.0 * fmin(le, ge));
        return r;
    }
    if (isnan(ties)) ties = 0.0; /* out of memory: as if there were none */
    double var = (double)nx * (double)ny / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if (!(var > 0.0)) {
        r.p = 1.0; /* every value equal */
        return r;
    }
    double z = fmax(0.0, fabs(r.u - mean) - 0.5) / sqrt(var);
    r.p = fmin(1.0, erfc(z / sqrt(2.0)));
    return r;
}
