/* Error reporting: library functions return an int status and fill a
 * struct spoor_error with one human-readable line (where, what, hint).
 * Library code never prints and never exits; the CLI prints the line. */
#ifndef SPOOR_ERROR_H
#define SPOOR_ERROR_H

#include <stddef.h>

enum spoor_status {
    SPOOR_OK = 0,
    SPOOR_EIO = 1,      /* cannot open/read/write a file */
    SPOOR_EFORMAT = 2,  /* input is malformed beyond what we tolerate */
    SPOOR_EUSAGE = 3,   /* bad options or arguments */
    SPOOR_ENOMEM = 4,
    SPOOR_ESTRICT = 5,  /* a line was skipped and --strict was given */
};

struct spoor_error {
    int code;
    char msg[1024];
};

/* Sets err (if not NULL) and returns code, so callers can `return spoor_fail(...)`. */
int spoor_fail(struct spoor_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void spoor_error_clear(struct spoor_error *err);

/* Aborts on allocation failure: out-of-memory is not a recoverable input error. */
void *spoor_xmalloc(size_t n);
void *spoor_xcalloc(size_t n, size_t size);
void *spoor_xrealloc(void *p, size_t n);
char *spoor_xstrdup(const char *s);
/* The first len bytes of s as a NUL-terminated copy. */
char *spoor_xstrndup(const char *s, size_t len);

#endif
