/* The window features by name (window_columns.h). */
#include "window_columns.h"

/* __builtin_offsetof: the headers that define offsetof differ in the kernel */
#define COLUMN(name, field, q16) {name, __builtin_offsetof(struct spoor_wf_features, field), q16}
const struct spoor_wf_column spoor_wf_columns[SPOOR_WF_NCOLUMNS] = {
    COLUMN("requests", requests, false),
    COLUMN("bytes", bytes, false),
    COLUMN("size_mean", size_mean_q16, true),
    COLUMN("size_median", size_median, false),
    COLUMN("iops", iops_q16, true),
    COLUMN("bandwidth", bandwidth_q16, true),
    COLUMN("completions", completions, false),
    COLUMN("latency_mean", latency_mean_q16, true),
    COLUMN("latency_p50", latency_p50, false),
    COLUMN("latency_p99", latency_p99, false),
    COLUMN("distance_mean", distance_mean_q16, true),
    COLUMN("jump_ratio", jump_ratio_q16, true),
    COLUMN("sequential_ratio", sequential_ratio_q16, true),
    COLUMN("queue_depth_mean", queue_depth_mean_q16, true),
};
#undef COLUMN

const char *const spoor_wf_op_names[SPOOR_WF_NOPS] = {"read", "write"};

/* The rest of name after prefix, or a null pointer when it does not start so (no NULL here: no stddef.h). */
static const char *after_prefix(const char *name, const char *prefix)
{
    while (*prefix)
        if (*name++ != *prefix++)
            return 0;
    return name;
}

static bool same(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

bool spoor_wf_find_column(const char *name, unsigned *op, unsigned *column)
{
    for (unsigned o = 0; o < SPOOR_WF_NOPS; o++) {
        const char *rest = after_prefix(name, spoor_wf_op_names[o]);
        if (!rest || *rest != '_')
            continue;
        for (unsigned c = 0; c < SPOOR_WF_NCOLUMNS; c++)
            if (same(rest + 1, spoor_wf_columns[c].name)) {
                *op = o;
                *column = c;
                return true;
            }
    }
    return false;
}

int64_t spoor_wf_column_q16(const struct spoor_wf_features f[SPOOR_WF_NOPS], unsigned op, unsigned column)
{
    const struct spoor_wf_column *c = &spoor_wf_columns[column];
    uint64_t v = *(const uint64_t *)((const char *)&f[op] + c->offset);
    const uint64_t max = ~(uint64_t)0 >> 1; /* the largest int64_t (the kernel has no INT64_MAX) */
    if (!c->q16)
        v = v > max >> SPOOR_WF_Q ? max : v << SPOOR_WF_Q;
    return (int64_t)(v > max ? max : v);
}
