/* gzip inputs through ISA-L: single- and multi-member files, damaged ones
 * decoded as far as they go, and checkpoints taken or resumed. */
#ifndef SPOOR_IO_GZIP_H
#define SPOOR_IO_GZIP_H

#include "io/internal.h"

/* A cursor starting at checkpoint `from` (or the start of the file when from
 * is SIZE_MAX) and ending at checkpoint `stop` (SIZE_MAX: the end of the
 * file). With a loaded index, the decoder's CRC is checked at every
 * checkpoint it passes. With `building`, it adds checkpoints as it goes. */
int io_gzip_open(struct spoor_input *in, size_t from, size_t stop, bool building,
                 struct spoor_cursor **out, struct spoor_error *err);

/* The first bytes of the decompressed stream; as many as can be decoded. */
size_t io_gzip_head(struct spoor_input *in, char *dst, size_t max);

#endif
