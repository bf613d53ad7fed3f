/* Shared libraries opened on first use (dlopen), for the optional heavy ones:
 * a library linked in is loaded, and its constructors run, by every command
 * (OpenBLAS started a spinning thread pool, XGBoost's registries took ~3 ms
 * of each start). A library or symbol that is missing is an error (SPOOR_EIO)
 * whose one line names the Debian package to install. */
#ifndef SPOOR_UTIL_DL_H
#define SPOOR_UTIL_DL_H

#include <pthread.h>

#include "spoor/error.h"

/* The opened library, or NULL with err set. */
void *spoor_dl_open(const char *library, const char *package, struct spoor_error *err);
/* The library's function `name`, or NULL with err set. */
void *spoor_dl_symbol(void *handle, const char *library, const char *name, const char *package,
                      struct spoor_error *err);
/* Runs load once over the program (pthread_once) and returns its outcome:
 * SPOOR_OK, or load_err's code with its line copied to err. load reports
 * into load_err (code SPOOR_OK when all went well). */
int spoor_dl_once(pthread_once_t *once, void (*load)(void), const struct spoor_error *load_err,
                  struct spoor_error *err);

#endif
