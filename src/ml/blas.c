/* BLAS and LAPACK through dlopen (see blas.h). */
#include "ml/blas.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* LAPACKE's library pulls in LAPACK and the BLAS it is built on (Debian's
 * alternatives choose which), and dlsym on it searches them too. */
static const char LIBRARY[] = "liblapacke.so.3";

static struct spoor_blas blas;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void *symbol(void *lib, const char *name)
{
    void *f = dlsym(lib, name);
    if (!f) {
        fprintf(stderr, "spoor: %s has no %s; install liblapacke and a BLAS (libopenblas0)\n", LIBRARY, name);
        exit(1);
    }
    return f;
}

static void load(void)
{
    /* Read by OpenBLAS when it loads: no pool of threads at all. */
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    void *lib = dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "spoor: cannot load %s (%s); install liblapacke\n", LIBRARY, dlerror());
        exit(1);
    }
    blas.dsyrk = (__typeof__(blas.dsyrk))symbol(lib, "cblas_dsyrk");
    blas.dgemv = (__typeof__(blas.dgemv))symbol(lib, "cblas_dgemv");
    blas.dsyevd = (__typeof__(blas.dsyevd))symbol(lib, "LAPACKE_dsyevd");
}

const struct spoor_blas *spoor_blas(void)
{
    pthread_once(&loaded, load);
    return &blas;
}
