#include "spoor/json_out.h"

/* Length of the valid UTF-8 sequence starting at s, or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (c >= 0xf5 || n == 0 || n > left)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (n == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0)))
        return 0; /* overlong or surrogate */
    if (n == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90)))
        return 0;
    return n;
}

void spoor_json_write_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    putc('"', out);
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            size_t j = i;
            while (j < len && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\')
                j++;
            fwrite(p + i, 1, j - i, out);
            i = j;
        } else if (c == '"' || c == '\\') {
            putc('\\', out);
            putc((int)c, out);
            i++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': fputs("\\n", out); break;
            case '\r': fputs("\\r", out); break;
            case '\t': fputs("\\t", out); break;
            default: fprintf(out, "\\u%04x", c); break;
            }
            i++;
        } else {
            size_t n = utf8_len(p + i, len - i);
            if (n) {
                fwrite(p + i, 1, n, out);
                i += n;
            } else {
                fputs("\\ufffd", out);
                i++;
            }
        }
    }
    putc('"', out);
}
