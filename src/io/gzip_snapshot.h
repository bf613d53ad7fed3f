/* Checkpoints inside a deflate stream, taken from ISA-L's own decoder state.
 *
 * ISA-L cannot stop at deflate block boundaries, and finding them with zlib
 * would halve the speed of the first scan. Instead, whenever isal_inflate()
 * returns because the output buffer is full, its public struct inflate_state
 * is a complete description of where decoding stands: the bit buffer, the
 * Huffman tables of the current block, and the last 32 KiB of output (its
 * history, kept in tmp_out_buffer). Saving that state (without the pointers)
 * and loading it later into a fresh struct resumes decoding at exactly that
 * byte, mid-block, at full speed.
 *
 * The saved bytes depend on the ISA-L build; io_snapshot_layout() names the
 * layout and the index records it. Loaded bytes are validated before ISA-L
 * sees them: every table entry must stay inside its table and every symbol in
 * range, so a corrupt or forged index cannot make the decoder read or write
 * out of bounds. */
#ifndef SPOOR_IO_GZIP_SNAPSHOT_H
#define SPOOR_IO_GZIP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <isa-l/igzip_lib.h>

/* A number that changes with ISA-L's version and the layout of its state. */
uint32_t io_snapshot_layout(void);

/* True when s sits between two isal_inflate() calls inside a gzip member in
 * a state that can be saved and resumed. */
bool io_snapshot_valid(const struct inflate_state *s);

/* Bytes io_snapshot_save() writes for s; the bounds of any snapshot's size. */
size_t io_snapshot_size(const struct inflate_state *s);
size_t io_snapshot_min_size(void);
size_t io_snapshot_max_size(void);

void io_snapshot_save(const struct inflate_state *s, uint8_t *dst);

/* Loads a saved state into s; next_in/avail_in and next_out/avail_out are
 * left for the caller. False when the bytes are not a valid snapshot. */
bool io_snapshot_load(struct inflate_state *s, const uint8_t *src, size_t len);

/* The last `n` bytes of output before the snapshot point (n <= what
 * io_snapshot_history() returns). */
size_t io_snapshot_history(const struct inflate_state *s);
const uint8_t *io_snapshot_tail(const struct inflate_state *s, size_t n);

#endif
