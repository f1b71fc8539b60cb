/* test_validation.c - ecs_context_create rejects each kind of malformed
 * definition with the right status and a message naming the culprits, and
 * accepts valid ones, a chain of a thousand systems included; conflicts
 * agree with a brute-force closure on random DAGs; a system reaches the
 * outputs of a dependency however far up its path. */
#include "test_util.h"

#include <stdatomic.h>

enum { C_POS, C_VEL, C_MASS, C_COUNT };

static const ecs_component_def comps[] = {
    [C_POS] = {"comp_position", sizeof(float[2]), 0},
    [C_VEL] = {"comp_velocity", sizeof(float[2]), 0},
    [C_MASS] = {"comp_mass", sizeof(float), 0},
};

static ecs_config config_of(const ecs_system_def *systems, uint32_t n)
{
    return tu_config(comps, C_COUNT, systems, n, 1);
}

/* Expects a rejection with status want; returns the message. Also checks
 * that *out is NULL and that err may be NULL. */
static const char *expect_fail(const ecs_config *cfg, ecs_status want)
{
    static ecs_error err;
    memset(&err, 0x5a, sizeof err);
    ecs_context *ctx = (ecs_context *)(uintptr_t)0x1;
    ecs_status st = ecs_context_create(cfg, &ctx, &err);
    if (st != want) {
        print_error("expected %s, got %s: %s\n", ecs_status_name(want), ecs_status_name(st),
                    st == ECS_OK ? "" : err.message);
        if (st == ECS_OK) ecs_context_destroy(ctx);
    }
    assert_int_equal(st, want);
    assert_null(ctx);
    assert_int_equal(err.status, want);
    assert_non_null(memchr(err.message, '\0', sizeof err.message));
    assert_true(strlen(err.message) > 0);
    ecs_context *ctx2 = NULL;
    assert_int_equal(ecs_context_create(cfg, &ctx2, NULL), want);
    assert_null(ctx2);
    return err.message;
}

static void expect_ok(const ecs_config *cfg)
{
    ecs_context *ctx = ctx_create_ok(cfg);
    assert_int_equal(ecs_system_count(ctx), cfg->system_count);
    assert_int_equal(ecs_component_count(ctx), cfg->component_count);
    step_ok(ctx, NULL, NULL);
    ecs_context_destroy(ctx);
}

static void assert_mentions(const char *msg, const char *what)
{
    if (!strstr(msg, what)) fail_msg("message \"%s\" does not mention \"%s\"", msg, what);
}

#define SYS(...) {.process = noop_process, .name = __VA_ARGS__}

static void test_valid_configs(void **state)
{
    (void)state;
    /* A chain writing one component, plus two unordered readers of it. */
    const ecs_system_def chain[] = {
        SYS("sys_integrate", .reads = ECS_IDS(C_VEL), .writes = ECS_IDS(C_POS)),
        SYS("sys_reader_a", .reads = ECS_IDS(C_POS), .after = ECS_IDS(0)),
        SYS("sys_reader_b", .reads = ECS_IDS(C_POS, C_MASS), .after = ECS_IDS(0)),
        SYS("sys_writer_late", .writes = ECS_IDS(C_POS, C_VEL), .after = ECS_IDS(1, 2)),
        SYS("sys_empty"),
    };
    ecs_config cfg = config_of(chain, ARRAY_LEN(chain));
    expect_ok(&cfg);

    /* Two systems only reading the same component do not conflict. */
    const ecs_system_def readers[] = {
        SYS("sys_r1", .reads = ECS_IDS(C_POS, C_VEL)),
        SYS("sys_r2", .reads = ECS_IDS(C_POS)),
    };
    cfg = config_of(readers, 2);
    expect_ok(&cfg);

    /* A writer and a reader ordered through an intermediate system. */
    const ecs_system_def indirect[] = {
        SYS("sys_w", .writes = ECS_IDS(C_MASS)),
        SYS("sys_mid", .after = ECS_IDS(0)),
        SYS("sys_r", .reads = ECS_IDS(C_MASS), .after = ECS_IDS(1)),
    };
    cfg = config_of(indirect, 3);
    expect_ok(&cfg);
    /* ...and the reverse direction (reader first) is ordered too. */
    const ecs_system_def reverse[] = {
        SYS("sys_r", .reads = ECS_IDS(C_MASS), .after = ECS_IDS(1)),
        SYS("sys_mid", .after = ECS_IDS(2)),
        SYS("sys_w", .writes = ECS_IDS(C_MASS)),
    };
    cfg = config_of(reverse, 3);
    expect_ok(&cfg);

    /* Fixed storage with a capacity, chunked split, exactly 64 components. */
    static ecs_component_def many[64];
    for (int i = 0; i < 64; i++) many[i] = (ecs_component_def){"c", 4, 0};
    const ecs_system_def top[] = {
        SYS("sys_top", .writes = ECS_IDS(63),
            .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 16}),
    };
    cfg = config_of(top, 1);
    cfg.components = many;
    cfg.component_count = 64;
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 32;
    expect_ok(&cfg);
}

static void test_unknown_component(void **state)
{
    (void)state;
    const ecs_system_def in_reads[] = {
        SYS("sys_ok", .writes = ECS_IDS(C_POS)),
        SYS("sys_bad_reader", .reads = ECS_IDS(C_VEL, C_COUNT)),
    };
    ecs_config cfg = config_of(in_reads, 2);
    assert_mentions(expect_fail(&cfg, ECS_ERR_UNKNOWN_COMPONENT), "sys_bad_reader");

    const ecs_system_def in_writes[] = {
        SYS("sys_bad_writer", .writes = ECS_IDS(200)),
    };
    cfg = config_of(in_writes, 1);
    assert_mentions(expect_fail(&cfg, ECS_ERR_UNKNOWN_COMPONENT), "sys_bad_writer");
}

static void test_unknown_system(void **state)
{
    (void)state;
    const ecs_system_def dangling[] = {
        SYS("sys_first"),
        SYS("sys_dangling", .after = ECS_IDS(0, 2)),
    };
    ecs_config cfg = config_of(dangling, 2);
    assert_mentions(expect_fail(&cfg, ECS_ERR_UNKNOWN_SYSTEM), "sys_dangling");

    const ecs_system_def selfish[] = {
        SYS("sys_first"),
        SYS("sys_selfish", .after = ECS_IDS(1)),
    };
    cfg = config_of(selfish, 2);
    assert_mentions(expect_fail(&cfg, ECS_ERR_CYCLE), "sys_selfish");
}

static void test_read_write(void **state)
{
    (void)state;
    const ecs_system_def both[] = {
        SYS("sys_greedy", .reads = ECS_IDS(C_POS, C_MASS), .writes = ECS_IDS(C_VEL, C_MASS)),
    };
    ecs_config cfg = config_of(both, 1);
    const char *msg = expect_fail(&cfg, ECS_ERR_READ_WRITE);
    assert_mentions(msg, "sys_greedy");
    assert_mentions(msg, "comp_mass");
}

static void test_cycle(void **state)
{
    (void)state;
    /* cyc_a after cyc_c, cyc_b after cyc_a, cyc_c after cyc_b; plus a tail. */
    const ecs_system_def cyc[] = {
        SYS("sys_tail"),
        SYS("cyc_a", .after = ECS_IDS(3, 0)),
        SYS("cyc_b", .after = ECS_IDS(1)),
        SYS("cyc_c", .after = ECS_IDS(2)),
    };
    ecs_config cfg = config_of(cyc, 4);
    const char *msg = expect_fail(&cfg, ECS_ERR_CYCLE);
    assert_mentions(msg, "cyc_a");
    assert_mentions(msg, "cyc_b");
    assert_mentions(msg, "cyc_c");

    const ecs_system_def two[] = {
        SYS("ping_sys", .after = ECS_IDS(1)),
        SYS("pong_sys", .after = ECS_IDS(0)),
    };
    cfg = config_of(two, 2);
    msg = expect_fail(&cfg, ECS_ERR_CYCLE);
    assert_mentions(msg, "ping_sys");
    assert_mentions(msg, "pong_sys");
}

static void test_conflict(void **state)
{
    (void)state;
    /* Writer and reader with no path either way. */
    const ecs_system_def wr[] = {
        SYS("sys_unrelated", .reads = ECS_IDS(C_POS)),
        SYS("sys_mover", .reads = ECS_IDS(C_VEL), .writes = ECS_IDS(C_MASS)),
        SYS("sys_weigher", .reads = ECS_IDS(C_MASS), .after = ECS_IDS(0)),
    };
    ecs_config cfg = config_of(wr, 3);
    const char *msg = expect_fail(&cfg, ECS_ERR_CONFLICT);
    assert_mentions(msg, "sys_mover");
    assert_mentions(msg, "sys_weigher");
    assert_mentions(msg, "comp_mass");

    /* Two writers; siblings under a common parent are still unordered. */
    const ecs_system_def ww[] = {
        SYS("sys_root"),
        SYS("sys_left", .writes = ECS_IDS(C_VEL), .after = ECS_IDS(0)),
        SYS("sys_right", .writes = ECS_IDS(C_VEL), .after = ECS_IDS(0)),
    };
    cfg = config_of(ww, 3);
    msg = expect_fail(&cfg, ECS_ERR_CONFLICT);
    assert_mentions(msg, "sys_left");
    assert_mentions(msg, "sys_right");
    assert_mentions(msg, "comp_velocity");
}

/* Random DAGs of up to 12 systems over the three components, each system
 * reading or writing some: validation must find a conflict exactly when
 * some pair of systems using one component, one writing, has no path
 * between them (found here by a plain transitive closure), and the pair
 * it names must be such a pair. Edges run from lower to higher positions
 * of a shuffled order, so ids and the order disagree. */
static uint32_t lcg(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

static void test_conflict_random(void **state)
{
    (void)state;
    enum { N = 12 };
    static const uint32_t ids[C_COUNT] = {C_POS, C_VEL, C_MASS};
    char names[N][8];
    for (uint32_t s = 0; s < N; s++) snprintf(names[s], sizeof names[s], "s%u", (unsigned)s);
    uint32_t seed = 12345u, conflicts = 0, valid = 0;
    for (int round = 0; round < 600; round++) {
        uint32_t dense = 2u + lcg(&seed) % 6u; /* edge odds in eighths */
        uint32_t n = 2u + lcg(&seed) % (N - 1u), place[N], after[N][N], nafter[N] = {0};
        uint32_t reads[N][C_COUNT], writes[N][C_COUNT], nr[N] = {0}, nw[N] = {0};
        bool reach[N][N] = {{false}};
        for (uint32_t s = 0; s < n; s++) place[s] = s;
        for (uint32_t s = n; s-- > 1;) { /* shuffle: place[k] is the k-th system */
            uint32_t k = lcg(&seed) % (s + 1u), t = place[s];
            place[s] = place[k];
            place[k] = t;
        }
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t i = 0; i < j; i++)
                if (lcg(&seed) % 8u < dense) {
                    after[place[j]][nafter[place[j]]++] = place[i];
                    reach[place[i]][place[j]] = true;
                }
        for (uint32_t k = 0; k < n; k++) /* closure, in the order */
            for (uint32_t a = 0; a < n; a++)
                for (uint32_t b = 0; b < n; b++)
                    if (reach[a][place[k]] && reach[place[k]][b]) reach[a][b] = true;
        for (uint32_t s = 0; s < n; s++)
            for (uint32_t c = 0; c < C_COUNT; c++) {
                uint32_t use = lcg(&seed) % 5u; /* 0: writes, 1-2: reads, else none */
                if (use == 0) writes[s][nw[s]++] = ids[c];
                else if (use < 3) reads[s][nr[s]++] = ids[c];
            }
        bool clash[N][N] = {{false}}, any = false;
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = 0; b < n; b++)
                for (uint32_t i = 0; a != b && i < nw[a]; i++) {
                    bool uses = false;
                    for (uint32_t k = 0; k < nr[b]; k++) uses |= reads[b][k] == writes[a][i];
                    for (uint32_t k = 0; k < nw[b]; k++) uses |= writes[b][k] == writes[a][i];
                    if (uses && !reach[a][b] && !reach[b][a]) clash[a][b] = clash[b][a] = any = true;
                }
        ecs_system_def defs[N];
        for (uint32_t s = 0; s < n; s++)
            defs[s] = (ecs_system_def){.name = names[s], .process = noop_process,
                                       .reads = {reads[s], nr[s]}, .writes = {writes[s], nw[s]},
                                       .after = {after[s], nafter[s]}};
        ecs_config cfg = config_of(defs, n);
        ecs_context *ctx = NULL;
        ecs_error err;
        ecs_status st = ecs_context_create(&cfg, &ctx, &err);
        ecs_context_destroy(ctx);
        assert_int_equal(st, any ? ECS_ERR_CONFLICT : ECS_OK);
        if (!any) {
            valid++;
            continue;
        }
        conflicts++;
        unsigned a, b;
        assert_int_equal(sscanf(err.message, "systems 's%u' and 's%u'", &a, &b), 2);
        assert_true(a < n && b < n && clash[a][b]);
    }
    assert_true(conflicts > 100 && valid > 100); /* both outcomes were tried */
}

/* While systems run, a system may reach the subtasks of any system a path
 * of dependencies leads from, however long, and of no other: "far" depends
 * on link0 through a chain of 200; "side" hangs off link0 with no path to
 * far. Each asks from far's process; with two workers the question is
 * answered on either thread. */
enum { FAR_CHAIN = 200 };
static uint32_t far_target;
static _Atomic int far_answer;

static void far_process(ecs_iter *it)
{
    atomic_store(&far_answer, (int)ecs_iter_dep_subtasks(it, far_target));
}

static void test_dependency_over_path(void **state)
{
    (void)state;
    ecs_system_def defs[FAR_CHAIN + 2];
    uint32_t before[FAR_CHAIN + 2];
    static const uint32_t reads[] = {C_POS};
    for (uint32_t i = 0; i < FAR_CHAIN + 2u; i++) {
        before[i] = i == FAR_CHAIN + 1u ? 0u : i - 1u;
        defs[i] = (ecs_system_def){.name = "link", .process = noop_process, .reads = {reads, 1}};
        if (i) defs[i].after = (ecs_ids){&before[i], 1};
    }
    defs[FAR_CHAIN].name = "far";
    defs[FAR_CHAIN].process = far_process;
    defs[FAR_CHAIN + 1].name = "side";
    ecs_config cfg = tu_config(comps, C_COUNT, defs, FAR_CHAIN + 2u, 2);
    ecs_context *ctx = ctx_create_ok(&cfg);
    assert_int_equal(ecs_add(ctx, create_ok(ctx), C_POS, NULL), ECS_OK);
    far_target = 0;
    step_ok(ctx, NULL, NULL);
    assert_int_equal(atomic_load(&far_answer), 1);
    far_target = FAR_CHAIN + 1u;
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_int_equal(atomic_load(&far_answer), 0);
    assert_mentions(ecs_misuse_message(ctx), "which it does not depend on");
    ecs_context_destroy(ctx);
}

static void test_invalid(void **state)
{
    (void)state;
    const ecs_system_def one[] = {SYS("sys_one", .reads = ECS_IDS(C_POS))};
    ecs_config cfg = config_of(one, 1);
    cfg.storage = ECS_STORAGE_FIXED;
    cfg.capacity = 0;
    expect_fail(&cfg, ECS_ERR_INVALID);

    const ecs_system_def no_process[] = {
        SYS("sys_fine"),
        {.name = "sys_lazy", .reads = ECS_IDS(C_POS), .process = NULL},
    };
    cfg = config_of(no_process, 2);
    assert_mentions(expect_fail(&cfg, ECS_ERR_INVALID), "sys_lazy");

    const ecs_system_def zero_chunk[] = {
        SYS("sys_chunky", .reads = ECS_IDS(C_POS),
            .parallelism = {.split = ECS_SPLIT_CHUNKS, .chunk_size = 0}),
    };
    cfg = config_of(zero_chunk, 1);
    assert_mentions(expect_fail(&cfg, ECS_ERR_INVALID), "sys_chunky");

    static ecs_component_def too_many[65];
    for (int i = 0; i < 65; i++) too_many[i] = (ecs_component_def){"c", 4, 0};
    cfg = config_of(one, 1);
    cfg.components = too_many;
    cfg.component_count = 65;
    expect_fail(&cfg, ECS_ERR_INVALID);
}

/* A chain of CHAIN systems, each writing C_POS after the one before,
 * except that system `gap` (when below CHAIN) depends on none: every pair
 * is ordered through the chain but those across the gap. */
#define CHAIN 1000u
static ecs_status chain(uint32_t gap, ecs_error *err)
{
    ecs_system_def *defs = xcalloc(CHAIN, sizeof *defs);
    uint32_t *before = xcalloc(CHAIN, sizeof *before);
    char(*names)[16] = xcalloc(CHAIN, sizeof *names);
    static const uint32_t writes[] = {C_POS};
    for (uint32_t i = 0; i < CHAIN; i++) {
        snprintf(names[i], sizeof names[i], "link%u", (unsigned)i);
        before[i] = i ? i - 1u : 0u;
        defs[i] = (ecs_system_def){.name = names[i], .writes = {writes, 1}, .process = noop_process};
        if (i && i != gap) defs[i].after = (ecs_ids){&before[i], 1};
    }
    ecs_config cfg = tu_config(comps, C_COUNT, defs, CHAIN, 2);
    ecs_context *ctx = NULL;
    ecs_status st = ecs_context_create(&cfg, &ctx, err);
    ecs_context_destroy(ctx);
    free(defs);
    free(before);
    free(names);
    return st;
}

/* The order is transitive over long chains: a thousand writers of one
 * component in a chain are valid; one missing link makes the first pair
 * across it (link0 and the link after the gap) a conflict. */
static void test_long_chain(void **state)
{
    (void)state;
    ecs_error err;
    assert_int_equal(chain(CHAIN, &err), ECS_OK);
    assert_int_equal(chain(600, &err), ECS_ERR_CONFLICT);
    assert_non_null(strstr(err.message, "systems 'link0' and 'link600' both use component "
                                        "'comp_position'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_configs),
        cmocka_unit_test(test_unknown_component),
        cmocka_unit_test(test_unknown_system),
        cmocka_unit_test(test_read_write),
        cmocka_unit_test(test_cycle),
        cmocka_unit_test(test_conflict),
        cmocka_unit_test(test_conflict_random),
        cmocka_unit_test(test_dependency_over_path),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_long_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
