/* Reading XGBoost's JSON model (learner -> gradient_booster -> model -> trees)
 * into spoor_forest node arrays. The text comes from XGBoost, but it is
 * checked as untrusted input all the same (it may also come from a file):
 * array lengths agree, children are in range, no node is reached twice, so
 * evaluation always ends at a leaf. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/ml.h"
#include "read/json_scan.h"
#include "ml/forest.h"

#define MAX_CLASSES 4096
#define MAX_FEATURES (1 << 20)

/* The value of member `name` of the object spanning [p, p + n). */
static bool member(const char *p, size_t n, const char *name, struct spoor_json_tok *val)
{
    struct spoor_json_iter it;
    struct spoor_json_tok key;
    size_t len = strlen(name);
    spoor_json_iter_init(&it, p, p + n);
    while (spoor_json_next(&it, &key, val) == 1)
        if (key.n == len && memcmp(key.p, name, len) == 0)
            return true;
    return false;
}

/* member() along a path of object names ending in a value of the given kind. */
static bool path(const char *p, size_t n, const char *const *names, enum spoor_json_kind kind,
                 struct spoor_json_tok *val)
{
    for (; *names; names++) {
        if (!member(p, n, *names, val))
            return false;
        p = val->p;
        n = val->n;
    }
    return val->kind == kind;
}

/* The elements of an ARRAY token: numbers (quoted or not) and true/false. */
static bool numbers(const struct spoor_json_tok *arr, double **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    if (arr->kind != SPOOR_JSON_ARRAY)
        return false;
    const char *p = arr->p + 1, *end = arr->p + arr->n - 1;
    size_t cap = 0;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
            p++;
        if (p == end)
            break;
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        const char *e = q;
        while (e > p && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (e > p + 1 && *p == '"' && e[-1] == '"')
            p++, e--;
        double v;
        if ((size_t)(e - p) == 4 && memcmp(p, "true", 4) == 0)
            v = 1;
        else if ((size_t)(e - p) == 5 && memcmp(p, "false", 5) == 0)
            v = 0;
        else if (!spoor_json_double(p, (size_t)(e - p), &v)) {
            free(*out);
            *out = NULL;
            return false;
        }
        if (*count == cap) {
            cap = cap ? 2 * cap : 16;
            *out = spoor_xrealloc(*out, cap * sizeof **out);
        }
        (*out)[(*count)++] = v;
        p = q < end ? q + 1 : q;
    }
    return true;
}

/* Next object of an array of objects; *pos starts just inside the '['. */
static int next_object(const char **pos, const char *end, struct spoor_json_tok *obj)
{
    const char *p = *pos;
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == ','))
        p++;
    if (p < end && *p == ']')
        return 0;
    struct spoor_json_iter it;
    struct spoor_json_tok k, v;
    spoor_json_iter_init(&it, p, end);
    int rc;
    while ((rc = spoor_json_next(&it, &k, &v)) == 1)
        ;
    if (rc < 0)
        return -1;
    *obj = (struct spoor_json_tok){.kind = SPOOR_JSON_OBJECT, .p = p, .n = (size_t)(it.p - p)};
    *pos = it.p;
    return 1;
}

static bool whole(double v, double lo, double hi) { return v == floor(v) && v >= lo && v <= hi; }

enum { LEFT, RIGHT, FEATURE, THRESHOLD, DEFAULT_LEFT, GAIN, NARRAYS };
static const char *const array_names[NARRAYS] = {
    "left_children", "right_children", "split_indices", "split_conditions", "default_left", "loss_changes",
};

static bool is_float(double v) { return isfinite(v) && fabs(v) <= FLT_MAX; }

/* Node i of a tree's arrays a[]; false when a child, the feature or a value is out of range. */
static bool node_from(double *const a[NARRAYS], size_t i, size_t count, size_t nfeatures, int32_t base,
                      struct spoor_forest_node *node)
{
    double l = a[LEFT][i], r = a[RIGHT][i];
    bool leaf = l == -1;
    if (!(leaf ? r == -1 : whole(l, 0, (double)count - 1) && whole(r, 0, (double)count - 1) &&
                               whole(a[FEATURE][i], 0, (double)nfeatures - 1)) ||
        !is_float(a[THRESHOLD][i]) || !is_float(a[GAIN][i]))
        return false;
    float value = (float)a[THRESHOLD][i];
    int32_t left = leaf ? 0 : (int32_t)l, right = leaf ? 0 : (int32_t)r;
    *node = (struct spoor_forest_node){
        .feature = leaf ? -1 : (int32_t)a[FEATURE][i],
        .left = base + left, .right = base + right,
        .missing = base + (a[DEFAULT_LEFT][i] != 0 ? left : right),
        .threshold = leaf ? 0 : value, .leaf = leaf ? value : 0,
        .gain = leaf ? 0 : (float)a[GAIN][i],
    };
    return true;
}

/* Every reachable node is reached once: no cycles, no shared children. */
static bool tree_acyclic(const struct spoor_forest_node *nodes, size_t n, int32_t base)
{
    unsigned char *seen = spoor_xcalloc(n, 1);
    int32_t *stack = spoor_xmalloc(n * sizeof *stack);
    size_t top = 0;
    bool ok = true;
    stack[top++] = 0;
    while (ok && top > 0) {
        int32_t i = stack[--top];
        ok = !seen[i];
        seen[i] = 1;
        if (ok && nodes[i].feature >= 0) {
            ok = top + 2 <= n;
            if (ok) {
                stack[top++] = nodes[i].left - base;
                stack[top++] = nodes[i].right - base;
            }
        }
    }
    free(seen);
    free(stack);
    return ok;
}

static int add_tree(struct spoor_forest *f, const struct spoor_json_tok *tree, size_t t, struct spoor_error *err)
{
    double *a[NARRAYS] = {0};
    size_t n[NARRAYS], count = 0;
    int rc = SPOOR_OK;
    for (int k = 0; k < NARRAYS && rc == SPOOR_OK; k++) {
        struct spoor_json_tok val;
        if (!member(tree->p, tree->n, array_names[k], &val) || !numbers(&val, &a[k], &n[k]))
            rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: tree %zu: missing or bad %s", t, array_names[k]);
        else if (k > 0 && n[k] != count)
            rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: tree %zu: %s has %zu values, left_children %zu", t,
                            array_names[k], n[k], count);
        count = n[0];
    }
    if (rc == SPOOR_OK && (count == 0 || count > INT32_MAX - f->nnodes))
        rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: tree %zu has %zu nodes", t, count);
    if (rc == SPOOR_OK) {
        size_t base = f->nnodes;
        f->nodes = spoor_xrealloc(f->nodes, (base + count) * sizeof *f->nodes);
        for (size_t i = 0; i < count && rc == SPOOR_OK; i++)
            if (!node_from(a, i, count, f->nfeatures, (int32_t)base, &f->nodes[base + i]))
                rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: tree %zu node %zu: bad children, feature or value",
                                t, i);
        if (rc == SPOOR_OK && !tree_acyclic(f->nodes + base, count, (int32_t)base))
            rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: tree %zu: a node is reached twice", t);
        f->roots[t] = (int32_t)base;
        f->nnodes = base + count;
    }
    for (int k = 0; k < NARRAYS; k++)
        free(a[k]);
    return rc;
}

static const struct {
    const char *name;
    enum spoor_forest_link link;
} objectives[] = {
    {"reg:squarederror", SPOOR_FOREST_IDENTITY},
    {"binary:logistic", SPOOR_FOREST_LOGISTIC},
    {"multi:softprob", SPOOR_FOREST_SOFTMAX},
};

static int read_header(const char *p, size_t n, struct spoor_forest *f, struct spoor_error *err)
{
    static const char *const objective_path[] = {"learner", "objective", "name", NULL};
    static const char *const booster_path[] = {"learner", "gradient_booster", "name", NULL};
    static const char *const param_path[] = {"learner", "learner_model_param", NULL};
    struct spoor_json_tok obj, params, v;
    if (!path(p, n, booster_path, SPOOR_JSON_STRING, &v) || v.n != 6 || memcmp(v.p, "gbtree", 6) != 0)
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: not a gbtree booster");
    if (!path(p, n, objective_path, SPOOR_JSON_STRING, &obj))
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: no learner.objective.name");
    size_t k = 0;
    while (k < sizeof objectives / sizeof *objectives &&
           (strlen(objectives[k].name) != obj.n || memcmp(objectives[k].name, obj.p, obj.n) != 0))
        k++;
    if (k == sizeof objectives / sizeof *objectives)
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: unsupported objective %.*s", (int)(obj.n > 64 ? 64 : obj.n),
                          obj.p);
    f->link = objectives[k].link;
    double base, nclass, nfeature;
    if (!path(p, n, param_path, SPOOR_JSON_OBJECT, &params) || !member(params.p, params.n, "base_score", &v) ||
        !spoor_json_double(v.p, v.n, &base) || !member(params.p, params.n, "num_class", &v) ||
        !spoor_json_double(v.p, v.n, &nclass) || !member(params.p, params.n, "num_feature", &v) ||
        !spoor_json_double(v.p, v.n, &nfeature))
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: missing or bad learner_model_param");
    bool softmax = f->link == SPOOR_FOREST_SOFTMAX;
    if (!whole(nfeature, 1, MAX_FEATURES) || !(softmax ? whole(nclass, 2, MAX_CLASSES) : nclass == 0) ||
        !(f->link == SPOOR_FOREST_LOGISTIC ? base > 0 && base < 1 : is_float(base)))
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: bad num_feature, num_class or base_score");
    f->nfeatures = (size_t)nfeature;
    f->ngroups = softmax ? (int)nclass : 1;
    /* base_score is in prediction space; the logistic link takes it to a margin. */
    f->base_margin = f->link == SPOOR_FOREST_LOGISTIC ? log(base / (1 - base)) : base;
    return SPOOR_OK;
}

static int read_trees(const char *p, size_t n, struct spoor_forest *f, struct spoor_error *err)
{
    static const char *const info_path[] = {"learner", "gradient_booster", "model", "tree_info", NULL};
    static const char *const trees_path[] = {"learner", "gradient_booster", "model", "trees", NULL};
    struct spoor_json_tok info, trees, tree;
    double *groups;
    if (!path(p, n, info_path, SPOOR_JSON_ARRAY, &info) || !numbers(&info, &groups, &f->ntrees))
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: missing or bad tree_info");
    if (!path(p, n, trees_path, SPOOR_JSON_ARRAY, &trees)) {
        free(groups);
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: no trees");
    }
    f->roots = spoor_xcalloc(f->ntrees + 1, sizeof *f->roots);
    f->groups = spoor_xcalloc(f->ntrees + 1, sizeof *f->groups);
    const char *pos = trees.p + 1, *end = trees.p + trees.n;
    int rc = SPOOR_OK, got;
    size_t t = 0;
    for (; rc == SPOOR_OK && (got = next_object(&pos, end, &tree)) == 1; t++) {
        if (t == f->ntrees || !whole(groups[t], 0, f->ngroups - 1))
            rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: tree %zu has no valid tree_info group", t);
        else
            rc = add_tree(f, &tree, t, err);
        if (rc == SPOOR_OK)
            f->groups[t] = (int32_t)groups[t];
    }
    if (rc == SPOOR_OK && (got < 0 || t != f->ntrees))
        rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: %zu trees for %zu tree_info entries", t, f->ntrees);
    free(groups);
    return rc;
}

int spoor_forest_from_xgb_json(const char *json, size_t len, struct spoor_forest *f, struct spoor_error *err)
{
    memset(f, 0, sizeof *f);
    int rc = read_header(json, len, f, err);
    if (rc == SPOOR_OK)
        rc = read_trees(json, len, f, err);
    if (rc != SPOOR_OK)
        spoor_forest_free(f);
    return rc;
}
