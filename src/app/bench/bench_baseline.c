/* bench_baseline.c - reading a run back from the bench's JSON and
 * comparing two runs configuration by configuration. */
#include "bench_baseline.h"
#include "bench_json.h"
#include "bench_msg.h"
#include "bench_mwu.h"
#include "bench_stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILE_MAX ((size_t)256 << 20) /* a JSON of the most runs is far smaller */

/* ---- samples -------------------------------------------------------------- */

int bench_samples_find(const bench_samples *b, const bench_config *c)
{
    for (uint32_t i = 0; i < b->cfg_n; i++)
        if (b->cfg[i].count == c->count && b->cfg[i].ip_on == c->ip_on &&
            b->cfg[i].storage == c->storage)
            return (int)i;
    return -1;
}

/* Appends one run's total ms to its configuration; false if out of room
 * or memory. */
static bool add_sample(bench_samples *b, const bench_config *c, double ms)
{
    int i = bench_samples_find(b, c);
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
    b->opts = (bench_sample_opts){o->threads, o->frames, o->seed,
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

static const char *str_of(const bench_json *j, const bench_json_node *o, const char *key)
{
    const bench_json_node *v = bench_json_get(j, o, key);
    return v && v->kind == BENCH_JSON_STRING ? v->string : NULL;
}

/* A whole number from 0 to max, or false. */
static bool u32_of(const bench_json *j, const bench_json_node *o, const char *key, uint32_t max,
                   uint32_t *out)
{
    const bench_json_node *v = bench_json_get(j, o, key);
    if (!v || v->kind != BENCH_JSON_NUMBER || !(v->number >= 0.0) || v->number > max ||
        v->number != (double)(uint32_t)v->number)
        return false;
    *out = (uint32_t)v->number;
    return true;
}

/* One element of "runs": its configuration and total ms. */
static bool read_run(const bench_json *j, const bench_json_node *r, bench_config *c, double *ms)
{
    const char *ip = str_of(j, r, "inner_parallelism"), *st = str_of(j, r, "storage");
    const bench_json_node *t = bench_json_get(j, r, "total_ms");
    if (!u32_of(j, r, "count", ECS_MAX_ENTITIES, &c->count) || c->count == 0 || !ip || !st ||
        !t || t->kind != BENCH_JSON_NUMBER || !(t->number >= 0.0))
        return false;
    if (strcmp(ip, "on") && strcmp(ip, "off")) return false;
    if (strcmp(st, "fixed") && strcmp(st, "dynamic")) return false;
    c->ip_on = strcmp(ip, "on") == 0;
    c->storage = strcmp(st, "fixed") == 0 ? ECS_STORAGE_FIXED : ECS_STORAGE_DYNAMIC;
    *ms = t->number;
    return true;
}

/* "options": what bench_export_json writes. */
static bool read_opts(const bench_json *j, const bench_json_node *o, bench_sample_opts *out)
{
    const bench_json_node *w = bench_json_get(j, o, "world");
    const bench_json_node *w0 = bench_json_first(j, w);
    const bench_json_node *w1 = w0 ? bench_json_next(j, w0) : NULL;
    const char *kernel = str_of(j, o, "kernel");
    if (!u32_of(j, o, "threads", UINT32_MAX, &out->threads) ||
        !u32_of(j, o, "frames", UINT32_MAX, &out->frames) ||
        !u32_of(j, o, "seed", UINT32_MAX, &out->seed) || !kernel || !w || !w1 ||
        w0->kind != BENCH_JSON_NUMBER || w1->kind != BENCH_JSON_NUMBER)
        return false;
    out->world_w = (uint32_t)w0->number;
    out->world_h = (uint32_t)w1->number;
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel);
    return true;
}

/* What the bench's JSON holds: "options", a "runs" list with each run's
 * configuration and total ms, and "determinism_check". */
static const char *read_tree(const bench_json *j, bench_samples *b)
{
    const bench_json_node *root = &j->nodes[0];
    const bench_json_node *runs = bench_json_get(j, root, "runs");
    if (!str_of(j, root, "determinism_check") || !runs || runs->kind != BENCH_JSON_ARRAY)
        return "it has no \"runs\" list and \"determinism_check\"";
    if (!read_opts(j, bench_json_get(j, root, "options"), &b->opts))
        return "its \"options\" lack threads, frames, seed, kernel or world";
    for (const bench_json_node *r = bench_json_first(j, runs); r; r = bench_json_next(j, r)) {
        bench_config c;
        double ms;
        if (!read_run(j, r, &c, &ms))
            return "a run lacks count, inner_parallelism, storage or total_ms";
        if (!add_sample(b, &c, ms))
            return "more runs of one configuration than --repeat allows, or out of memory";
    }
    return b->cfg_n ? NULL : "its \"runs\" list is empty";
}

int bench_samples_load(bench_samples *b, const char *flag, const char *path)
{
    memset(b, 0, sizeof *b);
    b->name = path;
    char *text, why[96];
    size_t len;
    const char *err;
    if (!read_all(path, &text, &len, &err)) {
        bench_error("%s %s: cannot be read: %s", flag, path, err);
        return 2;
    }
    bench_json j;
    if (!bench_json_parse(&j, text, len, why, sizeof why)) {
        bench_error("%s %s: not a JSON written by particles bench --json: %s", flag, path, why);
        return 2;
    }
    err = read_tree(&j, b);
    bench_json_free(&j);
    if (!err) return 0;
    bench_samples_free(b);
    bench_error("%s %s: not a JSON written by particles bench --json: %s", flag, path, err);
    return 2;
}

/* One line: none of base's configurations is among what is compared. */
static bool no_match(const bench_samples *b, const char *flag, const char *what)
{
    bench_error("%s %s: none of its configurations (particles, inner parallelism, storage; "
                "first %u, IP %s, %s) is one of %s", flag, b->name, (unsigned)b->cfg[0].count,
                bench_ip_name(b->cfg[0].ip_on), bench_storage_name(b->cfg[0].storage), what);
    return false;
}

bool bench_samples_match(const bench_samples *b, const char *flag, const bench_options *o)
{
    for (uint32_t i = 0; i < o->count_n; i++)
        for (uint32_t k = 0; k < o->ip_n; k++)
            for (uint32_t m = 0; m < o->storage_n; m++) {
                bench_config c = {o->counts[i], o->ip_on[k], o->storages[m]};
                if (bench_samples_find(b, &c) >= 0) return true;
            }
    return no_match(b, flag, "this run's");
}

bool bench_samples_overlap(const bench_samples *b, const char *flag, const bench_samples *cur)
{
    for (uint32_t i = 0; i < cur->cfg_n; i++)
        if (bench_samples_find(b, &cur->cfg[i]) >= 0) return true;
    return no_match(b, flag, cur->name);
}
