/* test_scheduler.c - the scheduler never starts a system before all of its
 * dependencies finished: random DAGs, 1, 2 and 8 workers, per-step
 * sequence numbers from one atomic counter. (The particle-simulation DAG
 * is in test_scheduler_sim.c.) Callbacks only record; the test thread
 * asserts. */
#include "test_util.h"

#include <limits.h>
#include <stdatomic.h>

#define MAXS 12
#define DAG_ENTITIES 128

typedef struct sched_rec {
    atomic_ullong first_start, last_end, finish_seq;
    atomic_uint subtasks_done, finish_calls, early_finish;
    uint32_t subtasks; /* expected this step, read from stats */
} sched_rec;

static atomic_ullong seq;
static sched_rec recs[MAXS];

static void atomic_min(atomic_ullong *a, unsigned long long v)
{
    unsigned long long cur = atomic_load(a);
    while (v < cur && !atomic_compare_exchange_weak(a, &cur, v)) {}
}

static void atomic_max(atomic_ullong *a, unsigned long long v)
{
    unsigned long long cur = atomic_load(a);
    while (v > cur && !atomic_compare_exchange_weak(a, &cur, v)) {}
}

/* Each system writes its own component from the ones it reads. */
static void dag_process(ecs_iter *it)
{
    sched_rec *r = &recs[it->system];
    atomic_min(&r->first_start, atomic_fetch_add(&seq, 1));
    const uint32_t *own = it->user;
    uint32_t *out = ecs_iter_write(it, *own);
    const uint32_t *shared = ecs_iter_read(it, 0);
    for (uint32_t i = 0; i < it->count; i++) {
        uint32_t e = it->entities[i];
        out[e] = out[e] * 31u + shared[e] + it->system;
    }
    atomic_fetch_add(&r->subtasks_done, 1);
    atomic_max(&r->last_end, atomic_fetch_add(&seq, 1));
}

static void dag_finish(ecs_context *ctx, uint32_t system, void *user)
{
    (void)ctx;
    (void)user;
    sched_rec *r = &recs[system];
    unsigned long long s = atomic_fetch_add(&seq, 1);
    if (atomic_load(&r->last_end) >= s) atomic_fetch_add(&r->early_finish, 1);
    atomic_store(&r->finish_seq, s);
    atomic_fetch_add(&r->finish_calls, 1);
}

typedef struct dag {
    uint32_t n;
    bool edge[MAXS][MAXS]; /* edge[i][j]: j runs after i (i < j) */
    uint32_t after[MAXS][MAXS], nafter[MAXS];
    uint32_t reads[MAXS][MAXS + 1], nreads[MAXS];
    uint32_t own[MAXS]; /* component id written by system i: i + 1 */
    ecs_system_def defs[MAXS];
    ecs_component_def comps[MAXS + 1];
} dag;

static void make_dag(dag *d, test_rng *r)
{
    memset(d, 0, sizeof *d);
    d->n = 2 + rng_below(r, MAXS - 1);
    bool reach[MAXS][MAXS] = {{false}};
    for (uint32_t j = 0; j < d->n; j++) {
        for (uint32_t i = 0; i < j; i++) {
            if (rng_below(r, 100) < 30) {
                d->edge[i][j] = true;
                d->after[j][d->nafter[j]++] = i;
            }
        }
        for (uint32_t i = 0; i < j; i++) { /* i reaches j directly or via some k */
            reach[i][j] = d->edge[i][j];
            for (uint32_t k = i + 1; k < j && !reach[i][j]; k++) reach[i][j] = reach[i][k] && d->edge[k][j];
        }
    }
    d->comps[0] = (ecs_component_def){"shared", sizeof(uint32_t), 0};
    for (uint32_t j = 0; j < d->n; j++) {
        d->comps[j + 1] = (ecs_component_def){"own", sizeof(uint32_t), 0};
        d->own[j] = j + 1;
        d->reads[j][d->nreads[j]++] = 0; /* everyone reads the shared one */
        for (uint32_t i = 0; i < j; i++) /* and maybe what an ancestor writes */
            if (reach[i][j] && rng_below(r, 2)) d->reads[j][d->nreads[j]++] = i + 1;
        ecs_parallelism p = {0};
        switch (rng_below(r, 3)) {
        case 0: p.split = ECS_SPLIT_NONE; break;
        case 1: p.split = ECS_SPLIT_PER_WORKER; break;
        default: p.split = ECS_SPLIT_CHUNKS; p.chunk_size = 3 + rng_below(r, 20); break;
        }
        d->defs[j] = (ecs_system_def){
            .name = "dag", .reads = {d->reads[j], d->nreads[j]}, .writes = {&d->own[j], 1},
            .after = {d->after[j], d->nafter[j]}, .parallelism = p, .process = dag_process,
            .finish = dag_finish, .user = &d->own[j]};
    }
}

static void reset_recs(void)
{
    for (int s = 0; s < MAXS; s++) {
        atomic_store(&recs[s].first_start, ULLONG_MAX);
        atomic_store(&recs[s].last_end, 0);
        atomic_store(&recs[s].finish_seq, 0);
        atomic_store(&recs[s].subtasks_done, 0);
        atomic_store(&recs[s].finish_calls, 0);
        atomic_store(&recs[s].early_finish, 0);
    }
}

static void check_step(ecs_context *ctx, const dag *d, uint32_t workers, int step)
{
    for (uint32_t j = 0; j < d->n; j++) {
        sched_rec *r = &recs[j];
        uint32_t subtasks = ecs_system_stats_get(ctx, j).subtasks;
        assert_int_equal(atomic_load(&r->subtasks_done), subtasks);
        assert_int_equal(atomic_load(&r->finish_calls), 1);
        assert_int_equal(atomic_load(&r->early_finish), 0);
        for (uint32_t i = 0; i < j; i++) {
            if (!d->edge[i][j]) continue;
            unsigned long long done = atomic_load(&recs[i].finish_seq);
            unsigned long long start = atomic_load(&r->first_start);
            if (!(done < start && atomic_load(&recs[i].last_end) < start))
                fail_msg("workers %u step %d: system %u started (seq %llu) before its dependency "
                         "%u finished (seq %llu)", workers, step, j, start, i, done);
        }
    }
}

static void test_random_dags(void **state)
{
    (void)state;
    static const uint32_t workers[] = {1, 2, 8};
    test_rng r = {2024};
    dag *d = xcalloc(1, sizeof *d);
    for (size_t w = 0; w < ARRAY_LEN(workers); w++) {
        int steps = 0;
        for (int g = 0; g < 50; g++) {
            make_dag(d, &r);
            ecs_config cfg = tu_config(d->comps, d->n + 1, d->defs, d->n, workers[w]);
            ecs_context *ctx = ctx_create_ok(&cfg);
            for (uint32_t e = 0; e < DAG_ENTITIES; e++) {
                ecs_entity h = create_ok(ctx);
                for (uint32_t c = 0; c <= d->n; c++) ecs_add(ctx, h, c, &e);
            }
            for (int s = 0; s < 40; s++, steps++) {
                reset_recs();
                step_ok(ctx, NULL, NULL);
                check_step(ctx, d, workers[w], steps);
            }
            ecs_context_destroy(ctx);
        }
        assert_true(steps >= 2000);
    }
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_dags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
