/* Private pieces of the CSV reader: the RFC 4180 line splitter, value
 * classification, delimiter sniffing (csv_line.c), the number reader of the
 * line scan (csv_number.c), the detected header and
 * column types (csv.c) and the chunk parser (csv_parse.c). */
#ifndef SPOOR_READ_CSV_H
#define SPOOR_READ_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/field_map.h"
#include "spoor/load.h"

struct csv_field {
    const char *p;
    size_t n;
};

/* Splits lines into fields; its buffers grow to the widest line seen and are
 * reused, so splitting allocates nothing once warm. */
struct csv_splitter {
    char delim;
    struct csv_field *fields;
    size_t nfields, cap;
    char *scratch;          /* unquoted copies of quoted fields */
    size_t scratch_cap;
};

void csv_splitter_init(struct csv_splitter *s, char delim);
void csv_splitter_release(struct csv_splitter *s);
/* Makes room for nfields fields. */
void csv_splitter_reserve(struct csv_splitter *s, size_t nfields);
/* Splits one line (without its line end). False when the line ends inside a
 * quoted field, i.e. the field holds a line break that the next line continues. */
bool csv_split(struct csv_splitter *s, const char *line, size_t len);
/* Whether a quoted field is still open at the end of `line`, scanning from its
 * start either inside a quoted field (a continuation line) or at a field start. */
bool csv_quote_open_at_end(const char *line, size_t len, char delim, bool starts_inside);

/* What a field holds; ordered so that the wider of two kinds is the larger. */
enum csv_kind { CSV_EMPTY, CSV_INT, CSV_FLOAT, CSV_TEXT };

/* Classifies a field (surrounding blanks ignored for numbers); fills *i for
 * CSV_INT and *d for CSV_FLOAT. Integers wider than int64 are text: they are
 * hashes or ids, not quantities. */
enum csv_kind csv_classify(const char *p, size_t n, int64_t *i, double *d);

/* Whether p[0..n) is the usual number, "[-]digits[.digits]" of 1 to 15
 * characters after the sign; fills *kind and *i or *d with the value
 * csv_classify gives (csv_number.c). It may read any of the avail >= n
 * bytes at p, up to seventeen, whatever n is: bytes past n never change the
 * answer. */
bool csv_plain_number(const char *p, size_t n, size_t avail, int64_t *i, double *d, enum csv_kind *kind);

/* A kept field the head showed as numbers, and its dynamic column. */
struct csv_number_field {
    uint32_t field, column;
};

/* Stores each listed field of a split line that is csv_plain_number's shape
 * straight into its column when the column already has the value's type (a
 * float column takes integers as floats), as csv_parse's general path would.
 * The indexes into `list` of the fields it left go to `left`; returns their
 * count. Fields lie in a buffer ending at buf_end (csv_number.c). */
size_t csv_store_numbers(struct spoor_table *t, size_t row, const struct csv_number_field *list, size_t n,
                         const struct csv_field *fields, const char *buf_end, uint32_t *left);

/* What the delimiter sniffing saw in the first lines of a head. */
struct csv_sniffed {
    int agree;          /* records split into as many fields as the first; 0: no candidate in it */
    int present;        /* records holding the delimiter at all */
    int sampled;        /* records looked at (a quoted field may span lines) */
    bool one_column;    /* no delimiter, but a plain name above single values */
};

/* Picks the delimiter among ',', ';', '\t', '|' that splits the first lines of
 * head into the same non-zero number of fields, and says how well (out may be
 * NULL); ',' when no candidate occurs in the first line. */
char csv_sniff_delim(const char *head, size_t len, struct csv_sniffed *out);

/* Detected once per input; read-only while chunks are parsed. */
struct csv_state {
    struct spoor_field_map map;
    char delim;
    size_t nfields;
    char **names;               /* header names, made unique */
    enum csv_kind *kind;        /* inferred from the head; CSV_EMPTY = not known */
    bool *keep;                 /* the field becomes a dynamic column */
    int fixed_pos[SPOOR_FIXED_COUNT]; /* field filling each fixed column, or -1 */
};

int csv_parse(struct spoor_parse_job *job, const char *buf, size_t len, struct spoor_error *err);

#endif
