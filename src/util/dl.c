/* Libraries opened on first use (dl.h). */
#include "util/dl.h"

#include <dlfcn.h>

void *spoor_dl_open(const char *library, const char *package, struct spoor_error *err)
{
    void *h = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        spoor_fail(err, SPOOR_EIO, "cannot load %s (%s); install %s", library, dlerror(), package);
    return h;
}

void *spoor_dl_symbol(void *handle, const char *library, const char *name, const char *package,
                      struct spoor_error *err)
{
    void *f = dlsym(handle, name);
    if (!f)
        spoor_fail(err, SPOOR_EIO, "%s has no %s; install %s", library, name, package);
    return f;
}

int spoor_dl_once(pthread_once_t *once, void (*load)(void), const struct spoor_error *load_err,
                  struct spoor_error *err)
{
    pthread_once(once, load);
    return load_err->code == SPOOR_OK ? SPOOR_OK : spoor_fail(err, load_err->code, "%s", load_err->msg);
}
