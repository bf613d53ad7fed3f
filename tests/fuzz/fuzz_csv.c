/* Fuzzes the CSV reader: detection on a head of the input, then parsing in
 * line-aligned chunks. The first byte picks the options (delimiter, strict,
 * field mapping, head and chunk sizes). Checks that every row points at a line
 * of the input and that rows plus skips never exceed the lines read. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_reader.h"

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
    fuzz_reader_check(&spoor_format_csv, text, len, knobs, 16, &opts);
    return 0;
}
