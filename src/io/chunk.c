/* Chunk buffers: owned by the chunk, reused across spoor_cursor_next() calls
 * so their pages are touched once, grown only for lines longer than a chunk. */
#include <stdlib.h>
#include <string.h>

#include "io/internal.h"

void io_chunk_reserve(struct spoor_chunk *chunk, size_t n, size_t keep)
{
    if (chunk->buf && chunk->cap >= n)
        return;
    char *buf = spoor_xmalloc(n);
    if (keep)
        memcpy(buf, chunk->buf, keep);
    free(chunk->buf);
    chunk->buf = buf;
    chunk->cap = n;
}

void spoor_chunk_release(struct spoor_chunk *chunk)
{
    io_chunk_unmap(chunk);
    free(chunk->buf);
    memset(chunk, 0, sizeof *chunk);
}
