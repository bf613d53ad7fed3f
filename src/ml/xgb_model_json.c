/* Reading XGBoost's JSON model (learner -> gradient_booster -> model -> trees)
 * into spoor_forest node arrays. The text comes from XGBoost, but it is
 * checked as untrusted input all the same (it may also come from a file):
 * array lengths agree, children are in range, no node is reached twice, so
 * evaluation always ends at a leaf. The text is parsed with cJSON, like
 * spoor's own model (model_json_read.c). */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/ml.h"
#include "read/json_scan.h"
#include "ml/forest.h"

#include <cjson/cJSON.h>

#define MAX_CLASSES 4096
#define MAX_FEATURES (1 << 20)

/* The member at the end of a path of object names, when it is of the given kind. */
static const cJSON *path(const cJSON *v, const char *const *names, bool (*is)(const cJSON *))
{
    for (; v && *names; names++)
        v = cJSON_GetObjectItemCaseSensitive(v, *names);
    return v && is(v) ? v : NULL;
}

static bool is_array(const cJSON *v) { return cJSON_IsArray(v); }
static bool is_object(const cJSON *v) { return cJSON_IsObject(v); }
static bool is_string(const cJSON *v) { return cJSON_IsString(v); }

/* A number as XGBoost writes one: a JSON number, a number in a string
 * ("5E-1"), or true/false. */
static bool number(const cJSON *v, double *out)
{
    if (cJSON_IsNumber(v))
        *out = v->valuedouble;
    else if (cJSON_IsBool(v))
        *out = cJSON_IsTrue(v);
    else
        return cJSON_IsString(v) && spoor_json_double(v->valuestring, strlen(v->valuestring), out);
    return true;
}

/* The elements of an array of numbers. */
static bool numbers(const cJSON *arr, double **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    if (!cJSON_IsArray(arr))
        return false;
    *out = spoor_xmalloc(((size_t)cJSON_GetArraySize(arr) + 1) * sizeof **out);
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (!number(e, &(*out)[(*count)++])) {
            free(*out);
            *out = NULL;
            return false;
        }
    }
    return true;
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

static int add_tree(struct spoor_forest *f, const cJSON *tree, size_t t, struct spoor_error *err)
{
    double *a[NARRAYS] = {0};
    size_t n[NARRAYS], count = 0;
    int rc = SPOOR_OK;
    for (int k = 0; k < NARRAYS && rc == SPOOR_OK; k++) {
        if (!numbers(cJSON_GetObjectItemCaseSensitive(tree, array_names[k]), &a[k], &n[k]))
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

static int read_header(const cJSON *root, struct spoor_forest *f, struct spoor_error *err)
{
    static const char *const objective_path[] = {"learner", "objective", "name", NULL};
    static const char *const booster_path[] = {"learner", "gradient_booster", "name", NULL};
    static const char *const param_path[] = {"learner", "learner_model_param", NULL};
    const cJSON *booster = path(root, booster_path, is_string);
    if (!booster || strcmp(booster->valuestring, "gbtree") != 0)
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: not a gbtree booster");
    const cJSON *obj = path(root, objective_path, is_string);
    if (!obj)
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: no learner.objective.name");
    size_t k = 0;
    while (k < sizeof objectives / sizeof *objectives && strcmp(objectives[k].name, obj->valuestring) != 0)
        k++;
    if (k == sizeof objectives / sizeof *objectives)
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: unsupported objective %.64s", obj->valuestring);
    f->link = objectives[k].link;
    const cJSON *params = path(root, param_path, is_object);
    double base, nclass, nfeature;
    if (!params || !number(cJSON_GetObjectItemCaseSensitive(params, "base_score"), &base) ||
        !number(cJSON_GetObjectItemCaseSensitive(params, "num_class"), &nclass) ||
        !number(cJSON_GetObjectItemCaseSensitive(params, "num_feature"), &nfeature))
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

static int read_trees(const cJSON *root, struct spoor_forest *f, struct spoor_error *err)
{
    static const char *const info_path[] = {"learner", "gradient_booster", "model", "tree_info", NULL};
    static const char *const trees_path[] = {"learner", "gradient_booster", "model", "trees", NULL};
    double *groups;
    if (!numbers(path(root, info_path, is_array), &groups, &f->ntrees))
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: missing or bad tree_info");
    const cJSON *trees = path(root, trees_path, is_array);
    if (!trees) {
        free(groups);
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: no trees");
    }
    f->roots = spoor_xcalloc(f->ntrees + 1, sizeof *f->roots);
    f->groups = spoor_xcalloc(f->ntrees + 1, sizeof *f->groups);
    int rc = SPOOR_OK;
    size_t t = 0;
    const cJSON *tree;
    cJSON_ArrayForEach(tree, trees)
    {
        if (rc != SPOOR_OK)
            break;
        if (t == f->ntrees || !whole(groups[t], 0, f->ngroups - 1))
            rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: tree %zu has no valid tree_info group", t);
        else
            rc = add_tree(f, tree, t, err);
        if (rc == SPOOR_OK)
            f->groups[t] = (int32_t)groups[t];
        t++;
    }
    if (rc == SPOOR_OK && t != f->ntrees)
        rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost model: %zu trees for %zu tree_info entries", t, f->ntrees);
    free(groups);
    return rc;
}

int spoor_forest_from_xgb_json(const char *json, size_t len, struct spoor_forest *f, struct spoor_error *err)
{
    memset(f, 0, sizeof *f);
    cJSON *root = cJSON_ParseWithLength(json, len);
    if (!root)
        return spoor_fail(err, SPOOR_EFORMAT, "xgboost model: not valid JSON");
    int rc = read_header(root, f, err);
    if (rc == SPOOR_OK)
        rc = read_trees(root, f, err);
    cJSON_Delete(root);
    if (rc != SPOOR_OK)
        spoor_forest_free(f);
    return rc;
}
