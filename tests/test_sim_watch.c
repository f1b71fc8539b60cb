/* test_sim_watch.c - sim_step_watched and sim_hash_written: the systems
 * stepped one at a time give the state of sim_step bit for bit, and what
 * each system wrote hashes the same for any worker count, inner
 * parallelism, storage and layout.
 *
 * 20 000 particles in a crowded 480 x 300 world (thousands of contacts a
 * frame, systems split per worker), lives short enough that some die
 * within the run, and a spray every few frames. Guards against a vacuous
 * pass: particles die, there are contacts, every system's hash changes
 * from frame to frame, and another seed changes every system's hash.
 */
#include "sim_test_util.h"

#include "sim.h"

#define PARTICLES 20000u
#define FRAMES 24u

static sim_config config(uint32_t seed, uint32_t workers, bool inner_off, ecs_storage storage,
                         sim_layout layout)
{
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 480.0f;
    cfg.params.world_h = 300.0f;
    cfg.params.seed = seed;
    cfg.params.life_min = 0.3f; /* some die within the run */
    cfg.particles = PARTICLES;
    cfg.workers = workers;
    cfg.split_every_worker = true;
    cfg.inner_parallelism_off = inner_off;
    cfg.storage = storage;
    cfg.capacity = storage == ECS_STORAGE_FIXED ? PARTICLES + 1000u : 1024u;
    cfg.layout = layout;
    return cfg;
}

/* A spray every 5 frames, the same in every run. */
static void spray(sim_world *w, uint32_t frame)
{
    if (frame % 5u == 0u) assert_int_equal(sim_spray(w, 100.0f + (float)frame, 150.0f, 50u), ECS_OK);
}

/* What the watch saw: the systems in call order, and each system's hash
 * per frame. */
typedef struct watched {
    uint32_t calls, order[SIM_SYSTEM_COUNT];
    uint64_t hash[FRAMES][SIM_SYSTEM_COUNT];
    uint32_t frame;
} watched;

static void watch(sim_world *w, uint32_t system, void *user)
{
    watched *s = user;
    assert_true(system < SIM_SYSTEM_COUNT);
    if (s->calls < SIM_SYSTEM_COUNT) s->order[s->calls] = system;
    s->calls++;
    s->hash[s->frame][system] = sim_hash_written(w, system);
}

static void run_watched(const sim_config *cfg, watched *s, uint64_t state[FRAMES])
{
    memset(s, 0, sizeof *s);
    sim_world *w = sim_create_ok(cfg);
    for (uint32_t f = 0; f < FRAMES; f++) {
        spray(w, f);
        s->frame = f;
        assert_int_equal(sim_step_watched(w, watch, s), ECS_OK);
        state[f] = sim_hash(w);
    }
    assert_int_equal(s->calls, FRAMES * SIM_SYSTEM_COUNT);
    sim_destroy(w);
}

/* The same frames through sim_step and sim_step_watched: the same state
 * after every frame, and the same alive and contact counts. */
static void test_same_state_as_step(void **state)
{
    (void)state;
    sim_config cfg = config(7u, 3u, false, ECS_STORAGE_DYNAMIC, SIM_LAYOUT_SOA);
    sim_world *a = sim_create_ok(&cfg), *b = sim_create_ok(&cfg);
    watched s;
    memset(&s, 0, sizeof s);
    uint64_t contacts = 0;
    for (uint32_t f = 0; f < FRAMES; f++) {
        spray(a, f);
        spray(b, f);
        assert_int_equal(sim_step(a), ECS_OK);
        s.frame = f;
        assert_int_equal(sim_step_watched(b, watch, &s), ECS_OK);
        assert_true(sim_hash(a) == sim_hash(b));
        assert_int_equal(sim_alive(a), sim_alive(b));
        assert_int_equal(sim_contacts(a), sim_contacts(b));
        assert_int_equal(sim_frame(a), sim_frame(b));
        contacts += sim_contacts(a);
    }
    assert_true(contacts > 1000u);
    assert_true(sim_alive(a) < PARTICLES); /* deaths outnumbered the sprays */
    /* Called in sim_watch_order, every system once a frame. */
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) assert_int_equal(s.order[k], sim_watch_order(k));
    sim_destroy(a);
    sim_destroy(b);
}

/* The order is one of the DAG's: every system once, render after fade
 * and solve_contacts, fade after life, each chain in its order. */
static void test_order(void **state)
{
    (void)state;
    uint32_t at[SIM_SYSTEM_COUNT];
    bool seen[SIM_SYSTEM_COUNT] = {false};
    for (uint32_t k = 0; k < SIM_SYSTEM_COUNT; k++) {
        uint32_t s = sim_watch_order(k);
        assert_true(s < SIM_SYSTEM_COUNT);
        assert_false(seen[s]);
        seen[s] = true;
        at[s] = k;
    }
    assert_int_equal(sim_watch_order(SIM_SYSTEM_COUNT), SIM_SYSTEM_COUNT);
    static const uint32_t chain[] = {SIM_S_ACCELERATION, SIM_S_VELOCITY, SIM_S_KEEP_IN_BOUNDS,
                                     SIM_S_SPATIAL_PARTITION, SIM_S_COLLISION,
                                     SIM_S_SOLVE_CONTACTS, SIM_S_RENDER};
    for (uint32_t k = 1; k < ARRAY_LEN(chain); k++) assert_true(at[chain[k - 1]] < at[chain[k]]);
    assert_true(at[SIM_S_LIFE] < at[SIM_S_FADE] && at[SIM_S_FADE] < at[SIM_S_RENDER]);
    /* Life after the solve: the particles it kills collide in their last frame. */
    assert_true(at[SIM_S_SOLVE_CONTACTS] < at[SIM_S_LIFE]);
    assert_true(sim_hash_written(NULL, SIM_SYSTEM_COUNT) == 0u);
}

/* Each system's hash, frame by frame, alike for 1 worker with inner
 * parallelism off, dynamic storage and the soa layout, and for 4 workers
 * with it on, fixed storage and the thesis layout. */
static void test_written_alike(void **state)
{
    (void)state;
    static watched one, four, other;
    static uint64_t s1[FRAMES], s4[FRAMES], so[FRAMES];
    sim_config c1 = config(11u, 1u, true, ECS_STORAGE_DYNAMIC, SIM_LAYOUT_SOA);
    sim_config c4 = config(11u, 4u, false, ECS_STORAGE_FIXED, SIM_LAYOUT_THESIS);
    run_watched(&c1, &one, s1);
    run_watched(&c4, &four, s4);
    for (uint32_t f = 0; f < FRAMES; f++) {
        assert_true(s1[f] == s4[f]);
        for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++)
            if (one.hash[f][s] != four.hash[f][s])
                fail_msg("frame %u: %s's hash differs", f + 1u, sim_system_name(s));
    }
    /* Not vacuous: each system's writes change over the frames, and
     * another seed changes them. */
    sim_config co = config(12u, 2u, false, ECS_STORAGE_DYNAMIC, SIM_LAYOUT_SOA);
    run_watched(&co, &other, so);
    for (uint32_t s = 0; s < SIM_SYSTEM_COUNT; s++) {
        assert_true(one.hash[0][s] != one.hash[1][s]);
        assert_true(one.hash[3][s] != other.hash[3][s]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_state_as_step),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_written_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
