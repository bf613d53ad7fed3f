/* Error reporting: library functions return an int status and fill a
 * struct spoor_error with one human-readable line (where, what, hint).
 * Library code never prints and never exits; the CLI prints the line. */
#ifndef SPOOR_ERROR_H
#define SPOOR_ERROR_H

#include <stddef.h>

/* Marks the library's API: libspoor is built with -fvisibility=hidden, so
 * libspoor.so exports a function or datum only when its declaration in
 * include/spoor/ carries this (checked by scripts/check_exports.py). Every
 * public header includes this one. */
#define SPOOR_API __attribute__((visibility("default")))

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
SPOOR_API int spoor_fail(struct spoor_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

SPOOR_API void spoor_error_clear(struct spoor_error *err);

/* Aborts on allocation failure: out-of-memory is not a recoverable input error. */
SPOOR_API void *spoor_xmalloc(size_t n);
SPOOR_API void *spoor_xcalloc(size_t n, size_t size);
SPOOR_API void *spoor_xrealloc(void *p, size_t n);
SPOOR_API char *spoor_xstrdup(const char *s);
/* The first len bytes of s as a NUL-terminated copy. */
SPOOR_API char *spoor_xstrndup(const char *s, size_t len);

#endif
