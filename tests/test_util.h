/* test_util.h - small helpers shared by the ecs tests (header only). */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ecs.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* splitmix64: a tiny deterministic generator, one state per test. */
typedef struct test_rng {
    uint64_t s;
} test_rng;

static inline uint64_t rng_next(test_rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform-ish value in [0, n); n > 0. */
static inline uint32_t rng_below(test_rng *r, uint32_t n)
{
    return (uint32_t)(rng_next(r) % n);
}

static inline void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    assert_non_null(p);
    return p;
}

/* A default config over the given component and system tables. */
static inline ecs_config tu_config(const ecs_component_def *comps, uint32_t ncomps,
                                   const ecs_system_def *systems, uint32_t nsystems,
                                   uint32_t workers)
{
    ecs_config cfg = ecs_default_config();
    cfg.components = comps;
    cfg.component_count = ncomps;
    cfg.systems = systems;
    cfg.system_count = nsystems;
    cfg.workers = workers;
    return cfg;
}

/* Builds a context, failing the test with the validation message if the
 * configuration is rejected. */
static inline ecs_context *ctx_create_ok(const ecs_config *cfg)
{
    ecs_context *ctx = NULL;
    ecs_error err;
    memset(&err, 0, sizeof err);
    ecs_status st = ecs_context_create(cfg, &ctx, &err);
    if (st != ECS_OK) {
        print_error("ecs_context_create: %s: %s\n", ecs_status_name(st), err.message);
    }
    assert_int_equal(st, ECS_OK);
    assert_non_null(ctx);
    return ctx;
}

static inline ecs_entity create_ok(ecs_context *ctx)
{
    ecs_entity e = ECS_NULL_ENTITY;
    assert_int_equal(ecs_create(ctx, &e), ECS_OK);
    assert_false(ecs_entity_is_null(e));
    return e;
}

static inline void step_ok(ecs_context *ctx, ecs_step_fn fn, void *user)
{
    assert_int_equal(ecs_step(ctx, fn, user), ECS_OK);
}

/* A process callback that does nothing. */
static inline void noop_process(ecs_iter *it)
{
    (void)it;
}

/* FNV-1a over bytes, for checksums. */
static inline uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001B3);
    }
    return h;
}
#define FNV_BASIS UINT64_C(0xCBF29CE484222325)

#endif
