/* record.c - the inputs applied to a world, and a recording written as
 * they are (record.h; the format in docs/determinism.md). */
#include "record.h"
#include "record_internal.h"
#include "args.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- the POSIX cksum (CRC-32, polynomial 0x04C11DB7, most significant
 * bit first, the length appended) ------------------------------------------ */

uint32_t app_cksum_add(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        crc ^= (uint32_t)b[i] << 24;
        for (int k = 0; k < 8; k++) crc = crc & 0x80000000u ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
    }
    return crc;
}

uint32_t app_cksum_end(uint32_t crc, uint64_t bytes)
{
    for (; bytes; bytes >>= 8) {
        unsigned char b = (unsigned char)(bytes & 0xffu);
        crc = app_cksum_add(crc, &b, 1);
    }
    return ~crc;
}

const char *const APP_ON_OFF[2] = {"off", "on"};
const char *const APP_PARAM_NAMES[APP_PARAM_COUNT] = {"acceleration", "radius", "speed", "life",
                                                      "particles"};
const int APP_PARAM_VALUES[APP_PARAM_COUNT] = {2, 2, 1, 2, 1};

/* ---- the inputs ---------------------------------------------------------- */

/* The fields of p that param's values are kept in, first and second
 * (APP_PARAM_VALUES of them); false for the particles, kept apart. */
static bool param_fields(app_param param, sim_params *p, float *v[2])
{
    v[1] = NULL;
    switch (param) {
    case APP_PARAM_ACCELERATION: v[0] = &p->acceleration.x, v[1] = &p->acceleration.y; break;
    case APP_PARAM_RADIUS: v[0] = &p->radius_min, v[1] = &p->radius_max; break;
    case APP_PARAM_SPEED: v[0] = &p->speed_max; break;
    case APP_PARAM_LIFE: v[0] = &p->life_min, v[1] = &p->life_max; break;
    default: return false;
    }
    return true;
}

void app_param_put(const app_input *in, sim_params *p, uint32_t *wave_size)
{
    float *v[2];
    if (!param_fields(in->param, p, v)) {
        *wave_size = in->n;
        return;
    }
    *v[0] = in->x;
    if (v[1]) *v[1] = in->y;
}

app_input app_param_input(app_param param, const sim_params *p, uint32_t wave_size)
{
    app_input in = {.kind = APP_INPUT_PARAM, .param = param, .n = wave_size};
    sim_params q = *p;
    float *v[2];
    if (param_fields(param, &q, v)) in.x = *v[0], in.y = v[1] ? *v[1] : 0.0f;
    return in;
}

void app_input_params(const sim_world *w, const app_input *in, sim_params *p)
{
    *p = *sim_get_params(w);
    uint32_t wave_size = sim_wave_size(w);
    app_param_put(in, p, &wave_size);
}

static ecs_status apply_param(sim_world *w, const app_input *in)
{
    if (in->param == APP_PARAM_PARTICLES) return sim_set_wave_size(w, in->n);
    if (in->param >= APP_PARAM_COUNT) return ECS_ERR_INVALID;
    sim_params p;
    app_input_params(w, in, &p);
    return sim_set_params(w, &p);
}

ecs_status app_input_apply(sim_world *w, const app_input *in)
{
    switch (in->kind) {
    case APP_INPUT_SPRAY: return sim_spray(w, in->x, in->y, in->n);
    case APP_INPUT_WAVE: return sim_new_wave(w);
    case APP_INPUT_SYSTEM: return sim_enable_system(w, in->n, in->on);
    case APP_INPUT_WORKERS: return sim_set_workers(w, in->n);
    case APP_INPUT_IP: sim_set_inner_parallelism(w, in->on); return ECS_OK;
    case APP_INPUT_PARAM: return apply_param(w, in);
    }
    return ECS_ERR_INVALID;
}

/* ---- the file ------------------------------------------------------------- */

static void put(app_record *r, const char *fmt, ...) APP_PRINTF(2, 3);

/* One line, added to the checksum. */
static void put(app_record *r, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1u, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1u) n = 0; /* never: every line is short */
    line[n++] = '\n';
    r->crc = app_cksum_add(r->crc, line, (size_t)n);
    r->bytes += (uint64_t)n;
    fwrite(line, 1, (size_t)n, r->f);
}

/* "NAME VALUES" after prefix: a header line ("") or an input ("param "). */
static void put_param(app_record *r, const char *prefix, const app_input *in)
{
    const char *name = APP_PARAM_NAMES[in->param];
    if (in->param == APP_PARAM_PARTICLES)
        put(r, "%s%s %" PRIu32, prefix, name, in->n);
    else if (APP_PARAM_VALUES[in->param] == 1)
        put(r, "%s%s %.9g", prefix, name, (double)in->x);
    else
        put(r, "%s%s %.9g %.9g", prefix, name, (double)in->x, (double)in->y);
}

/* The header's line of param: its values as cfg's world was made. */
static void put_header_param(app_record *r, app_param param, const sim_config *cfg)
{
    app_input in = app_param_input(param, &cfg->params, cfg->particles);
    put_param(r, "", &in);
}

int app_record_stage(app_record *r, const char *prog, const char *flag, const char *path)
{
    return app_out_stage(&r->out, prog, flag, path, 0);
}

int app_record_begin(app_record *r, const sim_config *cfg, const sim_world *w)
{
    if (!r->out.kind) return 0;
    r->f = app_out_begin(&r->out);
    if (!r->f) return 1;
    const sim_params *p = &cfg->params;
    put(r, "%s %u", APP_RECORD_MAGIC, APP_RECORD_VERSION);
    put(r, "world %.9g %.9g", (double)p->world_w, (double)p->world_h);
    put_header_param(r, APP_PARAM_RADIUS, cfg);
    put_header_param(r, APP_PARAM_SPEED, cfg);
    put_header_param(r, APP_PARAM_ACCELERATION, cfg);
    put_header_param(r, APP_PARAM_LIFE, cfg);
    put(r, "dt %.9g", (double)p->dt);
    put(r, "alpha-per-life %.9g", (double)p->alpha_per_life);
    put(r, "seed %" PRIu32, p->seed);
    put_header_param(r, APP_PARAM_PARTICLES, cfg);
    put(r, "storage %s %" PRIu32, cfg->storage == ECS_STORAGE_FIXED ? "fixed" : "dynamic",
        cfg->storage == ECS_STORAGE_FIXED ? cfg->capacity : 0u);
    put(r, "threads %" PRIu32, sim_workers(w));
    put(r, "inner-parallelism %s", APP_ON_OFF[sim_inner_parallelism(w)]);
    put(r, "layout %s", sim_layout_name(cfg->layout));
    put(r, "kernel %s", sim_kernel_name(sim_get_kernel(w)));
    put(r, "loops %s", sim_kernel_name(sim_get_loops(w)));
    return 0;
}

ecs_status app_record_apply(app_record *r, sim_world *w, const app_input *in)
{
    ecs_status st = app_input_apply(w, in);
    if (st != ECS_OK || !r->f) return st;
    switch (in->kind) {
    case APP_INPUT_SPRAY:
        put(r, "spray %.9g %.9g %" PRIu32, (double)in->x, (double)in->y, in->n);
        break;
    case APP_INPUT_WAVE: put(r, "wave"); break;
    case APP_INPUT_SYSTEM: put(r, "system %s %s", sim_system_name(in->n), APP_ON_OFF[in->on]); break;
    case APP_INPUT_WORKERS: put(r, "workers %" PRIu32, in->n); break;
    case APP_INPUT_IP: put(r, "inner-parallelism %s", APP_ON_OFF[in->on]); break;
    case APP_INPUT_PARAM: put_param(r, "param ", in); break;
    }
    return st;
}

void app_record_frame(app_record *r, const sim_world *w)
{
    if (!r->f) return;
    put(r, "frame %" PRIu64 " %016" PRIx64, sim_frame(w), sim_hash(w));
    r->frames++;
}

int app_record_finish(app_record *r)
{
    if (!r->f) return 0;
    /* The end line is no part of its own checksum. */
    fprintf(r->f, "end %" PRIu64 " %" PRIu32 "\n", r->frames, app_cksum_end(r->crc, r->bytes));
    FILE *f = r->f;
    r->f = NULL;
    int rc = app_out_end(&r->out, f);
    return rc ? rc : app_out_commit(&r->out);
}

void app_record_discard(app_record *r)
{
    if (r->f) fclose(r->f);
    r->f = NULL;
    app_out_discard(&r->out);
}
