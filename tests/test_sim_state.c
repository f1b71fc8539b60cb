/* test_sim_state.c - snapshots: a world saved after some frames, loaded
 * under every worker count, inner parallelism, storage and layout, steps
 * on to the hash of a run never interrupted; save, load, save gives the
 * same bytes, and so does saving through a buffer of any size; every
 * truncation, every byte flip and random mutations (their checksum made
 * right again, so that the checks behind it are reached) are refused or
 * load a world that steps, never a crash. */
#include "sim_test_util.h"

#include <math.h>
#include <stdlib.h>

#include <xxhash.h>

#define SAVE_AT 40u  /* frames before the save */
#define MORE 30u     /* frames after it */

/* A small, short-lived world: particles die and sprays reuse their
 * indices before the save, and again after it. */
static sim_config base_config(uint32_t particles)
{
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 300.0f;
    cfg.params.world_h = 200.0f;
    cfg.params.life_min = 0.2f;
    cfg.params.life_max = 2.0f;
    cfg.params.seed = 77u;
    cfg.particles = particles;
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 2u * particles;
    cfg.workers = 1;
    return cfg;
}

/* What the user does before frame f: sprays, a new wave, a system off and
 * on again. */
static void events(sim_world *w, uint64_t f)
{
    if (f % 7u == 3u) assert_int_equal(sim_spray(w, 20.0f + (float)f, 100.0f, 25u), ECS_OK);
    if (f == 12u || f == SAVE_AT + 9u) assert_int_equal(sim_new_wave(w), ECS_OK);
    if (f == SAVE_AT - 5u) assert_int_equal(sim_enable_system(w, SIM_S_COLLISION, false), ECS_OK);
    if (f == SAVE_AT + 4u) assert_int_equal(sim_enable_system(w, SIM_S_COLLISION, true), ECS_OK);
    if (f == SAVE_AT) assert_int_equal(sim_enable_system(w, SIM_S_FADE, false), ECS_OK);
    if (f == SAVE_AT) assert_int_equal(sim_spray(w, 150.0f, 60.0f, 40u), ECS_OK);
}

/* Steps w from its frame to `to`, events before every frame but the
 * first when skip_first (they were applied before the save). */
static void run_to(sim_world *w, uint64_t to, bool skip_first)
{
    for (uint64_t f = sim_frame(w); f < to; f++) {
        if (!skip_first) events(w, f);
        skip_first = false;
        ecs_status st = sim_step(w);
        if (st != ECS_OK) fail_msg("frame %llu: %s", (unsigned long long)f, sim_step_error(w));
    }
}

/* A sink that gathers the snapshot's pieces into one buffer, refusing the
 * piece numbered refuse (none when SIZE_MAX). */
typedef struct gather {
    unsigned char *b;
    size_t cap, n;
    size_t pieces, short_pieces; /* handed, and of them shorter than the chunk */
    size_t chunk, refuse;
    bool refused;
} gather;

static bool gather_put(void *ctx, const void *bytes, size_t n)
{
    gather *g = ctx;
    assert_false(g->refused); /* nothing after a refusal */
    assert_true(n > 0 && n <= g->chunk && n <= g->cap - g->n);
    if (g->pieces++ == g->refuse) {
        g->refused = true;
        return false;
    }
    g->short_pieces += n < g->chunk;
    memcpy(g->b + g->n, bytes, n);
    g->n += n;
    return true;
}

/* w's snapshot through a buffer of chunk bytes: every piece full but the
 * last. */
static unsigned char *save_chunked(const sim_world *w, size_t chunk, size_t *n)
{
    *n = sim_state_size(w);
    assert_true(*n > 0);
    gather g = {malloc(*n), *n, 0, 0, 0, chunk, SIZE_MAX, false};
    unsigned char *buf = malloc(chunk);
    assert_non_null(g.b);
    assert_non_null(buf);
    assert_int_equal(sim_save_state(w, buf, chunk, gather_put, &g), *n);
    assert_int_equal(g.n, *n);
    assert_int_equal(g.pieces, (*n + chunk - 1u) / chunk);
    assert_int_equal(g.short_pieces, *n % chunk != 0);
    free(buf);
    return g.b;
}

/* w's snapshot in one piece. */
static unsigned char *save(const sim_world *w, size_t *n)
{
    return save_chunked(w, sim_state_size(w), n);
}

/* A world at SAVE_AT, its pending spray and disabled systems with it. */
static sim_world *world_at_save(uint32_t particles)
{
    sim_config cfg = base_config(particles);
    sim_world *w = sim_create_ok(&cfg);
    run_to(w, SAVE_AT, false);
    events(w, SAVE_AT);
    assert_int_equal(sim_spray_pending(w), 40u);
    return w;
}

/* A world saved at SAVE_AT, and what sim_state_check reads of it. */
typedef struct snapshot {
    unsigned char *b;
    size_t n;
    sim_state_info info;
} snapshot;

static snapshot snapshot_of(uint32_t particles)
{
    sim_world *w = world_at_save(particles);
    snapshot s;
    s.b = save(w, &s.n);
    sim_destroy(w);
    char msg[240];
    if (!sim_state_check(s.b, s.n, &s.info, msg, sizeof msg)) fail_msg("%s", msg);
    return s;
}

/* A config to load a snapshot under: its params and count are the
 * snapshot's, the rest base_config's. */
static sim_config load_config(void) { return base_config(1u); }

/* sim_load_state of b[0..n) under cfg: its status, *w the world or NULL. */
static ecs_status load(const unsigned char *b, size_t n, const sim_config *cfg, sim_world **w,
                       ecs_error *err)
{
    *w = NULL;
    memset(err, 0, sizeof *err);
    return sim_load_state(b, n, cfg, w, err);
}

static sim_world *load_ok(const unsigned char *b, size_t n, const sim_config *cfg)
{
    sim_world *w;
    ecs_error err;
    ecs_status st = load(b, n, cfg, &w, &err);
    if (st != ECS_OK) fail_msg("sim_load_state: %s: %s", ecs_status_name(st), err.message);
    return w;
}

static void load_continues_bit_for_bit(void **state)
{
    (void)state;
    sim_config cfg = base_config(1500u);
    sim_world *ref = sim_create_ok(&cfg);
    run_to(ref, SAVE_AT + MORE, false);
    uint64_t want = sim_hash(ref);
    uint32_t alive = sim_alive(ref);
    sim_destroy(ref);
    snapshot snap = snapshot_of(1500u);
    const sim_state_info info = snap.info;
    assert_int_equal(info.frame, SAVE_AT);
    assert_int_equal(info.sprays, 40u);
    assert_int_equal(info.particles, 1500u);
    assert_true(info.alive < info.span); /* dead indices below the highest live one */
    for (uint32_t workers = 1; workers <= 4; workers++)
        for (int ip = 0; ip < 2; ip++)
            for (int storage = 0; storage < 2; storage++)
                for (int layout = 0; layout < 2; layout++) {
                    sim_config lc = load_config();
                    lc.workers = workers;
                    lc.inner_parallelism_off = ip;
                    lc.storage = storage ? ECS_STORAGE_FIXED : ECS_STORAGE_DYNAMIC;
                    lc.capacity = storage ? 3000u : 0u;
                    lc.layout = layout ? SIM_LAYOUT_THESIS : SIM_LAYOUT_SOA;
                    sim_world *w = load_ok(snap.b, snap.n, &lc);
                    assert_int_equal(sim_frame(w), SAVE_AT);
                    assert_int_equal(sim_alive(w), info.alive);
                    assert_false(sim_system_enabled(w, SIM_S_COLLISION));
                    assert_false(sim_system_enabled(w, SIM_S_FADE));
                    run_to(w, SAVE_AT + MORE, true);
                    assert_int_equal(sim_alive(w), alive);
                    if (sim_hash(w) != want)
                        fail_msg("%u workers, IP %d, storage %d, layout %d: hash differs",
                                 (unsigned)workers, ip, storage, layout);
                    sim_destroy(w);
                }
    free(snap.b);
}

static void save_load_save_same_bytes(void **state)
{
    (void)state;
    size_t m;
    snapshot snap = snapshot_of(800u);
    sim_config lc = load_config();
    lc.workers = 3;
    lc.storage = ECS_STORAGE_DYNAMIC;
    lc.layout = SIM_LAYOUT_THESIS;
    sim_world *w = load_ok(snap.b, snap.n, &lc);
    unsigned char *again = save(w, &m);
    assert_int_equal(m, snap.n);
    assert_memory_equal(again, snap.b, snap.n);
    sim_destroy(w);
    free(again);
    free(snap.b);
}

/* Through a buffer of any size, none a multiple of a particle's 36 bytes
 * or a spray's 28, so that pieces end inside the header, the live bits and
 * the records: the same bytes as in one piece. */
static void any_chunk_same_bytes(void **state)
{
    (void)state;
    sim_world *w = world_at_save(300u);
    size_t n, m;
    unsigned char *whole = save(w, &n);
    char msg[240];
    assert_true(sim_state_check(whole, n, NULL, msg, sizeof msg));
    const size_t chunks[] = {1u, 5u, 13u, 35u, 37u, 97u, 1001u, n - 1u, n + 1u};
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        unsigned char *b = save_chunked(w, chunks[i], &m);
        assert_int_equal(m, n);
        if (memcmp(b, whole, n) != 0) fail_msg("chunk of %zu bytes: other bytes", chunks[i]);
        free(b);
    }
    free(whole);
    sim_destroy(w);
}

/* A sink that refuses stops the save: 0, and nothing handed after it. */
static void refusing_sink_stops(void **state)
{
    (void)state;
    sim_world *w = world_at_save(300u);
    size_t n = sim_state_size(w);
    unsigned char buf[100];
    for (size_t refuse = 0; refuse < 3u; refuse++) {
        gather g = {malloc(n), n, 0, 0, 0, sizeof buf, refuse, false};
        assert_non_null(g.b);
        assert_int_equal(sim_save_state(w, buf, sizeof buf, gather_put, &g), 0);
        assert_true(g.refused);
        assert_int_equal(g.pieces, refuse + 1u);
        free(g.b);
    }
    /* spatial_partition off: nothing to save, nothing handed. */
    assert_int_equal(sim_enable_system(w, SIM_S_SPATIAL_PARTITION, false), ECS_OK);
    assert_int_equal(sim_state_size(w), 0);
    gather g = {NULL, 0, 0, 0, 0, sizeof buf, SIZE_MAX, false};
    assert_int_equal(sim_save_state(w, buf, sizeof buf, gather_put, &g), 0);
    assert_int_equal(g.pieces, 0);
    sim_destroy(w);
}

/* A fixed limit below the highest index in use is refused, not truncated. */
static void fixed_limit_too_small(void **state)
{
    (void)state;
    snapshot snap = snapshot_of(300u);
    sim_config lc = load_config();
    lc.capacity = snap.info.span - 1u;
    sim_world *w;
    ecs_error err;
    assert_int_equal(load(snap.b, snap.n, &lc, &w, &err), ECS_ERR_FULL);
    assert_null(w);
    assert_non_null(strstr(err.message, "fixed entity limit"));
    free(snap.b);
}

/* Refused by both the check and the load, with a message. */
static void assert_refused(const unsigned char *b, size_t n, const char *why)
{
    char msg[240] = "";
    assert_false(sim_state_check(b, n, NULL, msg, sizeof msg));
    assert_true(msg[0] != '\0');
    if (why && !strstr(msg, why)) fail_msg("'%s' does not say '%s'", msg, why);
    sim_config lc = load_config();
    sim_world *w;
    ecs_error err;
    assert_int_equal(load(b, n, &lc, &w, &err), ECS_ERR_INVALID);
    assert_null(w);
}

/* A snapshot the checks pass, and a world loaded from it. */
static void assert_loads(const unsigned char *b, size_t n)
{
    char msg[240] = "";
    if (!sim_state_check(b, n, NULL, msg, sizeof msg)) fail_msg("refused: %s", msg);
    sim_config lc = load_config();
    lc.storage = ECS_STORAGE_DYNAMIC;
    sim_destroy(load_ok(b, n, &lc));
}

static void every_truncation_refused(void **state)
{
    (void)state;
    snapshot snap = snapshot_of(200u);
    for (size_t len = 0; len < snap.n; len++) {
        unsigned char *cut = malloc(len ? len : 1u); /* ASan sees a read past the end */
        assert_non_null(cut);
        memcpy(cut, snap.b, len);
        assert_refused(cut, len, "truncated");
        free(cut);
    }
    free(snap.b);
}

static void every_byte_flip_refused(void **state)
{
    (void)state;
    snapshot snap = snapshot_of(200u);
    for (size_t i = 0; i < snap.n; i++) {
        for (unsigned bit = 0; bit < 8; bit += 7) {
            snap.b[i] ^= (unsigned char)(1u << bit);
            assert_refused(snap.b, snap.n, NULL);
            snap.b[i] ^= (unsigned char)(1u << bit);
        }
    }
    char msg[240];
    assert_true(sim_state_check(snap.b, snap.n, NULL, msg, sizeof msg));
    free(snap.b);
}

/* A buffer of n bytes for mutated copies of a snapshot. */
static unsigned char *scratch(size_t n)
{
    unsigned char *m = malloc(n);
    assert_non_null(m);
    return m;
}

/* The checksum made right for a mutated content. */
static void reseal(unsigned char *b, size_t n)
{
    uint64_t h = XXH3_64bits(b, n - 8u);
    for (int i = 0; i < 8; i++) b[n - 8u + (size_t)i] = (unsigned char)(h >> (8 * i));
}

static void put32_at(unsigned char *b, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++) b[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Offsets of the format (docs/determinism.md, "Snapshots"). */
enum { AT_VERSION = 8, AT_WORLD_W = 12, AT_LIFE_MIN = 40, AT_PARTICLES = 60, AT_SPRAY_RNG = 76,
       AT_ENABLED = 80,
       AT_SPAN = 84, AT_LIVE = 88, AT_SPRAYS = 92, AT_BITS = 96 };

static void hostile_headers_refused(void **state)
{
    (void)state;
    snapshot snap = snapshot_of(200u);
    unsigned char *m = scratch(snap.n);
    float nan = NAN;
    uint32_t nan_bits;
    memcpy(&nan_bits, &nan, sizeof nan_bits);
    struct {
        size_t at;
        uint32_t v;
        const char *why;
    } cases[] = {
        {0, 0x58585858u, "bad magic"},
        {AT_VERSION, SIM_STATE_VERSION + 1u, "newer"},
        {AT_VERSION, 0u, "version 0"},
        {AT_WORLD_W, nan_bits, "bad parameters"},
        {AT_LIFE_MIN, 0u, "bad parameters"},
        {AT_SPAN, UINT32_MAX, "past the limits"},
        {AT_SPAN, ECS_MAX_ENTITIES, "truncated"},
        {AT_LIVE, UINT32_MAX, "past the limits"},
        {AT_SPRAYS, SIM_SPRAY_MAX + 1u, "past the limits"},
        {AT_SPRAYS, 0u, "damaged"},
        {AT_ENABLED, 1u << SIM_SYSTEM_COUNT, "system flags"},
        {AT_SPRAY_RNG, 0u, "spray generator"},
        {AT_BITS, 0u, "live entity bits"},
        {AT_PARTICLES, UINT32_MAX, "density"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(m, snap.b, snap.n);
        put32_at(m, cases[i].at, cases[i].v);
        reseal(m, snap.n);
        assert_refused(m, snap.n, cases[i].why);
    }
    /* The first live particle's position.x infinite, then its radius 0. */
    size_t first = AT_BITS + (snap.info.span + 7u) / 8u;
    uint32_t bad[][2] = {{0u, 0x7f800000u}, {28u, 0u}};
    for (size_t i = 0; i < 2; i++) {
        memcpy(m, snap.b, snap.n);
        put32_at(m, first + bad[i][0], bad[i][1]);
        reseal(m, snap.n);
        assert_refused(m, snap.n, "outside the world");
    }
    /* Version 1 (the same layout) still loads. */
    memcpy(m, snap.b, snap.n);
    put32_at(m, AT_VERSION, 1u);
    reseal(m, snap.n);
    assert_loads(m, snap.n);
    memcpy(m, snap.b, snap.n);
    m[snap.n - 1u] ^= 1u;
    assert_refused(m, snap.n, "checksum");
    unsigned char *longer = calloc(snap.n + 1u, 1);
    assert_non_null(longer);
    memcpy(longer, snap.b, snap.n);
    assert_refused(longer, snap.n + 1u, "damaged");
    free(longer);
    free(m);
    free(snap.b);
}

/* Random mutations, resealed or not; what passes the check loads and steps. */
static void fuzz_mutations(void **state)
{
    (void)state;
    snapshot snap = snapshot_of(100u);
    unsigned char *m = scratch(snap.n);
    uint64_t x = 0x9E3779B97F4A7C15u;
    uint32_t loaded = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(m, snap.b, snap.n);
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int edits = 1 + (int)(x % 4u);
        for (int e = 0; e < edits; e++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* Half of the edits in the header, where the counts are. */
            size_t at = (size_t)((x >> 16) % ((x >> 8) % 2u ? AT_BITS : snap.n));
            m[at] = (unsigned char)(x >> 40);
        }
        size_t len = (x >> 48) % 8u == 0 ? (size_t)((x >> 20) % snap.n) : snap.n;
        if ((x >> 52) % 4u != 0 && len > 8u) reseal(m, len);
        char msg[240];
        bool ok = sim_state_check(m, len, NULL, msg, sizeof msg);
        sim_config lc = load_config();
        lc.storage = ECS_STORAGE_DYNAMIC; /* no fixed limit for the sprays to reach */
        lc.capacity = 0;
        sim_world *w;
        ecs_error err;
        ecs_status st = load(m, len, &lc, &w, &err);
        assert_int_equal(st == ECS_OK, ok);
        if (!w) continue;
        loaded++;
        for (int f = 0; f < 2; f++) assert_int_equal(sim_step(w), ECS_OK);
        sim_destroy(w);
    }
    assert_true(loaded > 0); /* some mutations of values in range load */
    free(m);
    free(snap.b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_continues_bit_for_bit),
        cmocka_unit_test(save_load_save_same_bytes),
        cmocka_unit_test(any_chunk_same_bytes),
        cmocka_unit_test(refusing_sink_stops),
        cmocka_unit_test(fixed_limit_too_small),
        cmocka_unit_test(every_truncation_refused),
        cmocka_unit_test(every_byte_flip_refused),
        cmocka_unit_test(hostile_headers_refused),
        cmocka_unit_test(fuzz_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
