/* Seeded shuffles for splits, folds and minibatches: the generator's own PRNG
 * (xoshiro256**), so a seed gives the same model on every libc. */
#ifndef SPOOR_ML_SHUFFLE_H
#define SPOOR_ML_SHUFFLE_H

#include <stddef.h>

#include "gen/rng.h"

static inline void ml_shuffle(struct gen_rng *rng, size_t *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(gen_rng_next(rng) % i);
        size_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double ml_uniform(struct gen_rng *rng) { return (double)(gen_rng_next(rng) >> 11) * 0x1.0p-53; }

#endif
