/* The loader: chunks of an input go through its reader on a pool of threads
 * and the parsed batches reach a sink, map() in parallel and reduce() in input
 * order.
 *
 * A fixed set of slots (chunk buffer + batch table) bounds memory. An input
 * read sequentially (one part: a gzip without index, zstd) is read by one
 * thread at a time, whichever is free, while the others parse, so inflate and
 * parse overlap and no core idles. An input split into parts (plain files,
 * indexed gzip) has every thread claim parts in order and both read and parse
 * them. Whoever finishes the batch the order is waiting for reduces it and
 * every ready batch after it. */
#include "spoor/load.h"
#include "util/parallel.h"
#include "util/progress.h"
#include "read/load_snapshot.h"
#include "read/loader.h"
#include "read/pair.h"
#include "table/snapshot.h"
#include "io/input.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    HEAD_BYTES = 64 * 1024,
    /* Chunk bytes all slots may hold at once: with many threads, chunks get
     * smaller (down to MIN_CHUNK) rather than memory growing with threads. */
    IN_FLIGHT = 64 << 20,
    MIN_CHUNK = 256 << 10,
    MAX_CHUNK = 4 << 20,
};

struct slot {
    struct spoor_chunk chunk;
    struct spoor_table *batch;
    struct spoor_skips skips;
    uint64_t lines;
    bool deferred;              /* B/E rows or a format with an in-order step: done in order, then map() */
    size_t part, index;         /* position in input order */
    int status;                 /* parse result */
    struct spoor_error err;
    enum { SLOT_FREE, SLOT_READING, SLOT_FILLED, SLOT_PARSING, SLOT_PARSED } state;
};

/* Shared state for loading one input. */
struct run {
    const struct spoor_load_opts *opts;
    const struct spoor_sink *sink;
    size_t input_index;
    struct spoor_input *in;
    struct spoor_dialect *dialect;
    struct spoor_input_report *report;
    int nthreads;
    size_t nparts;

    pthread_mutex_t mu;
    pthread_cond_t changed;
    struct slot *slots;
    size_t nslots, nfree;
    size_t next_claim;          /* next part to hand to a reader */
    uint64_t *part_chunks;      /* chunks in each part, UINT64_MAX until its end is seen */
    uint64_t consumed;          /* sequential mode: bytes on disk read so far */

    /* The order: the batch reduce() waits for. */
    size_t reduce_part, reduce_index;
    bool reducing;
    uint64_t lines_done;
    struct spoor_table *defs;   /* the input's metadata definitions, to count redefinitions */
    struct pair_state *pairs;   /* B events waiting for their E */

    bool stop;
    int status;
    struct spoor_error err;
    struct spoor_progress progress;
};

int spoor_load_threads(const struct spoor_load_opts *opts)
{
    if (opts->threads > 0)
        return opts->threads;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void fail(struct run *r, int status, const struct spoor_error *err)
{
    if (!r->stop) {
        r->stop = true;
        r->status = status;
        r->err = *err;
    }
    pthread_cond_broadcast(&r->changed);
}

/* Takes a free slot for a reader of `part`. The last free slot is kept for the
 * part being reduced, so the reader that the order waits for can always go on. */
static struct slot *take_slot(struct run *r, size_t part)
{
    for (;;) {
        if (r->stop)
            return NULL;
        if (r->nfree > 1 || (r->nfree == 1 && part == r->reduce_part))
            break;
        pthread_cond_wait(&r->changed, &r->mu);
    }
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].state == SLOT_FREE) {
            r->nfree--;
            r->slots[i].state = SLOT_READING;
            return &r->slots[i];
        }
    return NULL;
}

static void release_slot(struct run *r, struct slot *s)
{
    s->state = SLOT_FREE;
    r->nfree++;
    pthread_cond_broadcast(&r->changed);
}

static void parse_slot(struct run *r, struct slot *s, int worker)
{
    spoor_table_clear(s->batch, true);
    memset(&s->skips, 0, sizeof s->skips);
    spoor_error_clear(&s->err);
    struct spoor_parse_job job = {
        .dialect = r->dialect,
        .opts = &r->opts->read,
        .out = s->batch,
        .src = 0, /* each batch has the one source it came from */
        .at_file_start = s->chunk.offset == 0,
        .offset = s->chunk.offset,
        .skips = &s->skips,
    };
    s->status = r->dialect->format->parse(&job, s->chunk.data, s->chunk.len, &s->err);
    s->lines = job.lines;
    s->deferred = r->dialect->format->in_order || pair_batch_needs(s->batch);
    if (s->status == SPOOR_OK && r->sink->map && !s->deferred)
        s->status = r->sink->map(r->sink->ctx, worker, s->batch);
}

static struct slot *find_slot(struct run *r, size_t part, size_t index)
{
    for (size_t i = 0; i < r->nslots; i++) {
        struct slot *s = &r->slots[i];
        if (s->state == SLOT_PARSED && s->part == part && s->index == index)
            return s;
    }
    return NULL;
}

/* The lines of a damaged stretch dropped before this chunk: skipped lines
 * (so line numbers after it count them), and an error with --strict. */
static int note_drop(struct run *r, const struct spoor_drop *d, struct spoor_error *err)
{
    if (!d->why)
        return SPOOR_OK;
    char detail[96];
    int n = snprintf(detail, sizeof detail, "bytes %llu-%llu, %s", (unsigned long long)d->from,
                     (unsigned long long)d->to, d->why);
    if (r->opts->read.strict)
        return spoor_fail(err, SPOOR_ESTRICT, "%s:%llu: corrupt gzip member: %s (--strict)",
                          r->report->path, (unsigned long long)r->lines_done + 1, detail);
    if (d->lines)   /* none when its header was damaged: the warning tells */
        spoor_skips_add_lines(&r->report->skips, r->lines_done + 1, d->lines, "corrupt gzip member",
                              detail, n > 0 ? (size_t)n : 0);
    r->lines_done += d->lines;
    r->report->lines += d->lines;
    return SPOOR_OK;
}

/* A batch with B or E rows, or of a format with an in-order step: its pairs
 * or that step made in input order, then map(). */
static int pair_and_map(struct run *r, struct slot *s, int worker, struct spoor_table **view,
                        struct spoor_error *err)
{
    spoor_error_clear(err);
    int st = r->dialect->format->in_order
                 ? r->dialect->format->in_order(r->dialect, s->batch, &r->report->skips, r->report->path,
                                                r->opts->read.strict, view, err)
                 : pair_batch(r->pairs, s->batch, &r->report->skips, r->report->path, r->dialect->records,
                              r->opts->read.strict, view, err);
    if (st == SPOOR_OK && r->sink->map)
        st = r->sink->map(r->sink->ctx, worker, *view);
    return st;
}

static int reduce_one(struct run *r, struct slot *s, int worker, struct spoor_error *err)
{
    int st = note_drop(r, &s->chunk.dropped, err);
    if (st != SPOOR_OK)
        return st;
    uint64_t base = r->lines_done;
    struct spoor_table *b = s->batch;
    for (size_t i = 0; i < b->nrows; i++)
        b->line[i] += base;
    bool defines = false;
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        spoor_lookup_shift_lines(&b->lookups[k], base);
        defines |= b->lookups[k].n > 0;
    }
    if (defines)
        spoor_table_append_lookups(r->defs, b);
    spoor_input_note_line(r->in, s->chunk.offset, base + 1);
    spoor_skips_merge(&r->report->skips, &s->skips, base);
    r->lines_done += s->lines;
    r->report->lines += s->lines;
    r->report->rows += b->nrows;
    r->report->bytes += s->chunk.len;

    if (s->status == SPOOR_ESTRICT && r->dialect->format->in_order) {
        /* a record the in-order step rejects before the line --strict stopped at comes first */
        struct spoor_table *view = s->batch;
        st = r->dialect->format->in_order(r->dialect, s->batch, &r->report->skips, r->report->path, true, &view,
                                          err);
        if (view != s->batch)
            spoor_table_select_free(view);
        if (st != SPOOR_OK)
            return st;
    }
    if (s->status == SPOOR_ESTRICT) {
        bool sampled = s->skips.nsamples > 0;
        char where[600];
        spoor_skip_where(where, sizeof where, r->report->path, r->dialect->records,
                         sampled ? s->skips.sample[0].line + base : base + 1, sampled ? s->skips.sample[0].byte : 0);
        return spoor_fail(err, SPOOR_ESTRICT, "%s: %s%s%s (--strict)", where,
                          sampled ? s->skips.sample[0].reason : "skipped line",
                          sampled && s->skips.sample[0].detail[0] ? ": " : "",
                          sampled ? s->skips.sample[0].detail : "");
    }
    if (s->status != SPOOR_OK) {
        *err = s->err;
        return s->status;
    }
    if (s->deferred) {
        size_t parsed = b->nrows;   /* the in-order step may add rows or drop them */
        st = pair_and_map(r, s, worker, &b, err);
        r->report->rows = r->report->rows - parsed + b->nrows;
        if (st != SPOOR_OK) {
            if (b != s->batch)
                spoor_table_select_free(b);
            return st;
        }
    }
    if (r->dialect->format->reduced)
        r->dialect->format->reduced(r->dialect, b);
    if (r->sink->reduce)
        st = r->sink->reduce(r->sink->ctx, r->input_index, b);
    if (b != s->batch)
        spoor_table_select_free(b);
    if (st != SPOOR_OK)
        return spoor_fail(err, st, "%s: writing the output failed", r->report->path);
    return SPOOR_OK;
}

/* Reduces every batch that is next in order. Called with mu held; the lock is
 * dropped while reduce() runs so parsing goes on, and only one thread reduces. */
static void drain(struct run *r, int worker)
{
    if (r->reducing)
        return;
    r->reducing = true;
    while (!r->stop) {
        if (r->reduce_part < r->nparts && r->reduce_index == r->part_chunks[r->reduce_part]) {
            r->reduce_part++;
            r->reduce_index = 0;
            pthread_cond_broadcast(&r->changed);
            continue;
        }
        struct slot *s = find_slot(r, r->reduce_part, r->reduce_index);
        if (!s)
            break;
        pthread_mutex_unlock(&r->mu);
        struct spoor_error err;
        int st = reduce_one(r, s, worker, &err);
        pthread_mutex_lock(&r->mu);
        if (st != SPOOR_OK)
            fail(r, st, &err);
        r->reduce_index++;
        release_slot(r, s);
        spoor_progress_update(&r->progress, r->nparts > 1 ? r->reduce_part : r->consumed);
    }
    r->reducing = false;
    pthread_cond_broadcast(&r->changed);
}

/* One part being read: its cursor and the index of its next chunk. */
struct reader {
    struct spoor_cursor *cur;
    size_t part, index;
    bool busy, done;            /* sequential mode: a thread is reading; the part has ended */
};

/* Reads the next chunk of rd into s, parsing it too with parse_inline. Called
 * with mu held; drops it while reading. Returns false when the part ended (or
 * failed) and s went back to the free slots. */
static bool read_chunk(struct run *r, struct reader *rd, struct slot *s, int worker, bool parse_inline)
{
    struct spoor_error err;
    pthread_mutex_unlock(&r->mu);
    int got = spoor_cursor_next(rd->cur, &s->chunk, &err);
    if (got > 0 && parse_inline)
        parse_slot(r, s, worker);
    pthread_mutex_lock(&r->mu);
    if (r->nparts == 1)
        r->consumed = spoor_cursor_progress(rd->cur);
    if (got <= 0) {
        release_slot(r, s);
        if (got < 0)
            fail(r, err.code ? err.code : SPOOR_EIO, &err);
        return false;
    }
    s->part = rd->part;
    s->index = rd->index++;
    s->state = parse_inline ? SLOT_PARSED : SLOT_FILLED;
    pthread_cond_broadcast(&r->changed);
    return true;
}

/* Notes the end of rd's part (with mu held): its chunk count and warning. */
static void end_part(struct run *r, struct reader *rd)
{
    if (!r->stop) {
        const char *warning = spoor_cursor_warning(rd->cur);
        if (warning && !r->report->warning) {
            char buf[1200];
            snprintf(buf, sizeof buf, "%s: %s", r->report->path, warning);
            r->report->warning = spoor_xstrdup(buf);
        }
    }
    r->part_chunks[rd->part] = rd->index;
    rd->done = true;
    pthread_cond_broadcast(&r->changed);
}

static bool open_reader(struct run *r, size_t part, struct reader *rd)
{
    struct spoor_error err;
    *rd = (struct reader){.part = part};
    int st = spoor_cursor_open(r->in, part, &rd->cur, &err);
    if (st != SPOOR_OK) {
        pthread_mutex_lock(&r->mu);
        fail(r, st, &err);
        pthread_mutex_unlock(&r->mu);
        return false;
    }
    return true;
}

/* Split mode (and one thread): this thread reads and parses all of a part. */
static void read_part(struct run *r, size_t part, int worker)
{
    struct reader rd;
    if (!open_reader(r, part, &rd))
        return;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        struct slot *s = take_slot(r, part);
        if (!s || !read_chunk(r, &rd, s, worker, true))
            break;
        drain(r, worker);
    }
    end_part(r, &rd);
    drain(r, worker);
    pthread_mutex_unlock(&r->mu);
    spoor_cursor_close(rd.cur);
}

static struct slot *oldest_filled(struct run *r)
{
    struct slot *s = NULL;
    for (size_t i = 0; i < r->nslots; i++) {
        struct slot *c = &r->slots[i];
        if (c->state == SLOT_FILLED && (!s || c->index < s->index))
            s = c;
    }
    return s;
}

/* Sequential mode: the one input stream can only be read by one thread at a
 * time, so every thread reads the next chunk when nobody is reading and a slot
 * is free, and otherwise parses the oldest chunk read. Inflate and parse
 * overlap and no core idles while the other parses. */
static void sequential_worker(struct run *r, struct reader *rd, int worker)
{
    pthread_mutex_lock(&r->mu);
    while (!r->stop) {
        if (!rd->busy && !rd->done && r->nfree > 0) {
            struct slot *s = take_slot(r, 0);
            rd->busy = true;
            if (!read_chunk(r, rd, s, worker, false))
                end_part(r, rd);
            rd->busy = false;
            continue;
        }
        struct slot *s = oldest_filled(r);
        if (s) {
            s->state = SLOT_PARSING;
            pthread_mutex_unlock(&r->mu);
            parse_slot(r, s, worker);
            pthread_mutex_lock(&r->mu);
            s->state = SLOT_PARSED;
            drain(r, worker);
            continue;
        }
        if (rd->done)
            break;
        pthread_cond_wait(&r->changed, &r->mu);
    }
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->mu);
}

/* What every worker shares: the run, and in sequential mode its one reader. */
struct workers {
    struct run *run;
    struct reader *sequential;
};

static void worker_main(void *ctx, int worker)
{
    struct workers *w = ctx;
    struct run *r = w->run;
    if (w->sequential) {
        sequential_worker(r, w->sequential, worker);
        return;
    }
    for (;;) {
        pthread_mutex_lock(&r->mu);
        size_t part = r->stop ? r->nparts : r->next_claim++;
        pthread_mutex_unlock(&r->mu);
        if (part >= r->nparts)
            break;
        read_part(r, part, worker);
    }
}

static void free_slots(struct run *r)
{
    for (size_t i = 0; i < r->nslots; i++) {
        spoor_chunk_release(&r->slots[i].chunk);
        spoor_table_free(r->slots[i].batch);
    }
    free(r->slots);
}

static size_t slots_for(int nthreads)
{
    return (size_t)nthreads * 2 + 2;
}

static size_t chunk_size_for(int nthreads)
{
    size_t chunk = IN_FLIGHT / slots_for(nthreads);
    return chunk > MAX_CHUNK ? MAX_CHUNK : chunk < MIN_CHUNK ? MIN_CHUNK : chunk;
}

static int run_input(struct run *r)
{
    r->nparts = spoor_input_plan(r->in, r->nthreads);
    r->part_chunks = spoor_xmalloc((r->nparts ? r->nparts : 1) * sizeof *r->part_chunks);
    for (size_t i = 0; i < r->nparts; i++)
        r->part_chunks[i] = UINT64_MAX;
    r->nslots = slots_for(r->nthreads);
    r->nfree = r->nslots;
    r->slots = spoor_xcalloc(r->nslots, sizeof *r->slots);
    for (size_t i = 0; i < r->nslots; i++) {
        r->slots[i].batch = spoor_table_new();
        spoor_table_add_source(r->slots[i].batch, r->report->path);
    }
    r->defs = spoor_table_new();
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->changed, NULL);
    r->pairs = pair_new();
    bool sequential = r->nparts == 1;
    spoor_progress_start(&r->progress, r->opts->progress, r->report->path,
                         sequential ? spoor_input_size(r->in) : r->nparts);

    int n = r->nparts == 0 ? 0 : r->nthreads;
    struct reader shared;
    bool share = sequential && n > 1;
    if (share && !open_reader(r, 0, &shared))
        n = 0;
    struct workers w = {r, share ? &shared : NULL};
    /* Any one worker reads the whole input by itself (the slot kept for the
     * part being reduced lets it go on), so if the others cannot start the
     * caller reads it alone. */
    if (!spoor_thread_group_run(n, worker_main, &w))
        worker_main(&w, 0);
    if (share && n > 0)
        spoor_cursor_close(shared.cur);
    spoor_progress_finish(&r->progress);
    if (!r->stop) {
        struct spoor_error e;
        if (pair_finish(r->pairs, &r->report->skips, r->report->path, r->dialect->records, r->opts->read.strict,
                        &e) != SPOOR_OK)
            fail(r, e.code, &e);
        else if (r->dialect->format->in_order &&
                 r->dialect->format->in_order(r->dialect, NULL, &r->report->skips, r->report->path,
                                              r->opts->read.strict, NULL, &e) != SPOOR_OK)
            fail(r, e.code, &e);
    }
    pair_free(r->pairs);

    if (!r->stop && r->report->warning && r->opts->read.strict) {
        struct spoor_error e;
        spoor_fail(&e, SPOOR_ESTRICT, "%s (--strict)", r->report->warning);
        fail(r, SPOOR_ESTRICT, &e);
    }
    if (!r->stop) {
        const char *warning = NULL;
        struct spoor_error e;
        if (spoor_input_finish(r->in, &warning, &e) != SPOOR_OK)
            fail(r, e.code, &e);
        else if (warning && !r->report->warning)
            r->report->warning = spoor_xstrdup(warning);
    }
    if (r->report->warning && strstr(r->report->warning, "truncated")) {
        char buf[1400];
        snprintf(buf, sizeof buf, "%s, %llu lines recovered", r->report->warning,
                 (unsigned long long)r->report->lines);
        free(r->report->warning);
        r->report->warning = spoor_xstrdup(buf);
    }
    static const enum spoor_lookup_kind hashes[] = {SPOOR_LOOKUP_FILE, SPOOR_LOOKUP_HOST, SPOOR_LOOKUP_STRING};
    for (size_t k = 0; k < sizeof hashes / sizeof *hashes; k++)
        r->report->redefined += spoor_lookup_redefinitions(&r->defs->lookups[hashes[k]]);
    spoor_table_free(r->defs);
    free_slots(r);
    free(r->part_chunks);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->changed);
    return r->stop ? r->status : SPOOR_OK;
}

int load_detect(const char *path, struct spoor_input *in, const struct spoor_read_opts *read, struct spoor_dialect *d,
                struct spoor_error *err)
{
    char *head = spoor_xmalloc(HEAD_BYTES);
    size_t head_len = spoor_input_head(in, head, HEAD_BYTES);
    int st = spoor_detect(head, head_len, read, d, err);
    free(head);
    spoor_input_set_records(in, d->records);
    if (st != SPOOR_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        spoor_fail(err, st, "%s: %s", path, msg);
    }
    return st;
}

int load_parse(const char *path, size_t index, const struct spoor_load_opts *opts, const struct spoor_sink *sink,
               struct spoor_input_report *rep, struct spoor_error *err)
{
    struct spoor_input *in = NULL;
    int nthreads = spoor_load_threads(opts);
    struct spoor_input_opts input = opts->input;
    if (!input.chunk_size)
        input.chunk_size = chunk_size_for(nthreads);
    int st = spoor_input_open(path, &input, &in, err);
    if (st != SPOOR_OK)
        return st;
    rep->disk_bytes = spoor_input_size(in);
    st = load_detect(path, in, &opts->read, &rep->dialect, err);
    if (st != SPOOR_OK) {
        spoor_input_close(in);
        return st;
    }
    struct run r = {
        .opts = opts,
        .sink = sink,
        .input_index = index,
        .in = in,
        .dialect = &rep->dialect,
        .report = rep,
        .nthreads = nthreads,
    };
    st = run_input(&r);
    if (st != SPOOR_OK)
        *err = r.err;
    rep->disk_bytes = spoor_input_size(in);    /* a stream's, now that it was read */
    spoor_dialect_release(&rep->dialect);
    spoor_input_close(in);
    return st;
}

/* A streaming load of one input: from its snapshot when one can serve it,
 * otherwise parsed (a stream does not see the whole table, so it writes none). */
static int load_one(const char *path, size_t index, const struct spoor_load_opts *opts,
                    const struct spoor_sink *sink, struct spoor_input_report *rep, struct spoor_error *err)
{
    struct load_cache cache;
    struct spoor_snapshot *snap = load_cache_find(path, opts, &cache) ? load_cache_open(&cache, opts, rep) : NULL;
    if (!snap)
        return load_parse(path, index, opts, sink, rep, err);
    int st = load_from_snapshot(snap, opts, sink, index, rep, err);
    spoor_snapshot_close(snap);
    return st;
}

struct spoor_input_report *load_result_add(struct spoor_load_result *result, const char *path)
{
    struct spoor_input_report *rep = &result->inputs[result->ninputs++];
    rep->path = spoor_xstrdup(path);
    return rep;
}

void load_result_start(struct spoor_load_result *result, size_t npaths, const struct spoor_load_opts *opts)
{
    memset(result, 0, sizeof *result);
    result->threads = spoor_load_threads(opts);
    result->inputs = spoor_xcalloc(npaths ? npaths : 1, sizeof *result->inputs);
}

int load_check_paths(const char *const *paths, size_t npaths, struct spoor_error *err)
{
    size_t dashes = 0;
    for (size_t i = 0; i < npaths; i++)
        dashes += strcmp(paths[i], "-") == 0;
    return dashes > 1 ? spoor_fail(err, SPOOR_EUSAGE, "-: standard input is given %zu times; it can be read once",
                                   dashes)
                      : SPOOR_OK;
}

int spoor_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
               const struct spoor_sink *sink, struct spoor_load_result *result,
               struct spoor_error *err)
{
    load_result_start(result, npaths, opts);
    int checked = load_check_paths(paths, npaths, err);
    struct spoor_load_opts aligned;
    if (checked == SPOOR_OK)
        checked = load_align(paths, npaths, opts, &aligned, err);
    if (checked != SPOOR_OK)
        return checked;
    for (size_t i = 0; i < npaths; i++) {
        int st = load_one(paths[i], i, &aligned, sink, load_result_add(result, paths[i]), err);
        if (st != SPOOR_OK)
            return st;
    }
    return SPOOR_OK;
}

void spoor_load_result_free(struct spoor_load_result *r)
{
    for (size_t i = 0; i < r->ninputs; i++) {
        free(r->inputs[i].path);
        free(r->inputs[i].warning);
        free(r->inputs[i].text);
    }
    free(r->inputs);
    memset(r, 0, sizeof *r);
}
