/* test_alloc_fail_sim.c - every allocation of a simulation's life made to
 * fail in turn: sim_create, steps, a spray and a new wave, sim_destroy.
 * Each failure must come back as ECS_ERR_NOMEM (ECS_ERR_THREAD where a
 * worker's start failed; with a message from sim_create), or be absorbed
 * where the code does without or retries (the ecs's ordering hint, its
 * refresh scratch) with the very state of a run without failure; never a
 * crash, and no block left behind (the wrappers' own count, and
 * LeakSanitizer under the asan preset). Built with the --wrap wrappers of
 * fault_alloc.c. */
#include "test_util.h"

#include "fault_alloc.h"
#include "sim.h"

#define SWEEP_MAX 100000ul

/* One life with the k-th allocation failing; the first status that was
 * not ECS_OK (ECS_OK if none), *created whether sim_create succeeded,
 * *hash the state before sim_destroy. */
static ecs_status one_life(const sim_config *cfg, unsigned long k, bool *created, uint64_t *hash)
{
    fault_alloc_reset(k);
    sim_world *w = NULL;
    ecs_error err = {.message = ""};
    ecs_status st = sim_create(cfg, &w, &err);
    *created = st == ECS_OK;
    if (st != ECS_OK) {
        assert_null(w);
        assert_true(err.message[0] != '\0'); /* a clear error */
        return st;
    }
    for (int f = 0; f < 4 && st == ECS_OK; f++) {
        if (f == 1) st = sim_spray(w, 100.0f, 100.0f, 50u);
        if (f == 2 && st == ECS_OK) st = sim_new_wave(w);
        if (st == ECS_OK) st = sim_step(w);
    }
    *hash = sim_hash(w);
    sim_destroy(w);
    return st;
}

static void sweep(const sim_config *cfg)
{
    unsigned long k;
    unsigned long failed_create = 0, failed_later = 0, absorbed = 0;
    bool created;
    uint64_t clean, hash;
    assert_int_equal(one_life(cfg, 0, &created, &clean), ECS_OK);
    for (k = 1; k < SWEEP_MAX; k++) {
        ecs_status st = one_life(cfg, k, &created, &hash);
        long live = fault_alloc_live();
        if (live != 0) fail_msg("allocation %lu failed: %ld blocks leaked", k, live);
        if (!fault_alloc_fired()) {
            assert_int_equal(st, ECS_OK); /* every allocation was tried */
            break;
        }
        if (st == ECS_OK) {
            if (hash != clean) fail_msg("allocation %lu failed silently: the state differs", k);
            absorbed++;
            continue;
        }
        if (st != ECS_ERR_NOMEM && st != ECS_ERR_THREAD)
            fail_msg("allocation %lu failed but the status is %s", k, ecs_status_name(st));
        if (created) failed_later++;
        else failed_create++;
    }
    assert_true(k > 1 && k < SWEEP_MAX);
    assert_true(failed_create > 0 && failed_later > 0);
    print_message("%lu allocations failed in turn: %lu in sim_create, %lu later, %lu absorbed\n",
                  k - 1, failed_create, failed_later, absorbed);
}

static sim_config small(ecs_storage storage, uint32_t workers, bool ip_off)
{
    sim_config cfg = sim_default_config();
    cfg.particles = 300;
    cfg.storage = storage;
    cfg.capacity = storage == ECS_STORAGE_FIXED ? 1000u : 0u;
    cfg.workers = workers;
    cfg.split_every_worker = true; /* the splits themselves under test */
    cfg.inner_parallelism_off = ip_off;
    return cfg;
}

static void test_sweep_dynamic_one_worker(void **state)
{
    (void)state;
    sim_config cfg = small(ECS_STORAGE_DYNAMIC, 1, true);
    sweep(&cfg);
}

static void test_sweep_fixed_two_workers(void **state)
{
    (void)state;
    sim_config cfg = small(ECS_STORAGE_FIXED, 2, false);
    sweep(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_dynamic_one_worker),
        cmocka_unit_test(test_sweep_fixed_two_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
