/* String interning: every distinct string gets a small dense id, so columns hold
 * 32-bit ids and equality is an integer compare. Id 0 is always the empty string,
 * which also stands for "absent". Interned bytes never move: pointers returned by
 * spoor_strpool_get stay valid until the pool is freed or cleared. */
#ifndef SPOOR_STRPOOL_H
#define SPOOR_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct spoor_strpool;

struct spoor_strpool *spoor_strpool_new(void);
void spoor_strpool_free(struct spoor_strpool *pool);
/* Forgets every string but keeps the memory for reuse. */
void spoor_strpool_clear(struct spoor_strpool *pool);

/* A pool over n strings stored elsewhere (a mapped snapshot), ids 0..n-1 in
 * order: string i is the off[i+1] - off[i] - 1 bytes at bytes + off[i], followed
 * by a NUL, and hash[i] is its (uint32_t)spoor_hash_bytes(). Nothing is copied
 * and the bytes must outlive the pool; strings interned later are stored by the
 * pool as usual. The caller has checked the offsets. */
struct spoor_strpool *spoor_strpool_over(const char *bytes, const uint32_t *off, const uint32_t *hash,
                                         size_t n);

uint32_t spoor_strpool_intern(struct spoor_strpool *pool, const char *s, size_t len);
/* Returns the id of s, or UINT32_MAX when s was never interned. */
uint32_t spoor_strpool_find(const struct spoor_strpool *pool, const char *s, size_t len);
/* NUL-terminated; *len (if not NULL) receives the length. */
const char *spoor_strpool_get(const struct spoor_strpool *pool, uint32_t id, size_t *len);
size_t spoor_strpool_count(const struct spoor_strpool *pool);
/* The (uint32_t)spoor_hash_bytes() of string `id`, kept since it was interned. */
uint32_t spoor_strpool_hash(const struct spoor_strpool *pool, uint32_t id);

uint64_t spoor_hash_bytes(const void *p, size_t len);

#endif
