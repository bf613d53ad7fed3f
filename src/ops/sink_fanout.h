/* One loader sink that hands every batch to several: a command that runs
 * several recipes over one pass (spoor report: summary, charts, timeline).
 * map() and reduce() call each sink's own in order; the first error stops. */
#ifndef SPOOR_OPS_SINK_FANOUT_H
#define SPOOR_OPS_SINK_FANOUT_H

#include <stddef.h>

#include "spoor/load.h"

#define SINK_FANOUT_MAX 8

struct sink_fanout {
    struct spoor_sink sinks[SINK_FANOUT_MAX];
    size_t n;
};

/* Adds a sink (at most SINK_FANOUT_MAX). */
void sink_fanout_add(struct sink_fanout *f, struct spoor_sink sink);
/* The sink to load with; f must outlive the load. */
struct spoor_sink sink_fanout(struct sink_fanout *f);

#endif
