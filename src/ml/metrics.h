/* How well predicted classes match true ones: accuracy, macro-F1, per-class
 * recall, the confusion matrix. */
#ifndef SPOOR_ML_METRICS_H
#define SPOOR_ML_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct spoor_metrics {
    size_t k, n;
    size_t *confusion;              /* k x k: row = true class, column = predicted */
    double accuracy, macro_f1;
    double *recall, *precision, *f1; /* per class */
};

/* Fills m from n (true, predicted) pairs over k classes. */
void spoor_metrics_compute(struct spoor_metrics *m, size_t k, const uint32_t *truth, const uint32_t *pred, size_t n);
void spoor_metrics_free(struct spoor_metrics *m);

#endif
