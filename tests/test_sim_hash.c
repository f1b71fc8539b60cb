/* test_sim_hash.c - sim_hash is the documented hash of the state: XXH3
 * over the frame count and each live particle's index and fields written
 * little-endian (docs/determinism.md), written out here byte by byte; the
 * same state stored in either layout hashes the same; one changed bit of
 * one particle changes it. */
#include "sim_test_util.h"

#include <xxhash.h>

/* The bytes of the documented serialization, built on its own. */
typedef struct bytes {
    unsigned char *b;
    size_t n;
} bytes;

static void le(bytes *o, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++) o->b[o->n++] = (unsigned char)(v >> (8u * i));
}

static void le_float(bytes *o, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    le(o, bits, 4);
}

static uint64_t expected_hash(sim_world *w)
{
    ecs_context *ctx = sim_ecs(w);
    bytes o = {xcalloc(8u + (size_t)ecs_capacity(ctx) * 40u, 1), 0};
    le(&o, sim_frame(w), 8);
    uint32_t live = 0;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        live++;
        le(&o, i, 4);
        for (uint32_t c = SIM_C_POSITION; c <= SIM_C_ACCELERATION; c++) {
            const sim_vec2 *v = ecs_get(ctx, e, c);
            le_float(&o, v->x);
            le_float(&o, v->y);
        }
        const sim_rgba *color = ecs_get(ctx, e, SIM_C_COLOR);
        le(&o, color->r, 1);
        le(&o, color->g, 1);
        le(&o, color->b, 1);
        le(&o, color->a, 1);
        le_float(&o, *(const float *)ecs_get(ctx, e, SIM_C_CIRCLE));
        le_float(&o, *(const float *)ecs_get(ctx, e, SIM_C_LIFE));
    }
    assert_true(live > 100); /* particles, not just the frame count */
    uint64_t h = XXH3_64bits(o.b, o.n);
    free(o.b);
    return h;
}

static sim_world *world(sim_layout layout)
{
    sim_config cfg = sim_default_config();
    cfg.particles = 2000;
    cfg.params.seed = 31;
    cfg.workers = 2;
    cfg.layout = layout;
    cfg.storage = ECS_STORAGE_DYNAMIC; /* room past the last particle */
    sim_world *w = sim_create_ok(&cfg);
    for (int f = 0; f < 12; f++) assert_int_equal(sim_step(w), ECS_OK);
    return w;
}

static void test_documented_bytes(void **state)
{
    (void)state;
    sim_world *w = world(SIM_LAYOUT_SOA);
    uint64_t h = sim_hash(w);
    assert_true(h == expected_hash(w));
    /* Indices with no particle are passed over. */
    assert_true(sim_alive(w) < ecs_capacity(sim_ecs(w)));
    sim_destroy(w);
}

static void test_layouts_agree(void **state)
{
    (void)state;
    sim_world *soa = world(SIM_LAYOUT_SOA), *thesis = world(SIM_LAYOUT_THESIS);
    assert_true(sim_hash(soa) == sim_hash(thesis));
    assert_true(sim_hash(thesis) == expected_hash(thesis));
    sim_destroy(soa);
    sim_destroy(thesis);
}

static void test_one_bit_changes_it(void **state)
{
    (void)state;
    sim_world *w = world(SIM_LAYOUT_SOA);
    uint64_t before = sim_hash(w);
    ecs_context *ctx = sim_ecs(w);
    uint32_t last = ecs_capacity(ctx);
    while (ecs_entity_is_null(ecs_handle(ctx, last - 1u))) last--;
    float *life = ecs_get(ctx, ecs_handle(ctx, last - 1u), SIM_C_LIFE);
    uint32_t bits;
    memcpy(&bits, life, sizeof bits);
    bits ^= 1u;
    memcpy(life, &bits, sizeof bits);
    assert_true(sim_hash(w) != before);
    assert_true(sim_hash(w) == expected_hash(w));
    bits ^= 1u;
    memcpy(life, &bits, sizeof bits);
    assert_true(sim_hash(w) == before);
    sim_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_documented_bytes),
        cmocka_unit_test(test_layouts_agree),
        cmocka_unit_test(test_one_bit_changes_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
