/* Block requests from the loader's batches (window_requests.h). */
#include "analyze/window_requests.h"

#include "features/window_features.h"
#include "util/grow.h"

static int64_t int_at(const struct spoor_column *c, size_t row)
{
    if (!c || !spoor_column_valid(c, row))
        return SPOOR_NULL;
    return c->type == SPOOR_I64 ? c->i64[row] : c->type == SPOOR_F64 ? (int64_t)c->f64[row] : SPOOR_NULL;
}

void window_requests_of_batch(const struct spoor_table *b, struct spoor_strpool *devs, struct window_request **reqs,
                              size_t *n, size_t *cap, uint64_t *other)
{
    const struct spoor_column *dev = spoor_table_find_column(b, "dev");
    const struct spoor_column *sector = spoor_table_find_column(b, "sector");
    const struct spoor_column *bytes = spoor_table_find_column(b, "bytes");
    const struct spoor_column *depth = spoor_table_find_column(b, "queue_depth");
    if (!dev || dev->type != SPOOR_STR || !sector || !bytes || !depth)
        return; /* not a block trace: told after the load, by its format */
    uint32_t read_id = spoor_strpool_find(b->pool, "read", 4), write_id = spoor_strpool_find(b->pool, "write", 5);
    uint32_t last_batch_dev = UINT32_MAX, last_dev = 0;
    spoor_reserve((void **)reqs, cap, *n + b->nrows, sizeof **reqs);
    for (size_t r = 0; r < b->nrows; r++) {
        int64_t s = int_at(sector, r), nb = int_at(bytes, r), q = int_at(depth, r);
        bool rw = b->name[r] == read_id || b->name[r] == write_id;
        if (!rw || s == SPOOR_NULL || nb == SPOOR_NULL || q == SPOOR_NULL || !spoor_column_valid(dev, r)) {
            ++*other;
            continue;
        }
        if (dev->str[r] != last_batch_dev) {
            size_t len;
            const char *name = spoor_strpool_get(b->pool, dev->str[r], &len);
            last_batch_dev = dev->str[r];
            last_dev = spoor_strpool_intern(devs, name, len);
        }
        (*reqs)[(*n)++] = (struct window_request){
            .ts = b->ts[r], .dur = b->dur[r], .sector = (uint64_t)s, .bytes = (uint32_t)nb,
            .queue_depth = (uint32_t)q, .dev = last_dev, .op = b->name[r] == read_id ? SPOOR_WF_READ : SPOOR_WF_WRITE};
    }
}
