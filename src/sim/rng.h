/* rng.h - the Park-Miller "minimal standard" generator the thesis seeds its
 * particles with: x' = x * 16807 mod (2^31 - 1), over [1, 2^31 - 2]. */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include <stdint.h>

#define SIM_RNG_MOD 2147483647u

typedef struct sim_rng {
    uint32_t x;
} sim_rng;

/* Seed 0 (a fixed point of the recurrence) is mapped to 1, as in the
 * thesis; any other seed is reduced into the generator's range. */
static inline sim_rng sim_rng_seed(uint32_t seed)
{
    uint32_t x = seed % SIM_RNG_MOD;
    return (sim_rng){x ? x : 1u};
}

static inline uint32_t sim_rng_next(sim_rng *r)
{
    r->x = (uint32_t)((uint64_t)r->x * 16807u % SIM_RNG_MOD);
    return r->x;
}

/* The generator as it will be k draws later: x * 16807^k mod (2^31 - 1),
 * the power by repeated squaring. */
static inline sim_rng sim_rng_skip(sim_rng r, uint64_t k)
{
    uint64_t x = r.x, m = 16807u;
    for (; k; k >>= 1) {
        if (k & 1u) x = x * m % SIM_RNG_MOD;
        m = m * m % SIM_RNG_MOD;
    }
    return (sim_rng){(uint32_t)x};
}

/* Uniform in [lo, hi): computed in double, rounded once to float. */
static inline float sim_rng_range(sim_rng *r, float lo, float hi)
{
    double u = (double)(sim_rng_next(r) - 1u) / (double)(SIM_RNG_MOD - 1u);
    return (float)((double)lo + ((double)hi - (double)lo) * u);
}

/* Uniform integer in [0, 255]. */
static inline uint8_t sim_rng_byte(sim_rng *r)
{
    return (uint8_t)(((uint64_t)(sim_rng_next(r) - 1u) * 256u) / (SIM_RNG_MOD - 1u));
}

#endif /* SIM_RNG_H */
