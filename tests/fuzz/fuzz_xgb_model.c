/* Fuzzes the reader of XGBoost's JSON model: whatever it accepts must be a
 * forest whose every tree walk ends at a leaf inside the node array. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "spoor/ml.h"
#include "ml/forest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct spoor_forest f;
    struct spoor_error err;
    if (spoor_forest_from_xgb_json((const char *)data, size, &f, &err) != SPOOR_OK)
        return 0;
    for (size_t i = 0; i < f.nnodes; i++)
        if (f.nodes[i].feature >= (int32_t)f.nfeatures || f.nodes[i].left < 0 || (size_t)f.nodes[i].left >= f.nnodes ||
            f.nodes[i].right < 0 || (size_t)f.nodes[i].right >= f.nnodes)
            abort();
    double *row = calloc(f.nfeatures, sizeof *row), *out = malloc((size_t)f.ngroups * sizeof *out);
    spoor_forest_predict(&f, row, out);
    for (size_t j = 0; j < f.nfeatures; j++)
        row[j] = NAN;
    spoor_forest_predict(&f, row, out);
    free(row);
    free(out);
    spoor_forest_free(&f);
    return 0;
}
