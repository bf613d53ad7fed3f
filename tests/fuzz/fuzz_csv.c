/* Fuzzes the CSV reader: detection on a head of the input, then parsing in
 * line-aligned chunks. The first byte picks the options (delimiter, strict,
 * field mapping, head and chunk sizes). Checks that every row points at a line
 * of the input and that rows plus skips never exceed the lines read. */
#include <stdint.h>
#include <stdlib.h>

#include "../unit/read_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t knobs = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    static const char delims[] = {0, ',', ';', '\t'};
    struct spoor_read_opts opts = {
        .csv_delim = delims[knobs & 3],
        .strict = knobs & 4,
        .field_ts = knobs & 8 ? "t" : NULL,
        .field_dur = knobs & 8 ? "d" : NULL,
        .ts_unit = knobs & 16 ? SPOOR_UNIT_AUTO : SPOOR_UNIT_US,
    };
    size_t head = knobs & 32 ? len / 2 : len;
    size_t chunk = knobs & 64 ? 16 : 0;
    struct harness h;
    int st = harness_load(&spoor_format_csv, text, len, head, chunk, &opts, &h);
    if (st == SPOOR_OK) {
        for (size_t r = 0; r < h.table->nrows; r++)
            if (h.table->line[r] < 1 || h.table->line[r] > h.lines)
                abort();
        if (h.table->nrows + h.skips.total > h.lines)
            abort();
    }
    harness_free(&h);
    return 0;
}
