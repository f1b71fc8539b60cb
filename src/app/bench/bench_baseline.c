/* bench_baseline.c - reading a run back from the bench's JSON and
 * comparing two runs configuration by configuration. */
#include "bench_baseline.h"
#include "bench_msg.h"
#include "bench_mwu.h"
#include "bench_stats.h"

#include <cJSON.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILE_MAX ((size_t)256 << 20) /* a JSON of the most runs is far smaller */
#define TOTAL_MS_MAX 1e12                 /* over 30 years: no run of this bench */

/* ---- samples -------------------------------------------------------------- */

bool bench_samples_by_threads(uint32_t threads_a, uint32_t threads_b)
{
    return threads_a == 0 || threads_b == 0;
}

int bench_samples_find(const bench_samples *b, const bench_config *c, bool by_threads)
{
    for (uint32_t i = 0; i < b->cfg_n; i++)
        if (b->cfg[i].count == c->count && b->cfg[i].ip_on == c->ip_on &&
            b->cfg[i].storage == c->storage && (!by_threads || b->cfg[i].threads == c->threads))
            return (int)i;
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
    b->opts = (bench_sample_opts){o->thread_n == 1 ? o->threads[0] : 0u, o->frames, o->seed,
                                  o->world_w ? o->world_w : (uint32_t)d.world_w,
                                  o->world_w ? o->world_h : (uint32_t)d.world_h, ""};
    snprintf(b->opts.kernel, sizeof b->opts.kernel, "%s",
             sim_kernel_name(sim_kernel_resolve(o->kernel)));
    for (uint32_t r = 0; r < o->repeat; r++)
        for (uint32_t c = 0; c < s->cfg_n; c++)
            if (!add_sample(b, &s->cfgs[c], bench_set_run(s, r, c)->total_ms)) {
                bench_samples_free(b);
                return false;
            }
    return true;
}

/* ---- reading the JSON ----------------------------------------------------- */

/* The whole file, NUL-terminated, in *out; errno's message in why. */
static bool read_all(const char *path, char **out, size_t *len, const char **why)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    *why = NULL;
    if (!f) {
        *why = strerror(errno);
        return false;
    }
    for (;;) {
        if (n + 1 >= cap) {
            char *more = cap < FILE_MAX ? realloc(buf, cap ? cap * 2 : 65536) : NULL;
            if (!more) {
                *why = cap < FILE_MAX ? "out of memory" : "larger than 256 MiB";
                break;
            }
            buf = more;
            cap = cap ? cap * 2 : 65536;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) *why = strerror(errno);
            break;
        }
    }
    fclose(f);
    if (*why) {
        free(buf);
        return false;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return true;
}

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
 * above 0 (every run spends time spawning) and finite (cJSON reads 1e999
 * as infinity), or the medians and their change would be meaningless. */
static bool read_run(const cJSON *r, uint32_t threads, bench_config *c, double *ms)
{
    const cJSON *t_run = cJSON_GetObjectItemCaseSensitive(r, "threads");
    c->threads = threads;
    if (t_run && (!u32_in(t_run, BENCH_MAX_THREADS, &c->threads) || c->threads == 0))
        return false;
    if (c->threads == 0) return false; /* several thread counts: each run names its own */
    const char *ip = str_of(r, "inner_parallelism"), *st = str_of(r, "storage");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "total_ms");
    if (!u32_of(r, "count", ECS_MAX_ENTITIES, &c->count) || c->count == 0 || !ip || !st ||
        !cJSON_IsNumber(t) || !(t->valuedouble > 0.0 && t->valuedouble <= TOTAL_MS_MAX))
        return false;
    if (strcmp(ip, "on") && strcmp(ip, "off")) return false;
    if (strcmp(st, "fixed") && strcmp(st, "dynamic")) return false;
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
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel);
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
                   "finite number of ms above 0)";
        if (!add_sample(b, &c, ms))
            return "more runs of one configuration than --repeat allows, more configurations "
                   "than a run can have, or out of memory";
    }
    return b->cfg_n ? NULL : "its \"runs\" list is empty";
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
    char *text;
    size_t len;
    const char *err;
    if (!read_all(path, &text, &len, &err)) {
        bench_error("%s %s: cannot be read: %s", flag, path, err);
        return 2;
    }
    const char *stop = NULL;
    /* The whole text must be one JSON value: nothing but space after it. */
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &stop, false);
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
    bench_error("%s %s: none of its configurations (particles, inner parallelism, storage, "
                "threads; first %u, IP %s, %s, %u threads) is one of %s", flag, b->name,
                (unsigned)b->cfg[0].count, bench_ip_name(b->cfg[0].ip_on),
                bench_storage_name(b->cfg[0].storage), (unsigned)b->cfg[0].threads, what);
    return false;
}

bool bench_samples_match(const bench_samples *b, const char *flag, const bench_options *o)
{
    bool by_threads = bench_samples_by_threads(b->opts.threads,
                                               o->thread_n == 1 ? o->threads[0] : 0u);
    for (uint32_t i = 0; i < o->count_n; i++)
        for (uint32_t k = 0; k < o->ip_n; k++)
            for (uint32_t m = 0; m < o->storage_n; m++)
                for (uint32_t t = 0; t < o->thread_n; t++) {
                    bench_config c = {o->counts[i], o->ip_on[k], o->storages[m], o->threads[t]};
                    if (bench_samples_find(b, &c, by_threads) >= 0) return true;
                }
    return no_match(b, flag, "this run's");
}

bool bench_samples_overlap(const bench_samples *b, const char *flag, const bench_samples *cur)
{
    bool by_threads = bench_samples_by_threads(b->opts.threads, cur->opts.threads);
    for (uint32_t i = 0; i < cur->cfg_n; i++)
        if (bench_samples_find(b, &cur->cfg[i], by_threads) >= 0) return true;
    return no_match(b, flag, cur->name);
}
