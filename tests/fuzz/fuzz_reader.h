/* What every reader fuzz target checks: the input (after its first byte, the
 * knobs) is detected on a head of it and parsed in line-aligned chunks; every
 * row must point at a line of the input, and rows plus skips never exceed the
 * lines read. Knob bit 32 halves the head, bit 64 selects small chunks. */
#ifndef SPOOR_FUZZ_READER_H
#define SPOOR_FUZZ_READER_H

#include <stdint.h>
#include <stdlib.h>

#include "../unit/read_harness.h"

static inline void fuzz_reader_check(const struct spoor_format *fmt, const char *text, size_t len, uint8_t knobs,
                                     size_t small_chunk, const struct spoor_read_opts *opts)
{
    size_t head = knobs & 32 ? len / 2 : len;
    size_t chunk = knobs & 64 ? small_chunk : 0;
    struct harness h;
    if (harness_load(fmt, text, len, head, chunk, opts, &h) == SPOOR_OK) {
        for (size_t r = 0; r < h.table->nrows; r++)
            if (h.table->line[r] < 1 || h.table->line[r] > h.lines)
                abort();
        if (h.table->nrows + h.skips.total > h.lines)
            abort();
    }
    harness_free(&h);
}

/* The text tools' readers (mpstat, pmon, pytext): knob bit 1 is strict,
 * bits 2-4 pick the zone (none, fixed offsets, a tz zone with daylight
 * saving), bits 32 and 64 as above; chunks of 64 bytes when small. */
static inline void fuzz_text_reader(const struct spoor_format *fmt, const uint8_t *data, size_t size)
{
    if (size == 0)
        return;
    static const char *const zones[] = {NULL, "-5h", "Europe/Berlin", "+05:30"};
    struct spoor_read_opts opts = {.strict = data[0] & 1, .utc_offset = zones[(data[0] >> 1) & 3]};
    fuzz_reader_check(fmt, (const char *)data + 1, size - 1, data[0], 64, &opts);
}

#endif
