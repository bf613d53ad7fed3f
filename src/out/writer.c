/* The row writer: which columns a row has and in what order, the registry of
 * args columns in order of first appearance, and the rows a default CSV
 * holds back until its header is known. Args columns first met after that
 * are appended to the header at the end (csv_widen.c). Cells are spelled by
 * write_csv.c and write_jsonl.c. */
#include "out/csv_widen.h"
#include "out/write_internal.h"
#include "spoor/error.h"
#include "spoor/write.h"
#include "util/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BUF_CAP = 1 << 18 };

/* An args column of the current batch. */
struct batch_arg {
    struct spoor_view view;
    const char *key;        /* in the batch's pool */
    size_t key_len;
    uint32_t reg;           /* registry index, UINT32_MAX when not registered */
};

struct held_row {
    size_t off, len;        /* the fixed cells, comma-joined, in held */
    size_t cell0, ncells;   /* its args cells, by increasing registry index */
};

struct held_cell {
    uint32_t reg;
    size_t off, len;
};

struct spoor_writer {
    struct wbuf out;
    enum spoor_write_format format;
    struct out_col *cols;   /* the explicit list, or the fixed default columns */
    size_t ncols;
    bool defaults;          /* args columns follow cols, from the registry */
    bool header_written;

    /* Registry of args columns (default mode). */
    struct spoor_strpool *reg_pool;
    uint32_t *reg_of_id;    /* reg_pool id -> registry index + 1 */
    size_t reg_of_id_cap;
    struct label *regs;
    size_t nregs, regs_cap;
    bool frozen;            /* CSV: the header is out */

    /* Default CSV after the header. Its rows go to the output when that can
     * be read back and written again (our own temporary), else to a spill
     * file; either way they are written a second time, after the final
     * header, only when args columns were met after the header or they were
     * spilled (csv_widen.c). */
    FILE *out_fp;
    const char *name;
    bool rewritable;
    FILE *spill;
    struct csv_epoch *epochs;           /* epochs[0]: the header's */
    size_t nepochs, epochs_cap;
    uint64_t rows_out;                  /* data rows written since the header */

    /* Rows held back by a default CSV. */
    struct wbuf held;
    struct held_row *hrows;
    size_t nhrows, hrows_cap;
    struct held_cell *hcells;
    size_t nhcells, hcells_cap;

    /* The current batch. */
    struct spoor_view *views;           /* per col */
    struct batch_arg *bargs;
    size_t nbargs, bargs_cap;
    size_t *order, norder;              /* registered bargs, by registry index */
    size_t *pending, npending;          /* bargs not registered */
    size_t *fresh;                      /* scratch: pending ones with a value in a row */
    struct spoor_view *reg_views;       /* frozen CSV: per registry index */
    size_t reg_views_cap;

    /* Per string id of the batch's pool and of the resolver's (which only
     * grows, so its flags stay valid): see csv_value(). */
    uint8_t *batch_plain, *resolved_plain;
    size_t batch_plain_cap, resolved_plain_n, resolved_plain_cap;
    uint8_t **col_plain;                /* per col: one of the two, or NULL */
};

struct spoor_writer *spoor_writer_new(FILE *out, const struct spoor_writer_opts *opts)
{
    struct spoor_writer *w = spoor_xcalloc(1, sizeof *w);
    wbuf_init(&w->out, out, BUF_CAP);
    w->out.name = w->name = opts->name;
    w->out_fp = out;
    w->rewritable = opts->rewritable;
    w->format = opts->format;
    w->defaults = !opts->columns;
    size_t n = 0;
    if (w->defaults)
        while (spoor_field_names[n])
            n++;
    else
        n = opts->ncolumns;
    w->cols = spoor_xcalloc(n ? n : 1, sizeof *w->cols);
    w->views = spoor_xcalloc(n ? n : 1, sizeof *w->views);
    w->col_plain = spoor_xcalloc(n ? n : 1, sizeof *w->col_plain);
    for (size_t i = 0; i < n; i++)
        out_col_init(&w->cols[w->ncols++], w->defaults ? spoor_field_names[i] : opts->columns[i]);
    w->reg_pool = spoor_strpool_new();
    wbuf_init(&w->held, NULL, 4096);
    return w;
}

void spoor_writer_free(struct spoor_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->ncols; i++)
        label_free(&w->cols[i].label);
    for (size_t i = 0; i < w->nregs; i++)
        label_free(&w->regs[i]);
    free(w->cols);
    free(w->views);
    free(w->col_plain);
    free(w->batch_plain);
    free(w->resolved_plain);
    free(w->regs);
    free(w->reg_of_id);
    free(w->hrows);
    free(w->hcells);
    free(w->bargs);
    free(w->order);
    free(w->pending);
    free(w->fresh);
    free(w->reg_views);
    spoor_strpool_free(w->reg_pool);
    free(w->epochs);
    if (w->spill)
        fclose(w->spill);
    wbuf_release(&w->held);
    wbuf_release(&w->out);
    free(w);
}

static uint32_t reg_find(const struct spoor_writer *w, const char *key, size_t len)
{
    uint32_t id = spoor_strpool_find(w->reg_pool, key, len);
    if (id == UINT32_MAX || id >= w->reg_of_id_cap || !w->reg_of_id[id])
        return UINT32_MAX;
    return w->reg_of_id[id] - 1;
}

static uint32_t reg_add(struct spoor_writer *w, const char *key, size_t len)
{
    uint32_t id = spoor_strpool_intern(w->reg_pool, key, len);
    spoor_grow((void **)&w->reg_of_id, &w->reg_of_id_cap, id, sizeof *w->reg_of_id);
    spoor_reserve((void **)&w->regs, &w->regs_cap, w->nregs + 1, sizeof *w->regs);
    /* An args key that reads as a fixed or resolved name keeps its prefix. */
    const char *text = spoor_strpool_get(w->reg_pool, id, NULL);
    if (spoor_field_arg_needs_prefix(key, len)) {
        char *prefixed = spoor_xmalloc(len + 6);
        memcpy(prefixed, "args.", 5);
        memcpy(prefixed + 5, key, len + 1);
        label_make(&w->regs[w->nregs], prefixed);
        free(prefixed);
    } else {
        label_make(&w->regs[w->nregs], text);
    }
    w->reg_of_id[id] = (uint32_t)++w->nregs;
    return (uint32_t)(w->nregs - 1);
}

/* Frozen CSV: the view of each registered column in the current batch. */
static void set_reg_views(struct spoor_writer *w)
{
    if (w->nregs > w->reg_views_cap) {
        w->reg_views_cap = w->nregs;
        w->reg_views = spoor_xrealloc(w->reg_views, w->reg_views_cap * sizeof *w->reg_views);
    }
    if (w->nregs)
        memset(w->reg_views, 0, w->nregs * sizeof *w->reg_views); /* SPOOR_VIEW_NULL */
    for (size_t i = 0; i < w->norder; i++)
        w->reg_views[w->bargs[w->order[i]].reg] = w->bargs[w->order[i]].view;
}

static int by_reg(const void *a, const void *b, void *ctx)
{
    const struct batch_arg *args = ctx;
    uint32_t x = args[*(const size_t *)a].reg, y = args[*(const size_t *)b].reg;
    return (x > y) - (x < y);
}

static void bind_batch(struct spoor_writer *w, const struct spoor_table *t, const struct spoor_resolved *res)
{
    w->batch_plain = plain_flags(w->batch_plain, &w->batch_plain_cap, 0, spoor_strpool_count(t->pool));
    if (res) {
        size_t n = spoor_strpool_count(res->pool);
        w->resolved_plain = plain_flags(w->resolved_plain, &w->resolved_plain_cap, w->resolved_plain_n, n);
        w->resolved_plain_n = n;
    }
    for (size_t i = 0; i < w->ncols; i++) {
        struct out_col *c = &w->cols[i];
        struct spoor_view *v = &w->views[i];
        out_col_bind(c, v, t, res);
        w->col_plain[i] = v->kind != SPOOR_VIEW_STR ? NULL : v->stable_ids ? w->resolved_plain : w->batch_plain;
    }
    if (!w->defaults)
        return;
    struct spoor_lane lanes[] = {SPOOR_LANE(w->bargs), SPOOR_LANE(w->order), SPOOR_LANE(w->pending),
                                 SPOOR_LANE(w->fresh)};
    spoor_reserve_lanes(&w->bargs_cap, t->ncols, lanes, sizeof lanes / sizeof *lanes);
    w->nbargs = w->norder = w->npending = 0;
    for (size_t i = 0; i < t->ncols; i++) {
        struct batch_arg *a = &w->bargs[w->nbargs];
        a->key = spoor_strpool_get(t->pool, t->cols[i].name, &a->key_len);
        spoor_view_bind(&a->view, SPOOR_FIELD_ARG, a->key, a->key_len, t, NULL);
        a->reg = reg_find(w, a->key, a->key_len);
        if (a->reg == UINT32_MAX)
            w->pending[w->npending++] = w->nbargs;
        else
            w->order[w->norder++] = w->nbargs;
        w->nbargs++;
    }
    if (w->norder > 1) /* a batch without args has no arrays yet: NULL is no array for qsort */
        qsort_r(w->order, w->norder, sizeof *w->order, by_reg, w->bargs);
    if (w->frozen)
        set_reg_views(w);
}

static int by_key(const void *a, const void *b, void *ctx)
{
    const struct batch_arg *args = ctx;
    const struct batch_arg *x = &args[*(const size_t *)a], *y = &args[*(const size_t *)b];
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    return c ? c : (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

static void add_epoch(struct spoor_writer *w)
{
    spoor_reserve((void **)&w->epochs, &w->epochs_cap, w->nepochs + 1, sizeof *w->epochs);
    w->epochs[w->nepochs++] = (struct csv_epoch){.row = w->rows_out, .ncols = (uint32_t)w->nregs};
}

/* Registers the batch's unregistered args that have a value in this row, by
 * name; after the CSV header, rows from this one on have them. */
static void register_row(struct spoor_writer *w, size_t row)
{
    size_t nfresh = 0, keep = 0, *fresh = w->fresh;
    for (size_t i = 0; i < w->npending; i++) {
        size_t a = w->pending[i];
        if (spoor_view_is_null(&w->bargs[a].view, row))
            w->pending[keep++] = a;
        else
            fresh[nfresh++] = a;
    }
    if (!nfresh)
        return;
    w->npending = keep;
    qsort_r(fresh, nfresh, sizeof *fresh, by_key, w->bargs);
    for (size_t i = 0; i < nfresh; i++) {
        struct batch_arg *a = &w->bargs[fresh[i]];
        a->reg = reg_add(w, a->key, a->key_len);
        w->order[w->norder++] = fresh[i];
    }
    if (w->frozen) {
        add_epoch(w);
        set_reg_views(w);
    }
}

static void csv_header(struct spoor_writer *w)
{
    for (size_t i = 0; i < w->ncols; i++) {
        if (i)
            wbuf_byte(&w->out, ',');
        csv_text(&w->out, w->cols[i].label.text, strlen(w->cols[i].label.text));
    }
    for (size_t r = 0; r < w->nregs; r++) {
        wbuf_byte(&w->out, ',');
        csv_text(&w->out, w->regs[r].text, strlen(w->regs[r].text));
    }
    wbuf_byte(&w->out, '\n');
    w->header_written = true;
}

static void csv_fixed(struct spoor_writer *w, struct wbuf *b, size_t row)
{
    for (size_t i = 0; i < w->ncols; i++) {
        if (i)
            wbuf_byte(b, ',');
        csv_value(b, &w->views[i], row, w->col_plain[i]);
    }
}

/* Writes the header and the held rows; later rows stream. */
static void freeze(struct spoor_writer *w)
{
    csv_header(w);
    for (size_t h = 0; h < w->nhrows; h++) {
        const struct held_row *hr = &w->hrows[h];
        wbuf_put(&w->out, w->held.data + hr->off, hr->len);
        size_t c = hr->cell0, end = hr->cell0 + hr->ncells;
        for (uint32_t r = 0; r < w->nregs; r++) {
            wbuf_byte(&w->out, ',');
            if (c < end && w->hcells[c].reg == r) {
                wbuf_put(&w->out, w->held.data + w->hcells[c].off, w->hcells[c].len);
                c++;
            }
        }
        wbuf_byte(&w->out, '\n');
    }
    w->frozen = true;
    add_epoch(w); /* rows_out is 0 */
    w->rows_out = w->nhrows;
    w->nhrows = w->nhcells = 0;
    wbuf_release(&w->held);
    set_reg_views(w);
}

static void hold_row(struct spoor_writer *w, size_t row)
{
    register_row(w, row);
    spoor_reserve((void **)&w->hrows, &w->hrows_cap, w->nhrows + 1, sizeof *w->hrows);
    struct held_row *hr = &w->hrows[w->nhrows++];
    hr->off = w->held.len;
    csv_fixed(w, &w->held, row);
    hr->len = w->held.len - hr->off;
    hr->cell0 = w->nhcells;
    for (size_t i = 0; i < w->norder; i++) {
        const struct batch_arg *a = &w->bargs[w->order[i]];
        if (spoor_view_is_null(&a->view, row))
            continue;
        spoor_reserve((void **)&w->hcells, &w->hcells_cap, w->nhcells + 1, sizeof *w->hcells);
        struct held_cell *c = &w->hcells[w->nhcells++];
        c->reg = a->reg;
        c->off = w->held.len;
        csv_value(&w->held, &a->view, row, w->batch_plain);
        c->len = w->held.len - c->off;
    }
    hr->ncells = w->nhcells - hr->cell0;
    if (w->nhrows == SPOOR_WRITE_CSV_HOLD)
        freeze(w);
}

static void csv_row(struct spoor_writer *w, size_t row)
{
    if (w->defaults && !w->frozen) {
        hold_row(w, row);
        return;
    }
    if (w->defaults && w->npending)
        register_row(w, row);
    csv_fixed(w, &w->out, row);
    if (w->defaults)
        for (size_t r = 0; r < w->nregs; r++) {
            wbuf_byte(&w->out, ',');
            csv_value(&w->out, &w->reg_views[r], row, w->batch_plain);
        }
    wbuf_byte(&w->out, '\n');
    w->rows_out++;
}

static void json_row(struct spoor_writer *w, size_t row)
{
    struct wbuf *b = &w->out;
    wbuf_byte(b, '{');
    for (size_t i = 0; i < w->ncols; i++) {
        if (i)
            wbuf_byte(b, ',');
        wbuf_put(b, w->cols[i].label.json_key, w->cols[i].label.json_key_len);
        json_value(b, &w->views[i], row, w->col_plain[i]);
    }
    if (w->defaults) {
        if (w->npending)
            register_row(w, row);
        for (size_t i = 0; i < w->norder; i++) {
            const struct batch_arg *a = &w->bargs[w->order[i]];
            if (spoor_view_is_null(&a->view, row))
                continue;
            wbuf_byte(b, ',');
            wbuf_put(b, w->regs[a->reg].json_key, w->regs[a->reg].json_key_len);
            json_value(b, &a->view, row, w->batch_plain);
        }
    }
    wbuf_put(b, "}\n", 2);
}

int spoor_writer_write(struct spoor_writer *w, const struct spoor_table *t, const struct spoor_resolved *res,
                       const uint32_t *sel, size_t n, struct spoor_error *err)
{
    if (!sel)
        n = t->nrows;
    if (!n)
        return wbuf_status(&w->out, err);
    bind_batch(w, t, res);
    bool csv = w->format == SPOOR_WRITE_CSV;
    if (csv && !w->defaults && !w->header_written)
        csv_header(w);
    if (csv && w->defaults && !w->frozen && !w->rewritable && w->nhrows + n >= SPOOR_WRITE_CSV_HOLD) {
        /* The header goes out now: later rows are held in a file until the end. */
        w->spill = csv_spill_open(NULL, err);
        if (!w->spill)
            return err->code;
        w->out.fp = w->spill;
        w->out.name = "the temporary file of the CSV rows";
    }
    for (size_t i = 0; i < n; i++) {
        size_t row = sel ? sel[i] : i;
        if (csv)
            csv_row(w, row);
        else
            json_row(w, row);
    }
    return wbuf_status(&w->out, err);
}

/* Our own output, read back into a new spill file beside it and emptied. */
static int take_back(struct spoor_writer *w, struct spoor_error *err)
{
    int fd = fileno(w->out_fp);
    w->spill = csv_spill_open(w->name, err);
    if (!w->spill)
        return err->code;
    struct wbuf copy;
    wbuf_init(&copy, w->spill, BUF_CAP);
    copy.name = "the temporary file of the CSV rows";
    struct csv_epoch as_is = {.row = 0, .ncols = (uint32_t)w->nregs};
    int st = lseek(fd, 0, SEEK_SET) < 0 ? spoor_fail(err, SPOOR_EIO, "cannot read back %s: %s", w->name, strerror(errno))
                                        : csv_copy_rows(fd, &as_is, 1, as_is.ncols, false, &copy, err);
    if (st == SPOOR_OK)
        st = wbuf_finish(&copy, err);
    wbuf_release(&copy);
    if (st == SPOOR_OK && (ftruncate(fd, 0) != 0 || fseeko(w->out_fp, 0, SEEK_SET) != 0))
        st = spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", w->name, strerror(errno));
    return st;
}

/* The rows a second time, after the final header: from the spill, or read
 * back from the output itself when args columns came after its header. */
static int write_again(struct spoor_writer *w, struct spoor_error *err)
{
    bool widened = w->nepochs > 1;
    int st = wbuf_finish(&w->out, err);
    if (st == SPOOR_OK && !w->spill)
        st = take_back(w, err);
    if (st == SPOOR_OK && (fflush(w->spill) != 0 || lseek(fileno(w->spill), 0, SEEK_SET) < 0))
        st = spoor_fail(err, SPOOR_EIO, "cannot read back the temporary file of the CSV rows: %s", strerror(errno));
    w->out.fp = w->out_fp;
    w->out.name = w->name;
    if (st == SPOOR_OK && widened)
        csv_header(w);
    if (st == SPOOR_OK)
        st = csv_copy_rows(fileno(w->spill), w->epochs, w->nepochs, (uint32_t)w->nregs, widened, &w->out, err);
    if (w->spill)
        fclose(w->spill);
    w->spill = NULL;
    return st == SPOOR_OK ? wbuf_finish(&w->out, err) : st;
}

int spoor_writer_finish(struct spoor_writer *w, struct spoor_error *err)
{
    if (w->format == SPOOR_WRITE_CSV && !w->frozen && (w->defaults || !w->header_written)) {
        if (w->defaults)
            freeze(w);
        else
            csv_header(w);
    }
    if (w->spill || w->nepochs > 1)
        return write_again(w, err);
    return wbuf_finish(&w->out, err);
}

size_t spoor_writer_missing(const struct spoor_writer *w, const char **names, size_t max)
{
    return w->defaults ? 0 : out_cols_missing(w->cols, w->ncols, names, max);
}

int spoor_columns_parse(const char *list, char ***names, size_t *n, struct spoor_error *err)
{
    *names = NULL;
    *n = 0;
    size_t cap = 0;
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        const char *a = p, *z = end;
        while (a < z && (*a == ' ' || *a == '\t'))
            a++;
        while (z > a && (z[-1] == ' ' || z[-1] == '\t'))
            z--;
        if (a == z) {
            size_t pos = (size_t)(p - list) + 1;
            spoor_columns_free(*names, *n);
            *names = NULL;
            *n = 0;
            return spoor_fail(err, SPOOR_EUSAGE, "empty column name at position %zu", pos);
        }
        spoor_reserve((void **)names, &cap, *n + 1, sizeof **names);
        char *name = spoor_xmalloc((size_t)(z - a) + 1);
        memcpy(name, a, (size_t)(z - a));
        name[z - a] = '\0';
        (*names)[(*n)++] = name;
        if (!*end)
            return SPOOR_OK;
        p = end + 1;
    }
}

void spoor_columns_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

enum spoor_write_format spoor_write_format_of_path(const char *path)
{
    bool jsonl = path && (ends_with(path, ".jsonl") || ends_with(path, ".json") || ends_with(path, ".ndjson"));
    return jsonl ? SPOOR_WRITE_JSONL : SPOOR_WRITE_CSV;
}
