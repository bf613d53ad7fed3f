/* BLAS and LAPACK, loaded on first use.
 *
 * OpenBLAS starts its thread pool when it is loaded, and the pool spins on
 * sched_yield for ~0.1 s before it sleeps: linked into spoor, every command
 * paid ~50 ms of CPU for it (a third of `spoor stats` on a 50 MB trace), so
 * only the commands that do linear algebra load it now, with one thread (the
 * matrices here are small, and sums then come out the same on every run). */
#ifndef SPOOR_ML_BLAS_H
#define SPOOR_ML_BLAS_H

#include <cblas.h>
#include <lapacke.h>

#include "spoor/error.h"

struct spoor_blas {
    __typeof__(cblas_dsyrk) *dsyrk;
    __typeof__(cblas_dgemv) *dgemv;
    __typeof__(LAPACKE_dsyevd) *dsyevd;
};

/* Loads the functions once (thread-safe; util/dl.h): SPOOR_EIO, err naming
 * the package to install, when the library or a function is missing. */
int spoor_blas_load(struct spoor_error *err);
/* The functions, after spoor_blas_load() succeeded. */
const struct spoor_blas *spoor_blas(void);

#endif
