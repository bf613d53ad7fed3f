/* Fixed-width integers at unaligned addresses, in host byte order: the
 * snapshot's layout (a snapshot is only read on the kind of host that wrote
 * it). The gzip index, which is portable, spells out little-endian instead. */
#ifndef SPOOR_UTIL_BYTES_H
#define SPOOR_UTIL_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t spoor_get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t spoor_get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Whether n bytes at a and b are equal: word compares for the short strings
 * names, keys and memo entries are (the call into libc's memcmp cost more than
 * comparing them), reading only the n bytes of each. */
static inline bool spoor_same_bytes(const char *a, const char *b, size_t n)
{
    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i])
                return false;
        return true;
    }
    uint64_t x, y, diff = 0;
    for (size_t i = 0; i + 8 < n; i += 8) {
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        diff |= x ^ y;
    }
    memcpy(&x, a + n - 8, 8); /* the last word overlaps the loop's */
    memcpy(&y, b + n - 8, 8);
    return (diff | (x ^ y)) == 0;
}

/* Bit i set when an odd number of bits 0..i of x are: given the quote bits of
 * a block of bytes, the bits of the bytes inside a string (opening quote
 * included, closing one not), when the block starts outside one. */
static inline uint64_t spoor_prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

static inline void spoor_put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void spoor_put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

#endif
