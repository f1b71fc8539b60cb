/* sim_test_util.h - what the simulation's tests share (header only). */
#ifndef SIM_TEST_UTIL_H
#define SIM_TEST_UTIL_H

#include "test_util.h"

#include "sim.h"

/* A world made from cfg, or the test fails with sim_create's message. */
static inline sim_world *sim_create_ok(const sim_config *cfg)
{
    sim_world *w = NULL;
    ecs_error err;
    memset(&err, 0, sizeof err);
    ecs_status st = sim_create(cfg, &w, &err);
    if (st != ECS_OK) fail_msg("sim_create: %s: %s", ecs_status_name(st), err.message);
    assert_non_null(w);
    return w;
}

#endif /* SIM_TEST_UTIL_H */
