/* test_step_failure.c - failing a step (ecs_iter_fail, ecs_step_fail,
 * ecs_step_failure) from a subtask, a prepare, a finish and the step
 * callback, on 1..4 workers with inner parallelism on and off:
 *
 *  - the step returns the first failure in the order ecs.h gives (the
 *    step callback's; then the systems' in id order, each system's
 *    prepare, then each pass's subtasks in index order, then that pass's
 *    finish), and ecs_step_failure names the same status, the system and
 *    the subtask that held the failing entity: the same answer for every
 *    worker count, though the systems run in parallel and the roots
 *    launch the later id first;
 *  - the next step, with nothing failing, returns ECS_OK and no failure;
 *  - a misuse wins over every failure; ecs_step_fail between steps or
 *    from process, and either call with a status that is no failure, are
 *    misuses that record nothing.
 */
#include "test_util.h"

enum { C_A, C_COUNT };
enum { S_PREP, S_PROC, S_LATE, S_COUNT };

#define ENTITIES 1000u

/* What fails in a step. */
enum {
    M_STEP = 1,        /* the step callback: ECS_ERR_UNKNOWN_COMPONENT */
    M_PREP = 2,        /* S_PREP's prepare: ECS_ERR_INVALID */
    M_PROC = 4,        /* S_PROC at entity 600 (ECS_ERR_NOMEM) and 900 (ECS_ERR_FULL) */
    M_LATE_EARLY = 8,  /* S_LATE, pass 0, entity 950: ECS_ERR_DEAD */
    M_LATE_PROC = 16,  /* S_LATE, pass 1, entity 100: ECS_ERR_CYCLE */
    M_LATE_FINISH = 32, /* S_LATE's finish of pass 0: ECS_ERR_CONFLICT */
    M_MISUSE = 64      /* S_PROC calls ecs_iter_fail with ECS_OK */
};

typedef struct fixture {
    ecs_context *ctx;
    unsigned mode;
    uint32_t sub[ENTITIES]; /* the subtask that saw an entity, by the systems that fail there */
} fixture;

static void fail_at(ecs_iter *it, uint32_t index, ecs_status st)
{
    fixture *f = it->user;
    for (uint32_t k = 0; k < it->count; k++)
        if (it->entities[k] == index) {
            f->sub[index] = it->subtask;
            ecs_iter_fail(it, st);
        }
}

static void prepare_prep(ecs_context *ctx, uint32_t system, void *user)
{
    (void)system;
    if (((fixture *)user)->mode & M_PREP)
        assert_int_equal(ecs_step_fail(ctx, ECS_ERR_INVALID), ECS_OK);
}

static void process_none(ecs_iter *it) { (void)it; }

static void process_proc(ecs_iter *it)
{
    fixture *f = it->user;
    if (f->mode & M_MISUSE && it->subtask == 0) ecs_iter_fail(it, ECS_OK);
    if (!(f->mode & M_PROC)) return;
    fail_at(it, 600, ECS_ERR_NOMEM);
    fail_at(it, 900, ECS_ERR_FULL);
}

static void process_late(ecs_iter *it)
{
    fixture *f = it->user;
    if (it->pass == 0 && f->mode & M_LATE_EARLY) fail_at(it, 950, ECS_ERR_DEAD);
    if (it->pass == 1 && f->mode & M_LATE_PROC) fail_at(it, 100, ECS_ERR_CYCLE);
}

static void finish_late(ecs_context *ctx, uint32_t system, void *user)
{
    if (ecs_system_pass(ctx, system) == 0 && ((fixture *)user)->mode & M_LATE_FINISH)
        assert_int_equal(ecs_step_fail(ctx, ECS_ERR_CONFLICT), ECS_OK);
}

static void step_callback(ecs_context *ctx, void *user)
{
    if (((fixture *)user)->mode & M_STEP)
        assert_int_equal(ecs_step_fail(ctx, ECS_ERR_UNKNOWN_COMPONENT), ECS_OK);
}

#define SPLIT {ECS_SPLIT_PER_WORKER, 0, 0, false}

static int setup(void **state)
{
    static const ecs_component_def comps[C_COUNT] = {[C_A] = {"a", sizeof(float), 0}};
    fixture *f = xcalloc(1, sizeof *f);
    const ecs_system_def systems[S_COUNT] = {
        [S_PREP] = {.name = "prep", .reads = ECS_IDS(C_A), .parallelism = SPLIT,
                    .prepare = prepare_prep, .process = process_none, .user = f},
        [S_PROC] = {.name = "proc", .reads = ECS_IDS(C_A), .parallelism = SPLIT,
                    .process = process_proc, .user = f},
        [S_LATE] = {.name = "late", .reads = ECS_IDS(C_A), .after = ECS_IDS(S_PROC),
                    .parallelism = SPLIT, .passes = 2, .process = process_late,
                    .finish = finish_late, .user = f},
    };
    ecs_config cfg = ecs_default_config();
    cfg.components = comps;
    cfg.component_count = C_COUNT;
    cfg.systems = systems;
    cfg.system_count = S_COUNT;
    cfg.workers = 4;
    assert_int_equal(ecs_context_create(&cfg, &f->ctx, NULL), ECS_OK);
    assert_int_equal(ecs_create_bulk(f->ctx, ENTITIES, ECS_IDS(C_A), NULL, NULL), ECS_OK);
    ecs_refresh(f->ctx);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    ecs_context_destroy(f->ctx);
    free(f);
    return 0;
}

static void assert_failure(ecs_failure got, ecs_status st, uint32_t system, uint32_t subtask)
{
    if (got.status != st || got.system != system || got.subtask != subtask)
        fail_msg("failure {%s, %u, %u}, expected {%s, %u, %u}", ecs_status_name(got.status),
                 (unsigned)got.system, (unsigned)got.subtask, ecs_status_name(st),
                 (unsigned)system, (unsigned)subtask);
}

static void test_first_failure(void **state)
{
    fixture *f = *state;
    const struct {
        unsigned mode;
        ecs_status st;
        uint32_t system, entity; /* entity: whose subtask failed; ENTITIES: none */
    } cases[] = {
        {M_PROC, ECS_ERR_NOMEM, S_PROC, 600},
        {M_PREP | M_PROC, ECS_ERR_INVALID, S_PREP, ENTITIES},
        {M_STEP | M_PREP | M_PROC | M_LATE_FINISH, ECS_ERR_UNKNOWN_COMPONENT, ECS_NONE, ENTITIES},
        {M_LATE_PROC, ECS_ERR_CYCLE, S_LATE, 100},
        {M_LATE_PROC | M_LATE_EARLY, ECS_ERR_DEAD, S_LATE, 950},
        {M_LATE_FINISH | M_LATE_PROC, ECS_ERR_CONFLICT, S_LATE, ENTITIES},
        {M_LATE_FINISH | M_LATE_PROC | M_LATE_EARLY, ECS_ERR_DEAD, S_LATE, 950},
        {M_PROC | M_LATE_FINISH, ECS_ERR_NOMEM, S_PROC, 600},
        {M_MISUSE | M_STEP | M_PROC, ECS_ERR_MISUSE, ECS_NONE, ENTITIES},
    };
    for (uint32_t w = 1; w <= 4; w++)
        for (int inner = 0; inner < 2; inner++) {
            assert_int_equal(ecs_set_workers(f->ctx, w), ECS_OK);
            ecs_set_inner_parallelism(f->ctx, inner);
            for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
                f->mode = cases[c].mode;
                memset(f->sub, 0xff, sizeof f->sub);
                assert_int_equal(ecs_step(f->ctx, step_callback, f), cases[c].st);
                uint32_t e = cases[c].entity;
                uint32_t sub = e < ENTITIES ? f->sub[e] : ECS_NONE;
                assert_true(e == ENTITIES || sub < (inner ? w : 1u));
                assert_failure(ecs_step_failure(f->ctx), cases[c].st, cases[c].system, sub);
                f->mode = 0; /* the next step starts clean */
                assert_int_equal(ecs_step(f->ctx, step_callback, f), ECS_OK);
                assert_failure(ecs_step_failure(f->ctx), ECS_OK, ECS_NONE, ECS_NONE);
            }
        }
}

static void process_fail_from_process(ecs_iter *it)
{
    if (it->subtask == 0) assert_int_equal(ecs_step_fail(it->ctx, ECS_ERR_NOMEM), ECS_ERR_MISUSE);
}

static void fail_ok(ecs_context *ctx, void *user)
{
    (void)user;
    assert_int_equal(ecs_step_fail(ctx, ECS_OK), ECS_ERR_MISUSE);
}

static void test_misuse(void **state)
{
    fixture *f = *state;
    assert_int_equal(ecs_step_fail(f->ctx, ECS_ERR_NOMEM), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(f->ctx), "outside a step callback"));
    assert_int_equal(ecs_step(f->ctx, fail_ok, NULL), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(f->ctx), "ECS_OK, which is not a failure"));
    assert_failure(ecs_step_failure(f->ctx), ECS_ERR_MISUSE, ECS_NONE, ECS_NONE);
    f->mode = M_MISUSE;
    assert_int_equal(ecs_step(f->ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(f->ctx), "system 'proc' called ecs_iter_fail"));
    f->mode = 0;
    assert_int_equal(ecs_step(f->ctx, NULL, NULL), ECS_OK);
}

/* ecs_step_fail from process is refused: its own context, one system. */
static void test_step_fail_from_process(void **state)
{
    (void)state;
    static const ecs_component_def comps[C_COUNT] = {[C_A] = {"a", sizeof(float), 0}};
    const ecs_system_def sys = {.name = "p", .reads = ECS_IDS(C_A), .parallelism = SPLIT,
                                .process = process_fail_from_process};
    ecs_config cfg = ecs_default_config();
    cfg.components = comps;
    cfg.component_count = C_COUNT;
    cfg.systems = &sys;
    cfg.system_count = 1;
    cfg.workers = 2;
    ecs_context *ctx;
    assert_int_equal(ecs_context_create(&cfg, &ctx, NULL), ECS_OK);
    assert_int_equal(ecs_create_bulk(ctx, 10, ECS_IDS(C_A), NULL, NULL), ECS_OK);
    assert_int_equal(ecs_step(ctx, NULL, NULL), ECS_ERR_MISUSE);
    assert_non_null(strstr(ecs_misuse_message(ctx), "system 'p' called ecs_step_fail from process"));
    assert_failure(ecs_step_failure(ctx), ECS_ERR_MISUSE, ECS_NONE, ECS_NONE);
    ecs_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_first_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misuse, setup, teardown),
        cmocka_unit_test(test_step_fail_from_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
