/* test_sim_inspect.c - one particle for an inspector: sim_pick at known
 * positions (nearest centre, the reach for tiny circles, both layouts),
 * sim_inspect's components and cell, its contacts against collision's own
 * lists and a brute force over the grid, the velocity subtask and worker
 * that moved it, and a dead particle's stale handle.
 */
#include "sim_test_util.h"

#include <stdlib.h>

#include "world.h"

static sim_world *empty_world(sim_layout layout)
{
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 100.0f;
    cfg.params.world_h = 80.0f;
    cfg.particles = 0;
    cfg.storage = ECS_STORAGE_DYNAMIC;
    cfg.workers = 1;
    cfg.layout = layout;
    return sim_create_ok(&cfg);
}

/* A particle at (x, y) of radius r, every other component given too. */
static ecs_entity place(sim_world *w, float x, float y, float r)
{
    ecs_context *ctx = sim_ecs(w);
    ecs_entity e;
    assert_int_equal(ecs_create(ctx, &e), ECS_OK);
    sim_vec2 pos = {x, y}, vel = {x / 10.0f, -y / 10.0f}, acc = {0.0f, 3.0f};
    sim_rgba color = {(uint8_t)x, (uint8_t)y, 7, 200};
    float life = 2.5f;
    assert_int_equal(ecs_add(ctx, e, SIM_C_POSITION, &pos), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, SIM_C_VELOCITY, &vel), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, SIM_C_ACCELERATION, &acc), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, SIM_C_COLOR, &color), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, SIM_C_CIRCLE, &r), ECS_OK);
    assert_int_equal(ecs_add(ctx, e, SIM_C_LIFE, &life), ECS_OK);
    return e;
}

static ecs_entity pick(sim_world *w, float x, float y, float reach)
{
    ecs_entity e;
    assert_int_equal(sim_pick(w, x, y, reach, &e), ECS_OK);
    return e;
}

static void assert_same(ecs_entity a, ecs_entity b)
{
    assert_int_equal(a.index, b.index);
    assert_int_equal(a.generation, b.generation);
}

static void pick_in(sim_layout layout)
{
    sim_world *w = empty_world(layout);
    ecs_entity a = place(w, 10.0f, 10.0f, 1.0f), b = place(w, 12.5f, 10.0f, 1.0f);
    ecs_entity c = place(w, 50.0f, 40.0f, 2.0f), tiny = place(w, 80.0f, 20.0f, 0.25f);
    ecs_refresh(sim_ecs(w));
    assert_same(pick(w, 10.5f, 10.0f, 0.0f), a);
    assert_same(pick(w, 11.9f, 10.0f, 0.0f), b); /* outside a's circle, inside b's */
    assert_same(pick(w, 51.9f, 40.0f, 0.0f), c);
    /* Halfway between a and b: in neither circle; both within a reach of
     * 2, at the same distance: the lower index. */
    assert_true(ecs_entity_is_null(pick(w, 11.25f, 10.0f, 0.0f)));
    assert_same(pick(w, 11.25f, 10.0f, 2.0f), a);
    assert_same(pick(w, 11.3f, 10.0f, 2.0f), b); /* nearer b */
    /* A tiny circle: missed by its radius, found within the reach. */
    assert_true(ecs_entity_is_null(pick(w, 80.5f, 20.0f, 0.0f)));
    assert_same(pick(w, 80.5f, 20.0f, 0.6f), tiny);
    assert_true(ecs_entity_is_null(pick(w, 30.0f, 60.0f, 1.0f))); /* empty space */

    /* Every component as placed; the cell of the position; no step yet. */
    sim_inspection in;
    assert_true(sim_inspect(w, c, &in));
    assert_same(in.entity, c);
    assert_true(in.position.x == 50.0f && in.position.y == 40.0f);
    assert_true(in.velocity.x == 5.0f && in.velocity.y == -4.0f);
    assert_true(in.acceleration.x == 0.0f && in.acceleration.y == 3.0f);
    assert_int_equal(in.color.r, 50);
    assert_int_equal(in.color.g, 40);
    assert_int_equal(in.color.a, 200);
    assert_true(in.radius == 2.0f && in.life == 2.5f);
    assert_int_equal(in.cell, sim_cell_at(w, 50.0f, 40.0f));
    sim_grid_layout g = sim_get_grid_layout(w);
    assert_int_equal(in.cell, in.cell_y * g.cols + in.cell_x);
    assert_false(in.stepped);

    /* One step: a and b are 2.5 apart with radii 1: no contact. */
    assert_int_equal(sim_step(w), ECS_OK);
    assert_true(sim_inspect(w, a, &in));
    assert_true(in.stepped);
    assert_int_equal(in.contact_count, 0);
    assert_true(in.moved);
    assert_int_equal(in.worker, 0);
    assert_int_equal(in.subtask, 0);
    assert_int_equal(in.subtasks, 1);

    /* Dead: the stale handle is refused, also once its index is reused. */
    assert_int_equal(ecs_kill(sim_ecs(w), a), ECS_OK);
    assert_false(sim_inspect(w, a, &in));
    ecs_refresh(sim_ecs(w));
    ecs_entity again = place(w, 20.0f, 20.0f, 1.0f);
    assert_int_equal(again.index, a.index);
    assert_false(sim_inspect(w, a, &in));
    assert_true(sim_inspect(w, again, &in));
    sim_destroy(w);
}

static void test_pick(void **state)
{
    (void)state;
    pick_in(SIM_LAYOUT_SOA);
    pick_in(SIM_LAYOUT_THESIS); /* the circle in a group: another stride */
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The partners of index e in collision's own lists of the last step,
 * ascending; returns how many. */
static uint32_t listed_partners(const sim_world *w, uint32_t e, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < w->contacts.band_count; b++) {
        const sim_contact_list *lists[2] = {&w->contacts.bands[b].inner, &w->contacts.bands[b].cross};
        for (int l = 0; l < 2; l++)
            for (uint32_t k = 0; k < lists[l]->n; k++) {
                const sim_contact *c = &lists[l]->v[k];
                if (c->a == e) out[n++] = c->b;
                else if (c->b == e) out[n++] = c->a;
            }
    }
    qsort(out, n, sizeof *out, cmp_u32);
    return n;
}

/* The same by brute force: every other circle of the grid under
 * collision's rule. */
static uint32_t brute_partners(const sim_world *w, uint32_t e, uint32_t *out)
{
    const sim_grid *g = &w->grid;
    uint32_t i = UINT32_MAX, n = 0;
    for (uint32_t s = 0; s < g->count; s++)
        if (g->entity[s] == e) i = s;
    assert_true(i != UINT32_MAX);
    for (uint32_t s = 0; s < g->count; s++)
        if (s != i && sim_touching(g->x[s] - g->x[i], g->y[s] - g->y[i], g->r[i] + g->r[s]))
            out[n++] = g->entity[s];
    qsort(out, n, sizeof *out, cmp_u32);
    return n;
}

static void check_contacts(sim_world *w, ecs_entity e, const sim_inspection *in, uint32_t *a,
                           uint32_t *b)
{
    uint32_t na = listed_partners(w, e.index, a), nb = brute_partners(w, e.index, b);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na * sizeof *a);
    assert_int_equal(in->contact_count, na);
    uint32_t shown = na < SIM_INSPECT_CONTACTS_MAX ? na : SIM_INSPECT_CONTACTS_MAX;
    assert_memory_equal(in->contacts, a, shown * sizeof *a);
}

/* A crowded world on 3 workers: every particle's contacts are collision's,
 * and the velocity subtasks that moved them cover ascending index ranges. */
static void test_contacts(void **state)
{
    (void)state;
    sim_config cfg = sim_default_config();
    cfg.params.world_w = 120.0f;
    cfg.params.world_h = 90.0f;
    cfg.particles = 5000; /* coverage about 3.7: some with more contacts than listed */
    cfg.workers = 3;
    cfg.split_every_worker = true;
    sim_world *w = sim_create_ok(&cfg);
    for (int s = 0; s < 3; s++) assert_int_equal(sim_step(w), ECS_OK);
    ecs_context *ctx = sim_ecs(w);
    uint32_t *a = malloc(cfg.particles * sizeof *a), *b = malloc(cfg.particles * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint32_t checked = 0, touching = 0, many = 0, last_subtask = 0;
    uint32_t subtasks = ecs_system_stats_get(ctx, SIM_S_VELOCITY).subtasks;
    assert_int_equal(subtasks, 3);
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        if (ecs_entity_is_null(e)) continue;
        sim_inspection in;
        assert_true(sim_inspect(w, e, &in));
        assert_true(in.stepped);
        check_contacts(w, e, &in, a, b);
        touching += in.contact_count > 0;
        many += in.contact_count > SIM_INSPECT_CONTACTS_MAX;
        assert_true(in.moved);
        assert_int_equal(in.subtasks, subtasks);
        assert_true(in.subtask >= last_subtask && in.subtask < subtasks);
        assert_true(in.worker < 3);
        last_subtask = in.subtask;
        checked++;
    }
    assert_int_equal(checked, sim_alive(w));
    assert_int_equal(last_subtask, subtasks - 1u); /* every range was seen */
    assert_true(touching > checked / 2); /* the comparison was not of empty lists */
    assert_true(many > 0);

    /* Collision off: none, though circles still overlap; velocity off:
     * no subtask moved them. */
    assert_int_equal(sim_enable_system(w, SIM_S_COLLISION, false), ECS_OK);
    assert_int_equal(sim_enable_system(w, SIM_S_VELOCITY, false), ECS_OK);
    assert_int_equal(sim_step(w), ECS_OK);
    uint32_t still = 0;
    for (uint32_t i = 0; i < ecs_capacity(ctx); i++) {
        ecs_entity e = ecs_handle(ctx, i);
        sim_inspection in;
        if (ecs_entity_is_null(e) || !sim_inspect(w, e, &in)) continue;
        assert_int_equal(in.contact_count, 0);
        assert_false(in.moved);
        still += brute_partners(w, i, b) > 0;
    }
    assert_true(still > 0);

    /* A new wave: its particles were in no step. */
    assert_int_equal(sim_new_wave(w), ECS_OK);
    ecs_entity first = ecs_handle(ctx, 0);
    sim_inspection in;
    assert_true(sim_inspect(w, first, &in));
    assert_false(in.stepped);
    free(a);
    free(b);
    sim_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick),
        cmocka_unit_test(test_contacts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
