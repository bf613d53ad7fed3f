/* BLAS and LAPACK through dlopen (see blas.h). */
#include "ml/blas.h"

#include <stdlib.h>

#include "util/dl.h"

/* LAPACKE's library pulls in LAPACK and the BLAS it is built on (Debian's
 * alternatives choose which), and dlsym on it searches them too. */
static const char LIBRARY[] = "liblapacke.so.3", PACKAGE[] = "liblapacke and a BLAS (libopenblas0)";

static struct spoor_blas blas;
static struct spoor_error load_err; /* code SPOOR_OK once every function is found */
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

#define LOAD(field, name) blas.field = (__typeof__(blas.field))spoor_dl_symbol(lib, LIBRARY, name, PACKAGE, &load_err)

static void load(void)
{
    /* Read by OpenBLAS when it loads: no pool of threads at all. */
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    void *lib = spoor_dl_open(LIBRARY, PACKAGE, &load_err);
    if (!lib)
        return;
    LOAD(dsyrk, "cblas_dsyrk");
    LOAD(dgemv, "cblas_dgemv");
    LOAD(dsyevd, "LAPACKE_dsyevd");
}

int spoor_blas_load(struct spoor_error *err) { return spoor_dl_once(&loaded, load, &load_err, err); }

const struct spoor_blas *spoor_blas(void) { return &blas; }
