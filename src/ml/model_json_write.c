/* Writing spoor's JSON model. */
#include "spoor/ml.h"
#include "spoor/write.h"
#include "out/json_out.h"

#include <inttypes.h>
#include <string.h>

static void str(FILE *out, const char *s) { spoor_json_write_string(out, s, strlen(s)); }

static void names(FILE *out, char *const *v, size_t n)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", out);
        str(out, v[i]);
    }
    fputc(']', out);
}

static void doubles(FILE *out, const double *v, size_t n)
{
    fputc('[', out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%.17g", i ? ", " : "", v[i]);
    fputc(']', out);
}

static void write_layers(FILE *out, const struct spoor_model *m)
{
    fprintf(out, ",\n  \"scaler\": {\"mean\": ");
    doubles(out, m->scaler.mean, m->scaler.n);
    fprintf(out, ", \"scale\": ");
    doubles(out, m->scaler.scale, m->scaler.n);
    fprintf(out, "},\n  \"layers\": [");
    for (size_t l = 0; l < m->nlayers; l++) {
        const struct spoor_dense *d = &m->layers[l];
        fprintf(out, "%s\n    {\"in\": %zu, \"out\": %zu, \"activation\": \"%s\",\n     \"w\": [", l ? "," : "", d->in,
                d->out, l + 1 < m->nlayers ? "relu" : "softmax");
        for (size_t j = 0; j < d->out; j++) {
            fputs(j ? ",\n           " : "", out);
            doubles(out, d->w + j * d->in, d->in);
        }
        fprintf(out, "],\n     \"b\": ");
        doubles(out, d->b, d->out);
        fputc('}', out);
    }
    fprintf(out, "\n  ]");
}

static void write_rule(FILE *out, const struct spoor_model *m)
{
    const struct spoor_rule *r = &m->rule;
    fprintf(out, ",\n  \"rule\": {\"feature\": [");
    for (int i = 0; i < 3; i++) {
        fputs(i ? ", " : "", out);
        str(out, m->feat_names[r->feat[i]]);
    }
    fprintf(out, "], \"threshold\": ");
    doubles(out, r->thr, 3);
    fprintf(out, ", \"leaf\": [");
    for (int i = 0; i < 4; i++) {
        fputs(i ? ", " : "", out);
        str(out, m->class_names[r->leaf[i]]);
    }
    fprintf(out, "],\n           \"reads\": \"(float)x[feature0] < threshold0 ? ((float)x[feature1] < threshold1 ? leaf0 : leaf1)"
                 " : ((float)x[feature2] < threshold2 ? leaf2 : leaf3)\"}");
}

#define NODE_FIELD(out, f, field, fmt, cast)                                         \
    do {                                                                             \
        fprintf(out, ",\n    \"" #field "\": [");                                    \
        for (size_t i = 0; i < (f)->nnodes; i++)                                     \
            fprintf(out, "%s" fmt, i ? ", " : "", (cast)(f)->nodes[i].field);        \
        fputc(']', out);                                                             \
    } while (0)

static void write_trees(FILE *out, const struct spoor_model *m)
{
    const struct spoor_forest *f = &m->forest;
    fprintf(out, ",\n  \"trees\": {\"base_margin\": %.17g, \"ntrees\": %zu, \"nnodes\": %zu,\n    \"roots\": [",
            f->base_margin, f->ntrees, f->nnodes);
    for (size_t t = 0; t < f->ntrees; t++)
        fprintf(out, "%s%" PRId32, t ? ", " : "", f->roots[t]);
    fprintf(out, "],\n    \"groups\": [");
    for (size_t t = 0; t < f->ntrees; t++)
        fprintf(out, "%s%" PRId32, t ? ", " : "", f->groups[t]);
    fputc(']', out);
    NODE_FIELD(out, f, feature, "%d", int);
    NODE_FIELD(out, f, left, "%d", int);
    NODE_FIELD(out, f, right, "%d", int);
    NODE_FIELD(out, f, missing, "%d", int);
    NODE_FIELD(out, f, threshold, "%.9g", double);
    NODE_FIELD(out, f, leaf, "%.9g", double);
    NODE_FIELD(out, f, gain, "%.9g", double);
    fprintf(out, "}");
}

static void write_training(FILE *out, const struct spoor_model *m)
{
    const struct spoor_train_opts *o = &m->opts;
    const struct spoor_train_log *g = &m->log;
    fprintf(out, ",\n  \"training\": {\"seed\": %" PRIu64 ", \"rows\": %zu, \"validation_rows\": %zu", o->seed, g->rows,
            g->val_rows);
    if (m->kind == SPOOR_MODEL_LOGISTIC)
        fprintf(out, ",\n    \"l2\": %.17g, \"max_iter\": %zu, \"iterations\": %zu, \"final_loss\": %.17g,"
                     " \"final_gradient\": %.17g, \"converged\": %s",
                o->l2, o->max_iter, g->iterations, g->final_loss, g->final_gradient, g->converged ? "true" : "false");
    if (m->kind == SPOOR_MODEL_MLP) {
        fprintf(out, ",\n    \"hidden\": [");
        for (size_t h = 0; h < o->nhidden; h++)
            fprintf(out, "%s%zu", h ? ", " : "", o->hidden[h]);
        fprintf(out, "], \"dropout\": %.17g, \"lr\": %.17g, \"batch\": %zu, \"epochs\": %zu, \"patience\": %zu,"
                     " \"validation_fraction\": %.17g,\n    \"epochs_run\": %zu, \"best_epoch\": %zu,"
                     " \"best_validation_loss\": %.17g",
                o->dropout, o->lr, o->batch, o->epochs, o->patience, o->val_frac,
                g->epochs_run, g->best_epoch, g->best_val_loss);
    }
    if (m->kind == SPOOR_MODEL_TREES)
        fprintf(out, ", \"rounds\": %zu, \"max_depth\": %zu, \"eta\": %.17g", o->trees_rounds, o->trees_depth,
                o->trees_eta);
    fputc('}', out);
}

void spoor_model_write_json(const struct spoor_model *m, FILE *out)
{
    fprintf(out, "{\n  \"format\": \"%s\", \"version\": %d, \"kind\": \"%s\",\n  \"label\": ", SPOOR_MODEL_FORMAT,
            SPOOR_MODEL_VERSION, spoor_model_kind_name(m->kind));
    str(out, m->label_name);
    fprintf(out, ",\n  \"features\": ");
    names(out, m->feat_names, m->nfeat);
    fprintf(out, ",\n  \"classes\": ");
    names(out, m->class_names, m->nclasses);
    if (m->action) {
        fprintf(out, ",\n  \"actions\": {\"name\": ");
        str(out, m->action_name);
        fprintf(out, ", \"values\": [");
        for (size_t c = 0; c < m->nclasses; c++)
            fprintf(out, "%s%" PRId64, c ? ", " : "", m->action[c]);
        fprintf(out, "]}");
    }
    if (m->kind == SPOOR_MODEL_MLP || m->kind == SPOOR_MODEL_LOGISTIC)
        write_layers(out, m);
    else if (m->kind == SPOOR_MODEL_RULE)
        write_rule(out, m);
    else
        write_trees(out, m);
    write_training(out, m);
    fprintf(out, "\n}\n");
}

int spoor_model_save(const struct spoor_model *m, const char *path, struct spoor_error *err)
{
    struct spoor_atomic_file f;
    int st = spoor_atomic_file_open(&f, path, err);
    if (st != SPOOR_OK)
        return st;
    spoor_model_write_json(m, f.fp);
    return spoor_atomic_file_commit(&f, err);
}
