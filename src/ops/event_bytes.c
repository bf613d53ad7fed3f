/* The byte rule (event_bytes.h): which args hold an event's bytes. */
#include "ops/event_bytes.h"

#include <string.h>

/* Calls whose ret counts elements of args.size bytes (stdio). */
static const char *const element_calls[] = {"fread", "fwrite", "fread_unlocked", "fwrite_unlocked"};

void event_bytes_bind(struct event_bytes *b, const struct spoor_table *t)
{
    *b = (struct event_bytes){
        .size_sum = spoor_table_find_column(t, "size_sum"),
        .size = spoor_table_find_column(t, "size"),
        .ret = spoor_table_find_column(t, "ret"),
        .count = spoor_table_find_column(t, "count"),
        .dft_cnt = spoor_table_find_column(t, "dft_cnt"),
        .ret_sum = spoor_table_find_column(t, "ret_sum"),
        .count_sum = spoor_table_find_column(t, "count_sum"),
        .size_min = spoor_table_find_column(t, "size_min"),
        .size_max = spoor_table_find_column(t, "size_max"),
        .bytes = spoor_table_find_column(t, "bytes"),
        .returned = spoor_table_find_column(t, "returned"),
    };
    for (size_t i = 0; i < sizeof element_calls / sizeof *element_calls; i++) {
        uint32_t id = spoor_strpool_find(t->pool, element_calls[i], strlen(element_calls[i]));
        if (id != UINT32_MAX)
            b->element[b->nelement++] = id;
    }
}

/* A numeric args value as int64, or SPOOR_NULL (reals are truncated). Inline:
 * a few columns a row, most of them absent. */
static inline __attribute__((always_inline)) int64_t arg_at(const struct spoor_column *c, size_t r)
{
    if (!c || !spoor_column_valid(c, r))
        return SPOOR_NULL;
    if (c->type == SPOOR_I64)
        return c->i64[r];
    if (c->type == SPOOR_F64 && c->f64[r] > -9.2e18 && c->f64[r] < 9.2e18)
        return (int64_t)c->f64[r];
    return SPOOR_NULL;
}

static bool is_element_call(const struct event_bytes *b, uint32_t name)
{
    for (size_t i = 0; i < b->nelement; i++)
        if (b->element[i] == name)
            return true;
    return false;
}

/* elements x element size, SPOOR_NULL when either is unknown or negative, or
 * the product overflows. */
static int64_t times_size(int64_t elements, int64_t size)
{
    int64_t v;
    if (elements == SPOOR_NULL || size == SPOOR_NULL || elements < 0 || size < 0 ||
        __builtin_mul_overflow(elements, size, &v))
        return SPOOR_NULL;
    return v;
}

static int64_t aggregated(const struct event_bytes *b, bool element, size_t r)
{
    if (element) {
        int64_t lo = arg_at(b->size_min, r), hi = arg_at(b->size_max, r);
        return lo == hi ? times_size(arg_at(b->ret_sum, r), lo) : SPOOR_NULL;
    }
    int64_t v = arg_at(b->size_sum, r);
    if (v == SPOOR_NULL && arg_at(b->count_sum, r) != SPOOR_NULL)
        v = arg_at(b->ret_sum, r);
    return v;
}

int64_t event_bytes_of(const struct event_bytes *b, const struct spoor_table *t, size_t r)
{
    bool element = b->nelement && is_element_call(b, t->name[r]);
    int64_t v;
    if (b->dft_cnt && spoor_column_valid(b->dft_cnt, r)) {
        v = aggregated(b, element, r);
    } else {
        v = arg_at(b->size_sum, r);
        if (v == SPOOR_NULL && element)
            v = times_size(arg_at(b->ret, r), arg_at(b->size, r));
        else if (v == SPOOR_NULL)
            v = arg_at(b->size, r);
        if (v == SPOOR_NULL && !element && arg_at(b->count, r) != SPOOR_NULL)
            v = arg_at(b->ret, r);
        if (v == SPOOR_NULL)
            v = arg_at(b->bytes, r);
        if (v == SPOOR_NULL)
            v = arg_at(b->returned, r);
    }
    return v >= 0 ? v : SPOOR_NULL;
}

const char *const event_op_name[EVENT_OPS] = {"read", "write", "metadata", "other"};

enum event_op event_op_class(const char *name)
{
    static const char *const meta[] = {"open", "close", "stat", "seek", "sync", "dir", "unlink", "rename",
                                       "access", "truncate", "fcntl", "chmod", "chown", "link", "mmap"};
    for (size_t i = 0; i < sizeof meta / sizeof *meta; i++)
        if (strstr(name, meta[i]))
            return EVENT_OP_META;
    if (strstr(name, "read"))
        return EVENT_OP_READ;
    if (strstr(name, "write"))
        return EVENT_OP_WRITE;
    return EVENT_OP_OTHER;
}
