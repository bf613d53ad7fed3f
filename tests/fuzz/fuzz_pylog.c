/* Fuzzes the Python-logging reader: detection on a head of the input, then
 * parsing in line-aligned chunks. The first byte picks the options (strict,
 * field mapping, units, args mode, head and chunk sizes). Checks that every row
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
    static const char *const keys[] = {"worker", "mode"};
    struct spoor_read_opts opts = {
        .strict = knobs & 1,
        .field_ts = knobs & 2 ? "at" : NULL,
        .field_name = knobs & 2 ? "entity" : NULL,
        .field_cat = knobs & 2 ? "action" : NULL,
        .field_pid = knobs & 16 ? "pid" : NULL,
        .ts_unit = knobs & 4 ? SPOOR_UNIT_AUTO : SPOOR_UNIT_NS,
        .args = knobs & 8 ? SPOOR_ARGS_LISTED : SPOOR_ARGS_ALL,
        .arg_keys = keys,
        .n_arg_keys = 2,
    };
    fuzz_reader_check(&spoor_format_pylog, (const char *)data + 1, size - 1, knobs, 16, &opts);
    return 0;
}
