/* What the field-mapped line readers (jsonl, pylog) share around detection:
 * their dialect state is just the field map, set up from the options, and
 * detection ends with the head's checks (spoor_head_finish). */
#ifndef SPOOR_READ_MAPPED_READER_H
#define SPOOR_READ_MAPPED_READER_H

#include "read/field_map.h"

/* Makes d a dialect of format f whose state is a field map set up from opts;
 * returns the map. */
struct spoor_field_map *spoor_mapped_begin(struct spoor_dialect *d, const struct spoor_format *f,
                                           const struct spoor_read_opts *opts);
/* Ends detection as spoor_head_finish does; on failure the state is released. */
int spoor_mapped_finish(const struct spoor_head_fields *h, struct spoor_dialect *d, const struct spoor_read_opts *opts,
                        const char *records, struct spoor_error *err);
/* A mapped reader's release(): frees the field map. */
void spoor_mapped_release(struct spoor_dialect *d);

/* Stores a member's value in its column: text into a column that already holds
 * text (nearly every row) straight into the arrays, anything else through
 * spoor_table_set and its type checks. */
static inline void spoor_mapped_set(struct spoor_table *t, struct spoor_column *col, size_t row,
                                    const struct spoor_value *v)
{
    if (v->type == SPOOR_STR && !v->is_null && col->typed && col->type == SPOOR_STR) {
        col->str[row] = v->str;
        col->valid[row / 64] |= 1ULL << (row % 64);
        return;
    }
    spoor_table_set(t, col, row, v);
}

/* Stores an integer in its column: straight into the arrays once the column
 * holds integers, else through spoor_table_set. */
static inline void spoor_mapped_set_i64(struct spoor_table *t, struct spoor_column *col, size_t row, int64_t v)
{
    if (col->typed && col->type == SPOOR_I64) {
        col->i64[row] = v;
        col->valid[row / 64] |= 1ULL << (row % 64);
        return;
    }
    struct spoor_value val = {.type = SPOOR_I64, .i64 = v};
    spoor_table_set(t, col, row, &val);
}

/* The parse loop of a chunk: row() handles one line [line, *line_end) (its
 * '\n' already cut) and returns NULL, after adding its row or for a blank
 * line, or why the line is skipped; it may pull *line_end back to cut what the
 * skip report should not show. Sets job->lines. Inline, so that row() is too. */
static inline int spoor_mapped_lines(struct spoor_parse_job *job, const char *buf, size_t len,
                                     const char *(*row)(void *ctx, const char *line, const char **line_end,
                                                        uint64_t line_no),
                                     void *ctx, struct spoor_error *err)
{
    const char *end = buf + len;
    const char *p = buf + (job->at_file_start ? spoor_bom_len(buf, len) : 0);
    uint64_t line_no = 0;
    int status = SPOOR_OK;
    while (p < end && status == SPOOR_OK) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line = p, *line_end = nl ? nl : end;
        p = line_end + 1;
        const char *reason = row(ctx, line, &line_end, ++line_no);
        if (reason)
            status = spoor_generic_skip(job, line_no, reason, line, (size_t)(line_end - line), err);
    }
    job->lines = line_no;
    return status;
}

#endif
