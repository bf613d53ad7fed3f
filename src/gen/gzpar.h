/* A gzip writer that deflates on several threads yet produces ONE ordinary gzip
 * member, like a trace writer would: the input is cut into fixed 1 MiB blocks,
 * each block is deflated with the previous block's last 32 KiB as its
 * dictionary and ends in a sync flush (so it ends on a byte boundary and is not
 * final), and the stream closes with an empty final block and the gzip trailer.
 * Output bytes depend only on the input and the level, never on the thread
 * count. Nobody can inflate a block without the one before it, so the file is
 * exactly as hard to read in parallel as a single-threaded gzip. */
#ifndef SPOOR_GEN_GZPAR_H
#define SPOOR_GEN_GZPAR_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

struct gen_gzpar;

/* Starts workers that write the compressed stream to fd (which the caller
 * still owns; name is its file's, for errors); threads <= 0 means one per
 * online core. */
struct gen_gzpar *gen_gzpar_start(int fd, const char *name, int level, int threads);
int gen_gzpar_write(struct gen_gzpar *g, const void *data, size_t len, struct spoor_error *err);
/* Compresses and writes what is left, then the final block and trailer; adds
 * the bytes written to fd to *disk_bytes. Does not free g. */
int gen_gzpar_finish(struct gen_gzpar *g, uint64_t *disk_bytes, struct spoor_error *err);
/* Stops the workers and frees g (after finish, or to give up). */
void gen_gzpar_free(struct gen_gzpar *g);

#endif
