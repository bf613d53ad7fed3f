/* Serving an input from its snapshot to a streaming sink: the mapped table is
 * cut into batches of SLICE_ROWS rows, views into the mapping, so a worker only
 * builds the view and runs map(); whoever finishes the batch the order waits
 * for reduces it and every ready one after it, as when parsing. */
#include "read/load_snapshot.h"
#include "table/snapshot.h"
#include "util/parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_CHUNK = 4 << 20 };

struct serve {
    const struct spoor_snapshot *snap;
    const struct spoor_sink *sink;
    const struct spoor_snapshot_cols *cols;
    size_t input;
    const char *path;
    size_t n, slice;             /* batches, rows per batch */
    struct spoor_table **ready;  /* mapped batches waiting for reduce */
    pthread_mutex_t mu;
    size_t next_map, next_reduce;
    bool reducing, stop;
    int status;
    struct spoor_error err;
};

static void fail(struct serve *s, int status, const char *what)
{
    if (!s->stop) {
        s->stop = true;
        s->status = status;
        spoor_fail(&s->err, status, "%s: %s", s->path, what);
    }
}

/* Reduces every batch that is next in order; called with mu held. */
static void drain(struct serve *s)
{
    if (s->reducing)
        return;
    s->reducing = true;
    while (!s->stop && s->next_reduce < s->n && s->ready[s->next_reduce]) {
        struct spoor_table *b = s->ready[s->next_reduce];
        pthread_mutex_unlock(&s->mu);
        int st = s->sink->reduce ? s->sink->reduce(s->sink->ctx, s->input, b) : SPOOR_OK;
        spoor_table_free(b);
        spoor_snapshot_release(s->snap, s->next_reduce * s->slice, s->slice);
        pthread_mutex_lock(&s->mu);
        s->ready[s->next_reduce++] = NULL;
        if (st != SPOOR_OK)
            fail(s, st, "writing the output failed");
    }
    s->reducing = false;
}

static void serve_main(void *ctx, int worker)
{
    struct serve *s = ctx;
    pthread_mutex_lock(&s->mu);
    while (!s->stop && s->next_map < s->n) {
        size_t i = s->next_map++;
        pthread_mutex_unlock(&s->mu);
        struct spoor_table *b = spoor_snapshot_view(s->snap, i * s->slice, s->slice, s->cols);
        int st = s->sink->map ? s->sink->map(s->sink->ctx, worker, b) : SPOOR_OK;
        pthread_mutex_lock(&s->mu);
        s->ready[i] = b;
        if (st != SPOOR_OK)
            fail(s, st, "processing a batch failed");
        drain(s);
    }
    pthread_mutex_unlock(&s->mu);
}

/* Rows per batch: about what a parsed chunk held, so sinks see batches of the
 * usual size, rounded up to a multiple of 64 so validity words line up. */
static size_t slice_rows(const struct spoor_load_opts *opts, const struct spoor_input_report *rep)
{
    double chunk = opts->input.chunk_size ? (double)opts->input.chunk_size : DEFAULT_CHUNK;
    double rows = rep->bytes ? (double)rep->rows * chunk / (double)rep->bytes : (double)rep->rows;
    size_t n = rows < 64 ? 64 : rows > 1e9 ? (size_t)1e9 : (size_t)rows;
    return (n + 63) / 64 * 64;
}

int load_from_snapshot(const struct spoor_snapshot *snap, const struct spoor_load_opts *opts,
                       const struct spoor_sink *sink, size_t input, const struct spoor_input_report *rep,
                       struct spoor_error *err)
{
    const struct spoor_read_opts *o = &opts->read;
    uint32_t *ids = spoor_xmalloc((o->n_arg_keys ? o->n_arg_keys : 1) * sizeof *ids);
    struct spoor_snapshot_cols cols = load_wanted_columns(snap, o, ids);
    struct serve s = {.snap = snap, .sink = sink, .cols = &cols, .input = input, .path = rep->path,
                      .slice = slice_rows(opts, rep)};
    size_t rows = spoor_snapshot_rows(snap);
    s.n = rows ? (rows + s.slice - 1) / s.slice : 1; /* one empty batch still brings the lookups */
    s.ready = spoor_xcalloc(s.n, sizeof *s.ready);
    pthread_mutex_init(&s.mu, NULL);
    /* Any one worker serves every batch, so if the others cannot start the
     * caller serves them alone, as with --threads 1. */
    if (!spoor_thread_group_run(spoor_load_threads(opts), serve_main, &s))
        serve_main(&s, 0);
    for (size_t i = 0; i < s.n; i++) /* left over after an error */
        spoor_table_free(s.ready[i]);
    free(s.ready);
    free(ids);
    pthread_mutex_destroy(&s.mu);
    if (s.stop)
        *err = s.err;
    return s.stop ? s.status : SPOOR_OK;
}
