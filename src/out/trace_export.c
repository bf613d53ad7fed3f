/* `spoor export`: the rows of traces that pass the load/filter loop
 * (spoor/expr.h), streamed in input order into one writer: CSV or JSON lines
 * rows, an SQLite database or a Perfetto trace. The output appears complete
 * or not at all: everything goes to a temporary next to it, renamed at the end. */
#include "spoor/write.h"
#include "spoor/expr.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The writer of the chosen format; exactly one is set. */
struct spoor_trace_export {
    struct spoor_writer *rows;              /* csv, jsonl */
    struct spoor_sqlite_writer *db;
    struct spoor_perfetto_writer *trace;
};

static int target_write(void *ctx, const struct spoor_table *batch, const struct spoor_resolved *res,
                        const uint32_t *sel, size_t n, struct spoor_error *err)
{
    struct spoor_trace_export *t = ctx;
    if (t->db)
        return spoor_sqlite_writer_write(t->db, batch, res, sel, n, err);
    if (t->trace)
        return spoor_perfetto_writer_write(t->trace, batch, res, sel, n, err);
    return spoor_writer_write(t->rows, batch, res, sel, n, err);
}

/* On the workers: the database encodes its records there, when cores are
 * to spare (encodes_on_workers). */
static int target_prepare(void *ctx, int worker, const struct spoor_table *batch, const uint32_t *sel, size_t n)
{
    struct spoor_trace_export *t = ctx;
    return spoor_sqlite_writer_prepare(t->db, worker, batch, sel, n);
}

/* Whether the database's records are encoded on the load's workers: only
 * with more than two threads on as many cores. With two, both are busy
 * inflating, parsing and writing in input order, and encoding in input
 * order costs less, in CPU and wall time alike (1 M events: -10% and -14%
 * measured), than records built in per-batch buffers on one core and
 * spliced on another (docs/perf-notes.md, "SQLite export"). */
static bool encodes_on_workers(const struct spoor_load_opts *opts)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = spoor_load_threads(opts);
    return (cores > 0 && cores < threads ? cores : threads) > 2;
}

static int target_finish(struct spoor_trace_export *t, const struct spoor_load_result *loaded,
                         struct spoor_error *err)
{
    if (t->db)
        return spoor_sqlite_writer_finish(t->db, loaded, err);
    if (t->trace)
        return spoor_perfetto_writer_finish(t->trace, err);
    return spoor_writer_finish(t->rows, err);
}

/* A database that failed holds its file open: it is closed before the
 * temporary is removed (finish closes it on success). */
static void target_close(struct spoor_trace_export *t)
{
    spoor_sqlite_writer_free(t->db);
    spoor_perfetto_writer_free(t->trace);
    spoor_writer_free(t->rows);
    memset(t, 0, sizeof *t);
}

static int target_open(struct spoor_trace_export *t, const struct spoor_trace_export_opts *o,
                       struct spoor_atomic_file *out, const char *only_source, struct spoor_error *err)
{
    const char *const *columns = (const char *const *)o->columns;
    switch (o->format) {
    case SPOOR_EXPORT_SQLITE: {
        int st = spoor_sqlite_writer_open(&t->db, out->tmp, out->path, columns, o->ncolumns, only_source, err);
        return st == SPOOR_OK && o->via_sqlite ? spoor_sqlite_writer_via_sqlite(t->db, err) : st;
    }
    case SPOOR_EXPORT_PERFETTO:
        t->trace = spoor_perfetto_writer_new(out->fp, out->path, columns, o->ncolumns);
        if (o->counter_every >= 0)
            spoor_perfetto_writer_counters(t->trace, o->counter_every);
        return SPOOR_OK;
    default: {
        struct spoor_writer_opts wo = {.format = o->format == SPOOR_EXPORT_CSV ? SPOOR_WRITE_CSV : SPOOR_WRITE_JSONL,
                                       .columns = columns, .ncolumns = o->ncolumns, .name = out->path,
                                       .rewritable = out->tmp != NULL};
        t->rows = spoor_writer_new(out->fp, &wo);
        return SPOOR_OK;
    }
    }
}

int spoor_trace_export_run(struct spoor_filter *f, const char *const *paths, size_t npaths,
                           const struct spoor_load_opts *opts, const struct spoor_trace_export_opts *o,
                           struct spoor_trace_export **out, struct spoor_load_result *res, struct spoor_error *err)
{
    struct spoor_trace_export *t = *out = spoor_xcalloc(1, sizeof *t);
    struct spoor_atomic_file file;
    int st = spoor_atomic_file_open(&file, o->output, err);
    if (st != SPOOR_OK)
        return st;
    st = target_open(t, o, &file, npaths == 1 ? paths[0] : NULL, err);
    if (st == SPOOR_OK && t->db && encodes_on_workers(opts))
        spoor_filter_prepare_with(f, target_prepare);
    if (st == SPOOR_OK)
        st = spoor_filter_run(f, paths, npaths, opts, target_write, t, res, err);
    if (st == SPOOR_OK)
        st = target_finish(t, res, err);
    if (st == SPOOR_OK)
        return spoor_atomic_file_commit(&file, err);
    target_close(t);
    spoor_atomic_file_abort(&file);
    return st;
}

size_t spoor_trace_export_missing(const struct spoor_trace_export *t, const char **names, size_t max)
{
    return t->db      ? spoor_sqlite_writer_missing(t->db, names, max)
         : t->trace   ? spoor_perfetto_writer_missing(t->trace, names, max)
         : t->rows    ? spoor_writer_missing(t->rows, names, max)
                      : 0;
}

void spoor_trace_export_free(struct spoor_trace_export *t)
{
    if (!t)
        return;
    target_close(t);
    free(t);
}
