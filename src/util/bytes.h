/* Fixed-width integers at unaligned addresses, in host byte order: the
 * snapshot's layout (a snapshot is only read on the kind of host that wrote
 * it). The gzip index, which is portable, spells out little-endian instead. */
#ifndef SPOOR_UTIL_BYTES_H
#define SPOOR_UTIL_BYTES_H

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

static inline void spoor_put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void spoor_put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

#endif
