/* Fuzzes the mllog reader (docs/formats.md): detection on a head of the input,
 * then parsing in line-aligned chunks put in order by its in_order step. The
 * first byte picks strict, the zone (none, a fixed offset, Europe/Berlin), a
 * half head and small chunks.
 * (MLLOG times are UTC: the zone is not read.) A stop with no start is a row
 * and a skip, so the check is that every row points at a line, no interval
 * ends before it starts, and skips never outnumber the lines. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t knobs = data[0];
    static const char *const zones[] = {NULL, "-5h", "Europe/Berlin", "+05:30"};
    struct spoor_read_opts opts = {.strict = knobs & 1, .utc_offset = zones[(knobs >> 1) & 3]};
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    struct harness h;
    if (harness_load(&spoor_format_mllog, text, len, knobs & 32 ? len / 2 : len, knobs & 64 ? 64 : 0, &opts, &h) ==
        SPOOR_OK) {
        for (size_t r = 0; r < h.table->nrows; r++)
            if (h.table->line[r] < 1 || h.table->line[r] > h.lines || (h.table->ph[r] == 'X' && h.table->dur[r] < 0))
                abort();
        if (h.skips.total > h.lines)
            abort();
    }
    harness_free(&h);
    return 0;
}
