/* spoor events: the rows of traces that match --where, as CSV or JSON lines.
 *
 * Workers filter each batch as it is parsed (map); batches are written in
 * input order (reduce), so the output is the same for any --threads. An
 * expression that reads file, host or line is evaluated in reduce instead:
 * file and host need the FH/HH metadata of every earlier batch, and line
 * numbers are only absolute there. */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_args.h"
#include "spoor/atomic_file.h"
#include "spoor/expr.h"
#include "spoor/resolve.h"
#include "spoor/write.h"

static const char usage[] =
    "usage: spoor events [options] TRACE...\n"
    "\n"
    "Writes the events of the traces that match an SQL condition, in input order.\n"
    "\n"
    "options:\n"
    "  --where EXPR         keep rows where EXPR is true, e.g.\n"
    "                         \"cat = 'POSIX' AND name IN ('open', 'open64') AND dur >= 1ms\"\n"
    "                       columns: ts dur name cat pid tid ph line source, file and host\n"
    "                       (resolved from fhash/fname, hhash/hostname), any args key\n"
    "                       (or args.KEY, or \"any key\"); = != < <= > >= AND OR NOT,\n"
    "                       IN (...), LIKE, GLOB, BETWEEN, IS [NOT] NULL, + - * / %;\n"
    "                       times are ns, or write 5us, 2.5ms, 1s (see docs/cli.md)\n"
    "  --columns LIST       comma-separated columns to write (default: the fixed ones,\n"
    "                       file, host, then the args columns)\n"
    "  --format F           csv (default) or jsonl; -o NAME.jsonl picks jsonl\n"
    "  -o FILE              write to FILE, complete or not at all (default: stdout)\n"
    "  -h, --help           this help\n" LOAD_ARGS_HELP;

enum { OPT_WHERE = 2000, OPT_COLUMNS, OPT_FORMAT };

/* A batch's selection, computed by a worker in map and consumed in reduce. */
struct handoff {
    const struct spoor_table *batch;    /* NULL when free */
    uint32_t *sel;
    size_t n, cap;
};

struct run {
    const struct spoor_expr *expr;
    bool filter_in_map;
    struct spoor_expr_ctx **worker_ctx; /* map: one per worker */
    int nworkers;
    struct spoor_expr_ctx *reduce_ctx;  /* reduce: expressions that need input order */
    pthread_mutex_t mu;
    struct handoff **handoffs;
    size_t nhandoffs;
    struct spoor_resolver *resolver;    /* NULL when neither output nor filter needs file/host */
    struct spoor_writer *writer;
    uint32_t *sel;                      /* reduce-side selection */
    size_t sel_cap;
    struct spoor_strpool *args_seen;    /* args keys of every batch, for suggestions */
    struct spoor_error err;
};

static void grow_sel(uint32_t **sel, size_t *cap, size_t n)
{
    if (n > *cap) {
        *cap = n;
        *sel = spoor_xrealloc(*sel, n * sizeof **sel);
    }
}

static struct handoff *claim_handoff(struct run *r, const struct spoor_table *batch)
{
    pthread_mutex_lock(&r->mu);
    struct handoff *h = NULL;
    for (size_t i = 0; i < r->nhandoffs && !h; i++)
        if (!r->handoffs[i]->batch)
            h = r->handoffs[i];
    if (!h) {
        r->handoffs = spoor_xrealloc(r->handoffs, (r->nhandoffs + 1) * sizeof *r->handoffs);
        h = r->handoffs[r->nhandoffs++] = spoor_xcalloc(1, sizeof *h);
    }
    h->batch = batch;
    pthread_mutex_unlock(&r->mu);
    return h;
}

static struct handoff *find_handoff(struct run *r, const struct spoor_table *batch)
{
    pthread_mutex_lock(&r->mu);
    struct handoff *h = NULL;
    for (size_t i = 0; i < r->nhandoffs && !h; i++)
        if (r->handoffs[i]->batch == batch)
            h = r->handoffs[i];
    pthread_mutex_unlock(&r->mu);
    return h;
}

static int map_batch(void *ctx, int worker, const struct spoor_table *batch)
{
    struct run *r = ctx;
    struct handoff *h = claim_handoff(r, batch);
    struct spoor_expr_ctx *c = r->worker_ctx[worker];
    grow_sel(&h->sel, &h->cap, batch->nrows);
    spoor_expr_bind(c, batch, NULL);
    h->n = spoor_expr_select(c, h->sel);
    return SPOOR_OK;
}

static void note_args(struct run *r, const struct spoor_table *batch)
{
    for (size_t i = 0; i < batch->ncols; i++) {
        size_t len;
        const char *key = spoor_strpool_get(batch->pool, batch->cols[i].name, &len);
        spoor_strpool_intern(r->args_seen, key, len);
    }
}

static int reduce_batch(void *ctx, size_t input, const struct spoor_table *batch)
{
    struct run *r = ctx;
    note_args(r, batch);
    const struct spoor_resolved *res = r->resolver ? spoor_resolver_resolve(r->resolver, batch) : NULL;
    const uint32_t *sel = NULL;
    size_t n = batch->nrows;
    struct handoff *h = NULL;
    if (r->expr && r->filter_in_map) {
        h = find_handoff(r, batch);
        sel = h->sel;
        n = h->n;
    } else if (r->expr) {
        grow_sel(&r->sel, &r->sel_cap, batch->nrows);
        spoor_expr_bind(r->reduce_ctx, batch, res);
        n = spoor_expr_select(r->reduce_ctx, r->sel);
        sel = r->sel;
    }
    int st = spoor_writer_write(r->writer, batch, res, sel, n, &r->err);
    if (h) {
        pthread_mutex_lock(&r->mu);
        h->batch = NULL;
        pthread_mutex_unlock(&r->mu);
    }
    return st;
}

/* "(did you mean 'file'?)" or "". */
static const char *suggestion(const struct run *r, const char *name, char *buf, size_t cap)
{
    size_t n = spoor_strpool_count(r->args_seen);
    const char **seen = spoor_xmalloc((n ? n : 1) * sizeof *seen);
    for (size_t i = 0; i < n; i++)
        seen[i] = spoor_strpool_get(r->args_seen, (uint32_t)i, NULL);
    const char *best = spoor_field_suggest(name, seen, n);
    if (best)
        snprintf(buf, cap, " (did you mean '%s'?)", best);
    else
        buf[0] = '\0';
    free(seen);
    return buf;
}

/* Columns named in --where or --columns that no input had, and args columns
 * a default CSV left out. */
static void report_columns(const struct run *r)
{
    char hint[160];
    const struct spoor_expr_ref *refs;
    size_t nrefs = r->expr ? spoor_expr_refs(r->expr, &refs) : 0;
    for (size_t i = 0; i < nrefs; i++) {
        if (refs[i].field != SPOOR_FIELD_ARG)
            continue;
        bool found = r->reduce_ctx && spoor_expr_ctx_found(r->reduce_ctx, i);
        for (int w = 0; w < r->nworkers && r->worker_ctx && !found; w++)
            found = spoor_expr_ctx_found(r->worker_ctx[w], i);
        if (!found)
            fprintf(stderr, "spoor events: warning: --where: unknown column '%s' at position %zu: no input has it, "
                            "so it is null in every row%s\n",
                    refs[i].name, refs[i].pos, suggestion(r, refs[i].name, hint, sizeof hint));
    }
    const char *names[64];
    size_t n = spoor_writer_missing(r->writer, names, 64);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "spoor events: warning: --columns: unknown column '%s': no input has it, so it is null%s\n",
                names[i], suggestion(r, names[i], hint, sizeof hint));
    n = spoor_writer_omitted(r->writer, names, 64);
    if (n) {
        fprintf(stderr, "spoor events: note: args columns first seen after the first %d rows are not in the CSV:",
                SPOOR_WRITE_CSV_HOLD);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%s %s", i ? "," : "", names[i]);
        fprintf(stderr, "%s; name them with --columns or use --format jsonl\n", n == 64 ? ", ..." : "");
    }
}

static bool is_resolved(enum spoor_field f) { return f == SPOOR_FIELD_FILE || f == SPOOR_FIELD_HOST; }

/* With explicit columns, only the args the output, the filter and the
 * resolver read are parsed. */
static void choose_args(struct spoor_load_opts *opts, const struct run *r, char **cols, size_t ncols,
                        const char ***keys)
{
    static const char *const resolver_keys[] = {"fhash", "fname", "hhash", "hostname"};
    const struct spoor_expr_ref *refs;
    size_t nrefs = r->expr ? spoor_expr_refs(r->expr, &refs) : 0;
    *keys = spoor_xmalloc((ncols + nrefs + 4) * sizeof **keys);
    size_t n = 0;
    for (size_t i = 0; i < ncols; i++) {
        const char *key;
        size_t len;
        if (spoor_field_parse(cols[i], strlen(cols[i]), &key, &len) == SPOOR_FIELD_ARG)
            (*keys)[n++] = key;
    }
    for (size_t i = 0; i < nrefs; i++)
        if (refs[i].field == SPOOR_FIELD_ARG)
            (*keys)[n++] = refs[i].key;
    if (r->resolver)
        for (size_t i = 0; i < 4; i++)
            (*keys)[n++] = resolver_keys[i];
    opts->read.args = n ? SPOOR_ARGS_LISTED : SPOOR_ARGS_NONE;
    opts->read.arg_keys = *keys;
    opts->read.n_arg_keys = n;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

struct cli {
    const char *where, *columns, *format, *output;
};

/* Returns -1 to go on, else the exit code. */
static int parse_cli(int argc, char **argv, struct cli *cli, struct spoor_load_opts *opts)
{
    static const struct option options[] = {
        {"where", required_argument, 0, OPT_WHERE},
        {"columns", required_argument, 0, OPT_COLUMNS},
        {"format", required_argument, 0, OPT_FORMAT},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        LOAD_LONG_OPTIONS,
        {0, 0, 0, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "ho:", options, NULL)) != -1) {
        const char **slot = c == OPT_WHERE ? &cli->where : c == OPT_COLUMNS ? &cli->columns
                          : c == OPT_FORMAT ? &cli->format : c == 'o' ? &cli->output : NULL;
        if (slot) {
            if (*slot) {
                fprintf(stderr, "spoor events: %s%s given twice\n", c == 'o' ? "-" : "--",
                        c == 'o' ? "o" : options[c - OPT_WHERE].name);
                return 2;
            }
            *slot = optarg;
            continue;
        }
        if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        }
        int handled = load_args_handle(opts, c, optarg, "events");
        if (handled < 0)
            return 2;
        if (handled == 0) {
            fprintf(stderr, "spoor events: see 'spoor events --help'\n");
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "spoor events: no trace given; see 'spoor events --help'\n");
        return 2;
    }
    if (cli->format && strcmp(cli->format, "csv") && strcmp(cli->format, "jsonl")) {
        fprintf(stderr, "spoor events: --format '%s': expected csv or jsonl\n", cli->format);
        return 2;
    }
    return -1;
}

static enum spoor_write_format output_format(const struct cli *cli)
{
    if (cli->format)
        return strcmp(cli->format, "jsonl") ? SPOOR_WRITE_CSV : SPOOR_WRITE_JSONL;
    const char *o = cli->output;
    if (o && (ends_with(o, ".jsonl") || ends_with(o, ".json") || ends_with(o, ".ndjson")))
        return SPOOR_WRITE_JSONL;
    return SPOOR_WRITE_CSV;
}

static void run_free(struct run *r)
{
    for (int w = 0; r->worker_ctx && w < r->nworkers; w++)
        spoor_expr_ctx_free(r->worker_ctx[w]);
    free(r->worker_ctx);
    spoor_expr_ctx_free(r->reduce_ctx);
    for (size_t i = 0; i < r->nhandoffs; i++) {
        free(r->handoffs[i]->sel);
        free(r->handoffs[i]);
    }
    free(r->handoffs);
    free(r->sel);
    spoor_resolver_free(r->resolver);
    spoor_writer_free(r->writer);
    spoor_strpool_free(r->args_seen);
    pthread_mutex_destroy(&r->mu);
}

int cmd_events(int argc, char **argv)
{
    struct cli cli = {0};
    struct spoor_load_opts opts;
    load_args_init(&opts);
    int code = parse_cli(argc, argv, &cli, &opts);
    if (code >= 0)
        return code;

    struct spoor_error err = {0};
    struct spoor_expr *expr = NULL;
    if (cli.where && spoor_expr_compile(cli.where, &expr, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor events: --where: %s\n", err.msg);
        return 2;
    }
    char **cols = NULL;
    size_t ncols = 0;
    if (cli.columns && spoor_columns_parse(cli.columns, &cols, &ncols, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor events: --columns: %s\n", err.msg);
        spoor_expr_free(expr);
        return 2;
    }

    struct run r = {.expr = expr, .args_seen = spoor_strpool_new()};
    pthread_mutex_init(&r.mu, NULL);
    bool resolve = !cols;
    for (size_t i = 0; i < ncols; i++)
        resolve |= is_resolved(spoor_field_parse(cols[i], strlen(cols[i]), &(const char *){0}, &(size_t){0}));
    const struct spoor_expr_ref *refs;
    for (size_t i = 0, n = expr ? spoor_expr_refs(expr, &refs) : 0; i < n; i++)
        resolve |= is_resolved(refs[i].field);
    if (resolve)
        r.resolver = spoor_resolver_new();
    const char **keys = NULL;
    if (cols)
        choose_args(&opts, &r, cols, ncols, &keys);
    if (expr) {
        r.filter_in_map = !spoor_expr_needs_order(expr);
        if (r.filter_in_map) {
            r.nworkers = spoor_load_threads(&opts);
            r.worker_ctx = spoor_xcalloc((size_t)r.nworkers, sizeof *r.worker_ctx);
            for (int w = 0; w < r.nworkers; w++)
                r.worker_ctx[w] = spoor_expr_ctx_new(expr);
        } else {
            r.reduce_ctx = spoor_expr_ctx_new(expr);
        }
    }

    struct spoor_atomic_file out;
    int st = spoor_atomic_file_open(&out, cli.output, &err);
    struct spoor_load_result res = {0};
    if (st == SPOOR_OK) {
        struct spoor_writer_opts wo = {.format = output_format(&cli), .columns = (const char *const *)cols,
                                       .ncolumns = ncols};
        r.writer = spoor_writer_new(out.fp, &wo);
        struct spoor_sink sink = {.ctx = &r, .map = r.filter_in_map ? map_batch : NULL, .reduce = reduce_batch};
        st = spoor_load((const char *const *)argv + optind, (size_t)(argc - optind), &opts, &sink, &res, &err);
        if (st != SPOOR_OK && r.err.code) /* the writer's own account of a failed write */
            err = r.err;
        if (st == SPOOR_OK)
            st = spoor_writer_finish(r.writer, &err);
        if (st == SPOOR_OK)
            st = spoor_atomic_file_commit(&out, &err);
        else
            spoor_atomic_file_abort(&out);
        load_args_report("events", &res);
        if (st == SPOOR_OK)
            report_columns(&r);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor events: %s\n", err.msg);
    spoor_load_result_free(&res);
    run_free(&r);
    free(keys);
    spoor_columns_free(cols, ncols);
    spoor_expr_free(expr);
    return st == SPOOR_OK ? 0 : 1;
}
