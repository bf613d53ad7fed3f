/* Fuzzes the model reader: any text either parses or fails with an error;
 * a model that parses predicts on odd rows (zeros, huge, NaN) without a crash,
 * exports as both C headers, and writes JSON that parses again. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "spoor/ml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct spoor_model *m = NULL;
    struct spoor_error err = {0};
    if (spoor_model_parse((const char *)data, size, "fuzz", &m, &err) != SPOOR_OK) {
        if (!err.msg[0])
            abort();
        return 0;
    }
    double *row = calloc(m->nfeat, sizeof *row), *scores = calloc(m->nclasses, sizeof *scores);
    const double values[] = {0, 1e300, -1e300, NAN, 3.5};
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
        for (size_t f = 0; f < m->nfeat; f++)
            row[f] = values[v];
        if (spoor_model_predict(m, row, scores) >= m->nclasses)
            abort();
    }
    FILE *sink = fopen("/dev/null", "w");
    spoor_export_header(m, sink, &(struct spoor_export_opts){.prefix = "f"}, NULL, &err);
    spoor_export_header(m, sink, &(struct spoor_export_opts){.prefix = "q", .fixed = true}, NULL, &err);
    fclose(sink);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    spoor_model_write_json(m, mem);
    fclose(mem);
    struct spoor_model *again = NULL;
    if (spoor_model_parse(text, len, "again", &again, &err) != SPOOR_OK)
        abort();
    spoor_model_free(again);
    free(text);
    free(row);
    free(scores);
    spoor_model_free(m);
    return 0;
}
