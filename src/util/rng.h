/* The PRNG of the generator and of ml (xoshiro256**, seeded through
 * splitmix64), so a seed gives the same trace or model on every libc; rand()
 * would not. */
#ifndef SPOOR_UTIL_RNG_H
#define SPOOR_UTIL_RNG_H

#include <stdint.h>

struct spoor_rng {
    uint64_t s[4];
};

static inline uint64_t spoor_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void spoor_rng_seed(struct spoor_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = spoor_splitmix64(&seed);
}

static inline uint64_t spoor_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t spoor_rng_next(struct spoor_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = spoor_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = spoor_rotl64(s[3], 45);
    return out;
}

/* Uniform in [lo, hi] (hi >= lo); the tiny modulo bias does not matter here. */
static inline int64_t spoor_rng_range(struct spoor_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(spoor_rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* True with probability percent/100. */
static inline int spoor_rng_chance(struct spoor_rng *r, unsigned percent)
{
    return spoor_rng_next(r) % 100 < percent;
}

#endif
