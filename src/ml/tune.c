/* `spoor tune`'s decisions (spoor/tune.h): windows from the streaming
 * windows (analyze/window_stream.c), classes from the model, readahead from
 * the policy the kernel module shares (features/readahead_policy.c). */
#include "spoor/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/window_stream.h"
#include "features/readahead_policy.h"
#include "features/window_columns.h"
#include "read/blk.h"
#include "util/grow.h"

struct device_policy {
    bool started;
    struct spoor_rap_state state;
};

struct spoor_tuner {
    const struct spoor_model *m;
    struct spoor_tune_opts o;
    struct spoor_rap_config policy;
    unsigned *feat_op, *feat_column;    /* each model input's window column */
    double *inputs, *scores;
    struct window_stream *ws;
    struct device_policy *devs;
    size_t devs_cap;
    uint32_t start_kb;                  /* the readahead a device has before its first window */
    uint32_t only_dev;                  /* rows of this device only; UINT32_MAX: all */
    spoor_tune_row_fn row;
    void *ctx;
    /* live: the ftrace reader and its join, fed a buffer of lines at a time */
    struct spoor_dialect dialect;
    struct spoor_read_opts read_opts;
    struct spoor_table *batch;
    struct spoor_skips skips;
};

static int check_model(const struct spoor_model *m, const char *name, struct spoor_tuner *t, struct spoor_error *err)
{
    for (size_t i = 0; i < m->nfeat; i++)
        if (!spoor_wf_find_column(m->feat_names[i], &t->feat_op[i], &t->feat_column[i]))
            return spoor_fail(err, SPOOR_EUSAGE,
                              "%s: feature '%s' is not a window column (the read_* and write_* columns of spoor "
                              "windows)",
                              name, m->feat_names[i]);
    if (!m->action_name || strcmp(m->action_name, SPOOR_TUNE_ACTION))
        return spoor_fail(err, SPOOR_EUSAGE,
                          "%s: no %s action (train with --actions %s:CLASS=KB,...)%s%s", name, SPOOR_TUNE_ACTION,
                          SPOOR_TUNE_ACTION, m->action_name ? "; it has " : "", m->action_name ? m->action_name : "");
    return SPOOR_OK;
}

static int check_opts(const struct spoor_tune_opts *o, struct spoor_error *err)
{
    if (o->every_ns <= 0)
        return spoor_fail(err, SPOOR_EUSAGE, "--every must be more than 0");
    if (o->hysteresis < 1)
        return spoor_fail(err, SPOOR_EUSAGE, "--hysteresis must be at least 1");
    if (o->min_kb > o->max_kb)
        return spoor_fail(err, SPOOR_EUSAGE, "--min-kb %u is above --max-kb %u", o->min_kb, o->max_kb);
    return SPOOR_OK;
}

int spoor_tuner_new(const struct spoor_model *m, const char *name, const struct spoor_tune_opts *o,
                    struct spoor_tuner **out, struct spoor_error *err)
{
    *out = NULL;
    int st = check_opts(o, err);
    if (st != SPOOR_OK)
        return st;
    struct spoor_tuner *t = spoor_xcalloc(1, sizeof *t);
    t->m = m;
    t->o = *o;
    t->policy = (struct spoor_rap_config){o->hysteresis, o->min_kb, o->max_kb, o->min_requests};
    t->feat_op = spoor_xcalloc(m->nfeat + 1, sizeof *t->feat_op);
    t->feat_column = spoor_xcalloc(m->nfeat + 1, sizeof *t->feat_column);
    t->inputs = spoor_xcalloc(m->nfeat + 1, sizeof *t->inputs);
    t->scores = spoor_xcalloc(m->nclasses + 1, sizeof *t->scores);
    t->only_dev = UINT32_MAX;
    st = check_model(m, name, t, err);
    if (st != SPOOR_OK) {
        spoor_tuner_free(t);
        return st;
    }
    *out = t;
    return SPOOR_OK;
}

void spoor_tuner_free(struct spoor_tuner *t)
{
    if (!t)
        return;
    free(t->feat_op);
    free(t->feat_column);
    free(t->inputs);
    free(t->scores);
    free(t->devs);
    window_stream_free(t->ws);
    if (t->dialect.format)
        t->dialect.format->release(&t->dialect);
    spoor_table_free(t->batch);
    free(t);
}

/* The class of a window's features: each input as spoor windows' CSV holds
 * it (the Q16 value over 2^16, exact in a double), as spoor predict reads it. */
static uint32_t classify(struct spoor_tuner *t, const struct spoor_wf_features f[SPOOR_WF_NOPS])
{
    for (size_t i = 0; i < t->m->nfeat; i++)
        t->inputs[i] = (double)spoor_wf_column_q16(f, t->feat_op[i], t->feat_column[i]) / (double)(1 << SPOOR_WF_Q);
    return spoor_model_predict(t->m, t->inputs, t->scores);
}

/* The class's readahead, as the policy takes it (a negative action is 0). */
static uint32_t action_kb(const struct spoor_model *m, uint32_t cls)
{
    int64_t kb = m->action[cls];
    return kb < 0 ? 0 : kb > UINT32_MAX ? UINT32_MAX : (uint32_t)kb;
}

static int on_window(void *ctx, const struct window_done *w)
{
    struct spoor_tuner *t = ctx;
    if (t->only_dev != UINT32_MAX && w->dev != t->only_dev)
        return 0;
    spoor_grow((void **)&t->devs, &t->devs_cap, w->dev, sizeof *t->devs);
    struct device_policy *p = &t->devs[w->dev];
    if (!p->started) {
        spoor_rap_start(&p->state, t->start_kb);
        p->started = true;
    }
    uint32_t cls = classify(t, w->f);
    uint64_t reads = w->f[SPOOR_WF_READ].requests;
    enum spoor_rap_decision d = spoor_rap_step(&t->policy, &p->state, reads, (int32_t)cls, action_kb(t->m, cls));
    struct spoor_tune_row row = {
        .window = w->index, .start_ns = w->start_ns, .class_name = t->m->class_names[cls], .reads = reads,
        .dev = spoor_strpool_get(window_stream_devices(t->ws), w->dev, NULL),
        .decision = spoor_rap_decision_name(d), .readahead_kb = p->state.kb,
    };
    return t->row(t->ctx, &row);
}

/* A fresh start: new windows, no device's policy started, every device's rows. */
static void restart(struct spoor_tuner *t, struct window_stream *ws, uint32_t start_kb, spoor_tune_row_fn row,
                    void *ctx)
{
    window_stream_free(t->ws);
    t->ws = ws;
    if (t->devs)
        memset(t->devs, 0, t->devs_cap * sizeof *t->devs);
    t->start_kb = start_kb;
    t->only_dev = UINT32_MAX;
    t->row = row;
    t->ctx = ctx;
}

int spoor_tune_replay(struct spoor_tuner *t, const char *path, const struct spoor_load_opts *opts,
                      uint32_t initial_kb, const char *dev, spoor_tune_row_fn row, void *ctx,
                      struct spoor_load_result *res, struct spoor_error *err)
{
    restart(t, window_stream_new(t->o.every_ns, INT64_MIN, 0), initial_kb, row, ctx);
    int st = window_stream_load(t->ws, &path, 1, opts, "tune replays", res, err);
    if (st != SPOOR_OK)
        return st;
    struct spoor_strpool *devs = window_stream_devices(t->ws);
    if (dev) {
        uint32_t id = spoor_strpool_find(devs, dev, strlen(dev));
        if (id == UINT32_MAX)
            return spoor_fail(err, SPOOR_EUSAGE, "%s: no request of device %s in the trace", path, dev);
        t->only_dev = id;
    }
    return window_stream_advance(t->ws, INT64_MAX, on_window, t) ? SPOOR_EIO : SPOOR_OK;
}

void spoor_tune_live_begin(struct spoor_tuner *t, int64_t t0_ns, const char *dev, uint32_t device_kb)
{
    restart(t, window_stream_new(t->o.every_ns, t0_ns, WINDOW_STREAM_EMPTY_TOO), device_kb, NULL, NULL);
    t->only_dev = spoor_strpool_intern(window_stream_devices(t->ws), dev, strlen(dev));
    if (t->dialect.format)
        t->dialect.format->release(&t->dialect);
    struct spoor_error ignored;
    spoor_format_ftrace.detect("", 0, &t->read_opts, &t->dialect, &ignored);
    if (!t->batch)
        t->batch = spoor_table_new();
}

void spoor_tune_live_feed(struct spoor_tuner *t, const char *text, size_t len)
{
    spoor_table_clear(t->batch, true);
    struct spoor_parse_job job = {.dialect = &t->dialect, .opts = &t->read_opts, .out = t->batch,
                                  .skips = &t->skips};
    struct spoor_error err;
    spoor_format_ftrace.parse(&job, text, len, &err);
    struct spoor_table *view = t->batch;
    if (t->dialect.format->in_order(&t->dialect, t->batch, &t->skips, "trace_pipe", false, &view, &err) == SPOOR_OK)
        window_stream_add_batch(t->ws, view);
}

int spoor_tune_live_advance(struct spoor_tuner *t, int64_t now_ns, spoor_tune_row_fn row, void *ctx)
{
    t->row = row;
    t->ctx = ctx;
    int64_t stale = now_ns - SPOOR_TUNE_STALE_WINDOWS * t->o.every_ns;
    int64_t pending = blk_format_oldest_pending(&t->dialect, stale);
    return window_stream_advance(t->ws, pending < now_ns ? pending : now_ns, on_window, t);
}
