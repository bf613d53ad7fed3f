/* Parts and cursors: how an input is split for readers, and the cursor that
 * reads one part. Plain files split every chunk_size bytes (a part's cursor
 * finds its lines); a gzip file with a loaded index splits at its
 * checkpoints; anything else, and any stream, is one sequential part. */
#include <stdlib.h>

#include "io/gzip.h"
#include "io/index.h"
#include "io/internal.h"
#include "io/zstd.h"
#include "io/input.h"

size_t spoor_input_plan(struct spoor_input *in, int nthreads)
{
    (void)nthreads;     /* parts are ~chunk_size each; the loader spreads them */
    if (in->stream || in->records == SPOOR_RECORDS_JSON_EVENTS)
        return 1;
    switch (in->kind) {
    case SPOOR_INPUT_PLAIN:
        return io_plain_parts(in);
    case SPOOR_INPUT_GZIP:
        /* checkpoints are line starts, and a log record may span them */
        if (in->index_mode == IO_INDEX_LOADED && in->records != SPOOR_RECORDS_LOG_LINES)
            return io_index_count(in->index) + 1;
        return 1;
    case SPOOR_INPUT_ZSTD:
        break;
    }
    return 1;
}

int spoor_cursor_open(struct spoor_input *in, size_t part, struct spoor_cursor **out,
                      struct spoor_error *err)
{
    *out = NULL;
    size_t nparts = spoor_input_plan(in, 1);
    if (part >= nparts)
        return spoor_fail(err, SPOOR_EUSAGE, "%s: part %zu of %zu does not exist", in->path, part,
                          nparts);
    if (in->stream) {
        /* One cursor reads it, after the kind and head were sniffed. */
        if (in->stream_opened)
            return spoor_fail(err, SPOOR_EUSAGE, "%s: a stream can be read only once", in->path);
        in->stream_opened = true;
        in->recording = false;
    }
    switch (in->kind) {
    case SPOOR_INPUT_PLAIN: {
        uint64_t start = (uint64_t)part * in->chunk_size, end = start + in->chunk_size;
        return io_plain_open(in, start, end < in->size ? end : in->size, false, out);
    }
    case SPOOR_INPUT_ZSTD:
        return io_zstd_open(in, out);
    case SPOOR_INPUT_GZIP:
        break;
    }
    if (in->index_mode == IO_INDEX_LOADED) {
        size_t from = part == 0 ? SIZE_MAX : part - 1;
        size_t stop = part + 1 < nparts ? part : SIZE_MAX;
        return io_gzip_open(in, from, stop, false, out, err);
    }
    /* The first sequential scan of a gzip without a usable index builds one. */
    bool building = in->index_mode == IO_INDEX_BUILDING && !in->builder_taken;
    if (building)
        in->builder_taken = true;
    return io_gzip_open(in, SIZE_MAX, SIZE_MAX, building, out, err);
}

int spoor_cursor_open_at_line(struct spoor_input *in, uint64_t line, struct spoor_cursor **out,
                              uint64_t *first_line, struct spoor_error *err)
{
    *out = NULL;
    *first_line = 1;
    if (in->stream)
        return spoor_cursor_open(in, 0, out, err);
    switch (in->kind) {
    case SPOOR_INPUT_PLAIN:
        return io_plain_open(in, 0, in->size, true, out);
    case SPOOR_INPUT_ZSTD:
        return io_zstd_open(in, out);
    case SPOOR_INPUT_GZIP:
        break;
    }
    size_t from = SIZE_MAX;
    if (in->index_mode == IO_INDEX_LOADED) {
        from = io_index_find_line(in->index, line);
        if (from != SIZE_MAX)
            *first_line = io_index_at(in->index, from).line;
    }
    return io_gzip_open(in, from, SIZE_MAX, false, out, err);
}

int spoor_cursor_next(struct spoor_cursor *c, struct spoor_chunk *chunk, struct spoor_error *err)
{
    return c->ops->next(c, chunk, err);
}

uint64_t spoor_cursor_progress(const struct spoor_cursor *c)
{
    return c->ops->progress(c);
}

const char *spoor_cursor_warning(const struct spoor_cursor *c)
{
    return c->ops->warning(c);
}

void spoor_cursor_close(struct spoor_cursor *c)
{
    if (c)
        c->ops->close(c);
}
