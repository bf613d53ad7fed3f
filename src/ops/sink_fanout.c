/* Several sinks as one (see sink_fanout.h). */
#include "ops/sink_fanout.h"

#include "spoor/error.h"

#include <stdlib.h>

void sink_fanout_add(struct sink_fanout *f, struct spoor_sink sink)
{
    if (f->n == SINK_FANOUT_MAX)
        abort(); /* a programming error: the callers add a fixed few */
    f->sinks[f->n++] = sink;
}

static int fanout_map(void *ctx, int worker, const struct spoor_table *batch)
{
    struct sink_fanout *f = ctx;
    for (size_t i = 0; i < f->n; i++) {
        int st = f->sinks[i].map ? f->sinks[i].map(f->sinks[i].ctx, worker, batch) : SPOOR_OK;
        if (st != SPOOR_OK)
            return st;
    }
    return SPOOR_OK;
}

static int fanout_reduce(void *ctx, size_t input, const struct spoor_table *batch)
{
    struct sink_fanout *f = ctx;
    for (size_t i = 0; i < f->n; i++) {
        int st = f->sinks[i].reduce ? f->sinks[i].reduce(f->sinks[i].ctx, input, batch) : SPOOR_OK;
        if (st != SPOOR_OK)
            return st;
    }
    return SPOOR_OK;
}

struct spoor_sink sink_fanout(struct sink_fanout *f)
{
    return (struct spoor_sink){.ctx = f, .map = fanout_map, .reduce = fanout_reduce};
}
