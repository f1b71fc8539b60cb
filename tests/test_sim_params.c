/* test_sim_params.c - a running world's parameters changed between steps
 * (sim_set_params, sim_set_wave_size): a change before the first frame
 * gives the world made with those values; a change mid-run gives the same
 * state under every worker count and inner parallelism, reaches every
 * live particle (the acceleration) or only the ones drawn after it (the
 * spawn ranges); a snapshot keeps it; the fixed values and values past
 * the bounds are refused with nothing changed, and judged the same
 * without a world (sim_workload), in a line naming the value. */
#include "sim_test_util.h"

#include <math.h>
#include <stdlib.h>

static sim_config base_config(void)
{
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 400.0f;
    cfg.params.world_h = 300.0f;
    cfg.params.seed = 5u;
    cfg.particles = 2000u;
    cfg.storage = ECS_STORAGE_DYNAMIC;
    cfg.workers = 1u;
    cfg.max_workers = 4u;
    return cfg;
}

static void step_n(sim_world *w, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        ecs_status st = sim_step(w);
        if (st != ECS_OK) fail_msg("frame %llu: %s", (unsigned long long)sim_frame(w),
                                   sim_step_error(w));
    }
}

/* a and b in the same state now and after `frames` more; both destroyed. */
static void same_from_here(sim_world *a, sim_world *b, uint32_t frames)
{
    assert_int_equal(sim_hash(a), sim_hash(b));
    step_n(a, frames);
    step_n(b, frames);
    assert_int_equal(sim_hash(a), sim_hash(b));
    sim_destroy(a);
    sim_destroy(b);
}

static sim_params changed(const sim_world *w)
{
    sim_params p = *sim_get_params(w);
    p.radius_min = 1.5f;
    p.speed_max = 8.0f;
    p.life_min = 2.0f;
    p.life_max = 4.0f;
    return p;
}

/* Gravity set before frame 0: every particle's, as if the world had been
 * made with it (drawing a particle never reads the acceleration). */
static void gravity_before_first_frame(void **state)
{
    (void)state;
    sim_config cfg = base_config();
    sim_world *a = sim_create_ok(&cfg);
    sim_params p = *sim_get_params(a);
    p.acceleration = (sim_vec2){0.5f, -3.0f};
    assert_int_equal(sim_set_params(a, &p), ECS_OK);
    cfg.params.acceleration = p.acceleration;
    same_from_here(a, sim_create_ok(&cfg), 30);
}

/* The spawn ranges and the wave size, then a new wave: the wave of a world
 * made with them. */
static void wave_params_then_new_wave(void **state)
{
    (void)state;
    sim_config cfg = base_config();
    sim_world *a = sim_create_ok(&cfg);
    sim_params p = changed(a);
    assert_int_equal(sim_set_params(a, &p), ECS_OK);
    assert_int_equal(sim_set_wave_size(a, 3000u), ECS_OK);
    assert_int_equal(sim_wave_size(a), 3000u);
    assert_int_equal(sim_new_wave(a), ECS_OK);
    cfg.params = p;
    cfg.particles = 3000u;
    sim_world *b = sim_create_ok(&cfg);
    assert_int_equal(sim_new_wave(b), ECS_OK);
    assert_int_equal(sim_alive(a), 3000u);
    same_from_here(a, b, 20);
}

/* Every live particle's acceleration, and whether every radius lies in
 * [lo, hi]. */
static void check_particles(sim_world *w, sim_vec2 acc, float lo, float hi, bool *radii_in)
{
    ecs_context *ctx = sim_ecs(w);
    const unsigned char *a = ecs_column(ctx, SIM_C_ACCELERATION);
    size_t as = ecs_column_stride(ctx, SIM_C_ACCELERATION);
    const unsigned char *r = ecs_column(ctx, SIM_C_CIRCLE);
    size_t rs = ecs_column_stride(ctx, SIM_C_CIRCLE);
    *radii_in = true;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        if (ecs_entity_is_null(ecs_handle(ctx, i))) continue;
        sim_vec2 v;
        float radius;
        memcpy(&v, a + i * as, sizeof v);
        memcpy(&radius, r + i * rs, sizeof radius);
        assert_true(v.x == acc.x && v.y == acc.y);
        *radii_in &= radius >= lo && radius <= hi;
    }
}

/* What the user does before frame f. */
static void changes(sim_world *w, uint32_t f)
{
    sim_params p = *sim_get_params(w);
    if (f == 10u) {
        p.acceleration.y = 4.0f;
        assert_int_equal(sim_set_params(w, &p), ECS_OK);
    }
    if (f == 15u) {
        p = changed(w);
        assert_int_equal(sim_set_params(w, &p), ECS_OK);
    }
    if (f == 16u) assert_int_equal(sim_spray(w, 200.0f, 150.0f, 300u), ECS_OK);
    if (f == 20u) assert_int_equal(sim_set_wave_size(w, 1200u), ECS_OK);
    if (f == 25u) assert_int_equal(sim_new_wave(w), ECS_OK);
}

static uint64_t changed_run(uint32_t workers, bool ip, uint32_t frames)
{
    sim_config cfg = base_config();
    cfg.workers = workers;
    cfg.inner_parallelism_off = !ip;
    sim_world *w = sim_create_ok(&cfg);
    bool in_range;
    for (uint32_t f = 0; f < frames; f++) {
        changes(w, f);
        if (f == 12u) { /* gravity reached every particle; the radii are the old range's */
            check_particles(w, (sim_vec2){0.0f, 4.0f}, 0.5f, 2.5f, &in_range);
            assert_true(in_range);
        }
        if (f == 17u) { /* the spray's 300 are the only ones drawn at radius >= 1.5 */
            check_particles(w, (sim_vec2){0.0f, 4.0f}, 1.5f, 2.5f, &in_range);
            assert_false(in_range);
        }
        step_n(w, 1);
    }
    check_particles(w, (sim_vec2){0.0f, 4.0f}, 1.5f, 2.5f, &in_range);
    if (frames > 25u) {
        assert_true(in_range); /* the new wave's */
        assert_int_equal(sim_alive(w) <= 1200u, true);
    }
    uint64_t h = sim_hash(w);
    sim_destroy(w);
    return h;
}

/* The same state under every worker count and inner parallelism, and one
 * that the changes made different. */
static void mid_run_any_threads(void **state)
{
    (void)state;
    uint64_t want = changed_run(1u, false, 40u);
    assert_int_equal(changed_run(4u, true, 40u), want);
    assert_int_equal(changed_run(3u, true, 40u), want);
    assert_int_equal(changed_run(2u, false, 40u), want);
    sim_config cfg = base_config();
    sim_world *plain = sim_create_ok(&cfg);
    step_n(plain, 40);
    assert_int_not_equal(sim_hash(plain), want);
    sim_destroy(plain);
}

typedef struct bytes {
    unsigned char *b;
    size_t n, cap;
} bytes;

static bool put(void *ctx, const void *p, size_t n)
{
    bytes *s = ctx;
    if (n > s->cap - s->n) return false;
    memcpy(s->b + s->n, p, n);
    s->n += n;
    return true;
}

/* Changed gravity, radius min and wave size survive a save and a load, and
 * the loaded world steps on bit for bit; particles drawn before radius min
 * rose (smaller than it) load too. */
static void snapshot_keeps_changes(void **state)
{
    (void)state;
    sim_config cfg = base_config();
    sim_world *w = sim_create_ok(&cfg);
    step_n(w, 5);
    sim_params p = changed(w);
    p.acceleration = (sim_vec2){-1.0f, 2.5f};
    assert_int_equal(sim_set_params(w, &p), ECS_OK);
    assert_int_equal(sim_set_wave_size(w, 2500u), ECS_OK);
    assert_int_equal(sim_spray(w, 100.0f, 100.0f, 50u), ECS_OK);
    step_n(w, 5);
    size_t size = sim_state_size(w);
    bytes s = {malloc(size), 0, size};
    unsigned char chunk[4096];
    assert_int_equal(sim_save_state(w, chunk, sizeof chunk, put, &s), size);
    char msg[200] = "";
    sim_state_info info;
    if (!sim_state_check(s.b, s.n, &info, msg, sizeof msg)) fail_msg("check: %s", msg);
    assert_true(info.params.acceleration.y == 2.5f && info.params.radius_min == 1.5f);
    assert_int_equal(info.particles, 2500u);
    sim_config lc = base_config();
    lc.workers = 3u;
    sim_world *l = NULL;
    ecs_error err = {0};
    if (sim_load_state(s.b, s.n, &lc, &l, &err) != ECS_OK) fail_msg("load: %s", err.message);
    assert_memory_equal(sim_get_params(l), &p, sizeof p);
    assert_int_equal(sim_wave_size(l), 2500u);
    step_n(w, 15);
    step_n(l, 15);
    assert_int_equal(sim_hash(l), sim_hash(w));
    assert_int_equal(sim_new_wave(w), ECS_OK);
    assert_int_equal(sim_new_wave(l), ECS_OK);
    assert_int_equal(sim_hash(l), sim_hash(w));
    free(s.b);
    sim_destroy(w);
    sim_destroy(l);
}

/* The fixed fields and values past the bounds: refused, nothing changed. */
static void refused(void **state)
{
    (void)state;
    sim_config cfg = base_config();
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 2500u;
    sim_world *w = sim_create_ok(&cfg);
    const sim_params now = *sim_get_params(w);
    char msg[200];
    sim_params bad[8];
    for (int i = 0; i < 8; i++) bad[i] = now;
    bad[0].world_w = 500.0f;
    bad[1].radius_max = 2.0f;
    bad[2].dt = 0.02f;
    bad[3].seed = 6u;
    bad[4].radius_min = 0.0f;
    bad[5].radius_min = 3.0f; /* past radius max */
    bad[6].life_min = 30.0f;  /* past life max */
    bad[7].acceleration.y = NAN;
    for (int i = 0; i < 8; i++) {
        msg[0] = '\0';
        assert_false(sim_params_settable(w, &bad[i], msg, sizeof msg));
        assert_true(strlen(msg) > 10u);
        assert_int_equal(sim_set_params(w, &bad[i]), ECS_ERR_INVALID);
        assert_memory_equal(sim_get_params(w), &now, sizeof now);
    }
    /* The wave size: the fixed limit, then the density rule. */
    assert_int_equal(sim_wave_size_max(w, &now), 2500u);
    assert_int_equal(sim_set_wave_size(w, 0u), ECS_ERR_INVALID);
    assert_int_equal(sim_set_wave_size(w, 2501u), ECS_ERR_INVALID);
    assert_int_equal(sim_set_wave_size(w, 2500u), ECS_OK);
    sim_destroy(w);
    cfg.storage = ECS_STORAGE_DYNAMIC;
    cfg.capacity = 0u;
    w = sim_create_ok(&cfg);
    uint64_t h = sim_hash(w);
    uint32_t most = sim_max_particles(&now);
    assert_int_equal(sim_wave_size_max(w, &now), most);
    assert_int_equal(sim_set_wave_size(w, most + 1u), ECS_ERR_INVALID);
    assert_int_equal(sim_set_wave_size(w, most), ECS_OK);
    sim_params bigger = now;
    bigger.radius_min = 2.0f; /* the wave of `most` would be past the rule */
    msg[0] = '\0';
    assert_false(sim_params_settable(w, &bigger, msg, sizeof msg));
    assert_non_null(strstr(msg, "radius min 2"));
    assert_int_equal(sim_set_params(w, &bigger), ECS_ERR_INVALID);
    assert_int_equal(sim_hash(w), h);
    sim_destroy(w);
}

/* A world's judgement had without it: sim_config_workload of the config
 * (fixed storage, its limit by default the particles) takes and refuses
 * what the world made from it does, after a change as before, and says
 * which value and what is allowed. */
static void judged_without_a_world(void **state)
{
    (void)state;
    sim_config cfg = base_config();
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 0u; /* the limit: the 2000 particles */
    sim_world *w = sim_create_ok(&cfg);
    sim_workload now = sim_config_workload(&cfg);
    assert_int_equal(now.fixed_limit, 2000u);
    assert_int_equal(now.wave_size, 2000u);
    char msg[200];
    const uint32_t sizes[] = {0u, 1u, 1999u, 2000u, 2001u};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bool takes = sim_workload_takes_wave_size(&now, sizes[i], msg, sizeof msg);
        assert_int_equal(takes, sizes[i] >= 1u && sizes[i] <= 2000u);
        assert_int_equal(sim_set_wave_size(w, sizes[i]) == ECS_OK, takes);
    }
    now.wave_size = sim_wave_size(w);
    assert_false(sim_workload_takes_wave_size(&now, 2001u, msg, sizeof msg));
    assert_string_equal(msg, "wave size 2001: must be 1 to 2000 (the fixed storage's limit)");
    sim_params bad[4];
    for (int i = 0; i < 4; i++) bad[i] = now.params;
    bad[0].radius_max = 3.0f;
    bad[1].speed_max = -1.0f;
    bad[2].life_min = 0.0f;
    bad[3].seed = 6u;
    for (int i = 0; i < 4; i++) {
        assert_false(sim_workload_takes_params(&now, &bad[i], msg, sizeof msg));
        char world_msg[200];
        assert_false(sim_params_settable(w, &bad[i], world_msg, sizeof world_msg));
        assert_string_equal(msg, world_msg);
    }
    assert_false(sim_workload_takes_params(&now, &bad[0], msg, sizeof msg));
    assert_non_null(strstr(msg, "radius max 3: stays 2.5"));
    sim_params good = now.params;
    good.life_min = 6.0f;
    good.acceleration.y = 2.0f;
    assert_true(sim_workload_takes_params(&now, &good, msg, sizeof msg));
    assert_int_equal(sim_set_params(w, &good), ECS_OK);
    sim_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gravity_before_first_frame),
        cmocka_unit_test(wave_params_then_new_wave),
        cmocka_unit_test(mid_run_any_threads),
        cmocka_unit_test(snapshot_keeps_changes),
        cmocka_unit_test(refused),
        cmocka_unit_test(judged_without_a_world),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
