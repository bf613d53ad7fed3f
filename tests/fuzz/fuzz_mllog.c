/* Fuzzes the MLPerf log reader: detection on a head of the input, then
 * parsing in line-aligned chunks whose start/stop pairs its in_order step
 * joins. Knob bit 1 is strict, 32 a half head, 64 chunks of 64 bytes. A stop
 * with no start is a row and a skip, so the check is that every row points
 * at a line, no interval ends before it starts, and skips never outnumber
 * the lines. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t knobs = data[0];
    struct spoor_read_opts opts = {.strict = knobs & 1};
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
