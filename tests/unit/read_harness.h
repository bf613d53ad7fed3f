/* A miniature loader for reader unit tests: detects a format on the first
 * head_len bytes of a text, parses it in line-aligned chunks of about
 * chunk_size bytes (as the real loader would, each into its own batch) and
 * appends the batches into one table. Lets the tests check that chunking and
 * a short head do not change the result. Included by test_csv.c and test_jsonl.c. */
#ifndef SPOOR_TEST_READ_HARNESS_H
#define SPOOR_TEST_READ_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/input.h"
#include "spoor/load.h"

struct harness {
    struct spoor_table *table;
    struct spoor_dialect dialect;
    struct spoor_skips skips;   /* absolute line numbers */
    uint64_t lines;
    struct spoor_error err;
};

/* Chunks end at a line end, past the lines the record there joins (as the
 * cursors cut them, src/io/plain.c). */
static inline size_t harness_chunk_end(const char *text, size_t len, size_t from, size_t chunk_size,
                                       enum spoor_records records)
{
    size_t at = from + chunk_size;
    if (at >= len)
        return len;
    const char *nl = memchr(text + at, '\n', len - at);
    while (nl && records == SPOOR_RECORDS_LOG_LINES && spoor_log_line_joins(nl + 1, text + len) == 1)
        nl = memchr(nl + 1, '\n', len - (size_t)(nl + 1 - text));
    return nl ? (size_t)(nl - text) + 1 : len;
}

/* Returns the status of detect or of the first failing parse. */
static inline int harness_load(const struct spoor_format *fmt, const char *text, size_t len, size_t head_len,
                        size_t chunk_size, const struct spoor_read_opts *opts, struct harness *h)
{
    memset(h, 0, sizeof *h);
    h->table = spoor_table_new();
    spoor_table_add_source(h->table, "input");
    h->dialect.format = fmt;
    int st = fmt->detect(text, head_len < len ? head_len : len, opts, &h->dialect, &h->err);
    if (st != SPOOR_OK)
        return st;
    for (size_t from = 0; from < len && st == SPOOR_OK;) {
        size_t to = harness_chunk_end(text, len, from, chunk_size ? chunk_size : len, h->dialect.records);
        struct spoor_skips skips = {0};
        struct spoor_table *batch = spoor_table_new();
        spoor_table_add_source(batch, "input");
        struct spoor_parse_job job = {.dialect = &h->dialect, .opts = opts, .out = batch, .src = 0,
                                      .at_file_start = from == 0, .skips = &skips};
        st = fmt->parse(&job, text + from, to - from, &h->err);
        for (size_t r = 0; r < batch->nrows; r++)
            batch->line[r] += h->lines;
        for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
            spoor_lookup_shift_lines(&batch->lookups[k], h->lines);
        spoor_skips_merge(&h->skips, &skips, h->lines);
        h->lines += job.lines;
        struct spoor_table *view = batch;
        if (st == SPOOR_OK && fmt->in_order) /* a format whose rows depend on earlier batches */
            st = fmt->in_order(&h->dialect, batch, &h->skips, "input", opts->strict, &view, &h->err);
        if (st == SPOOR_OK && fmt->reduced)
            fmt->reduced(&h->dialect, view);
        if (view->nrows) /* an empty batch adds nothing */
            spoor_table_append(h->table, view);
        if (view != batch)
            spoor_table_select_free(view);
        spoor_table_free(batch);
        from = to;
    }
    if (st == SPOOR_OK && fmt->in_order)
        st = fmt->in_order(&h->dialect, NULL, &h->skips, "input", opts->strict, NULL, &h->err);
    return st;
}

static inline void harness_free(struct harness *h)
{
    /* Not spoor_dialect_release: that would link every format into the test. */
    if (h->dialect.format && h->dialect.format->release)
        h->dialect.format->release(&h->dialect);
    spoor_table_free(h->table);
}

/* The text of dynamic column `name` in row `row` ("" when absent), for asserts. */
static inline const char *harness_cell(const struct harness *h, const char *name, size_t row)
{
    static char buf[256];
    const struct spoor_column *c = spoor_table_find_column(h->table, name);
    if (!c || !spoor_column_valid(c, row))
        return "";
    switch (c->type) {
    case SPOOR_I64: snprintf(buf, sizeof buf, "%lld", (long long)c->i64[row]); break;
    case SPOOR_F64: snprintf(buf, sizeof buf, "%g", c->f64[row]); break;
    case SPOOR_STR: snprintf(buf, sizeof buf, "%s", spoor_table_str(h->table, c->str[row])); break;
    }
    return buf;
}

#endif
