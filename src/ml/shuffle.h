/* Seeded shuffles for splits, folds and minibatches: the PRNG of util/rng.h
 * (xoshiro256**), so a seed gives the same model on every libc. */
#ifndef SPOOR_ML_SHUFFLE_H
#define SPOOR_ML_SHUFFLE_H

#include <stddef.h>

#include "util/rng.h"

static inline void ml_shuffle(struct spoor_rng *rng, size_t *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(spoor_rng_next(rng) % i);
        size_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double ml_uniform(struct spoor_rng *rng) { return (double)(spoor_rng_next(rng) >> 11) * 0x1.0p-53; }

#endif
