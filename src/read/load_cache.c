/* An input's snapshot as the loader sees it: where it is, whether it may serve
 * this load (and the report it replays), and writing it after a whole-table
 * load. */
#include "read/load_snapshot.h"

#include <stdlib.h>
#include <string.h>

bool load_cache_find(const char *trace, const struct spoor_load_opts *opts, struct load_cache *c)
{
    if (opts->no_cache || spoor_fingerprint_file(trace, &c->key.trace, NULL) != SPOOR_OK)
        return false;
    c->key.options = load_options_hash(&opts->read);
    spoor_snapshot_path(trace, opts->cache_dir, c->path, sizeof c->path);
    return true;
}

struct spoor_snapshot *load_cache_open(const struct load_cache *c, const struct spoor_load_opts *opts,
                                       struct spoor_input_report *rep)
{
    struct spoor_snapshot *snap = spoor_snapshot_open(c->path, rep->path, &c->key);
    if (!snap)
        return NULL;
    struct spoor_input_report fresh = *rep;
    size_t len;
    const uint8_t *report = spoor_snapshot_report(snap, &len);
    if (!load_report_decode(report, len, rep) || (opts->read.strict && (rep->skips.total || rep->warning))) {
        free(rep->warning);
        free(rep->text);
        *rep = fresh;
        spoor_snapshot_close(snap);
        return NULL;
    }
    rep->disk_bytes = c->key.trace.size;
    return snap;
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
