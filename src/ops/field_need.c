/* The stored columns a field is read from, for verifying only those of a
 * table mapped from a snapshot (spoor/load.h). */
#include "spoor/table.h"
#include "spoor/load.h"

#include <string.h>

static void need_arg(const struct spoor_table *t, const char *key, size_t key_len,
                     struct spoor_snapshot_need *need)
{
    uint32_t name = spoor_strpool_find(t->pool, key, key_len);
    bool stored = false;
    for (size_t i = 0; i < t->ncols && !stored; i++)
        stored = t->cols[i].name == name;
    for (size_t i = 0; i < need->nargs && stored; i++)
        stored = need->args[i] != name;
    if (stored)
        need->args[need->nargs++] = name;
}

void spoor_field_need(const struct spoor_table *t, enum spoor_field field, const char *key, size_t key_len,
                      struct spoor_snapshot_need *need)
{
    static const int fixed_bit[] = {
        [SPOOR_FIELD_TS] = SPOOR_SNAP_TS,     [SPOOR_FIELD_DUR] = SPOOR_SNAP_DUR, [SPOOR_FIELD_NAME] = SPOOR_SNAP_NAME,
        [SPOOR_FIELD_CAT] = SPOOR_SNAP_CAT,   [SPOOR_FIELD_PID] = SPOOR_SNAP_PID, [SPOOR_FIELD_TID] = SPOOR_SNAP_TID,
        [SPOOR_FIELD_PH] = SPOOR_SNAP_PH,     [SPOOR_FIELD_LINE] = SPOOR_SNAP_LINE,
    };
    switch (field) {
    case SPOOR_FIELD_SOURCE: break; /* not stored: every row is the one input */
    case SPOOR_FIELD_FILE:
    case SPOOR_FIELD_HOST: {
        const char *keys[2];
        spoor_resolver_keys(field, keys);
        need_arg(t, keys[0], strlen(keys[0]), need);
        need_arg(t, keys[1], strlen(keys[1]), need);
        break;
    }
    case SPOOR_FIELD_ARG: need_arg(t, key, key_len, need); break;
    default: need->fixed |= 1u << fixed_bit[field]; break;
    }
}
