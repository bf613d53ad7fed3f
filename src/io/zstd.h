/* zstd inputs through libzstd's streaming decoder: one sequential part,
 * frames one after another. */
#ifndef SPOOR_IO_ZSTD_H
#define SPOOR_IO_ZSTD_H

#include "io/internal.h"

int io_zstd_open(struct spoor_input *in, struct spoor_cursor **out);

/* The first bytes of the decompressed stream; as many as can be decoded. */
size_t io_zstd_head(struct spoor_input *in, char *dst, size_t max);

#endif
