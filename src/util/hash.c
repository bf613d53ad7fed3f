/* A fast non-cryptographic hash for short keys (names, categories, arg keys).
 * Reads 8 bytes at a time and mixes with a multiply-xorshift finaliser. */
#include "spoor/table.h"

#include <string.h>

static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return h;
}

uint64_t spoor_hash_bytes(const void *p, size_t len)
{
    const unsigned char *s = p;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0xff51afd7ed558ccdULL);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ mix(w)) * 0x9fb21c651e98df25ULL;
        s += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, s, len);
    h ^= mix(tail ^ len);
    return mix(h);
}
