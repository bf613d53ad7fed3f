/* Numbers written as text (expression literals, string columns read as
 * numbers), compared exactly: integers of any width compare digit by digit,
 * so 128-bit hashes stored as text match integer literals. */
#ifndef SPOOR_OPS_NUMBER_H
#define SPOOR_OPS_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum num_kind { NUM_INT, NUM_BIG, NUM_REAL };

struct num {
    enum num_kind kind;
    int64_t i;              /* NUM_INT */
    double f;               /* every kind (approximate for NUM_BIG) */
    const char *digits;     /* NUM_BIG: magnitude without leading zeros, not NUL-terminated */
    size_t ndigits;
    bool neg;               /* NUM_BIG */
};

/* Parses the whole of s as a decimal number (sign, digits, fraction,
 * exponent). NUM_BIG keeps pointers into s. */
bool num_parse(const char *s, size_t len, struct num *out);

static inline struct num num_int(int64_t v)
{
    return (struct num){.kind = NUM_INT, .i = v, .f = (double)v};
}

static inline struct num num_real(double v)
{
    return (struct num){.kind = NUM_REAL, .f = v};
}

/* -1, 0 or 1. */
int num_cmp(const struct num *a, const struct num *b);

/* Negation; -(INT64_MIN) becomes a NUM_BIG. */
struct num num_neg(const struct num *a);

/* Arithmetic for '+', '-', '*', '/', '%' as SQL does it: integer division
 * truncates. Returns false (null) on division by zero or integer overflow. */
bool num_arith_int(int op, int64_t a, int64_t b, int64_t *out);
bool num_arith_real(int op, double a, double b, double *out);

#endif
