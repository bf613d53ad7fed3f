/* Reading spoor's JSON model with cJSON, checked as untrusted input: sizes
 * agree, indexes are in range, numbers are finite, trees always reach a leaf. */
#include "spoor/ml.h"
#include "ml/model_internal.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WIDTH 1024
#define MAX_LAYERS 9
#define MAX_NAMES (1 << 16) /* features or classes; predict keeps a row of each on the stack */

struct reader {
    const char *name;
    struct spoor_error *err;
    int st;
};

static bool bad(struct reader *r, const char *what)
{
    if (r->st == SPOOR_OK)
        r->st = spoor_fail(r->err, SPOOR_EFORMAT, "%s: model: %s", r->name, what);
    return false;
}

static const cJSON *need(struct reader *r, const cJSON *obj, const char *key, bool (*is)(const cJSON *))
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (v && is(v))
        return v;
    char what[96];
    snprintf(what, sizeof what, "'%s' missing or of the wrong type", key);
    bad(r, what);
    return NULL;
}

static bool is_array(const cJSON *v) { return cJSON_IsArray(v); }
static bool is_object(const cJSON *v) { return cJSON_IsObject(v); }
static bool is_string(const cJSON *v) { return cJSON_IsString(v); }
static bool is_number(const cJSON *v) { return cJSON_IsNumber(v) && isfinite(v->valuedouble); }

static char **read_names(struct reader *r, const cJSON *a, size_t *n)
{
    *n = 0;
    if (!a)
        return NULL;
    size_t len = (size_t)cJSON_GetArraySize(a);
    if (len == 0 || len > MAX_NAMES) {
        bad(r, "empty or huge name list");
        return NULL;
    }
    char **v = spoor_xcalloc(len, sizeof *v);
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsString(e)) {
            bad(r, "a name is not a string");
            break;
        }
        v[(*n)++] = spoor_xstrdup(e->valuestring);
    }
    return v;
}

/* Exactly n finite numbers into out. */
static bool read_doubles(struct reader *r, const cJSON *a, double *out, size_t n)
{
    if (!a || !cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n)
        return bad(r, "a number list has the wrong length");
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        if (!is_number(e))
            return bad(r, "a list holds something that is not a finite number");
        out[i++] = e->valuedouble;
    }
    return true;
}

static bool read_layers(struct reader *r, const cJSON *root, struct spoor_model *m)
{
    const cJSON *sc = need(r, root, "scaler", is_object), *layers = need(r, root, "layers", is_array);
    if (!sc || !layers)
        return false;
    m->scaler.n = m->nfeat;
    m->scaler.mean = spoor_xcalloc(m->nfeat, sizeof(double));
    m->scaler.scale = spoor_xcalloc(m->nfeat, sizeof(double));
    if (!read_doubles(r, cJSON_GetObjectItemCaseSensitive(sc, "mean"), m->scaler.mean, m->nfeat) ||
        !read_doubles(r, cJSON_GetObjectItemCaseSensitive(sc, "scale"), m->scaler.scale, m->nfeat))
        return false;
    for (size_t f = 0; f < m->nfeat; f++)
        if (!(m->scaler.scale[f] > 0))
            return bad(r, "a scaler scale is not positive");
    size_t nl = (size_t)cJSON_GetArraySize(layers);
    if (nl == 0 || nl > MAX_LAYERS || (m->kind == SPOOR_MODEL_LOGISTIC && nl != 1))
        return bad(r, "wrong number of layers");
    m->layers = spoor_xcalloc(nl, sizeof *m->layers);
    size_t in = m->nfeat;
    const cJSON *L;
    cJSON_ArrayForEach(L, layers)
    {
        struct spoor_dense *d = &m->layers[m->nlayers++];
        const cJSON *jin = need(r, L, "in", is_number), *jout = need(r, L, "out", is_number);
        const cJSON *w = need(r, L, "w", is_array);
        if (!jin || !jout || !w)
            return false;
        bool last = m->nlayers == nl;
        if (jin->valuedouble != (double)in || jout->valuedouble < 1 || jout->valuedouble > MAX_WIDTH ||
            (last && jout->valuedouble != (double)m->nclasses))
            return bad(r, "layer sizes do not chain from the features to the classes");
        d->in = in;
        d->out = (size_t)jout->valuedouble;
        d->w = spoor_xcalloc(d->in * d->out, sizeof *d->w);
        d->b = spoor_xcalloc(d->out, sizeof *d->b);
        if ((size_t)cJSON_GetArraySize(w) != d->out)
            return bad(r, "a weight matrix has the wrong number of rows");
        size_t j = 0;
        const cJSON *row;
        cJSON_ArrayForEach(row, w) if (!read_doubles(r, row, d->w + d->in * j++, d->in)) return false;
        if (!read_doubles(r, cJSON_GetObjectItemCaseSensitive(L, "b"), d->b, d->out))
            return false;
        in = d->out;
    }
    return true;
}

static long index_of(char *const *names, size_t n, const cJSON *v)
{
    if (!cJSON_IsString(v))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], v->valuestring) == 0)
            return (long)i;
    return -1;
}

static bool read_rule(struct reader *r, const cJSON *root, struct spoor_model *m)
{
    const cJSON *rule = need(r, root, "rule", is_object);
    const cJSON *feat = rule ? need(r, rule, "feature", is_array) : NULL, *leaf = rule ? need(r, rule, "leaf", is_array) : NULL;
    if (!feat || !leaf || !read_doubles(r, cJSON_GetObjectItemCaseSensitive(rule, "threshold"), m->rule.thr, 3))
        return false;
    if (cJSON_GetArraySize(feat) != 3 || cJSON_GetArraySize(leaf) != 4)
        return bad(r, "a rule has 3 features and 4 leaves");
    for (int i = 0; i < 3; i++) {
        long f = index_of(m->feat_names, m->nfeat, cJSON_GetArrayItem(feat, i));
        if (f < 0)
            return bad(r, "a rule feature is not among the features");
        m->rule.feat[i] = (uint32_t)f;
    }
    for (int i = 0; i < 4; i++) {
        long c = index_of(m->class_names, m->nclasses, cJSON_GetArrayItem(leaf, i));
        if (c < 0)
            return bad(r, "a rule leaf is not among the classes");
        m->rule.leaf[i] = (uint32_t)c;
    }
    return true;
}

/* n integers in [lo, hi] into out. */
static bool read_ints(struct reader *r, const cJSON *obj, const char *key, int32_t *out, size_t n, long lo, long hi)
{
    double *v = spoor_xcalloc(n + 1, sizeof *v);
    bool ok = read_doubles(r, cJSON_GetObjectItemCaseSensitive(obj, key), v, n);
    for (size_t i = 0; ok && i < n; i++) {
        if (v[i] != floor(v[i]) || v[i] < (double)lo || v[i] > (double)hi)
            ok = bad(r, "a tree index is out of range");
        else
            out[i] = (int32_t)v[i];
    }
    free(v);
    return ok;
}

static bool read_floats(struct reader *r, const cJSON *obj, const char *key, struct spoor_forest *f, size_t member)
{
    double *v = spoor_xcalloc(f->nnodes + 1, sizeof *v);
    bool ok = read_doubles(r, cJSON_GetObjectItemCaseSensitive(obj, key), v, f->nnodes);
    for (size_t i = 0; ok && i < f->nnodes; i++) {
        if (fabs(v[i]) > FLT_MAX)
            ok = bad(r, "a tree value does not fit a float");
        else
            *(float *)((char *)&f->nodes[i] + member) = (float)v[i];
    }
    free(v);
    return ok;
}

static bool read_trees(struct reader *r, const cJSON *root, struct spoor_model *m)
{
    const cJSON *t = need(r, root, "trees", is_object);
    const cJSON *nt = t ? need(r, t, "ntrees", is_number) : NULL, *nn = t ? need(r, t, "nnodes", is_number) : NULL;
    const cJSON *base = t ? need(r, t, "base_margin", is_number) : NULL;
    if (!nt || !nn || !base)
        return false;
    if (nt->valuedouble < 1 || nt->valuedouble > 1e6 || nn->valuedouble < 1 || nn->valuedouble > 1e8)
        return bad(r, "tree or node count out of range");
    /* The arrays must hold the counts: no allocation beyond what the text backs. */
    const cJSON *features = cJSON_GetObjectItemCaseSensitive(t, "feature"), *roots = cJSON_GetObjectItemCaseSensitive(t, "roots");
    if (!cJSON_IsArray(features) || (double)cJSON_GetArraySize(features) != floor(nn->valuedouble) ||
        !cJSON_IsArray(roots) || (double)cJSON_GetArraySize(roots) != floor(nt->valuedouble))
        return bad(r, "tree or node count does not match the arrays");
    struct spoor_forest *f = &m->forest;
    f->nfeatures = m->nfeat;
    f->ngroups = (int)m->nclasses;
    f->link = SPOOR_FOREST_SOFTMAX;
    f->base_margin = base->valuedouble;
    f->ntrees = (size_t)nt->valuedouble;
    f->nnodes = (size_t)nn->valuedouble;
    f->roots = spoor_xcalloc(f->ntrees, sizeof *f->roots);
    f->groups = spoor_xcalloc(f->ntrees, sizeof *f->groups);
    f->nodes = spoor_xcalloc(f->nnodes, sizeof *f->nodes);
    int32_t *tmp = spoor_xcalloc(f->nnodes, sizeof *tmp);
    long last = (long)f->nnodes - 1;
    bool ok = read_ints(r, t, "roots", f->roots, f->ntrees, 0, last) &&
              read_ints(r, t, "groups", f->groups, f->ntrees, 0, (long)m->nclasses - 1);
    const char *keys[] = {"feature", "left", "right", "missing"};
    size_t members[] = {offsetof(struct spoor_forest_node, feature), offsetof(struct spoor_forest_node, left),
                        offsetof(struct spoor_forest_node, right), offsetof(struct spoor_forest_node, missing)};
    for (int k = 0; k < 4 && ok; k++) {
        ok = read_ints(r, t, keys[k], tmp, f->nnodes, k == 0 ? -1 : 0, k == 0 ? (long)m->nfeat - 1 : last);
        for (size_t i = 0; ok && i < f->nnodes; i++)
            *(int32_t *)((char *)&f->nodes[i] + members[k]) = tmp[i];
    }
    free(tmp);
    ok = ok && read_floats(r, t, "threshold", f, offsetof(struct spoor_forest_node, threshold)) &&
         read_floats(r, t, "leaf", f, offsetof(struct spoor_forest_node, leaf)) &&
         read_floats(r, t, "gain", f, offsetof(struct spoor_forest_node, gain));
    /* Children after their parent: every walk ends at a leaf. */
    for (size_t i = 0; ok && i < f->nnodes; i++) {
        const struct spoor_forest_node *n = &f->nodes[i];
        if (n->feature >= 0 && (n->left <= (int32_t)i || n->right <= (int32_t)i || n->missing <= (int32_t)i))
            ok = bad(r, "a tree node's child does not come after it");
    }
    return ok;
}

static bool read_actions(struct reader *r, const cJSON *root, struct spoor_model *m)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "actions");
    if (!a)
        return true;
    const cJSON *name = need(r, a, "name", is_string);
    if (!name)
        return false;
    double *v = spoor_xcalloc(m->nclasses, sizeof *v);
    bool ok = read_doubles(r, cJSON_GetObjectItemCaseSensitive(a, "values"), v, m->nclasses);
    m->action_name = spoor_xstrdup(name->valuestring);
    m->action = spoor_xcalloc(m->nclasses, sizeof *m->action);
    for (size_t c = 0; ok && c < m->nclasses; c++) {
        if (v[c] != floor(v[c]) || fabs(v[c]) > 9e15)
            ok = bad(r, "an action value is not an integer");
        else
            m->action[c] = (int64_t)v[c];
    }
    free(v);
    return ok;
}

static void read_training(const cJSON *root, struct spoor_model *m)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "training");
    const cJSON *seed = t ? cJSON_GetObjectItemCaseSensitive(t, "seed") : NULL;
    spoor_train_opts_default(&m->opts);
    m->opts.kind = m->kind;
    if (is_number(seed) && seed->valuedouble >= 0 && seed->valuedouble < 0x1p64)
        m->opts.seed = (uint64_t)seed->valuedouble;
}

static bool read_model(struct reader *r, const cJSON *root, struct spoor_model *m)
{
    const cJSON *format = need(r, root, "format", is_string), *version = need(r, root, "version", is_number);
    const cJSON *kind = need(r, root, "kind", is_string), *label = need(r, root, "label", is_string);
    if (!format || !version || !kind || !label)
        return false;
    if (strcmp(format->valuestring, SPOOR_MODEL_FORMAT) != 0)
        return bad(r, "not a spoor model (format is not \"" SPOOR_MODEL_FORMAT "\")");
    if (version->valuedouble != SPOOR_MODEL_VERSION)
        return bad(r, "unsupported version (this spoor reads version 1)");
    int k = spoor_model_kind_parse(kind->valuestring);
    if (k < 0)
        return bad(r, "unknown kind");
    m->kind = (enum spoor_model_kind)k;
    m->label_name = spoor_xstrdup(label->valuestring);
    m->feat_names = read_names(r, need(r, root, "features", is_array), &m->nfeat);
    m->class_names = read_names(r, need(r, root, "classes", is_array), &m->nclasses);
    if (r->st != SPOOR_OK)
        return false;
    if (m->nclasses < 2)
        return bad(r, "fewer than two classes");
    if (!read_actions(r, root, m))
        return false;
    read_training(root, m);
    switch (m->kind) {
    case SPOOR_MODEL_MLP:
    case SPOOR_MODEL_LOGISTIC: return read_layers(r, root, m);
    case SPOOR_MODEL_RULE: return read_rule(r, root, m);
    case SPOOR_MODEL_TREES: return read_trees(r, root, m);
    }
    return false;
}

int spoor_model_parse(const char *text, size_t len, const char *name, struct spoor_model **out,
                      struct spoor_error *err)
{
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return spoor_fail(err, SPOOR_EFORMAT, "%s: model: not a JSON object", name);
    }
    struct reader r = {.name = name, .err = err, .st = SPOOR_OK};
    struct spoor_model *m = spoor_xcalloc(1, sizeof *m);
    read_model(&r, root, m);
    cJSON_Delete(root);
    if (r.st != SPOOR_OK) {
        spoor_model_free(m);
        return r.st;
    }
    *out = m;
    return SPOOR_OK;
}

int spoor_model_load(const char *path, struct spoor_model **out, struct spoor_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return spoor_fail(err, SPOOR_EIO, "%s: cannot open the model", path);
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 65536 > cap)
            buf = spoor_xrealloc(buf, cap = (cap + 65536) * 2);
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    bool failed = ferror(f);
    fclose(f);
    int st = failed ? spoor_fail(err, SPOOR_EIO, "%s: cannot read the model", path)
                    : spoor_model_parse(buf, len, path, out, err);
    free(buf);
    return st;
}
