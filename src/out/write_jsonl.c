/* JSON values: numbers as numbers (NaN and infinities, which JSON lacks, as
 * null), strings escaped, with every invalid UTF-8 byte replaced by U+FFFD so
 * the output is always valid JSON. */
#include "out/write_internal.h"

#include "util/utf8.h"

static const char hex[] = "0123456789abcdef";

/* Bytes copied as they are: printable ASCII but the quote and the backslash. */
static bool plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

void json_text(struct wbuf *b, const char *s, size_t len)
{
    /* At most six output bytes per input byte (\u00XX), plus the quotes. */
    wbuf_reserve(b, len * 6 + 2);
    char *d = b->data + b->len;
    *d++ = '"';
    size_t i = 0;
    while (i < len) {
        size_t run = i;
        while (run < len && plain((unsigned char)s[run]))
            run++;
        memcpy(d, s + i, run - i);
        d += run - i;
        if ((i = run) == len)
            break;
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            unsigned cp;
            size_t n = spoor_utf8_decode(s + i, len - i, &cp);
            if (n == 1) { /* invalid: a lone byte >= 0x80 */
                memcpy(d, "\xef\xbf\xbd", 3);
                d += 3;
            } else {
                memcpy(d, s + i, n);
                d += n;
            }
            i += n;
            continue;
        }
        *d++ = '\\';
        switch (c) {
        case '"': *d++ = '"'; break;
        case '\\': *d++ = '\\'; break;
        case '\n': *d++ = 'n'; break;
        case '\r': *d++ = 'r'; break;
        case '\t': *d++ = 't'; break;
        case '\b': *d++ = 'b'; break;
        case '\f': *d++ = 'f'; break;
        default:
            memcpy(d, "u00", 3);
            d[3] = hex[c >> 4];
            d[4] = hex[c & 15];
            d += 5;
            break;
        }
        i++;
    }
    *d++ = '"';
    b->len = (size_t)(d - b->data);
}

static bool all_plain(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!plain((unsigned char)s[i]))
            return false;
    return true;
}

void json_value(struct wbuf *b, const struct spoor_view *v, size_t row, uint8_t *plain_ids)
{
    if (spoor_view_is_null(v, row)) {
        wbuf_put(b, "null", 4);
        return;
    }
    switch (v->kind) {
    case SPOOR_VIEW_I64:
        wbuf_i64(b, v->i64[row]);
        break;
    case SPOOR_VIEW_F64:
        if (!wbuf_f64(b, v->f64[row]))
            wbuf_put(b, "null", 4);
        break;
    case SPOOR_VIEW_STR:
        if (plain_ids) {
            uint32_t id = v->str[row];
            size_t len;
            const char *s = spoor_strpool_get(v->pool, id, &len);
            if (!plain_ids[id])
                plain_ids[id] = all_plain(s, len) ? 1 : 2;
            if (plain_ids[id] == 2) {
                json_text(b, s, len);
            } else {
                wbuf_reserve(b, len + 2);
                b->data[b->len++] = '"';
                memcpy(b->data + b->len, s, len);
                b->len += len;
                b->data[b->len++] = '"';
            }
            break;
        }
        /* fall through */
    default: {
        char ph[2];
        size_t len;
        const char *s = spoor_view_text(v, row, ph, &len);
        json_text(b, s, len);
        break;
    }
    }
}
