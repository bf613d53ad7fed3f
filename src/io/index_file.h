/* The index sidecar (TRACE.spoor-idx, spoor_index_path) on disk. Format in
 * index_file.c. */
#ifndef SPOOR_IO_INDEX_FILE_H
#define SPOOR_IO_INDEX_FILE_H

#include "io/index.h"
#include "io/internal.h"
#include "io/input.h"

/* Reads and checks a sidecar image: NULL when it is corrupt, made by another
 * ISA-L build, or describes another file (fingerprint mismatch). */
struct io_index *io_index_parse(const uint8_t *bytes, size_t len, const struct spoor_fingerprint *fp);

/* Loads the sidecar at path; NULL when missing or unusable (see above). */
struct io_index *io_index_load(const char *path, const struct spoor_fingerprint *fp);

/* Serializes idx (all snapshots compressed first) into a new buffer. */
uint8_t *io_index_serialize(struct io_index *idx, const struct spoor_fingerprint *fp, size_t *len);

/* Writes the sidecar atomically (temporary file + rename). A directory whose
 * mode has no write bit counts as read-only even for root. Returns 0, or an
 * errno value with err set. */
int io_index_save(struct io_index *idx, const char *path, const struct spoor_fingerprint *fp,
                  struct spoor_error *err);

/* Rewrites the fingerprint and trailing checksum of a sidecar image in place,
 * so a fuzzer's index bytes get past the identity check (tests only). */
void io_index_stamp(uint8_t *bytes, size_t len, const struct spoor_fingerprint *fp);

#endif
