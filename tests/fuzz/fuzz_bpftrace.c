/* Fuzzes the bpftrace reader: detection on a head of the input (a built-in
 * table from its shape, or the columns knob bit 2 names), then parsing in
 * line-aligned chunks. Besides what every reader must hold (fuzz_reader.h),
 * a built-in table's durations are never negative (negative latencies are
 * read back; a printed positive one is kept as it is), and --align's pairs of
 * the whole input leave an interval no wider than the wall clock's second. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_reader.h"
#include "read/wall_fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t knobs = data[0];
    struct spoor_read_opts opts = {
        .strict = knobs & 1,
        .input_columns = knobs & 2 ? (knobs & 4 ? "ts_end:ns,tid:int,name:str,dur:lat,msg:rest"
                                                : "ts:int,wall:clock,pid:int,cat:str,dur:ns,n:int")
                                   : NULL,
    };
    const char *text = (const char *)data + 1;
    fuzz_reader_check(&spoor_format_bpftrace, text, size - 1, knobs, 16, &opts);
    if (!opts.input_columns) {
        struct harness h;
        if (harness_load(&spoor_format_bpftrace, text, size - 1, size - 1, 0, &opts, &h) == SPOOR_OK)
            for (size_t r = 0; r < h.table->nrows; r++)
                if (h.table->dur[r] < 0)
                    abort();
        harness_free(&h);
    }
    struct spoor_dialect d = {0};
    struct spoor_error err;
    if (spoor_format_bpftrace.detect(text, size - 1, &opts, &d, &err) == SPOOR_OK) {
        struct spoor_wall_fit fit = {0};
        spoor_format_bpftrace.wall_pairs(&d, text, size - 1, &fit);
        if (fit.pairs && fit.hi - fit.lo > 1000000000LL)
            abort();
        spoor_dialect_release(&d);
    }
    return 0;
}
