/* Fuzzes the mpstat reader (docs/formats.md): detection on a head of the input,
 * then parsing in line-aligned chunks put in order by its in_order step. The
 * first byte picks strict, the zone (none, a fixed offset, Europe/Berlin), a
 * half head and small chunks. */
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
    fuzz_reader_check(&spoor_format_mpstat, (const char *)data + 1, size - 1, knobs, 64, &opts);
    return 0;
}
