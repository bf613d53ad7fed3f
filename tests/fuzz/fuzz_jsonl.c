/* Fuzzes the JSON lines reader: detection on a head of the input, then parsing
 * in line-aligned chunks. The first byte picks the options (strict, field
 * mapping, units, args mode, head and chunk sizes). Checks that every row
 * points at a line of the input and that rows plus skips never exceed the
 * lines read. */
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
    static const char *const keys[] = {"a", "b"};
    struct spoor_read_opts opts = {
        .strict = knobs & 1,
        .field_ts = knobs & 2 ? "at" : NULL,
        .field_name = knobs & 2 ? "action" : NULL,
        .field_pid = knobs & 2 ? "rank" : NULL,
        .ts_unit = knobs & 4 ? SPOOR_UNIT_AUTO : SPOOR_UNIT_MS,
        .args = knobs & 8 ? SPOOR_ARGS_LISTED : SPOOR_ARGS_ALL,
        .arg_keys = keys,
        .n_arg_keys = 2,
    };
    fuzz_reader_check(&spoor_format_jsonl, text, len, knobs, 16, &opts);
    return 0;
}
