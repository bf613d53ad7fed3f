/* Fuzzes the blkparse reader (blkparse's default output): detection on a
 * head of the input, then parsing in line-aligned chunks and the join of
 * issues with completions across them. The first byte picks strictness and the head and chunk
 * sizes. Checks that every row points at a line of the input and that rows
 * plus skips never exceed the lines read (a request takes two lines). */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t knobs = data[0];
    struct spoor_read_opts opts = {.strict = knobs & 1};
    fuzz_reader_check(&spoor_format_blkparse, (const char *)data + 1, size - 1, knobs, 64, &opts);
    return 0;
}
