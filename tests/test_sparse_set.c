/* test_sparse_set.c - ecs_sset against a bool-array reference model, driven
 * by random operation sequences over many seeds. */
#include "test_util.h"

#include "sparse_set.h"

#define MAX_UNIVERSE 1024u
#define SEEDS 80
#define OPS 2500

typedef struct model {
    ecs_sset s;
    bool in[MAX_UNIVERSE];
    uint32_t members; /* number of true entries in in[] */
    bool sorted;      /* dense is known to be ascending */
} model;

/* An empty set over [0, universe), made the way the ecs makes its sets:
 * zeroed, then grown. */
static bool set_init(ecs_sset *s, uint32_t universe)
{
    *s = (ecs_sset){0};
    return ecs_sset_grow(s, universe);
}

/* The count matches the reference; a listed set's dense array holds
 * exactly the reference members, once each; and contains() agrees for
 * every value of the universe (and beyond it). */
static void check_full(const model *m)
{
    static unsigned char seen[MAX_UNIVERSE];
    memset(seen, 0, sizeof seen);
    assert_int_equal(m->s.count, m->members);
    assert_int_equal(ecs_sset_listed(&m->s), m->s.count <= m->s.list_cap);
    for (uint32_t i = 0; ecs_sset_listed(&m->s) && i < m->s.count; i++) {
        uint32_t v = m->s.dense[i];
        assert_true(v < m->s.universe);
        assert_true(m->in[v]);
        assert_int_equal(seen[v], 0);
        seen[v] = 1;
        if (m->sorted && i > 0) assert_true(m->s.dense[i - 1] < v);
    }
    for (uint32_t v = 0; v < m->s.universe; v++) {
        assert_int_equal(ecs_sset_contains(&m->s, v), m->in[v]);
    }
    assert_false(ecs_sset_contains(&m->s, m->s.universe));
    assert_false(ecs_sset_contains(&m->s, UINT32_MAX));
}

static void run_seed(uint64_t seed)
{
    test_rng r = {seed};
    model *m = xcalloc(1, sizeof *m);
    uint32_t universe = 1 + rng_below(&r, 256);
    assert_true(set_init(&m->s, universe));
    assert_int_equal(m->s.universe, universe);
    assert_int_equal(m->s.count, 0);
    m->sorted = true;
    check_full(m);

    for (int op = 0; op < OPS; op++) {
        uint32_t kind = rng_below(&r, 100);
        uint32_t v = rng_below(&r, m->s.universe);
        if (kind < 38) { /* add */
            bool changed = ecs_sset_add(&m->s, v);
            assert_int_equal(changed, !m->in[v]);
            if (changed) {
                m->in[v] = true;
                m->members++;
                m->sorted = false;
            }
        } else if (kind < 77) { /* contains, also outside the universe */
            assert_int_equal(ecs_sset_contains(&m->s, v), m->in[v]);
            assert_false(ecs_sset_contains(&m->s, m->s.universe + v));
        } else if (kind < 87) { /* clear */
            ecs_sset_clear(&m->s);
            memset(m->in, 0, sizeof m->in);
            m->members = 0;
            m->sorted = true;
        } else if (kind < 95) { /* sort, when listed (a spilled set walks its bitmap) */
            if (ecs_sset_listed(&m->s)) {
                ecs_sset_sort(&m->s);
                m->sorted = true;
            }
        } else { /* grow, keeping members */
            if (m->s.universe < MAX_UNIVERSE) {
                uint32_t nu = m->s.universe + 1 + rng_below(&r, MAX_UNIVERSE - m->s.universe);
                assert_true(ecs_sset_grow(&m->s, nu));
                assert_int_equal(m->s.universe, nu);
            }
        }
        if (op % 7 == 0 || kind >= 77) check_full(m);
    }
    check_full(m);
    ecs_sset_fini(&m->s);
    free(m);
}

static void test_random_sequences(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) run_seed(seed * 7919u);
}

/* Hand-written case: a member added twice counts once, and sort restores
 * ascending order. */
static void test_basic_semantics(void **state)
{
    (void)state;
    ecs_sset s;
    assert_true(set_init(&s, 16));
    const uint32_t first[] = {10, 7, 4, 1};
    for (int i = 0; i < 4; i++) assert_true(ecs_sset_add(&s, first[i]));
    assert_false(ecs_sset_add(&s, 7));
    assert_int_equal(s.count, 4);
    ecs_sset_sort(&s);
    uint32_t want[] = {1, 4, 7, 10};
    assert_memory_equal(s.dense, want, sizeof want);
    assert_false(ecs_sset_contains(&s, 3));
    assert_true(ecs_sset_contains(&s, 4));

    assert_true(ecs_sset_grow(&s, 100000));
    assert_true(ecs_sset_add(&s, 99999));
    assert_true(ecs_sset_contains(&s, 4));
    assert_true(ecs_sset_contains(&s, 99999));
    assert_false(ecs_sset_contains(&s, 99998));
    ecs_sset_clear(&s);
    assert_int_equal(s.count, 0);
    assert_false(ecs_sset_contains(&s, 0));
    ecs_sset_fini(&s);
}

/* A set lists its members while few, then keeps only the bitmap
 * (also across a grow); either way the cursors walk the members in
 * ascending and descending order, and a clear lists again. */
static void test_spill_and_cursors(void **state)
{
    (void)state;
    test_rng r = {99};
    static bool in[70000];
    for (int round = 0; round < 20; round++) {
        ecs_sset s;
        uint32_t universe = 1 + rng_below(&r, 40000);
        assert_true(set_init(&s, universe));
        memset(in, 0, sizeof in);
        uint32_t adds = rng_below(&r, round % 2 ? 60 : universe + 1), members = 0;
        for (uint32_t k = 0; k < adds; k++) {
            uint32_t v = rng_below(&r, s.universe);
            if (k == adds / 2 && round % 3 == 0) assert_true(ecs_sset_grow(&s, s.universe + 30000));
            assert_int_equal(ecs_sset_add(&s, v), !in[v]);
            members += !in[v];
            in[v] = true;
        }
        assert_int_equal(s.count, members);
        assert_int_equal(ecs_sset_listed(&s), members <= s.list_cap);
        if (members <= 64) assert_true(ecs_sset_listed(&s)); /* at least 64 stay listed */
        if (ecs_sset_listed(&s)) ecs_sset_sort(&s);
        uint32_t v, seen = 0, prev = 0;
        for (ecs_sset_cursor c = ecs_sset_first(&s); ecs_sset_next(&c, &v); seen++) {
            assert_true(in[v]);
            assert_true(seen == 0 || v > prev);
            prev = v;
        }
        assert_int_equal(seen, members);
        seen = 0;
        for (ecs_sset_cursor c = ecs_sset_last(&s); ecs_sset_prev(&c, &v); seen++) {
            assert_true(in[v]);
            assert_true(seen == 0 || v < prev);
            prev = v;
        }
        assert_int_equal(seen, members);
        ecs_sset_clear(&s);
        assert_true(ecs_sset_listed(&s));
        for (uint32_t x = 0; x < s.universe; x++) assert_false(ecs_sset_contains(&s, x));
        assert_true(ecs_sset_add(&s, s.universe - 1));
        assert_int_equal(s.dense[0], s.universe - 1);
        ecs_sset_fini(&s);
    }
}

/* A set keeps a list of up to one member per bitmap word, so a
 * refresh's batch of deaths (the simulation kills about one entity in 500
 * a frame) is walked as a list, not word by word. */
static void test_spill_threshold(void **state)
{
    (void)state;
    ecs_sset s;
    uint32_t universe = 100000, words = (universe + 63u) / 64u;
    assert_true(set_init(&s, universe));
    for (uint32_t k = 0; k < words; k++) assert_true(ecs_sset_add(&s, k * 64u));
    assert_true(ecs_sset_listed(&s));
    assert_true(ecs_sset_add(&s, 1));
    assert_false(ecs_sset_listed(&s));
    ecs_sset_clear(&s);
    assert_true(ecs_sset_listed(&s));
    ecs_sset_fini(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_semantics),
        cmocka_unit_test(test_random_sequences),
        cmocka_unit_test(test_spill_and_cursors),
        cmocka_unit_test(test_spill_threshold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
