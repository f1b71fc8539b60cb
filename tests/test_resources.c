/* test_resources.c - resources: context-wide data that systems declare
 * they read or write.
 *
 *  - validation rejects two systems that use one resource, one writing
 *    it, with no dependency path between them (read/write and
 *    write/write), naming both systems and the resource, and accepts them
 *    once a path (direct or through another system) orders them; two
 *    readers need none; malformed definitions are rejected;
 *  - the ecs allocates a resource zeroed and aligned, or hands out its
 *    owner's pointer, and keeps it across steps;
 *  - systems reach what they declare from prepare, process and finish,
 *    the owner reaches everything from the step callback and between
 *    steps, and a prepare callback runs once per step after the
 *    dependencies and before any subtask;
 *  - access beyond the declaration is a misuse in every build: NULL, the
 *    step fails with ECS_ERR_MISUSE and the message names the system and
 *    the resource; the next clean step is ECS_OK.
 */
#include "test_util.h"

#include <stdatomic.h>

enum { C_POS, C_COUNT };
enum { R_GRID, R_LIST, R_COUNT };

static const ecs_component_def comps[C_COUNT] = {[C_POS] = {"comp_position", sizeof(float), 0}};

static int list_store[4];

static ecs_resource_def res_defs[R_COUNT] = {
    [R_GRID] = {.name = "res_grid", .size = 256, .align = 64},
    [R_LIST] = {.name = "res_list", .ptr = list_store},
};

static ecs_config config_of(const ecs_system_def *systems, uint32_t n)
{
    ecs_config cfg = tu_config(comps, C_COUNT, systems, n, 2);
    cfg.resources = res_defs;
    cfg.resource_count = R_COUNT;
    return cfg;
}

static const char *expect_fail(const ecs_config *cfg, ecs_status want)
{
    static ecs_error err;
    memset(&err, 0, sizeof err);
    ecs_context *ctx = NULL;
    ecs_status st = ecs_context_create(cfg, &ctx, &err);
    if (st != want)
        print_error("expected %s, got %s: %s\n", ecs_status_name(want), ecs_status_name(st),
                    err.message);
    if (st == ECS_OK) ecs_context_destroy(ctx);
    assert_int_equal(st, want);
    assert_null(ctx);
    return err.message;
}

static void assert_mentions(const char *msg, const char *what)
{
    if (!strstr(msg, what)) fail_msg("message \"%s\" does not mention \"%s\"", msg, what);
}

static void expect_ok(const ecs_config *cfg)
{
    ecs_context *ctx = ctx_create_ok(cfg);
    step_ok(ctx, NULL, NULL);
    ecs_context_destroy(ctx);
}

#define SYS(...) {.process = noop_process, .name = __VA_ARGS__}

static void test_conflicts(void **state)
{
    (void)state;
    /* Writer and reader, unordered. */
    ecs_system_def rw[2] = {SYS("sys_writer", .resource_writes = ECS_IDS(R_GRID)),
                            SYS("sys_reader", .resource_reads = ECS_IDS(R_GRID))};
    ecs_config cfg = config_of(rw, 2);
    const char *msg = expect_fail(&cfg, ECS_ERR_CONFLICT);
    assert_mentions(msg, "sys_writer");
    assert_mentions(msg, "sys_reader");
    assert_mentions(msg, "resource 'res_grid'");
    assert_mentions(msg, "'sys_writer' writes it");
    rw[1].after = ECS_IDS(0);
    expect_ok(&cfg);

    /* Two writers, unordered; then ordered through a third system. */
    ecs_system_def ww[3] = {SYS("sys_first", .resource_writes = ECS_IDS(R_LIST)),
                            SYS("sys_middle"),
                            SYS("sys_second", .resource_writes = ECS_IDS(R_LIST))};
    cfg = config_of(ww, 3);
    msg = expect_fail(&cfg, ECS_ERR_CONFLICT);
    assert_mentions(msg, "sys_first");
    assert_mentions(msg, "sys_second");
    assert_mentions(msg, "resource 'res_list'");
    ww[1].after = ECS_IDS(0);
    ww[2].after = ECS_IDS(1);
    expect_ok(&cfg);

    /* Two readers need no order; a component clash is still a component's. */
    ecs_system_def rr[2] = {SYS("sys_a", .resource_reads = ECS_IDS(R_GRID, R_LIST)),
                            SYS("sys_b", .resource_reads = ECS_IDS(R_GRID))};
    cfg = config_of(rr, 2);
    expect_ok(&cfg);
    rr[0].writes = ECS_IDS(C_POS);
    rr[1].reads = ECS_IDS(C_POS);
    assert_mentions(expect_fail(&cfg, ECS_ERR_CONFLICT), "component 'comp_position'");
}

static void test_malformed(void **state)
{
    (void)state;
    ecs_system_def one[1] = {SYS("sys_one", .resource_reads = ECS_IDS(R_GRID),
                                 .resource_writes = ECS_IDS(R_GRID))};
    ecs_config cfg = config_of(one, 1);
    const char *msg = expect_fail(&cfg, ECS_ERR_READ_WRITE);
    assert_mentions(msg, "sys_one");
    assert_mentions(msg, "res_grid");

    one[0] = (ecs_system_def)SYS("sys_one", .resource_writes = ECS_IDS(R_COUNT));
    assert_mentions(expect_fail(&cfg, ECS_ERR_INVALID), "unknown resource 2");

    one[0] = (ecs_system_def)SYS("sys_one");
    const ecs_resource_def bad[] = {
        {.name = "res_both", .size = 8, .ptr = list_store},
        {.name = "res_neither"},
        {.name = "res_align", .size = 12, .align = 12},
        {.name = "res_size", .size = 12, .align = 8},
    };
    const char *want[] = {"res_both", "res_neither", "not a power of two", "not a multiple"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        cfg.resources = &bad[i];
        cfg.resource_count = 1;
        assert_mentions(expect_fail(&cfg, ECS_ERR_INVALID), want[i]);
    }
    static ecs_resource_def many[ECS_MAX_RESOURCES + 1];
    for (size_t i = 0; i < ARRAY_LEN(many); i++) many[i] = (ecs_resource_def){.size = 4};
    cfg.resources = many;
    cfg.resource_count = ECS_MAX_RESOURCES + 1;
    assert_mentions(expect_fail(&cfg, ECS_ERR_INVALID), "at most 64");
    cfg.resource_count = ECS_MAX_RESOURCES;
    expect_ok(&cfg);
}

static void test_storage(void **state)
{
    (void)state;
    ecs_system_def none[1] = {SYS("sys_none")};
    const ecs_resource_def defs[] = {
        {.name = "res_big", .size = 4096, .align = 256},
        {.name = "res_plain", .size = 24},
        {.name = "res_owned", .ptr = list_store},
    };
    ecs_config cfg = config_of(none, 1);
    cfg.resources = defs;
    cfg.resource_count = ARRAY_LEN(defs);
    for (int round = 0; round < 2; round++) { /* the second gets reused memory */
        ecs_context *ctx = ctx_create_ok(&cfg);
        assert_int_equal(ecs_resource_count(ctx), 3);
        unsigned char *big = ecs_resource(ctx, 0), *plain = ecs_resource(ctx, 1);
        assert_non_null(big);
        assert_non_null(plain);
        assert_int_equal((uintptr_t)big % 256u, 0);
        assert_int_equal((uintptr_t)plain % _Alignof(max_align_t), 0);
        for (size_t i = 0; i < 4096; i++) assert_int_equal(big[i], 0);
        for (size_t i = 0; i < 24; i++) assert_int_equal(plain[i], 0);
        assert_ptr_equal(ecs_resource(ctx, 2), list_store);
        assert_ptr_equal(ecs_resource_read(ctx, 0), big);
        memset(big, 0xab, 4096);
        memset(plain, 0xcd, 24);
        step_ok(ctx, NULL, NULL);
        assert_ptr_equal(ecs_resource(ctx, 0), big); /* kept across steps */
        assert_int_equal(big[4095], 0xab);
        ecs_context_destroy(ctx); /* frees what it allocated (ASan checks) */
    }
}

/* A chain: the step callback seeds the grid, `fill` (split over entities)
 * checks its prepare's value and writes the list, `sum` (after fill)
 * finds the list written in its prepare, adds the grid's seed to it, and
 * its finish checks the sum. */
typedef struct grid_data {
    int seed;      /* set by the step callback */
    int prepared;  /* set by fill's prepare: seed + 1 */
    int prepares;  /* fill's prepare calls */
    atomic_int bad; /* subtasks that ran before the prepare */
} grid_data;

static void seed_grid(ecs_context *ctx, void *user)
{
    grid_data *g = ecs_resource(ctx, R_GRID);
    g->seed = *(int *)user;
}

static void prepare_fill(ecs_context *ctx, uint32_t system, void *user)
{
    (void)system;
    (void)user;
    grid_data *g = ecs_resource(ctx, R_GRID);
    g->prepared = g->seed + 1;
    g->prepares++;
}

static void process_fill(ecs_iter *it)
{
    grid_data *g = ecs_iter_resource_write(it, R_GRID);
    if (g->prepared != g->seed + 1) atomic_fetch_add(&g->bad, 1);
    if (it->subtask == 0) {
        int *list = ecs_iter_resource_write(it, R_LIST);
        list[0] = g->prepared;
    }
}

static void process_sum(ecs_iter *it)
{
    const grid_data *g = ecs_iter_resource_read(it, R_GRID);
    const int *seen = ecs_iter_resource_read(it, R_LIST); /* written: read too */
    int *list = ecs_iter_resource_write(it, R_LIST);
    if (it->subtask == 0) list[1] = seen[0] + g->seed;
}

/* sum's prepare: fill, its dependency, is done with the list. */
static int lists_ready;
static void prepare_sum(ecs_context *ctx, uint32_t system, void *user)
{
    (void)system;
    (void)user;
    const int *list = ecs_resource_read(ctx, R_LIST);
    const grid_data *g = ecs_resource_read(ctx, R_GRID);
    lists_ready += list[0] == g->seed + 1;
}

/* Counts the steps whose list it found complete. */
static int sums_seen;
static void finish_sum(ecs_context *ctx, uint32_t system, void *user)
{
    (void)system;
    (void)user;
    const int *list = ecs_resource_read(ctx, R_LIST);
    const grid_data *g = ecs_resource_read(ctx, R_GRID);
    sums_seen += list[1] == 2 * g->seed + 1;
}

static void test_access(void **state)
{
    (void)state;
    ecs_system_def sys[2] = {
        {.name = "sys_fill", .reads = ECS_IDS(C_POS), .resource_writes = ECS_IDS(R_GRID, R_LIST),
         .parallelism = {ECS_SPLIT_PER_WORKER, 0, 1, false}, .prepare = prepare_fill,
         .process = process_fill},
        {.name = "sys_sum", .resource_reads = ECS_IDS(R_GRID), .resource_writes = ECS_IDS(R_LIST),
         .after = ECS_IDS(0), .prepare = prepare_sum, .process = process_sum,
         .finish = finish_sum},
    };
    ecs_resource_def defs[R_COUNT] = {
        [R_GRID] = {.name = "res_grid", .size = sizeof(grid_data)},
        [R_LIST] = {.name = "res_list", .ptr = list_store},
    };
    ecs_config cfg = tu_config(comps, C_COUNT, sys, 2, 4);
    cfg.resources = defs;
    cfg.resource_count = R_COUNT;
    ecs_context *ctx = ctx_create_ok(&cfg);
    for (int i = 0; i < 64; i++) {
        ecs_entity e = create_ok(ctx);
        assert_int_equal(ecs_add(ctx, e, C_POS, NULL), ECS_OK);
    }
    for (int seed = 10; seed < 15; seed++) {
        step_ok(ctx, seed_grid, &seed);
        const grid_data *g = ecs_resource_read(ctx, R_GRID);
        assert_int_equal(ecs_system_subtasks(ctx, 0), 4);
        assert_int_equal(g->prepares, seed - 9); /* once per step */
        assert_int_equal(atomic_load(&g->bad), 0);
        assert_int_equal(list_store[0], seed + 1);
        assert_int_equal(list_store[1], seed + 1 + seed);
        assert_int_equal(sums_seen, seed - 9);
        assert_int_equal(lists_ready, seed - 9);
    }
    assert_string_equal(ecs_misuse_message(ctx), "");
    ecs_context_destroy(ctx);
}

/* ---- misuse -------------------------------------------------------------- */

enum { DO_NOTHING, DO_READ_UNDECLARED, DO_WRITE_READONLY, DO_READ_UNKNOWN, DO_CTX_UNDECLARED,
       DO_CTX_WRITE_READONLY, DO_PREPARE_UNDECLARED };

static int action;
static atomic_int got_null;

static void bad_prepare(ecs_context *ctx, uint32_t system, void *user)
{
    (void)system;
    (void)user;
    if (action == DO_PREPARE_UNDECLARED && !ecs_resource(ctx, R_LIST))
        atomic_fetch_add(&got_null, 1);
}

static void bad_process(ecs_iter *it)
{
    const void *p = it; /* not NULL: only a misused call clears it */
    switch (action) {
    case DO_READ_UNDECLARED: p = ecs_iter_resource_read(it, R_LIST); break;
    case DO_WRITE_READONLY: p = ecs_iter_resource_write(it, R_GRID); break;
    case DO_READ_UNKNOWN: p = ecs_iter_resource_read(it, 7); break;
    case DO_CTX_UNDECLARED: p = ecs_resource_read(it->ctx, R_LIST); break;
    case DO_CTX_WRITE_READONLY: p = ecs_resource(it->ctx, R_GRID); break;
    default: break;
    }
    if (!p) atomic_fetch_add(&got_null, 1);
}

static void expect_misuse(ecs_context *ctx, int what, const char *text)
{
    action = what;
    atomic_store(&got_null, 0);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_int_equal(atomic_load(&got_null), 1);
    assert_mentions(ecs_misuse_message(ctx), text);
    action = DO_NOTHING;
    step_ok(ctx, NULL, NULL);
    assert_string_equal(ecs_misuse_message(ctx), "");
}

static void test_misuse(void **state)
{
    (void)state;
    ecs_system_def sys[1] = {{.name = "sys_bad", .resource_reads = ECS_IDS(R_GRID),
                              .prepare = bad_prepare, .process = bad_process}};
    ecs_config cfg = config_of(sys, 1);
    ecs_context *ctx = ctx_create_ok(&cfg);
    step_ok(ctx, NULL, NULL);
    expect_misuse(ctx, DO_READ_UNDECLARED,
                  "system 'sys_bad' asked to read resource 'res_list', which it does not declare");
    expect_misuse(ctx, DO_WRITE_READONLY,
                  "system 'sys_bad' asked to write resource 'res_grid', which it only reads");
    expect_misuse(ctx, DO_READ_UNKNOWN,
                  "system 'sys_bad' asked for resource 7, which does not exist (2 declared)");
    expect_misuse(ctx, DO_CTX_UNDECLARED,
                  "system 'sys_bad' asked to read resource 'res_list', which it does not declare");
    expect_misuse(ctx, DO_CTX_WRITE_READONLY,
                  "system 'sys_bad' asked to write resource 'res_grid', which it only reads");
    expect_misuse(ctx, DO_PREPARE_UNDECLARED,
                  "system 'sys_bad' asked to write resource 'res_list', which it does not declare");
    /* The owner, between steps: anything that exists. */
    assert_non_null(ecs_resource(ctx, R_LIST));
    assert_null(ecs_resource(ctx, R_COUNT));
    assert_mentions(ecs_misuse_message(ctx), "ecs_resource: resource 2 does not exist");
    step_ok(ctx, NULL, NULL);
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conflicts), cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_storage),   cmocka_unit_test(test_access),
        cmocka_unit_test(test_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
