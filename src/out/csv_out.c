/* CSV fields for outputs that write through stdio: the quoting is the row
 * writers' own (write_csv.c), so every CSV spoor writes quotes alike. */
#include "spoor/csv_out.h"
#include "out/write_internal.h"

#include <string.h>

void spoor_csv_write_field(FILE *out, const char *s)
{
    size_t len = strlen(s);
    if (!len)
        return;
    struct wbuf b;
    wbuf_init(&b, out, 2 * len + 8);
    csv_text(&b, s, len);
    wbuf_flush(&b);
    wbuf_release(&b);
}
