/* Libraries opened on first use (dl.h). */
#include "util/dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void *spoor_dl_open(const char *library, const char *package)
{
    void *h = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "spoor: cannot load %s (%s); install %s\n", library, dlerror(), package);
        exit(1);
    }
    return h;
}

void *spoor_dl_symbol(void *handle, const char *library, const char *name, const char *package)
{
    void *f = dlsym(handle, name);
    if (!f) {
        fprintf(stderr, "spoor: %s has no %s; install %s\n", library, name, package);
        exit(1);
    }
    return f;
}
