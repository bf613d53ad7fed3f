/* The public side of the checkpoint index: learning line numbers, writing
 * the sidecar after the first full scan, and building it on request (a scan
 * through a cursor of the planner, plan.c; the sidecar's path and format are
 * index_file.c's). */
#include <stdio.h>
#include <string.h>

#include "io/gzip.h"
#include "io/index.h"
#include "io/index_file.h"
#include "io/internal.h"
#include "io/input.h"

/* Fewer checkpoints split the input into too few parts to be worth a file. */
enum { MIN_CHECKPOINTS = 2 };

void spoor_input_note_line(struct spoor_input *in, uint64_t offset, uint64_t first_line)
{
    if (in->index)
        io_index_note_line(in->index, offset, first_line);
}

/* The scan that built the index is over: keep what it found. */
static size_t adopt_scan(struct spoor_input *in)
{
    io_index_trim(in->index, in->scan_total);
    in->index_mode = IO_INDEX_LOADED;
    return io_index_count(in->index);
}

int spoor_input_finish(struct spoor_input *in, const char **warning, struct spoor_error *err)
{
    (void)err;  /* the index only speeds things up: failing to write it is a warning */
    if (!in->index)
        return SPOOR_OK;
    bool write;
    if (in->index_mode == IO_INDEX_BUILDING)
        write = in->scan_complete && adopt_scan(in) >= MIN_CHECKPOINTS;
    else
        write = in->index->lines_learnt;
    if (!write)
        return SPOOR_OK;
    char sidecar[4200];
    spoor_index_path(in->path, sidecar, sizeof sidecar);
    struct spoor_error e;
    if (io_index_save(in->index, sidecar, &in->fp, &e) == 0) {
        in->index->lines_learnt = false;
    } else if (!in->finish_warned) {
        snprintf(in->warning, sizeof in->warning, "%s; reading without it", e.msg);
        in->finish_warned = true;
        *warning = in->warning;
    }
    return SPOOR_OK;
}

static uint64_t count_newlines(const char *p, size_t len)
{
    uint64_t n = 0;
    const char *end = p + len;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        n++;
        p++;
    }
    return n;
}

int spoor_input_build_index(struct spoor_input *in, struct spoor_error *err)
{
    if (in->stream)
        return spoor_fail(err, SPOOR_EUSAGE, "%s: a stream has no checkpoint index; index a file", in->path);
    if (in->kind != SPOOR_INPUT_GZIP)
        return spoor_fail(err, SPOOR_EUSAGE,
                          "%s: not gzip-compressed; only gzip traces have a checkpoint index",
                          in->path);
    io_index_free(in->index);
    in->index = io_index_new();
    in->index_mode = IO_INDEX_BUILDING;
    in->builder_taken = true;
    in->scan_complete = false;

    struct spoor_cursor *c = NULL;
    int st = io_gzip_open(in, SIZE_MAX, SIZE_MAX, true, &c, err);
    struct spoor_chunk chunk = {0};
    uint64_t line = 1;
    while (st == SPOOR_OK) {
        int got = spoor_cursor_next(c, &chunk, err);
        if (got < 0)
            st = got;
        if (got <= 0)
            break;
        spoor_input_note_line(in, chunk.offset, line);
        line += count_newlines(chunk.data, chunk.len);
    }
    if (st == SPOOR_OK && spoor_cursor_warning(c))
        st = spoor_fail(err, SPOOR_EFORMAT, "%s: %s; no index written", in->path,
                        spoor_cursor_warning(c));
    spoor_chunk_release(&chunk);
    spoor_cursor_close(c);
    if (st != SPOOR_OK)
        return st;
    adopt_scan(in);
    char sidecar[4200];
    spoor_index_path(in->path, sidecar, sizeof sidecar);
    if (io_index_save(in->index, sidecar, &in->fp, err) != 0)
        return SPOOR_EIO;
    in->index->lines_learnt = false;
    return SPOOR_OK;
}
