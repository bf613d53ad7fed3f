/* Shared libraries opened on first use (dlopen), for the optional heavy ones:
 * a library linked in is loaded, and its constructors run, by every command
 * (OpenBLAS started a spinning thread pool, XGBoost's registries took ~3 ms
 * of each start). A library or symbol that is missing ends the program with
 * a one-line error naming the Debian package to install. */
#ifndef SPOOR_UTIL_DL_H
#define SPOOR_UTIL_DL_H

void *spoor_dl_open(const char *library, const char *package);
void *spoor_dl_symbol(void *handle, const char *library, const char *name, const char *package);

#endif
