/* Fuzzes `spoor series`: the input's first line is parsed as a --resample
 * duration and a --utc-offset (both parsers are fed arbitrary text), the rest
 * is read as a CSV metric table (time field "t", group "g") and run through
 * the series recipe with every section on. Checks that counts add up: per
 * metric, numbers + non-numeric never exceed the rows, and the resampling
 * buckets hold every row that has a time. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/read_harness.h"
#include "spoor/report.h"
#include "spoor/series.h"

static void check(const struct spoor_table *t, int64_t resample_ns, int64_t offset_ns)
{
    struct spoor_series_opts opts = {.groups = true, .profile = true, .corr = true, .resample_ns = resample_ns,
                                     .utc_offset_ns = offset_ns};
    struct spoor_series_run *run = spoor_series_begin(&opts, 1);
    struct spoor_sink sink = spoor_series_sink(run);
    sink.map(sink.ctx, 0, t);
    sink.reduce(sink.ctx, 0, t);
    struct spoor_series s;
    spoor_series_end(run, &s);
    for (size_t k = 0; k < s.nmetrics; k++)
        if (s.metrics[k].all.n + s.metrics[k].non_numeric > s.rows)
            abort();
    uint64_t in_buckets = 0;
    for (size_t i = 0; i < s.nbuckets; i++)
        in_buckets += s.buckets[i].rows;
    if (in_buckets != s.rows - s.rows_without_time)
        abort();
    spoor_series_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nl = memchr(text, '\n', size);
    if (!nl || nl - text > 64)
        return 0;
    char first[65];
    memcpy(first, text, (size_t)(nl - text));
    first[nl - text] = '\0';
    int64_t resample_ns = 0, offset_ns = 0;
    if (spoor_parse_duration(first, &resample_ns))
        resample_ns = 3600000000000LL;
    if (!spoor_series_parse_offset(first, &offset_ns))
        offset_ns = 0;
    struct spoor_read_opts opts = {.field_ts = "t", .field_name = "g", .fields_exclusive = true};
    size_t len = size - (size_t)(nl + 1 - text);
    struct harness h;
    if (harness_load(&spoor_format_csv, nl + 1, len, len, 0, &opts, &h) == SPOOR_OK)
        check(h.table, resample_ns, offset_ns);
    harness_free(&h);
    return 0;
}
