/* The generator's own PRNG (xoshiro256**, seeded through splitmix64), so a seed
 * gives the same trace on every libc; rand() would not. */
#ifndef SPOOR_GEN_RNG_H
#define SPOOR_GEN_RNG_H

#include <stdint.h>

struct gen_rng {
    uint64_t s[4];
};

static inline uint64_t gen_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void gen_rng_seed(struct gen_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = gen_splitmix64(&seed);
}

static inline uint64_t gen_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t gen_rng_next(struct gen_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = gen_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = gen_rotl(s[3], 45);
    return out;
}

/* Uniform in [lo, hi] (hi >= lo); the tiny modulo bias does not matter here. */
static inline int64_t gen_rng_range(struct gen_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(gen_rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* True with probability percent/100. */
static inline int gen_rng_chance(struct gen_rng *r, unsigned percent)
{
    return gen_rng_next(r) % 100 < percent;
}

#endif
