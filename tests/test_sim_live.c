/* test_sim_live.c - the worker count and inner parallelism changed while
 * the simulation runs leave its state bit for bit what it is when they
 * never change.
 *
 * For max_workers 1, 2 and 4: 20 000 particles (above the 4096 at which
 * systems split per worker), some dying within the run, 42 frames; sprays
 * at three frames (one at a corner, so clamping is involved) and a new
 * wave at another. The live run starts on 1 worker, then moves to the next
 * count (1..max in turn) and flips inner parallelism every 3 frames; the
 * fixed run keeps max workers, inner on. sim_hash and the alive count are compared every 3
 * frames, and every fixed run equals the others. Guards against a vacuous
 * pass: the hash changes between samples, each spray adds exactly its
 * particles, the wave respawns the configured count, and the split in each
 * frame is the one asked for.
 */
#include "sim_test_util.h"

#include "sim.h"

#define PARTICLES 20000u
#define FRAMES 42u
#define EVERY 3u
#define SAMPLES (FRAMES / EVERY + 1u)
#define WAVE_FRAME 20u /* sim_new_wave before this frame */

typedef struct spray_event {
    uint32_t frame; /* sprayed before this frame */
    float x, y;
    uint32_t n;
} spray_event;

static const spray_event sprays[] = {
    {5, 300.0f, 200.0f, 500},
    {17, 1435.0f, 895.0f, 1000}, /* the corner: circles pushed inside */
    {20, 720.0f, 450.0f, 300},   /* dropped by the wave queued before the same frame */
    {31, 60.0f, 800.0f, 2000},
};

typedef struct trace {
    uint64_t hash[SAMPLES];
    uint32_t alive[SAMPLES];
} trace;

static sim_config config(uint32_t workers, uint32_t max_workers)
{
    sim_config cfg = sim_default_config();
    cfg.params.seed = 4242u;
    cfg.params.life_min = 0.5f; /* some die within the 42 frames (1.7 s) */
    cfg.particles = PARTICLES;
    cfg.storage = ECS_STORAGE_DYNAMIC;
    cfg.workers = workers;
    cfg.split_every_worker = true; /* the splits themselves under test */
    cfg.max_workers = max_workers;
    return cfg;
}

/* Particles the coming frame's life system will kill. */
static uint32_t deaths_next_frame(sim_world *w)
{
    ecs_context *ctx = sim_ecs(w);
    float dt = sim_get_params(w)->dt;
    uint32_t n = 0;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        const float *life = ecs_get(ctx, e, SIM_C_LIFE);
        n += life[0] - dt <= 0.0f;
    }
    return n;
}

static void run(uint32_t max, bool live, trace *t)
{
    /* The live run starts on one worker: whatever is sized at creation
     * (the grid's parts) must already fit max. */
    sim_config cfg = config(live ? 1u : max, max);
    sim_world *w = sim_create_ok(&cfg);
    assert_int_equal(sim_max_workers(w), max);
    t->hash[0] = sim_hash(w);
    t->alive[0] = sim_alive(w);
    uint32_t workers = cfg.workers;
    bool inner = true;
    for (uint32_t f = 1; f <= FRAMES; f++) {
        if (live && f % EVERY == 0) {
            uint32_t k = f / EVERY;
            workers = 1u + k % max;
            inner = (k + k / max) % 2u == 0u; /* every (count, on/off) pair comes up */
            assert_int_equal(sim_set_workers(w, workers), ECS_OK);
            sim_set_inner_parallelism(w, inner);
        }
        assert_int_equal(sim_workers(w), workers);
        assert_true(sim_inner_parallelism(w) == inner);
        uint32_t added = 0;
        for (uint32_t s = 0; s < ARRAY_LEN(sprays); s++) {
            if (sprays[s].frame != f) continue;
            assert_int_equal(sim_spray(w, sprays[s].x, sprays[s].y, sprays[s].n), ECS_OK);
            added += sprays[s].n;
        }
        if (f == WAVE_FRAME) {
            assert_int_equal(sim_new_wave(w), ECS_OK); /* drops the spray just queued */
            assert_int_equal(sim_spray_pending(w), 0);
            assert_int_equal(sim_wave(w), 1);
            assert_int_equal(sim_alive(w), PARTICLES);
            added = 0;
        }
        uint32_t before = sim_alive(w), dying = deaths_next_frame(w);
        ecs_status st = sim_step(w);
        if (st != ECS_OK) fail_msg("frame %u: %s", f, ecs_status_name(st));
        assert_int_equal(sim_alive(w), before - dying + added); /* sprays really landed */
        assert_int_equal(sim_spray_dropped(w), 0);
        uint32_t want = inner ? workers : 1u;
        assert_int_equal(ecs_system_stats_get(sim_ecs(w), SIM_S_COLLISION).subtasks, want);
        assert_int_equal(sim_render_batches(w), want);
        if (f % EVERY == 0) {
            t->hash[f / EVERY] = sim_hash(w);
            t->alive[f / EVERY] = sim_alive(w);
        }
    }
    sim_destroy(w);
}

static void test_live_toggles_match_fixed(void **state)
{
    (void)state;
    static const uint32_t maxes[] = {1, 2, 4};
    trace first, ref, got;
    memset(&first, 0, sizeof first);
    for (uint32_t m = 0; m < ARRAY_LEN(maxes); m++) {
        run(maxes[m], false, &ref);
        run(maxes[m], true, &got);
        for (uint32_t s = 1; s < SAMPLES; s++) assert_true(ref.hash[s] != ref.hash[s - 1]);
        assert_true(ref.alive[SAMPLES - 1] > PARTICLES / 2u);
        if (m == 0) first = ref;
        for (uint32_t s = 0; s < SAMPLES; s++) {
            if (got.hash[s] != ref.hash[s] || got.alive[s] != ref.alive[s])
                fail_msg("max %u: frame %u: live %016llx (%u alive), fixed %016llx (%u alive)",
                         maxes[m], s * EVERY, (unsigned long long)got.hash[s], got.alive[s],
                         (unsigned long long)ref.hash[s], ref.alive[s]);
            assert_true(ref.hash[s] == first.hash[s]);
        }
    }
    print_message("final hash %016llx, %u alive\n", (unsigned long long)first.hash[SAMPLES - 1],
                  first.alive[SAMPLES - 1]);
}

static void test_worker_limits(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.particles = 100;
    cfg.workers = 3;
    cfg.split_every_worker = true; /* the splits themselves under test */
    cfg.max_workers = 2;
    sim_world *w = NULL;
    ecs_error err;
    assert_int_equal(sim_create(&cfg, &w, &err), ECS_ERR_INVALID);
    assert_null(w);
    assert_non_null(strstr(err.message, "max_workers"));
    cfg.max_workers = 0; /* as many as workers */
    assert_int_equal(sim_create(&cfg, &w, &err), ECS_OK);
    assert_int_equal(sim_max_workers(w), 3);
    assert_int_equal(sim_set_workers(w, 0), ECS_ERR_INVALID);
    assert_int_equal(sim_set_workers(w, 4), ECS_ERR_INVALID);
    assert_int_equal(sim_workers(w), 3);
    assert_int_equal(sim_set_workers(w, 1), ECS_OK);
    assert_int_equal(sim_workers(w), 1);
    assert_int_equal(sim_step(w), ECS_OK);
    sim_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_limits),
        cmocka_unit_test(test_live_toggles_match_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
