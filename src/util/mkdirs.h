/* A directory and its missing parents, as `mkdir -p` makes them. */
#ifndef SPOOR_UTIL_MKDIRS_H
#define SPOOR_UTIL_MKDIRS_H

#include "spoor/error.h"

/* SPOOR_OK when path is a directory (made now or before); else err names the
 * part that could not be made and why. */
int spoor_mkdirs(const char *path, struct spoor_error *err);

#endif
