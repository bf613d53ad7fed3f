/* Inside the row writers: an output buffer with hand-rolled number
 * formatting (write_buf.c), and how one value is spelled in CSV
 * (write_csv.c) and JSON (write_jsonl.c). writer.c decides the columns. */
#ifndef SPOOR_OUT_WRITE_INTERNAL_H
#define SPOOR_OUT_WRITE_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "spoor/error.h"
#include "spoor/table.h"

struct wbuf {
    char *data;
    size_t len, cap;
    FILE *fp;               /* NULL: an in-memory buffer that only grows */
    int error;              /* errno of the first failed write */
    const char *name;       /* the file fp writes, which errors name; NULL: stdout */
};

void wbuf_init(struct wbuf *b, FILE *fp, size_t cap);
void wbuf_release(struct wbuf *b);
/* Makes room for n more bytes, flushing to fp first if there is one. */
void wbuf_reserve(struct wbuf *b, size_t n);
void wbuf_flush(struct wbuf *b);
/* Appends n bytes written elsewhere (a thread's part of the output): a
 * large piece goes to the stream as it is, not copied into the buffer. */
void wbuf_write(struct wbuf *b, const char *s, size_t n);
/* SPOOR_EIO naming the first failed write, else SPOOR_OK. */
int wbuf_status(const struct wbuf *b, struct spoor_error *err);
/* Flushes b and its stream; returns wbuf_status(). */
int wbuf_finish(struct wbuf *b, struct spoor_error *err);

static inline void wbuf_put(struct wbuf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap)
        wbuf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static inline void wbuf_byte(struct wbuf *b, char c)
{
    if (b->len + 1 > b->cap)
        wbuf_reserve(b, 1);
    b->data[b->len++] = c;
}

void wbuf_i64(struct wbuf *b, int64_t v);
/* ns as µs: the integer part, then up to three decimals without trailing
 * zeros, so the ns read back exactly. */
void wbuf_us(struct wbuf *b, int64_t ns);
/* The shortest of %.15g..%.17g that reads back as v; false (nothing
 * written) for NaN and infinities. */
bool wbuf_f64(struct wbuf *b, double v);

/* One value of a view at a row. For a string view, `plain` (or NULL) caches
 * per string id whether its text goes out as it is: 0 = not known yet,
 * 1 = yes, 2 = it needs quoting (CSV) or escaping (JSON). Strings repeat from
 * row to row, so each is scanned once per batch. */
void csv_value(struct wbuf *b, const struct spoor_view *v, size_t row, uint8_t *plain);
void csv_text(struct wbuf *b, const char *s, size_t len);
void json_value(struct wbuf *b, const struct spoor_view *v, size_t row, uint8_t *plain);
void json_text(struct wbuf *b, const char *s, size_t len);
/* Grows a `plain` flags array to n ids; ids from `keep` on are cleared. */
uint8_t *plain_flags(uint8_t *flags, size_t *cap, size_t keep, size_t n);

/* A column name, spelled for each output. */
struct label {
    char *text;             /* header cell / SQL name */
    char *json_key;         /* "text": */
    size_t json_key_len;
};

void label_make(struct label *l, const char *text);
void label_free(struct label *l);

/* An output column named by the user (or a default fixed column). */
struct out_col {
    struct label label;
    enum spoor_field field;
    const char *key;        /* args key, into label.text */
    size_t key_len;
    bool found;             /* some batch had it */
};

void out_col_init(struct out_col *c, const char *name);
/* Binds c to a batch, noting whether the batch had it. */
void out_col_bind(struct out_col *c, struct spoor_view *v, const struct spoor_table *t,
                  const struct spoor_resolved *res);
/* The args columns that no batch had. */
size_t out_cols_missing(const struct out_col *cols, size_t n, const char **names, size_t max);

#endif
