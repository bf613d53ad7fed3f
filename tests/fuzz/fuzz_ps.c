/* Fuzzes the ps aux reader: detection, then parsing in line-aligned chunks
 * (fuzz_reader.h); every row is a process's metadata row with its pid. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    struct spoor_read_opts opts = {.strict = data[0] & 1};
    const char *text = (const char *)data + 1;
    fuzz_reader_check(&spoor_format_ps, text, size - 1, data[0], 16, &opts);
    struct harness h;
    if (harness_load(&spoor_format_ps, text, size - 1, size - 1, 0, &opts, &h) == SPOOR_OK)
        for (size_t r = 0; r < h.table->nrows; r++)
            if (h.table->ph[r] != 'M' || h.table->pid[r] < 0)
                abort();
    harness_free(&h);
    return 0;
}
