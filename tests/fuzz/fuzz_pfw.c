/* Fuzzes the pfw reader: detection on a head of the input, then parsing in
 * line-aligned chunks. The first byte picks the options (args mode, strict,
 * a forced dialect, head and chunk sizes). Checks that every row points at a
 * line of the input, that rows plus skips never exceed the lines read, and
 * that the fast tokenizer and the tolerant scanner agree: the same input with
 * every line indented by one blank (which the fast path never takes) must
 * give the same table. A JSON document (which the io layer rewrites) is
 * only parsed. */
#include <stdint.h>
#include <stdlib.h>

#include "../unit/pfw_tables.h"
#include "fuzz_reader.h"
#include "read/pfw.h"
#include "io/input.h"

static const char *const keys[] = {"fhash", "hhash", "fname", "size"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t knobs = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    static const enum spoor_args_mode modes[] = {SPOOR_ARGS_ALL, SPOOR_ARGS_NONE, SPOOR_ARGS_LISTED, SPOOR_ARGS_ALL};
    static const char *const dialects[] = {NULL, NULL, "datacrumbs-cpp", "dftracer-2023"};
    struct spoor_read_opts opts = {
        .args = modes[knobs & 3],
        .arg_keys = keys,
        .n_arg_keys = 4,
        .dialect = dialects[(knobs >> 2) & 3],
        .strict = knobs & 16,
    };
    /* A JSON document is cut and rewritten one event per line by the io
     * layer, which this harness does not run: its `lines` count events, and
     * its own members add metadata rows. Only crashes are looked for. */
    if (pfw_document(text, knobs & 32 ? len / 2 : len)) {
        struct harness h;
        harness_load(&spoor_format_pfw, text, len, knobs & 32 ? len / 2 : len, knobs & 64 ? 64 : 0, &opts, &h);
        harness_free(&h);
        return 0;
    }
    fuzz_reader_check(&spoor_format_pfw, text, len, knobs, 64, &opts);

    /* fast and tolerant paths: one batch each, so no merge is involved */
    opts.strict = false;
    /* an indent would add a line to empty input and hide a BOM */
    if (len == 0 || (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0))
        return 0;
    char *indented = malloc(2 * len + 1);
    size_t n = 0;
    indented[n++] = ' ';
    const char *line = text;
    for (size_t i = 0; i < len; i++) {
        indented[n++] = text[i];
        if (text[i] != '\n')
            continue;
        /* not inside a line joined to the one before (a raw newline in a
         * string): the blank would be part of the string */
        if (i + 1 < len && spoor_json_line_joins(line, text + i, text + i + 1, text + len) != 1)
            indented[n++] = ' ';
        line = text + i + 1;
    }
    struct harness fast, slow;
    int a = harness_load(&spoor_format_pfw, text, len, len, 0, &opts, &fast);
    int b = harness_load(&spoor_format_pfw, indented, n, n, 0, &opts, &slow);
    char why[256];
    if (a != b || (a == SPOOR_OK && (!pfw_tables_equal(fast.table, slow.table, why, sizeof why) ||
                                     fast.skips.total != slow.skips.total || fast.lines != slow.lines)))
        abort();
    harness_free(&fast);
    harness_free(&slow);
    free(indented);
    return 0;
}
