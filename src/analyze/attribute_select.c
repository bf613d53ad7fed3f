/* Which rows are the calls and which the kernel events (see spoor/attribute.h). */
#include "spoor/attribute.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ops/event_bytes.h"
#include "ops/strmatch.h"
#include "spoor/load.h"
#include "analyze/attribute_rules.h"

static uint32_t *select_all(const struct spoor_table *t, const struct spoor_resolved *res,
                            const struct spoor_expr *e, size_t *n)
{
    uint32_t *rows = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    struct spoor_expr_ctx *c = spoor_expr_ctx_new(e);
    spoor_expr_bind(c, t, res);
    *n = spoor_expr_select(c, rows);
    spoor_expr_ctx_free(c);
    return rows;
}

/* Keeps the calls whose resolved file matches glob (an unknown file never
 * does); each distinct file is matched once. */
static size_t keep_file(const struct spoor_resolved *res, const char *glob, uint32_t *calls, size_t n)
{
    size_t kept = 0, glen = strlen(glob);
    enum { UNSEEN, MISS, MATCH };
    uint8_t *verdict = spoor_xcalloc(spoor_strpool_count(res->pool) + 1, 1);
    for (size_t i = 0; i < n; i++) {
        uint32_t id = res->file[calls[i]];
        if (id && verdict[id] == UNSEEN) {
            size_t len;
            const char *file = spoor_strpool_get(res->pool, id, &len);
            verdict[id] = strmatch_glob(glob, glen, file, len) ? MATCH : MISS;
        }
        if (id && verdict[id] == MATCH)
            calls[kept++] = calls[i];
    }
    free(verdict);
    return kept;
}

/* Kernel-side cats: kernel subsystems and probe kinds, a small vocabulary,
 * where applications name their own cats freely (DLIO alone writes storage,
 * data_loader, reader, ...). So the default lists the kernel side, and an
 * unknown cat is left out, and named (spoor_attr_left_out), rather than
 * taken: a user-space function taken for a kernel one would fake coverage. */
static const char *const kernel_cats[] = {
    "sys",  "syscall", "syscalls", "os_cache", "page_cache", "filemap", "writeback", "vfs",  "ext2",     "ext3",
    "ext4", "xfs",     "btrfs",    "f2fs",     "zfs",        "nfs",     "nfs4",      "lustre", "gpfs",   "fuse",
    "jbd2", "iomap",   "block",    "blk",      "bio",        "scsi",    "nvme",      "mm",   "sched",    "net",
    "irq",  "io_uring",
};
static const char *const kernel_prefixes[] = {"kprobe",  "kretprobe", "kfunc",          "kretfunc", "fentry",
                                              "fexit",   "tracepoint", "raw_tracepoint", "kern"};

bool spoor_attr_kernel_cat(const char *cat, size_t len)
{
    for (size_t i = 0; i < sizeof kernel_cats / sizeof *kernel_cats; i++)
        if (strlen(kernel_cats[i]) == len && !strncasecmp(cat, kernel_cats[i], len))
            return true;
    for (size_t i = 0; i < sizeof kernel_prefixes / sizeof *kernel_prefixes; i++)
        if (len >= strlen(kernel_prefixes[i]) && !strncasecmp(cat, kernel_prefixes[i], strlen(kernel_prefixes[i])))
            return true;
    return false;
}

enum cat_role { ROLE_LEFT_OUT, ROLE_CALL, ROLE_KERNEL };

/* Per cat id of t: a call's cat, kernel-side, or left out. */
static uint8_t *cat_roles(const struct spoor_table *t, const uint32_t *calls, size_t ncalls)
{
    size_t ncats = spoor_strpool_count(t->pool);
    uint8_t *role = spoor_xcalloc(ncats ? ncats : 1, 1);
    for (uint32_t id = 0; id < ncats; id++) {
        size_t len;
        const char *s = spoor_strpool_get(t->pool, id, &len);
        role[id] = spoor_attr_kernel_cat(s, len) ? ROLE_KERNEL : ROLE_LEFT_OUT;
    }
    for (size_t i = 0; i < ncalls; i++)
        role[t->cat[calls[i]]] = ROLE_CALL;
    return role;
}

/* Every event (not metadata) of a kernel-side cat that is no call's. */
static uint32_t *default_events(const struct spoor_table *t, const uint32_t *calls, size_t ncalls, size_t *n)
{
    uint8_t *role = cat_roles(t, calls, ncalls);
    uint32_t *rows = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    *n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (role[t->cat[r]] == ROLE_KERNEL && t->ph[r] != 'M')
            rows[(*n)++] = (uint32_t)r;
    free(role);
    return rows;
}

char *spoor_attr_left_out(const struct spoor_table *t, const uint32_t *calls, size_t ncalls)
{
    uint8_t *role = cat_roles(t, calls, ncalls);
    size_t ncats = spoor_strpool_count(t->pool), len = 0;
    bool *seen = spoor_xcalloc(ncats ? ncats : 1, sizeof *seen);
    for (size_t r = 0; r < t->nrows; r++)
        if (role[t->cat[r]] == ROLE_LEFT_OUT && t->ph[r] != 'M' && !seen[t->cat[r]]) {
            seen[t->cat[r]] = true;
            len += strlen(spoor_table_str(t, t->cat[r])) + 2;
        }
    char *list = NULL;
    if (len) {
        list = spoor_xcalloc(len + 1, 1);
        for (uint32_t id = 0; id < ncats; id++)
            if (seen[id]) {
                if (*list)
                    strcat(list, ", ");
                strcat(list, spoor_table_str(t, id));
            }
    }
    free(seen);
    free(role);
    return list;
}

static bool names_resolved(const struct spoor_expr *e)
{
    const struct spoor_expr_ref *refs;
    size_t n = e ? spoor_expr_refs(e, &refs) : 0;
    for (size_t i = 0; i < n; i++)
        if (refs[i].field == SPOOR_FIELD_FILE || refs[i].field == SPOOR_FIELD_HOST)
            return true;
    return false;
}

const struct spoor_resolved *spoor_attr_select_rows(const struct spoor_table *t, struct spoor_resolver *resolver,
                                                    const struct spoor_attr_select *sel, uint32_t **calls,
                                                    size_t *ncalls, uint32_t **events, size_t *nevents)
{
    /* Resolving is per row: when no expression names file or host, only the
     * calls' files are needed. */
    bool every_row = names_resolved(sel->calls) || names_resolved(sel->events);
    const struct spoor_resolved *res = every_row ? spoor_resolver_resolve(resolver, t) : NULL;
    *calls = select_all(t, res, sel->calls, ncalls);
    /* Before the file filter: a call on another file is still no kernel event. */
    *events = sel->events ? select_all(t, res, sel->events, nevents) : default_events(t, *calls, *ncalls, nevents);
    *nevents = spoor_attr_drop_callers(t, *calls, *ncalls, *events, *nevents);
    if (!every_row)
        res = spoor_resolver_resolve_rows(resolver, t, *calls, *ncalls);
    if (sel->file_glob)
        *ncalls = keep_file(res, sel->file_glob, *calls, *ncalls);
    return res;
}

static void need_refs(const struct spoor_table *t, const struct spoor_expr *e, struct spoor_snapshot_need *need)
{
    const struct spoor_expr_ref *refs;
    size_t n = e ? spoor_expr_refs(e, &refs) : 0;
    for (size_t i = 0; i < n; i++)
        spoor_field_need(t, refs[i].field, refs[i].key, refs[i].key_len, need);
}

void spoor_attr_columns_read(const struct spoor_table *t, const struct spoor_attr_select *sel,
                             struct spoor_snapshot_need *need)
{
    static const char *const args[] = {"call_id", EVENT_BYTES_KEYS};
    *need = (struct spoor_snapshot_need){
        .fixed = 1u << SPOOR_SNAP_TS | 1u << SPOOR_SNAP_DUR | 1u << SPOOR_SNAP_PID | 1u << SPOOR_SNAP_TID |
                 1u << SPOOR_SNAP_LINE | 1u << SPOOR_SNAP_NAME | 1u << SPOOR_SNAP_CAT,
        .args = spoor_xmalloc((t->ncols ? t->ncols : 1) * sizeof *need->args),
    };
    for (size_t i = 0; i < sizeof args / sizeof *args; i++)
        spoor_field_need(t, SPOOR_FIELD_ARG, args[i], strlen(args[i]), need);
    spoor_field_need(t, SPOOR_FIELD_FILE, NULL, 0, need);
    need_refs(t, sel->calls, need);
    need_refs(t, sel->events, need);
}
