/* test_sorted_set.c - ecs_oset (the ascending subscription lists) against a
 * bool-array reference model over many seeds, plus hand-written edge cases
 * for the block moves and the membership bitset. */
#include "test_util.h"

#include "alloc.h"
#include "sorted_set.h"

#define MAX_UNIVERSE 512u
#define SEEDS 200
#define OPS 300

typedef struct model {
    ecs_oset s;
    bool in[MAX_UNIVERSE]; /* false beyond the universe */
    uint32_t members;      /* number of true entries in in[] */
} model;

/* dense is strictly ascending and holds reference members only, as many as
 * the model has (so exactly them); contains() agrees everywhere. */
static void check_full(const model *m)
{
    assert_int_equal(m->s.count, m->members);
    for (uint32_t i = 0; i < m->s.count; i++) {
        uint32_t v = m->s.dense[i];
        assert_true(v < m->s.universe);
        assert_true(m->in[v]);
        if (i > 0) assert_true(m->s.dense[i - 1] < v);
    }
    for (uint32_t v = 0; v < m->s.universe; v++) {
        assert_int_equal(ecs_oset_contains(&m->s, v), m->in[v]);
    }
    assert_false(ecs_oset_contains(&m->s, m->s.universe));
    assert_false(ecs_oset_contains(&m->s, UINT32_MAX));
}

/* Bounds of the members (want = true) or the non-members of the universe;
 * false when there are none. */
static bool first_last(const model *m, bool want, uint32_t *first, uint32_t *last)
{
    bool any = false;
    for (uint32_t v = 0; v < m->s.universe; v++) {
        if (m->in[v] != want) continue;
        if (!any) *first = v;
        *last = v;
        any = true;
    }
    return any;
}

/* One apply call: either random subsets, each kept with probability p/16
 * (0: empty list, 16: every member / every non-member), or single values at
 * the front or the back of the members and of the non-members. */
static void op_apply(model *m, test_rng *r)
{
    uint32_t u = m->s.universe;
    uint32_t *removed = xcalloc(u, sizeof *removed);
    uint32_t *added = xcalloc(u, sizeof *added);
    uint32_t nr = 0, na = 0;
    if (rng_below(r, 4) > 0) {
        uint32_t pr = rng_below(r, 17), pa = rng_below(r, 17);
        for (uint32_t v = 0; v < u; v++) {
            if (m->in[v]) {
                if (rng_below(r, 16) < pr) removed[nr++] = v;
            } else if (rng_below(r, 16) < pa) {
                added[na++] = v;
            }
        }
    } else {
        uint32_t lo = 0, hi = 0, which = rng_below(r, 3);
        if (which < 2 && first_last(m, true, &lo, &hi)) removed[nr++] = which ? hi : lo;
        which = rng_below(r, 3);
        if (which < 2 && first_last(m, false, &lo, &hi)) added[na++] = which ? hi : lo;
    }
    assert_true(ecs_oset_reserve(&m->s, m->s.count + na));
    ecs_oset_apply(&m->s, removed, nr, added, na);
    for (uint32_t i = 0; i < nr; i++) m->in[removed[i]] = false;
    for (uint32_t i = 0; i < na; i++) m->in[added[i]] = true;
    m->members = m->members - nr + na;
    free(removed);
    free(added);
}

static void op_grow(model *m, test_rng *r)
{
    uint32_t u = m->s.universe;
    if (rng_below(r, 4) == 0) { /* not wider: nothing changes */
        assert_true(ecs_oset_grow(&m->s, 1 + rng_below(r, u)));
        assert_int_equal(m->s.universe, u);
    } else if (u < MAX_UNIVERSE) {
        uint32_t nu = u + 1 + rng_below(r, MAX_UNIVERSE - u);
        assert_true(ecs_oset_grow(&m->s, nu));
        assert_int_equal(m->s.universe, nu);
    }
}

static void run_seed(uint64_t seed)
{
    test_rng r = {seed};
    size_t live = ecs_alloc_live();
    model *m = xcalloc(1, sizeof *m);
    uint32_t universe = 1 + rng_below(&r, seed % 4 == 0 ? 4 : 200);
    assert_true(ecs_oset_init(&m->s, universe));
    assert_int_equal(m->s.universe, universe);
    check_full(m);
    for (int op = 0; op < OPS; op++) {
        if (rng_below(&r, 10) < 9) op_apply(m, &r);
        else op_grow(m, &r);
        check_full(m);
    }
    ecs_oset_fini(&m->s);
    assert_int_equal(ecs_alloc_live(), live);
    free(m);
}

static void test_random_sequences(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) run_seed(seed * 104729u);
}

/* Asserts dense == want[0..n) and that exactly those values are members. */
static void expect_set(const ecs_oset *s, const uint32_t *want, uint32_t n)
{
    assert_int_equal(s->count, n);
    if (n) assert_memory_equal(s->dense, want, n * sizeof *want);
    uint32_t k = 0;
    for (uint32_t v = 0; v < s->universe; v++) {
        bool in = k < n && want[k] == v;
        assert_int_equal(ecs_oset_contains(s, v), in);
        k += in;
    }
    assert_false(ecs_oset_contains(s, s->universe));
}
#define EXPECT(s, ...)                                                                             \
    do {                                                                                           \
        const uint32_t want_[] = {__VA_ARGS__};                                                    \
        expect_set((s), want_, ARRAY_LEN(want_));                                                  \
    } while (0)

static void test_insert_positions(void **state)
{
    (void)state;
    ecs_oset s;
    assert_true(ecs_oset_init(&s, 16));
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){5, 9}, 2);
    EXPECT(&s, 5, 9);
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){1}, 1); /* front */
    EXPECT(&s, 1, 5, 9);
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){7}, 1); /* middle */
    EXPECT(&s, 1, 5, 7, 9);
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){15}, 1); /* end */
    EXPECT(&s, 1, 5, 7, 9, 15);
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){0, 6, 8, 14}, 4); /* all at once */
    EXPECT(&s, 0, 1, 5, 6, 7, 8, 9, 14, 15);
    ecs_oset_apply(&s, NULL, 0, NULL, 0);
    EXPECT(&s, 0, 1, 5, 6, 7, 8, 9, 14, 15);
    ecs_oset_fini(&s);
}

static void test_remove_ends(void **state)
{
    (void)state;
    ecs_oset s;
    assert_true(ecs_oset_init(&s, 16));
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){1, 5, 7, 9, 15}, 5);
    ecs_oset_apply(&s, (const uint32_t[]){1}, 1, NULL, 0); /* first */
    EXPECT(&s, 5, 7, 9, 15);
    ecs_oset_apply(&s, (const uint32_t[]){15}, 1, NULL, 0); /* last */
    EXPECT(&s, 5, 7, 9);
    ecs_oset_apply(&s, (const uint32_t[]){5, 9}, 2, NULL, 0); /* both ends */
    EXPECT(&s, 7);
    ecs_oset_apply(&s, (const uint32_t[]){7}, 1, NULL, 0);
    assert_int_equal(s.count, 0);
    for (uint32_t v = 0; v < 16; v++) assert_false(ecs_oset_contains(&s, v));
    ecs_oset_fini(&s);
}

static void test_remove_and_add(void **state)
{
    (void)state;
    ecs_oset s;
    assert_true(ecs_oset_init(&s, 16));
    const uint32_t init[] = {2, 4, 8, 10, 12};
    ecs_oset_apply(&s, NULL, 0, init, ARRAY_LEN(init));
    /* Added values between the removed ones, and beyond both ends. */
    const uint32_t rem[] = {4, 10}, add[] = {0, 6, 9, 15};
    ecs_oset_apply(&s, rem, ARRAY_LEN(rem), add, ARRAY_LEN(add));
    EXPECT(&s, 0, 2, 6, 8, 9, 12, 15);
    /* Everything out, a disjoint set in. */
    const uint32_t rem2[] = {0, 2, 6, 8, 9, 12, 15}, add2[] = {1, 3, 4, 5, 7, 10, 11, 13, 14};
    ecs_oset_apply(&s, rem2, ARRAY_LEN(rem2), add2, ARRAY_LEN(add2));
    EXPECT(&s, 1, 3, 4, 5, 7, 10, 11, 13, 14);
    /* As many removed as added, each added one just above a removed one. */
    const uint32_t rem3[] = {1, 7, 14}, add3[] = {2, 8, 15};
    ecs_oset_apply(&s, rem3, ARRAY_LEN(rem3), add3, ARRAY_LEN(add3));
    EXPECT(&s, 2, 3, 4, 5, 8, 10, 11, 13, 15);
    ecs_oset_fini(&s);
}

/* Universes around multiples of 64, with the top value universe - 1. */
static void test_bitset_edges(void **state)
{
    (void)state;
    const uint32_t universes[] = {1, 63, 64, 65, 127, 128, 129};
    for (size_t i = 0; i < ARRAY_LEN(universes); i++) {
        uint32_t u = universes[i], top = u - 1;
        ecs_oset s;
        assert_true(ecs_oset_init(&s, u));
        ecs_oset_apply(&s, NULL, 0, &top, 1);
        EXPECT(&s, top);
        if (u > 1) {
            ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){0}, 1);
            EXPECT(&s, 0, top);
        }
        ecs_oset_apply(&s, &top, 1, NULL, 0);
        assert_false(ecs_oset_contains(&s, top));
        assert_int_equal(s.count, u > 1);
        ecs_oset_fini(&s);
    }
    /* Growing inside the last word (65 -> 127) and past it (-> 129). */
    ecs_oset s;
    assert_true(ecs_oset_init(&s, 65));
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){64}, 1);
    assert_true(ecs_oset_grow(&s, 127));
    EXPECT(&s, 64);
    ecs_oset_apply(&s, NULL, 0, (const uint32_t[]){126}, 1);
    EXPECT(&s, 64, 126);
    assert_true(ecs_oset_grow(&s, 129));
    EXPECT(&s, 64, 126);
    ecs_oset_apply(&s, (const uint32_t[]){64}, 1, (const uint32_t[]){63, 128}, 2);
    EXPECT(&s, 63, 126, 128);
    ecs_oset_fini(&s);
}

/* A list's room follows its members, not its universe: ten members of a
 * universe of 2^24 take a few dozen words; batches of a thousand grow the
 * room by doubling (a handful of regrowths, each copying the members
 * only), never past twice the members and the first 64. */
static void test_room_follows_count(void **state)
{
    (void)state;
    ecs_oset s;
    assert_true(ecs_oset_init(&s, 1u << 24));
    uint32_t first[10];
    for (uint32_t k = 0; k < 10; k++) first[k] = k * (1u << 20) + 3u;
    assert_true(ecs_oset_reserve(&s, 10));
    ecs_oset_apply(&s, NULL, 0, first, 10);
    assert_true(s.cap < 1024u);
    uint32_t *batch = xcalloc(1000, sizeof *batch), cap = s.cap, grows = 0;
    for (uint32_t b = 0; b < 100; b++) {
        for (uint32_t k = 0; k < 1000; k++) batch[k] = (k * 100u + b) * 16u + 1u;
        assert_true(ecs_oset_reserve(&s, s.count + 1000u));
        ecs_oset_apply(&s, NULL, 0, batch, 1000);
        grows += s.cap != cap;
        cap = s.cap;
        assert_true(s.cap <= 2u * s.count + 64u);
    }
    assert_int_equal(s.count, 100010u);
    assert_true(grows <= 12u);
    assert_true(ecs_oset_contains(&s, 3u) && ecs_oset_contains(&s, 99u * 16u + 1u));
    free(batch);
    ecs_oset_fini(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_positions),
        cmocka_unit_test(test_remove_ends),
        cmocka_unit_test(test_remove_and_add),
        cmocka_unit_test(test_bitset_edges),
        cmocka_unit_test(test_random_sequences),
        cmocka_unit_test(test_room_follows_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
