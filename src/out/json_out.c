/* JSON strings for outputs that write through stdio (stats, reports): the
 * escaping is the row writers' own (write_jsonl.c), so every JSON spoor writes
 * escapes alike. */
#include "out/json_out.h"
#include "out/write_internal.h"

void spoor_json_write_string(FILE *out, const char *s, size_t len)
{
    struct wbuf b;
    wbuf_init(&b, out, 6 * len + 8);
    json_text(&b, s, len);
    wbuf_flush(&b);
    wbuf_release(&b);
}
