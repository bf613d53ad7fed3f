/* Rows that are utilisation samples, not calls: mpstat's and nvidia-smi
 * pmon's (ph C of cat mpstat or pmon). The job report draws them as counter
 * tracks (timeline_counters.h); the summary, the report's charts and the
 * timeline's lanes leave them out. Other C rows (a DataCrumbs profile's
 * intervals) aggregate calls and stay. */
#ifndef SPOOR_ANALYZE_COUNTER_SAMPLES_H
#define SPOOR_ANALYZE_COUNTER_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "spoor/table.h"

/* A batch's ids of the two cats, UINT32_MAX when absent (then no row has it). */
struct counter_cats {
    uint32_t mpstat, pmon;
};

static inline struct counter_cats counter_cats_of(const struct spoor_table *b)
{
    return (struct counter_cats){spoor_strpool_find(b->pool, "mpstat", 6), spoor_strpool_find(b->pool, "pmon", 4)};
}

static inline bool counter_sample(const struct counter_cats *c, const struct spoor_table *b, size_t r)
{
    return b->ph[r] == 'C' && (b->cat[r] == c->mpstat || b->cat[r] == c->pmon);
}

#endif
