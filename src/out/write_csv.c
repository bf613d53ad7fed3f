/* CSV cells as RFC 4180 has them: a field holding a comma, a quote or a line
 * break is quoted, with quotes doubled; null is an empty field and an empty
 * string is "" so the two stay apart. Other bytes pass through unchanged. */
#include "out/write_internal.h"

static const bool special[256] = {[','] = true, ['"'] = true, ['\n'] = true, ['\r'] = true};

static bool needs_quotes(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (special[(unsigned char)s[i]])
            return true;
    return len == 0;
}

void csv_text(struct wbuf *b, const char *s, size_t len)
{
    if (!needs_quotes(s, len)) {
        wbuf_put(b, s, len);
        return;
    }
    wbuf_reserve(b, len * 2 + 2);
    char *d = b->data + b->len;
    *d++ = '"';
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            *d++ = '"';
        *d++ = s[i];
    }
    *d++ = '"';
    b->len = (size_t)(d - b->data);
}

void csv_value(struct wbuf *b, const struct spoor_view *v, size_t row, uint8_t *plain)
{
    if (spoor_view_is_null(v, row))
        return;
    switch (v->kind) {
    case SPOOR_VIEW_I64:
        wbuf_i64(b, v->i64[row]);
        break;
    case SPOOR_VIEW_F64:
        wbuf_f64(b, v->f64[row]);
        break;
    case SPOOR_VIEW_STR:
        if (plain) {
            uint32_t id = v->str[row];
            size_t len;
            const char *s = spoor_strpool_get(v->pool, id, &len);
            if (!plain[id])
                plain[id] = needs_quotes(s, len) ? 2 : 1;
            if (plain[id] == 1)
                wbuf_put(b, s, len);
            else
                csv_text(b, s, len);
            break;
        }
        /* fall through */
    default: {
        char ph[2];
        size_t len;
        const char *s = spoor_view_text(v, row, ph, &len);
        csv_text(b, s, len);
        break;
    }
    }
}
