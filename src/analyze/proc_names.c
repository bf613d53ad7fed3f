/* Process names (see proc_names.h): per worker, votes per (pid, source,
 * name, command), texts interned in the worker's pool; at the end, the
 * votes of every worker summed and one name chosen per pid. */
#include "analyze/proc_names.h"

#include "spoor/error.h"
#include "spoor/report.h"
#include "util/grow.h"
#include "util/id_map.h"

#include <stdlib.h>
#include <string.h>

struct names_worker {
    struct spoor_strpool *texts;
    struct spoor_id_map keys;       /* pid, source, name id, command id */
    uint64_t *votes;                /* per key id */
    size_t votes_cap;
    uint32_t *str_of;               /* per batch: its string id -> the worker's, UINT32_MAX unknown */
    size_t str_cap;
    uint32_t *file_of;              /* per batch: its input -> the worker's id of its file name */
    size_t file_cap;
};

struct proc_names_run {
    struct names_worker *workers;
    int threads;
};

static const char *const source_names[PROC_SOURCES] = {"ps", "trace", "comm", "log"};

const char *proc_source_name(enum proc_source s) { return source_names[s]; }

struct proc_names_run *proc_names_begin(int threads)
{
    struct proc_names_run *run = spoor_xcalloc(1, sizeof *run);
    run->threads = threads > 0 ? threads : 1;
    run->workers = spoor_xcalloc((size_t)run->threads, sizeof *run->workers);
    for (int i = 0; i < run->threads; i++) {
        run->workers[i].texts = spoor_strpool_new();
        spoor_id_map_init(&run->workers[i].keys, 4);
    }
    return run;
}

static uint32_t worker_text(struct names_worker *w, const char *s, size_t len)
{
    return spoor_strpool_intern(w->texts, s, len);
}

static uint32_t batch_text(struct names_worker *w, const struct spoor_table *b, uint32_t id)
{
    if (w->str_of[id] == UINT32_MAX) {
        size_t len;
        const char *s = spoor_strpool_get(b->pool, id, &len);
        w->str_of[id] = worker_text(w, s, len);
    }
    return w->str_of[id];
}

static void vote(struct names_worker *w, int64_t pid, enum proc_source source, uint32_t name, uint32_t command)
{
    if (pid == SPOOR_NULL || !name)
        return;
    uint64_t key[4] = {(uint64_t)pid, source, name, command};
    uint32_t id = spoor_id_map_id_words(&w->keys, key);
    spoor_grow((void **)&w->votes, &w->votes_cap, id, sizeof *w->votes);
    w->votes[id]++;
}

/* A string column of the batch, or NULL (absent, or holding numbers). */
static const struct spoor_column *text_column(const struct spoor_table *b, const char *name)
{
    const struct spoor_column *c = spoor_table_find_column(b, name);
    return c && c->typed && c->type == SPOOR_STR ? c : NULL;
}

static uint32_t cat_id(const struct spoor_table *b, const char *cat)
{
    return spoor_strpool_find(b->pool, cat, strlen(cat));
}

/* The worker's id of the last path part of each input's name. */
static void file_names(struct names_worker *w, const struct spoor_table *b)
{
    spoor_grow((void **)&w->file_of, &w->file_cap, b->nsources, sizeof *w->file_of);
    for (size_t i = 0; i < b->nsources; i++) {
        const char *slash = strrchr(b->sources[i], '/'), *base = slash ? slash + 1 : b->sources[i];
        w->file_of[i] = worker_text(w, base, strlen(base));
    }
}

/* The trace's own names: its process lookup (pid as text -> name). */
static void trace_names(struct names_worker *w, const struct spoor_table *b)
{
    const struct spoor_lookup *l = &b->lookups[SPOOR_LOOKUP_PROCESS];
    for (size_t i = 0; i < l->n; i++) {
        const char *key = spoor_strpool_get(b->pool, l->keys[i], NULL);
        char *end;
        long long pid = strtoll(key, &end, 10);
        if (end != key && !*end)
            vote(w, pid, PROC_TRACE, batch_text(w, b, l->values[i]), 0);
    }
}

void proc_names_add(struct proc_names_run *run, int worker, const struct spoor_table *b)
{
    struct names_worker *w = &run->workers[worker];
    size_t nstrings = spoor_strpool_count(b->pool);
    spoor_grow((void **)&w->str_of, &w->str_cap, nstrings, sizeof *w->str_of);
    memset(w->str_of, 0xff, nstrings * sizeof *w->str_of);
    file_names(w, b);
    trace_names(w, b);
    const struct spoor_column *comm = text_column(b, "comm"), *command = text_column(b, "command"),
                              *logger = text_column(b, "logger");
    uint32_t ps = cat_id(b, "ps"), pmon = cat_id(b, "pmon"), log = cat_id(b, "log"), mllog = cat_id(b, "mllog");
    for (size_t r = 0; r < b->nrows; r++) {
        int64_t pid = b->pid[r];
        if (pid == SPOOR_NULL)
            continue;
        uint32_t cat = b->cat[r];
        if (cat == ps && b->ph[r] == 'M')
            vote(w, pid, PROC_PS, batch_text(w, b, b->name[r]),
                 command && spoor_column_valid(command, r) ? batch_text(w, b, command->str[r]) : 0);
        else if (comm && spoor_column_valid(comm, r))
            vote(w, pid, PROC_COMM, batch_text(w, b, comm->str[r]), 0);
        else if (cat == pmon)
            vote(w, pid, PROC_COMM, batch_text(w, b, b->name[r]), 0);
        else if (logger && spoor_column_valid(logger, r))
            vote(w, pid, PROC_LOG, batch_text(w, b, logger->str[r]), 0);
        else if (cat == log || cat == mllog)
            vote(w, pid, PROC_LOG, b->src[r] < b->nsources ? w->file_of[b->src[r]] : 0, 0);
    }
}

struct vote_row {
    int64_t pid;
    enum proc_source source;
    const char *name, *command; /* interned in the out pool */
    uint64_t votes;
};

static int vote_order(const void *pa, const void *pb)
{
    const struct vote_row *a = pa, *b = pb;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->command, b->command);
}

static const char *out_text(struct spoor_strpool *pool, const struct spoor_strpool *from, uint32_t id)
{
    size_t len;
    const char *s = spoor_strpool_get(from, id, &len);
    return spoor_strpool_get(pool, spoor_strpool_intern(pool, s, len), NULL);
}

void proc_names_end(struct proc_names_run *run, struct proc_names *out)
{
    memset(out, 0, sizeof *out);
    out->pool = spoor_strpool_new();
    size_t total = 0;
    for (int i = 0; i < run->threads; i++)
        total += run->workers[i].keys.n;
    struct vote_row *rows = spoor_xmalloc((total ? total : 1) * sizeof *rows);
    size_t n = 0;
    for (int i = 0; i < run->threads; i++) {
        struct names_worker *w = &run->workers[i];
        for (size_t k = 0; k < w->keys.n; k++) {
            const uint64_t *key = w->keys.keys + 4 * k;
            rows[n++] = (struct vote_row){(int64_t)key[0], (enum proc_source)key[1],
                                          out_text(out->pool, w->texts, (uint32_t)key[2]),
                                          out_text(out->pool, w->texts, (uint32_t)key[3]), w->votes[k]};
        }
        spoor_strpool_free(w->texts);
        spoor_id_map_free(&w->keys);
        free(w->votes);
        free(w->str_of);
        free(w->file_of);
    }
    free(run->workers);
    free(run);
    qsort(rows, n, sizeof *rows, vote_order);
    size_t u = 0; /* the same key from several workers: one row */
    for (size_t i = 0; i < n; i++) {
        if (u && !vote_order(&rows[u - 1], &rows[i]))
            rows[u - 1].votes += rows[i].votes;
        else
            rows[u++] = rows[i];
    }
    out->v = spoor_xmalloc((u ? u : 1) * sizeof *out->v);
    for (size_t i = 0; i < u;) {
        /* the pid's first source; its most votes, the first by text on a tie */
        size_t best = i;
        for (size_t j = i + 1; j < u && rows[j].pid == rows[i].pid && rows[j].source == rows[i].source; j++)
            if (rows[j].votes > rows[best].votes)
                best = j;
        const struct vote_row *b = &rows[best];
        out->v[out->n++] = (struct proc_name){b->pid, b->name, *b->command ? b->command : NULL, b->source, b->votes};
        while (i < u && rows[i].pid == b->pid)
            i++;
    }
    free(rows);
}

void proc_names_free(struct proc_names *n)
{
    free(n->v);
    spoor_strpool_free(n->pool);
    memset(n, 0, sizeof *n);
}

const char *proc_names_of(const struct proc_names *n, int64_t pid)
{
    size_t lo = 0, hi = n->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (n->v[mid].pid == pid)
            return n->v[mid].name;
        if (n->v[mid].pid < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

void proc_names_sheet(struct spoor_report *r, const struct proc_names *n)
{
    static const char *const heads[] = {"pid", "name", "source", "votes", "command"};
    static const enum spoor_cell_unit units[] = {SPOOR_CU_NONE, SPOOR_CU_NONE, SPOOR_CU_NONE, SPOOR_CU_COUNT,
                                                 SPOOR_CU_NONE};
    unsigned formats = SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE) | SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON) |
                       SPOOR_FORMAT_BIT(SPOOR_FORMAT_HTML);
    struct spoor_sheet *s = spoor_report_rows(r, "processes", 5, formats);
    for (size_t c = 0; c < 5; c++) /* a table, no chart */
        spoor_sheet_column(s, c, heads[c], units[c], 0, SPOOR_HINT_NONE);
    spoor_sheet_title(s, "processes (named from ps, then the trace's names, then COMM, then logs)");
    for (size_t i = 0; i < n->n; i++) {
        const struct proc_name *p = &n->v[i];
        spoor_sheet_int(s, p->pid);
        spoor_sheet_text(s, p->name);
        spoor_sheet_name(s, source_names[p->source]);
        spoor_sheet_count(s, p->votes);
        if (p->command)
            spoor_sheet_text(s, p->command);
        else
            spoor_sheet_null(s);
    }
}
