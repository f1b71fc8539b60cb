/* test_sim_physics.c - physical invariants of the particle simulation.
 *
 *  (a) keep_in_bounds (world.h) on random and extreme positions and
 *      velocities, inside and outside the world: afterwards
 *      r <= x <= w - r and r <= y <= h - r; a circle that crossed a wall
 *      has its velocity on that axis pointing inwards (the magnitude kept);
 *      a circle that did not cross keeps position and velocity.
 *      sim__solve_contact swaps the two velocities and moves a by -push,
 *      b by +push, touching nothing else.
 *  (b) crowded worlds stepped for hundreds of frames: after every step
 *      every live particle's position, velocity, color and life are finite
 *      (life > 0: the dead are gone), with contacts every frame.
 *  (c) all particles at one point (velocities and acceleration zero, so
 *      only contacts move them): never NaN or infinite, the first frame's
 *      pushes keep the centroid and act along +x, and they spread until
 *      no two centers coincide.
 *  (d) render output: one instance per particle of the frame in subscribed
 *      order across the batches, positions, radii and colors equal to the
 *      columns, alpha = min(255, life * alpha_per_life) truncated.
 *  (e) life: the alive count after every frame matches the spawn lives
 *      decremented in float; all are dead after about life_max / dt frames.
 */
#include "sim_test_util.h"

#include <float.h>
#include <math.h>

#include "world.h"

static float unit(test_rng *r) { return (float)(rng_next(r) >> 40) / 16777216.0f; }
static float uniform(test_rng *r, float lo, float hi) { return lo + (hi - lo) * unit(r); }

/* ---- (a) keep_in_bounds ------------------------------------------------- */

static float pick_coord(test_rng *r, float side, float rad)
{
    const float extreme[] = {0.0f, -0.0f, rad, side - rad, side, nextafterf(rad, -INFINITY),
                             nextafterf(side - rad, INFINITY), -FLT_MAX, FLT_MAX, -INFINITY,
                             INFINITY, FLT_TRUE_MIN, -FLT_TRUE_MIN, side / 2.0f, -side, 2.0f * side,
                             -1e30f, 1e30f};
    switch (rng_below(r, 4)) {
    case 0: return extreme[rng_below(r, ARRAY_LEN(extreme))];
    case 1: return uniform(r, rad, side - rad); /* inside */
    case 2: return uniform(r, -side, 2.0f * side);
    default: return uniform(r, -0.01f, 0.01f) * side + (rng_below(r, 2) ? 0.0f : side);
    }
}

static float pick_speed(test_rng *r)
{
    const float extreme[] = {0.0f, -0.0f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, FLT_TRUE_MIN,
                             -FLT_TRUE_MIN, 1e-30f, -1e-30f};
    return rng_below(r, 3) ? uniform(r, -10.0f, 10.0f) : extreme[rng_below(r, ARRAY_LEN(extreme))];
}

/* One axis: pos/vel before (p0, v0) and after (p1, v1). */
static void check_axis(float side, float rad, float p0, float v0, float p1, float v1, int *out)
{
    float hi = side - rad;
    if (!(rad <= p1 && p1 <= hi))
        fail_msg("r %g, side %g: position %g -> %g, outside [%g, %g]", (double)rad, (double)side,
                 (double)p0, (double)p1, (double)rad, (double)hi);
    if (p0 < rad) { /* crossed the low wall: now moving up (or resting) */
        (*out)++;
        assert_true(p1 == rad);
        if (!(v1 >= 0.0f && fabsf(v1) == fabsf(v0)))
            fail_msg("crossed the low wall at %g with velocity %g: now %g", (double)p0, (double)v0,
                     (double)v1);
        if (v0 < 0.0f) assert_true(v1 > 0.0f);
    } else if (p0 > hi) { /* crossed the high wall */
        (*out)++;
        assert_true(p1 == hi);
        if (!(v1 <= 0.0f && fabsf(v1) == fabsf(v0)))
            fail_msg("crossed the high wall at %g with velocity %g: now %g", (double)p0,
                     (double)v0, (double)v1);
        if (v0 > 0.0f) assert_true(v1 < 0.0f);
    } else { /* inside: untouched */
        assert_true(memcmp(&p0, &p1, sizeof p0) == 0);
        assert_true(memcmp(&v0, &v1, sizeof v0) == 0);
    }
}

static void test_keep_in_bounds(void **state)
{
    (void)state;
    test_rng r = {0xb0d5};
    int crossed = 0, flipped = 0;
    for (int world = 0; world < 400; world++) {
        sim_params p = sim_default_params();
        p.world_w = world % 5 == 0 ? 1440.0f : uniform(&r, 0.5f, 5000.0f);
        p.world_h = world % 5 == 0 ? 900.0f : uniform(&r, 0.5f, 5000.0f);
        float side = fminf(p.world_w, p.world_h);
        for (int k = 0; k < 500; k++) {
            float rad = k % 7 == 0 ? side / 2.0f : uniform(&r, 0.001f, 0.5f) * side;
            sim_vec2 pos = {pick_coord(&r, p.world_w, rad), pick_coord(&r, p.world_h, rad)};
            sim_vec2 vel = {pick_speed(&r), pick_speed(&r)};
            sim_vec2 p0 = pos, v0 = vel;
            sim__keep_in_bounds(&p, &pos, &vel, rad);
            check_axis(p.world_w, rad, p0.x, v0.x, pos.x, vel.x, &crossed);
            check_axis(p.world_h, rad, p0.y, v0.y, pos.y, vel.y, &crossed);
            flipped += (p0.x < rad && v0.x < 0.0f) || (p0.x > p.world_w - rad && v0.x > 0.0f);
            /* Idempotent: a second call changes nothing. */
            sim_vec2 p1 = pos, v1 = vel;
            sim__keep_in_bounds(&p, &pos, &vel, rad);
            assert_memory_equal(&p1, &pos, sizeof pos);
            assert_memory_equal(&v1, &vel, sizeof vel);
        }
    }
    assert_true(crossed > 50000);
    assert_true(flipped > 10000);
}

/* ---- sim__solve_contact ---------------------------------------------------- */

static void test_solve_contact(void **state)
{
    (void)state;
    test_rng r = {0x501e};
    enum { N = 16 };
    for (int rep = 0; rep < 10000; rep++) {
        sim_vec2 pos[N], vel[N], p0[N], v0[N];
        for (int i = 0; i < N; i++) {
            pos[i] = p0[i] = (sim_vec2){uniform(&r, 0, 100), uniform(&r, 0, 100)};
            vel[i] = v0[i] = (sim_vec2){uniform(&r, -3, 3), uniform(&r, -3, 3)};
        }
        sim_contact c = {rng_below(&r, N), 0, uniform(&r, 0, 5),
                         {uniform(&r, -2, 2), uniform(&r, -2, 2)}};
        do c.b = rng_below(&r, N); while (c.b == c.a);
        sim__solve_contact(pos, vel, &c);
        for (uint32_t i = 0; i < N; i++) {
            sim_vec2 wp = p0[i], wv = v0[i];
            if (i == c.a) {
                wv = v0[c.b];
                wp = (sim_vec2){p0[i].x - c.push.x, p0[i].y - c.push.y};
            } else if (i == c.b) {
                wv = v0[c.a];
                wp = (sim_vec2){p0[i].x + c.push.x, p0[i].y + c.push.y};
            }
            assert_memory_equal(&pos[i], &wp, sizeof wp);
            assert_memory_equal(&vel[i], &wv, sizeof wv);
        }
    }
}

/* ---- checks over a whole sim ----------------------------------------------- */

static void step_ok_sim(sim_world *w)
{
    ecs_status st = sim_step(w);
    if (st != ECS_OK) fail_msg("sim_step at frame %llu: %s", (unsigned long long)sim_frame(w),
                               ecs_status_name(st));
}

typedef struct columns {
    const uint32_t *idx;
    uint32_t n;
    sim_vec2 *pos, *vel;
    sim_rgba *color;
    float *radius, *life;
} columns;

/* The live particles as the render system subscribes them. */
static columns columns_of(sim_world *w)
{
    ecs_context *ctx = sim_ecs(w);
    columns c;
    c.idx = ecs_subscribed(ctx, SIM_S_RENDER, &c.n);
    c.pos = ecs_column(ctx, SIM_C_POSITION);
    c.vel = ecs_column(ctx, SIM_C_VELOCITY);
    c.color = ecs_column(ctx, SIM_C_COLOR);
    c.radius = ecs_column(ctx, SIM_C_CIRCLE);
    c.life = ecs_column(ctx, SIM_C_LIFE);
    return c;
}

static uint8_t faded(float life, float k)
{
    float v = life * k;
    if (!(v > 0.0f)) return 0;
    if (v >= 255.0f) return 255;
    return (uint8_t)v; /* truncation */
}

/* ---- (b) crowded worlds stay finite --------------------------------------- */

static void check_finite(sim_world *w)
{
    columns c = columns_of(w);
    assert_int_equal(c.n, sim_alive(w));
    for (uint32_t k = 0; k < c.n; k++) {
        uint32_t i = c.idx[k];
        if (!isfinite(c.pos[i].x) || !isfinite(c.pos[i].y) || !isfinite(c.vel[i].x) ||
            !isfinite(c.vel[i].y) || !isfinite(c.life[i]) || !(c.life[i] > 0.0f))
            fail_msg("frame %llu, particle %u: pos (%g, %g) vel (%g, %g) life %g",
                     (unsigned long long)sim_frame(w), i, (double)c.pos[i].x, (double)c.pos[i].y,
                     (double)c.vel[i].x, (double)c.vel[i].y, (double)c.life[i]);
        /* Color is bytes (always finite); the alpha follows life. */
        assert_int_equal(c.color[i].a, faded(c.life[i], sim_get_params(w)->alpha_per_life));
    }
}

static void crowded(float ww, float wh, uint32_t particles, uint32_t workers, uint32_t frames)
{
    sim_config cfg = sim_default_config();
    cfg.params.world_w = ww;
    cfg.params.world_h = wh;
    cfg.params.seed = 12345u;
    cfg.particles = particles;
    cfg.workers = workers;
    cfg.split_every_worker = true; /* the splits themselves under test */
    sim_world *w = sim_create_ok(&cfg);
    uint64_t contacts = 0;
    uint32_t min_contacts = UINT32_MAX;
    for (uint32_t f = 0; f < frames; f++) {
        step_ok_sim(w);
        check_finite(w);
        contacts += sim_contacts(w);
        if (sim_contacts(w) < min_contacts) min_contacts = sim_contacts(w);
    }
    print_message("%gx%g, %u particles, %u workers: %u alive after %u frames, %llu contacts "
                  "(at least %u a frame)\n", (double)ww, (double)wh, particles, workers,
                  sim_alive(w), frames, (unsigned long long)contacts, min_contacts);
    assert_true(sim_alive(w) > particles / 2u);
    assert_true(min_contacts > particles / 2u); /* crowded: many contacts every frame */
    sim_destroy(w);
}

static void test_crowded_finite(void **state)
{
    (void)state;
    crowded(60.0f, 40.0f, 3000, 2, 300);   /* one subtask per system */
    crowded(100.0f, 60.0f, 6000, 2, 120);  /* split per worker */
    crowded(5.0f, 5.0f, 500, 1, 200);      /* a 1 x 1 grid, everything overlaps */
}

/* ---- (c) coincident centers ------------------------------------------------ */

/* Cases whose frame 1 checked the centroid (coincident). */
static uint32_t centroid_checked;

static void coincident(float x, float y, uint32_t particles, uint32_t workers)
{
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 60.0f;
    cfg.params.world_h = 40.0f;
    cfg.params.speed_max = 0.0f;
    cfg.params.acceleration = (sim_vec2){0.0f, 0.0f};
    cfg.params.life_min = 20.0f;
    cfg.particles = particles;
    cfg.workers = workers;
    cfg.split_every_worker = true; /* the splits themselves under test */
    sim_world *w = sim_create_ok(&cfg);
    columns c = columns_of(w);
    assert_int_equal(c.n, particles);
    for (uint32_t k = 0; k < c.n; k++) {
        c.pos[c.idx[k]] = (sim_vec2){x, y};
        assert_true(c.vel[c.idx[k]].x == 0.0f && c.vel[c.idx[k]].y == 0.0f);
    }
    /* Far enough from the walls that keep_in_bounds leaves them there. */
    bool interior = x >= cfg.params.radius_max && x <= cfg.params.world_w - cfg.params.radius_max &&
                    y >= cfg.params.radius_max && y <= cfg.params.world_h - cfg.params.radius_max;
    uint32_t first_contacts = 0, last_contacts = 0;
    float spread = 0.0f;
    for (uint32_t f = 0; f < 100; f++) {
        step_ok_sim(w);
        if (f == 0) first_contacts = sim_contacts(w);
        last_contacts = sim_contacts(w);
        check_finite(w);
        c = columns_of(w);
        float lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
        for (uint32_t k = 0; k < c.n; k++) {
            sim_vec2 p = c.pos[c.idx[k]];
            lo_x = fminf(lo_x, p.x);
            hi_x = fmaxf(hi_x, p.x);
            lo_y = fminf(lo_y, p.y);
            hi_y = fmaxf(hi_y, p.y);
        }
        spread = fmaxf(hi_x - lo_x, hi_y - lo_y);
        if (f == 0 && !(spread > 0.0f)) fail_msg("still all at one point after a frame");
        if (f == 0 && interior) {
            /* Every push between coincident centers is along x. Unless a
             * push reached a wall (the step then puts that circle back
             * against it), frame 1 moved them by contact pushes only, each
             * moving a and b by opposite amounts: the centroid stays put. */
            double sx = 0.0;
            bool walled = false;
            for (uint32_t k = 0; k < c.n; k++) {
                uint32_t i = c.idx[k];
                sx += (double)c.pos[i].x;
                assert_true(c.pos[i].y == y);
                walled |= c.pos[i].x == c.radius[i] || c.pos[i].x == cfg.params.world_w - c.radius[i];
            }
            if (!walled && fabs(sx / c.n - (double)x) > 0.01)
                fail_msg("centroid moved from x = %g to %g in frame 1", (double)x, sx / c.n);
            centroid_checked += !walled;
        }
    }
    /* Distinct positions at the end: no two particles left coincident. */
    uint32_t same = 0;
    for (uint32_t k = 0; k < c.n; k++)
        for (uint32_t j = k + 1; j < c.n; j++)
            same += c.pos[c.idx[k]].x == c.pos[c.idx[j]].x && c.pos[c.idx[k]].y == c.pos[c.idx[j]].y;
    print_message("%u particles from (%g, %g): %u contacts in frame 1, %u in frame 100, spread "
                  "%g, %u coincident pairs left\n", particles, (double)x, (double)y,
                  first_contacts, last_contacts, (double)spread, same);
    assert_int_equal(first_contacts, particles * (particles - 1u) / 2u);
    assert_true(spread > 5.0f);
    assert_int_equal(same, 0);
    assert_true(last_contacts < first_contacts);
    sim_destroy(w);
}

static void test_coincident(void **state)
{
    (void)state;
    coincident(30.0f, 20.0f, 200, 2); /* pushed against both walls */
    coincident(30.0f, 20.0f, 8, 1);   /* pushes that reach no wall */
    coincident(0.0f, 0.0f, 100, 1);   /* a corner: put back to (r, r) first */
    coincident(60.0f, 20.0f, 150, 2); /* the right wall */
    assert_true(centroid_checked > 0);
}

/* ---- (d) render output -------------------------------------------------- */

static void check_render(uint32_t particles, uint32_t workers, bool inner_off)
{
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 300.0f;
    cfg.params.world_h = 200.0f;
    cfg.params.life_min = 0.2f; /* some die in the checked frames */
    cfg.params.life_max = 30.0f;
    cfg.params.alpha_per_life = 20.0f; /* both clamped and faded alphas */
    cfg.params.seed = 99u;
    cfg.particles = particles;
    cfg.workers = workers;
    cfg.split_every_worker = true; /* the splits themselves under test */
    cfg.inner_parallelism_off = inner_off;
    sim_world *w = sim_create_ok(&cfg);
    uint32_t *before = xcalloc(particles, sizeof *before);
    uint32_t max_batches = 0, dead_seen = 0, clamped = 0, partial = 0;
    for (uint32_t f = 0; f < 30; f++) {
        /* The particles of this frame: subscribed before it runs. */
        uint32_t n;
        const uint32_t *idx = ecs_subscribed(sim_ecs(w), SIM_S_RENDER, &n);
        memcpy(before, idx, n * sizeof *idx);
        step_ok_sim(w);
        columns c = columns_of(w);
        const float k = cfg.params.alpha_per_life;
        uint32_t batches = sim_render_batches(w), total = 0, dead_now = 0;
        if (batches > max_batches) max_batches = batches;
        for (uint32_t b = 0; b < batches; b++) {
            uint32_t count;
            const sim_instance *inst = sim_render_batch(w, b, &count);
            if (count) assert_non_null(inst);
            for (uint32_t j = 0; j < count; j++, total++) {
                assert_true(total < n);
                uint32_t i = before[total];
                ecs_entity e = ecs_handle(sim_ecs(w), i);
                if (ecs_entity_is_null(e)) {
                    /* Died this frame: life <= 0, so fade made it transparent. */
                    dead_seen++;
                    dead_now++;
                    assert_int_equal(inst[j].color.a, 0);
                    continue;
                }
                if (!(inst[j].x == c.pos[i].x && inst[j].y == c.pos[i].y &&
                      inst[j].radius == c.radius[i]))
                    fail_msg("frame %u, instance %u (particle %u): (%g, %g) r %g, column (%g, %g) "
                             "r %g", f, total, i, (double)inst[j].x, (double)inst[j].y,
                             (double)inst[j].radius, (double)c.pos[i].x, (double)c.pos[i].y,
                             (double)c.radius[i]);
                assert_int_equal(inst[j].color.r, c.color[i].r);
                assert_int_equal(inst[j].color.g, c.color[i].g);
                assert_int_equal(inst[j].color.b, c.color[i].b);
                uint8_t want = faded(c.life[i], k);
                if (inst[j].color.a != want)
                    fail_msg("particle %u, life %.9g: alpha %u, want %u", i, (double)c.life[i],
                             inst[j].color.a, want);
                assert_int_equal(c.color[i].a, want);
                clamped += want == 255;
                partial += want < 255;
            }
        }
        assert_int_equal(total, n);
        /* The survivors are exactly this frame's particles minus the dead. */
        assert_int_equal(c.n, n - dead_now);
    }
    print_message("%u particles, %u workers%s: up to %u render batches, %u instances of dying "
                  "particles, %u clamped and %u faded alphas\n", particles, workers,
                  inner_off ? " (inner off)" : "", max_batches, dead_seen, clamped, partial);
    assert_true(dead_seen > 0);
    assert_true(clamped > 0 && partial > 0);
    if (!inner_off && workers > 1 && particles >= 4096) assert_int_equal(max_batches, workers);
    if (inner_off) assert_int_equal(max_batches, 1);
    free(before);
    sim_destroy(w);
}

static void test_render(void **state)
{
    (void)state;
    check_render(6000, 2, false);
    check_render(6000, 3, false);
    check_render(6000, 2, true);
    check_render(1000, 2, false);
}

/* ---- (e) life ------------------------------------------------------------ */

static void check_life(const sim_params *params, uint32_t particles, uint32_t workers)
{
    sim_config cfg = sim_default_config();
    cfg.params = *params;
    cfg.particles = particles;
    cfg.workers = workers;
    cfg.split_every_worker = true; /* the splits themselves under test */
    sim_world *w = sim_create_ok(&cfg);
    /* Each particle's death frame from its spawn life, decremented in float
     * exactly as the life system does. */
    columns c = columns_of(w);
    uint32_t *death = xcalloc(particles, sizeof *death);
    uint32_t last = 0;
    assert_int_equal(c.n, particles);
    for (uint32_t k = 0; k < c.n; k++) {
        float life = c.life[c.idx[k]];
        uint32_t f = 0;
        while (life > 0.0f) {
            life -= params->dt;
            f++;
        }
        death[k] = f;
        if (f > last) last = f;
    }
    uint32_t prev = sim_alive(w);
    while (sim_alive(w) > 0) {
        assert_true(sim_frame(w) < 10u * (uint64_t)last + 10u); /* no endless run */
        step_ok_sim(w);
        uint32_t f = (uint32_t)sim_frame(w), want = 0;
        for (uint32_t k = 0; k < particles; k++) want += death[k] > f;
        if (sim_alive(w) != want)
            fail_msg("after frame %u: %u alive, want %u", f, sim_alive(w), want);
        assert_true(sim_alive(w) <= prev);
        prev = sim_alive(w);
    }
    double frames = (double)sim_frame(w), ideal = (double)params->life_max / (double)params->dt;
    print_message("%u particles, life [%g, %g], dt %g: all dead after %.0f frames (life_max / dt "
                  "= %g)\n", particles, (double)params->life_min, (double)params->life_max,
                  (double)params->dt, frames, ideal);
    assert_int_equal((uint32_t)frames, last);
    assert_true(frames >= ideal - 1.0 && frames <= ideal + 1.0);
    /* An empty world keeps stepping: nothing rendered, nothing alive. */
    step_ok_sim(w);
    assert_int_equal(sim_alive(w), 0);
    uint32_t total = 0;
    for (uint32_t b = 0; b < sim_render_batches(w); b++) {
        uint32_t n;
        sim_render_batch(w, b, &n);
        total += n;
    }
    assert_int_equal(total, 0);
    assert_int_equal(sim_contacts(w), 0);
    free(death);
    sim_destroy(w);
}

static void test_life(void **state)
{
    (void)state;
    sim_params p = sim_default_params(); /* life [5, 25], dt 0.04: 625 frames */
    p.seed = 3u;
    check_life(&p, 3000, 2);
    p.life_min = p.life_max = 2.0f; /* every particle dies in the same frame */
    check_life(&p, 500, 1);
    p.life_min = 0.5f;
    p.life_max = 3.0f;
    p.dt = 0.1f;
    check_life(&p, 5000, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keep_in_bounds),
        cmocka_unit_test(test_solve_contact),
        cmocka_unit_test(test_crowded_finite),
        cmocka_unit_test(test_coincident),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_life),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
