/* Fuzzes the mpstat reader on `mpstat -P ALL` output (fuzz_text_reader: detection on a head,
 * chunks put on UTC in order by its in_order step, every zone kind). */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_text_reader(&spoor_format_mpstat, data, size);
    return 0;
}
