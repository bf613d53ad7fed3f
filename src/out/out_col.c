/* Output columns as the user names them, shared by every writer: the name
 * spelled for each output and the field it reads. */
#include "out/write_internal.h"
#include "spoor/error.h"

#include <stdlib.h>

void label_make(struct label *l, const char *text)
{
    l->text = spoor_xstrdup(text);
    struct wbuf b;
    wbuf_init(&b, NULL, 64);
    json_text(&b, text, strlen(text));
    wbuf_byte(&b, ':');
    wbuf_byte(&b, '\0');
    l->json_key = b.data;
    l->json_key_len = b.len - 1;
}

void label_free(struct label *l)
{
    free(l->text);
    free(l->json_key);
}

void out_col_init(struct out_col *c, const char *name)
{
    label_make(&c->label, name);
    c->field = spoor_field_parse(c->label.text, strlen(c->label.text), &c->key, &c->key_len);
    c->found = false;
}

void out_col_bind(struct out_col *c, struct spoor_view *v, const struct spoor_table *t,
                  const struct spoor_resolved *res)
{
    if (spoor_view_bind(v, c->field, c->key, c->key_len, t, res))
        c->found = true;
}

size_t out_cols_missing(const struct out_col *cols, size_t n, const char **names, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < max; i++)
        if (cols[i].field == SPOOR_FIELD_ARG && !cols[i].found)
            names[k++] = cols[i].label.text;
    return k;
}
