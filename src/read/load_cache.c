/* An input's snapshot as the loader sees it: where it is, whether it may serve
 * this load (and the report it replays), and writing it after a whole-table
 * load. */
#include "read/load_snapshot.h"
#include "table/snapshot.h"
#include "io/input.h"

#include <stdlib.h>
#include <string.h>

bool load_cache_find(const char *trace, const struct spoor_load_opts *opts, struct load_cache *c)
{
    if (opts->no_cache || spoor_input_is_stream(trace) ||
        spoor_fingerprint_file(trace, &c->key.trace, NULL) != SPOOR_OK)
        return false;
    c->key.options = load_options_hash(&opts->read);
    spoor_snapshot_path(trace, opts->cache_dir, c->path, sizeof c->path);
    return true;
}

/* Puts back the report a failed snapshot had filled in. */
static void forget_report(struct spoor_input_report *rep, const struct spoor_input_report *fresh)
{
    free(rep->warning);
    free(rep->text);
    *rep = *fresh;
}

/* The snapshot, its columns not verified yet, with rep filled from its report. */
static struct spoor_snapshot *open_with_report(const struct load_cache *c, const struct spoor_load_opts *opts,
                                               struct spoor_input_report *rep)
{
    struct spoor_snapshot *snap = spoor_snapshot_open(c->path, rep->path, &c->key);
    if (!snap)
        return NULL;
    struct spoor_input_report fresh = *rep;
    size_t len;
    const uint8_t *report = spoor_snapshot_report(snap, &len);
    if (!load_report_decode(report, len, rep) || (opts->read.strict && (rep->skips.total || rep->warning))) {
        forget_report(rep, &fresh);
        spoor_snapshot_close(snap);
        return NULL;
    }
    rep->disk_bytes = c->key.trace.size;
    return snap;
}

struct spoor_snapshot *load_cache_open(const struct load_cache *c, const struct spoor_load_opts *opts,
                                       struct spoor_input_report *rep)
{
    struct spoor_input_report fresh = *rep;
    struct spoor_snapshot *snap = open_with_report(c, opts, rep);
    if (snap && !spoor_snapshot_verify(snap, NULL)) {
        forget_report(rep, &fresh);
        spoor_snapshot_close(snap);
        return NULL;
    }
    return snap;
}

struct spoor_table *load_cache_table(const struct load_cache *c, const struct spoor_load_opts *opts,
                                     struct spoor_input_report *rep)
{
    struct spoor_input_report fresh = *rep;
    struct spoor_snapshot *snap = open_with_report(c, opts, rep);
    if (!snap)
        return NULL;
    const struct spoor_read_opts *o = &opts->read;
    uint32_t *ids = spoor_xmalloc((o->n_arg_keys ? o->n_arg_keys : 1) * sizeof *ids);
    struct spoor_snapshot_cols cols = load_wanted_columns(snap, o, ids);
    struct spoor_table *t = spoor_snapshot_table(snap, &cols);
    free(ids);
    struct spoor_snapshot_need need = {0};
    if (opts->columns_read)
        opts->columns_read(opts->columns_read_ctx, t, &need);
    bool ok = spoor_snapshot_verify(snap, opts->columns_read ? &need : NULL);
    free(need.args);
    if (!ok) {
        forget_report(rep, &fresh);
        spoor_table_free(t); /* closes snap */
        return NULL;
    }
    return t;
}

void load_cache_write(const struct load_cache *c, const struct spoor_table *t, struct spoor_input_report *rep)
{
    size_t len;
    uint8_t *report = load_report_encode(rep, &len);
    struct spoor_error e;
    if (spoor_snapshot_write(c->path, &c->key, t, report, len, &e) != SPOOR_OK && !rep->warning)
        rep->warning = spoor_xstrdup(e.msg);
    free(report);
}

struct spoor_snapshot_cols load_wanted_columns(const struct spoor_snapshot *snap, const struct spoor_read_opts *o,
                                               uint32_t *ids)
{
    struct spoor_snapshot_cols cols = {.all = o->args == SPOOR_ARGS_ALL, .names = ids};
    for (size_t i = 0; o->args == SPOOR_ARGS_LISTED && i < o->n_arg_keys; i++) {
        uint32_t id = spoor_strpool_find(spoor_snapshot_pool(snap), o->arg_keys[i], strlen(o->arg_keys[i]));
        if (id != UINT32_MAX)
            ids[cols.n++] = id;
    }
    return cols;
}
