/* The cold path of the CSV number reader (csv_number.h): the last bytes of
 * a buffer, copied into a zero-padded window. */
#include "read/csv_number.h"

#include <string.h>

#if defined(__SSE2__)
size_t csv_plain_number_padded(const char *p, size_t n, size_t avail, int64_t *iv, double *dv, enum csv_kind *kind)
{
    size_t negative = n > 0 && p[0] == '-';
    char padded[CSV_NUMBER_WINDOW] = {0};
    memcpy(padded, p + negative, avail - negative);
    return csv_read_window(padded, n, negative, iv, dv, kind);
}
#endif
