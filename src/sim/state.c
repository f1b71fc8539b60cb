/* state.c - snapshots: a world's whole state as bytes, and a world made
 * again from them (docs/determinism.md, "Snapshots", gives the format).
 *
 * Every field is written and read byte by byte, little-endian, so neither
 * the byte order nor the padding of the machine shows in the file. */
#include "world.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

static const unsigned char MAGIC[8] = {'P', 'R', 'T', 'S', 'N', 'A', 'P', '\n'};

enum {
    HEADER_SIZE = 96,   /* magic .. spray count */
    ENTITY_SIZE = 36,   /* position, velocity, acceleration, color, radius, life */
    SPRAY_SIZE = 28,    /* position, velocity, color, radius, life */
    CHECKSUM_SIZE = 8,
    PARAM_FLOATS = 11
};

/* ---- bytes ---------------------------------------------------------------- */

static unsigned char *put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
    return p + 4;
}

static unsigned char *put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
    return p + 8;
}

static unsigned char *putf(unsigned char *p, float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    return put32(p, v);
}

static unsigned char *put_rgba(unsigned char *p, sim_rgba c)
{
    p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = c.a;
    return p + 4;
}

static uint32_t get32(const unsigned char **p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)(*p)[i] << (8 * i);
    *p += 4;
    return v;
}

static uint64_t get64(const unsigned char **p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)(*p)[i] << (8 * i);
    *p += 8;
    return v;
}

static float getf(const unsigned char **p)
{
    uint32_t v = get32(p);
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

static sim_rgba get_rgba(const unsigned char **p)
{
    sim_rgba c = {(*p)[0], (*p)[1], (*p)[2], (*p)[3]};
    *p += 4;
    return c;
}

/* The parameters in file order, as pointers into p. */
static void param_fields(sim_params *p, float *out[PARAM_FLOATS])
{
    float *f[PARAM_FLOATS] = {&p->world_w,        &p->world_h,        &p->radius_min,
                              &p->radius_max,     &p->speed_max,      &p->acceleration.x,
                              &p->acceleration.y, &p->life_min,       &p->life_max,
                              &p->dt,             &p->alpha_per_life};
    memcpy(out, f, sizeof f);
}

/* ---- saving --------------------------------------------------------------- */

/* One past the highest live index (0 for an empty world). */
static uint32_t span_of(ecs_context *ctx)
{
    for (uint32_t i = ecs_capacity(ctx); i > 0; i--)
        if (!ecs_entity_is_null(ecs_handle(ctx, i - 1u))) return i;
    return 0;
}

static uint64_t size_for(uint32_t span, uint32_t live, uint32_t sprays)
{
    return (uint64_t)HEADER_SIZE + ((uint64_t)span + 7u) / 8u + (uint64_t)live * ENTITY_SIZE +
           (uint64_t)sprays * SPRAY_SIZE + CHECKSUM_SIZE;
}

static bool savable(const sim_world *w)
{
    return ecs_system_enabled(w->ctx, SIM_S_SPATIAL_PARTITION);
}

size_t sim_state_size(const sim_world *w)
{
    if (!savable(w)) return 0;
    uint64_t n = size_for(span_of(w->ctx), ecs_alive_count(w->ctx), sim_spray_pending(w));
    return n > SIZE_MAX ? 0 : (size_t)n;
}

/* A column and its step in elements (the thesis layout interleaves). */
typedef struct columns {
    const sim_vec2 *pos, *vel, *acc;
    const sim_rgba *color;
    const float *circle, *life;
    size_t color_step, circle_step;
} columns;

static columns columns_of(ecs_context *ctx)
{
    columns c;
    c.pos = ecs_column(ctx, SIM_C_POSITION);
    c.vel = ecs_column(ctx, SIM_C_VELOCITY);
    c.acc = ecs_column(ctx, SIM_C_ACCELERATION);
    c.color = ecs_column(ctx, SIM_C_COLOR);
    c.circle = ecs_column(ctx, SIM_C_CIRCLE);
    c.life = ecs_column(ctx, SIM_C_LIFE);
    c.color_step = ecs_column_stride(ctx, SIM_C_COLOR) / sizeof(sim_rgba);
    c.circle_step = ecs_column_stride(ctx, SIM_C_CIRCLE) / sizeof(float);
    return c;
}

static unsigned char *put_header(const sim_world *w, unsigned char *p, uint32_t span,
                                 uint32_t live, uint32_t sprays)
{
    memcpy(p, MAGIC, sizeof MAGIC);
    p = put32(p + sizeof MAGIC, SIM_STATE_VERSION);
    sim_params params = w->setup.p;
    float *f[PARAM_FLOATS];
    param_fields(&params, f);
    for (int i = 0; i < PARAM_FLOATS; i++) p = putf(p, *f[i]);
    p = put32(p, params.seed);
    p = put32(p, w->particles);
    p = put32(p, w->wave);
    p = put64(p, w->frame);
    p = put32(p, w->spray_rng.x);
    uint32_t enabled = 0;
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++)
        if (ecs_system_enabled(w->ctx, s)) enabled |= UINT32_C(1) << s;
    p = put32(p, enabled);
    p = put32(p, span);
    p = put32(p, live);
    return put32(p, sprays);
}

/* The snapshot on its way to the sink: bytes gathered in buf, each full
 * buffer added to the checksum (until it is sealed) and handed on. */
typedef struct encoder {
    unsigned char *buf;
    size_t size, n; /* buf's room and fill */
    size_t handed;  /* bytes handed to the sink so far */
    XXH3_state_t *xxh;
    bool sealed;    /* the checksum is taken: what follows is the checksum */
    bool ok;        /* the sink took everything so far */
    sim_state_sink put;
    void *ctx;
} encoder;

static void flush(encoder *e)
{
    if (!e->sealed) XXH3_64bits_update(e->xxh, e->buf, e->n);
    if (e->ok && e->n) e->ok = e->put(e->ctx, e->buf, e->n);
    e->handed += e->n;
    e->n = 0;
}

static inline void emit(encoder *e, const unsigned char *p, size_t k)
{
    while (k > 0) {
        size_t room = e->size - e->n, m = k < room ? k : room;
        memcpy(e->buf + e->n, p, m);
        e->n += m, p += m, k -= m;
        if (e->n == e->size) flush(e);
    }
}

/* The live bits of indices 0 .. span - 1, a batch of bytes at a time. */
static void emit_live_bits(encoder *e, ecs_context *ctx, uint32_t span)
{
    unsigned char bits[64];
    uint32_t bytes = (span + 7u) / 8u;
    for (uint32_t at = 0; at < bytes && e->ok; at += (uint32_t)sizeof bits) {
        uint32_t k = bytes - at < sizeof bits ? bytes - at : (uint32_t)sizeof bits;
        memset(bits, 0, k);
        for (uint32_t i = at * 8u; i < span && i < (at + k) * 8u; i++)
            if (!ecs_entity_is_null(ecs_handle(ctx, i)))
                bits[i / 8u - at] |= (unsigned char)(1u << (i % 8u));
        emit(e, bits, k);
    }
}

size_t sim_save_state(const sim_world *w, void *buf, size_t size, sim_state_sink put, void *ctx)
{
    assert(buf && size > 0 && put);
    size_t total = sim_state_size(w);
    if (total == 0) return 0;
    ecs_context *ecs = w->ctx;
    uint32_t span = span_of(ecs), live = ecs_alive_count(ecs);
    const sim_spray_queue *q = ecs_resource_read(ecs, SIM_R_SPRAYS);
    encoder e = {buf, size, 0, 0, w->hash_state, false, true, put, ctx};
    XXH3_64bits_reset(e.xxh);
    unsigned char rec[HEADER_SIZE];
    _Static_assert(ENTITY_SIZE <= HEADER_SIZE && SPRAY_SIZE <= HEADER_SIZE,
                   "rec holds a header, an entity or a spray");
    emit(&e, rec, (size_t)(put_header(w, rec, span, live, q->count) - rec));
    emit_live_bits(&e, ecs, span);
    columns c = columns_of(ecs);
    for (uint32_t i = 0; i < span && e.ok; i++) {
        if (ecs_entity_is_null(ecs_handle(ecs, i))) continue;
        unsigned char *p = putf(putf(rec, c.pos[i].x), c.pos[i].y);
        p = putf(putf(p, c.vel[i].x), c.vel[i].y);
        p = putf(putf(p, c.acc[i].x), c.acc[i].y);
        p = put_rgba(p, c.color[i * c.color_step]);
        p = putf(putf(p, c.circle[i * c.circle_step]), c.life[i]);
        emit(&e, rec, ENTITY_SIZE);
    }
    for (uint32_t i = 0; i < q->count && e.ok; i++) {
        const sim__particle *s = &q->v[i];
        unsigned char *p = putf(putf(rec, s->pos.x), s->pos.y);
        p = putf(putf(p, s->vel.x), s->vel.y);
        p = put_rgba(p, s->color);
        p = putf(putf(p, s->radius), s->life);
        emit(&e, rec, SPRAY_SIZE);
    }
    XXH3_64bits_update(e.xxh, e.buf, e.n);
    e.sealed = true;
    emit(&e, rec, (size_t)(put64(rec, XXH3_64bits_digest(e.xxh)) - rec));
    flush(&e);
    assert(!e.ok || e.handed == total);
    return e.ok ? total : 0;
}

/* ---- checking ------------------------------------------------------------- */

/* What the header says, read from a snapshot of the right version. */
typedef struct header {
    sim_params params;
    uint32_t particles, wave, spray_rng, enabled, span, live, sprays;
    uint64_t frame;
} header;

static void read_header(const unsigned char *b, header *h)
{
    const unsigned char *p = b + sizeof MAGIC + 4;
    float *f[PARAM_FLOATS];
    param_fields(&h->params, f);
    for (int i = 0; i < PARAM_FLOATS; i++) *f[i] = getf(&p);
    h->params.seed = get32(&p);
    h->particles = get32(&p);
    h->wave = get32(&p);
    h->frame = get64(&p);
    h->spray_rng = get32(&p);
    h->enabled = get32(&p);
    h->span = get32(&p);
    h->live = get32(&p);
    h->sprays = get32(&p);
}

/* printf-style checking of fail's format and arguments; with mingw-w64
 * against its C99 printf (__USE_MINGW_ANSI_STDIO), not msvcrt's. */
#if defined(__MINGW_PRINTF_FORMAT)
#define SIM__PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#else
#define SIM__PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif

static bool fail(char *msg, size_t size, const char *fmt, ...) SIM__PRINTF(3, 4);

static bool fail(char *msg, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, size, fmt, ap);
    va_end(ap);
    return false;
}

/* The file's frame: magic, version, sizes against the file, checksum. */
static bool check_frame(const unsigned char *b, size_t size, header *h, char *msg, size_t msz)
{
    size_t m = size < sizeof MAGIC ? size : sizeof MAGIC;
    if (memcmp(b, MAGIC, m) != 0) return fail(msg, msz, "not a particles snapshot (bad magic)");
    if (size < sizeof MAGIC + 4) return fail(msg, msz, "truncated: %zu bytes", size);
    const unsigned char *p = b + sizeof MAGIC;
    uint32_t version = get32(&p);
    if (version > SIM_STATE_VERSION)
        return fail(msg, msz, "version %u is newer than this program reads (%u)",
                    (unsigned)version, (unsigned)SIM_STATE_VERSION);
    if (version < SIM_STATE_VERSION_OLDEST)
        return fail(msg, msz, "version %u is not a snapshot version (%u to %u)",
                    (unsigned)version, (unsigned)SIM_STATE_VERSION_OLDEST,
                    (unsigned)SIM_STATE_VERSION);
    if (size < (size_t)HEADER_SIZE + CHECKSUM_SIZE)
        return fail(msg, msz, "truncated: %zu bytes, a snapshot has at least %u", size,
                    (unsigned)(HEADER_SIZE + CHECKSUM_SIZE));
    read_header(b, h);
    if (h->span > ECS_MAX_ENTITIES || h->live > h->span || h->sprays > SIM_SPRAY_MAX)
        return fail(msg, msz, "damaged: %u live of %u entities and %u sprays are past the limits "
                    "(%u entities, %u sprays)", (unsigned)h->live, (unsigned)h->span,
                    (unsigned)h->sprays, (unsigned)ECS_MAX_ENTITIES, (unsigned)SIM_SPRAY_MAX);
    uint64_t want = size_for(h->span, h->live, h->sprays);
    if (want > size)
        return fail(msg, msz, "truncated: %zu bytes, its header counts %llu", size,
                    (unsigned long long)want);
    if (want < size)
        return fail(msg, msz, "damaged: %zu bytes, its header counts %llu", size,
                    (unsigned long long)want);
    p = b + size - CHECKSUM_SIZE;
    if (get64(&p) != XXH3_64bits(b, size - CHECKSUM_SIZE))
        return fail(msg, msz, "damaged: the checksum does not match the content");
    return true;
}

static bool in_range(float v, float lo, float hi) { return v >= lo && v <= hi; }

static bool finite2(sim_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/* A particle's values as the simulation can hold them: inside the world,
 * a radius in (0, radius_max] (radius_min may have changed since it was
 * drawn: sim_set_params), finite velocity and life. */
static bool particle_ok(const sim_params *p, const sim__particle *q)
{
    return in_range(q->pos.x, 0.0f, p->world_w) && in_range(q->pos.y, 0.0f, p->world_h) &&
           q->radius > 0.0f && q->radius <= p->radius_max && finite2(q->vel) &&
           isfinite(q->life);
}

static const unsigned char *read_entity(const unsigned char *p, sim__particle *q, sim_vec2 *acc)
{
    q->pos.x = getf(&p), q->pos.y = getf(&p);
    q->vel.x = getf(&p), q->vel.y = getf(&p);
    acc->x = getf(&p), acc->y = getf(&p);
    q->color = get_rgba(&p);
    q->radius = getf(&p), q->life = getf(&p);
    return p;
}

static const unsigned char *read_spray(const unsigned char *p, sim__particle *q)
{
    q->pos.x = getf(&p), q->pos.y = getf(&p);
    q->vel.x = getf(&p), q->vel.y = getf(&p);
    q->color = get_rgba(&p);
    q->radius = getf(&p), q->life = getf(&p);
    return p;
}

static uint32_t popcount8(unsigned char b)
{
    uint32_t n = 0;
    for (; b; b &= (unsigned char)(b - 1u)) n++;
    return n;
}

/* What the checksum cannot tell: values the simulation refuses. */
static bool check_content(const unsigned char *b, const header *h, char *msg, size_t msz)
{
    char why[200];
    if (!sim_params_check(&h->params, why, sizeof why))
        return fail(msg, msz, "bad parameters: %s", why);
    if (h->particles > sim_max_particles(&h->params))
        return fail(msg, msz, "a wave of %u particles is past the density rule for the %gx%g "
                    "world (at most %u)", (unsigned)h->particles, (double)h->params.world_w,
                    (double)h->params.world_h, (unsigned)sim_max_particles(&h->params));
    if (h->enabled >> SIM_SYSTEM_COUNT)
        return fail(msg, msz, "system flags 0x%x name systems past the %u there are",
                    (unsigned)h->enabled, (unsigned)SIM_SYSTEM_COUNT);
    if (h->spray_rng == 0 || h->spray_rng >= 2147483647u)
        return fail(msg, msz, "spray generator state %u is outside [1, 2^31 - 2]",
                    (unsigned)h->spray_rng);
    const unsigned char *bits = b + HEADER_SIZE, *p = bits + (h->span + 7u) / 8u;
    uint32_t n = 0;
    for (uint32_t i = 0; i < (h->span + 7u) / 8u; i++) n += popcount8(bits[i]);
    if (n != h->live || (h->span % 8u && bits[h->span / 8u] >> (h->span % 8u)))
        return fail(msg, msz, "the live entity bits do not match the count of %u",
                    (unsigned)h->live);
    for (uint32_t i = 0; i < h->live + h->sprays; i++) {
        sim__particle q;
        sim_vec2 acc = {0.0f, 0.0f};
        p = i < h->live ? read_entity(p, &q, &acc) : read_spray(p, &q);
        if (!particle_ok(&h->params, &q) || !finite2(acc))
            return fail(msg, msz, "%s %u holds values outside the world's ranges",
                        i < h->live ? "live entity" : "spray",
                        (unsigned)(i < h->live ? i : i - h->live));
    }
    return true;
}

bool sim_state_check(const void *buf, size_t size, sim_state_info *info, char *msg, size_t msz)
{
    header h;
    if (!check_frame(buf, size, &h, msg, msz) || !check_content(buf, &h, msg, msz)) return false;
    if (info)
        *info = (sim_state_info){h.params, h.particles, h.live, h.span, h.sprays, h.frame};
    return true;
}

/* ---- loading -------------------------------------------------------------- */

static ecs_status load_fail(ecs_error *err, ecs_status st, const char *msg)
{
    if (err) {
        err->status = st;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return st;
}

/* Entities 0 .. span - 1 made with every component, the live ones filled
 * from the file, the rest killed and reclaimed: the free indices are then
 * the dead ones below span, and the next is span, so the indices handed
 * out from here on are those the saved world would have handed out. */
static ecs_status fill_entities(sim_world *w, const unsigned char *b, const header *h)
{
    ecs_context *ctx = w->ctx;
    ecs_entity *made = malloc((h->span ? h->span : 1u) * sizeof *made);
    if (!made) return ECS_ERR_NOMEM;
    ecs_status st = ecs_create_bulk(ctx, h->span,
                                    ECS_IDS(SIM_C_POSITION, SIM_C_VELOCITY, SIM_C_ACCELERATION,
                                            SIM_C_COLOR, SIM_C_CIRCLE, SIM_C_LIFE),
                                    NULL, made);
    if (st != ECS_OK) {
        free(made);
        return st;
    }
    for (uint32_t i = 0; i < h->span; i++) assert(made[i].index == i); /* a fresh context */
    columns c = columns_of(ctx);
    sim_vec2 *pos = (sim_vec2 *)c.pos, *vel = (sim_vec2 *)c.vel, *acc = (sim_vec2 *)c.acc;
    sim_rgba *color = (sim_rgba *)c.color;
    float *circle = (float *)c.circle, *life = (float *)c.life;
    const unsigned char *bits = b + HEADER_SIZE, *p = bits + (h->span + 7u) / 8u;
    uint32_t dead = 0;
    for (uint32_t i = 0; i < h->span; i++) {
        if (!(bits[i / 8u] >> (i % 8u) & 1u)) {
            made[dead++] = made[i];
            continue;
        }
        sim__particle q;
        p = read_entity(p, &q, &acc[i]);
        pos[i] = q.pos;
        vel[i] = q.vel;
        color[i * c.color_step] = q.color;
        circle[i * c.circle_step] = q.radius;
        life[i] = q.life;
    }
    st = ecs_kill_bulk(ctx, made, dead);
    free(made);
    ecs_refresh(ctx);
    return st;
}

static ecs_status fill_sprays(sim_world *w, const unsigned char *b, const header *h)
{
    if (h->sprays == 0) return ECS_OK;
    sim_spray_queue *q = ecs_resource(w->ctx, SIM_R_SPRAYS);
    q->v = malloc((size_t)h->sprays * sizeof *q->v);
    if (!q->v) return ECS_ERR_NOMEM;
    q->cap = q->count = h->sprays;
    const unsigned char *p = b + size_for(h->span, h->live, 0) - CHECKSUM_SIZE;
    for (uint32_t i = 0; i < h->sprays; i++) p = read_spray(p, &q->v[i]);
    return ECS_OK;
}

ecs_status sim_load_state(const void *buf, size_t size, const sim_config *cfg, sim_world **out,
                          ecs_error *err)
{
    *out = NULL;
    char msg[240];
    header h;
    if (!check_frame(buf, size, &h, msg, sizeof msg) || !check_content(buf, &h, msg, sizeof msg))
        return load_fail(err, ECS_ERR_INVALID, msg);
    sim_config c = *cfg;
    c.params = h.params;
    c.particles = 0;
    if (c.storage == ECS_STORAGE_FIXED && c.capacity == 0)
        c.capacity = h.particles > h.span ? h.particles : (h.span ? h.span : 1u);
    if (c.storage == ECS_STORAGE_FIXED && c.capacity < h.span) {
        snprintf(msg, sizeof msg, "the snapshot uses entity index %u, past the fixed entity "
                 "limit of %u", (unsigned)(h.span - 1u), (unsigned)c.capacity);
        return load_fail(err, ECS_ERR_FULL, msg);
    }
    sim_world *w;
    ecs_status st = sim_create(&c, &w, err);
    if (st != ECS_OK) return st;
    w->particles = h.particles;
    w->wave = h.wave;
    w->frame = h.frame;
    w->spray_rng.x = h.spray_rng;
    st = fill_entities(w, buf, &h);
    if (st == ECS_OK) st = fill_sprays(w, buf, &h);
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT && st == ECS_OK; s++)
        st = sim_enable_system(w, s, h.enabled >> s & 1u);
    if (st != ECS_OK) {
        sim_destroy(w);
        return load_fail(err, st, "out of memory for the snapshot's entities");
    }
    *out = w;
    return ECS_OK;
}
