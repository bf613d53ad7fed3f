/* Classification metrics. A class never predicted has precision 0 (and counts
 * in macro-F1 with F1 0), so a model that ignores a class is not flattered. */
#include "spoor/ml.h"
#include "spoor/error.h"

#include <stdlib.h>

void spoor_metrics_compute(struct spoor_metrics *m, size_t k, const uint32_t *truth, const uint32_t *pred, size_t n)
{
    *m = (struct spoor_metrics){.k = k, .n = n};
    m->confusion = spoor_xcalloc(k * k + 1, sizeof *m->confusion);
    m->recall = spoor_xcalloc(k + 1, sizeof *m->recall);
    m->precision = spoor_xcalloc(k + 1, sizeof *m->precision);
    m->f1 = spoor_xcalloc(k + 1, sizeof *m->f1);
    size_t right = 0;
    for (size_t i = 0; i < n; i++) {
        m->confusion[truth[i] * k + pred[i]]++;
        right += truth[i] == pred[i];
    }
    m->accuracy = n ? (double)right / (double)n : 0;
    for (size_t c = 0; c < k; c++) {
        size_t tp = m->confusion[c * k + c], actual = 0, predicted = 0;
        for (size_t o = 0; o < k; o++) {
            actual += m->confusion[c * k + o];
            predicted += m->confusion[o * k + c];
        }
        m->recall[c] = actual ? (double)tp / (double)actual : 0;
        m->precision[c] = predicted ? (double)tp / (double)predicted : 0;
        double s = m->recall[c] + m->precision[c];
        m->f1[c] = s > 0 ? 2 * m->recall[c] * m->precision[c] / s : 0;
        m->macro_f1 += m->f1[c] / (double)k;
    }
}

void spoor_metrics_free(struct spoor_metrics *m)
{
    free(m->confusion);
    free(m->recall);
    free(m->precision);
    free(m->f1);
}
