/* Rules and boosted trees as C. A fixed-point input x_q stands for x_q / 65536.
 *
 * Both kinds go left when (float)x < t (a rule by its definition, trees as
 * XGBoost does), with t on the Q16 grid (rule_train and trees_train put it
 * there). The integer threshold T
 * is the least x_q whose value rounds to a float >= t, so x_q < T exactly when
 * the float compare holds, for every integer x_q (float rounding is monotone).
 * A double x becomes x_q = floor((float)x * 65536): with t a multiple of
 * 1/65536 that floor keeps (float)x's side of t, so the header takes every
 * split the model takes, for every input. Tree leaves sum in Q24. */
#include "ml/export_internal.h"

#include <math.h>

/* The least x_q with (float)(x_q / 65536) >= t, for t a multiple of 1/65536:
 * t * 65536 or, where floats are coarser than 1/65536, down to where rounding
 * reaches t. Past +-2^46 a threshold is beyond Q16 inputs (x_q saturates at
 * 2^62 there) and stays t * 65536, saturated. */
static long long split_q(float t)
{
    long long hi = export_q_floor(t, SPOOR_EXPORT_IN_FRAC);
    if (fabsf(t) >= 0x1p46f)
        return hi;
    long long lo = hi - export_q(nextafterf(t, INFINITY) - t, SPOOR_EXPORT_IN_FRAC) - 1;
    while (hi - lo > 1) { /* (float)(lo / 65536) < t <= (float)(hi / 65536) */
        long long mid = lo + (hi - lo) / 2;
        if ((float)ldexp((double)mid, -SPOOR_EXPORT_IN_FRAC) >= t)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

#define LEAF_FRAC 24

/* A threshold off the grid: the fixed-point header could not decide as the model does. */
static int off_grid(struct spoor_error *err, const char *what, long at, double t)
{
    return spoor_fail(err, SPOOR_EFORMAT,
                      "%s %ld: threshold %.17g is not a float multiple of 1/65536, so integer inputs cannot take "
                      "every split as the model does; train the model again with this spoor",
                      what, at, t);
}

int export_rule(struct emit *e, const struct spoor_model *m, bool fixed, struct spoor_error *err)
{
    const struct spoor_rule *r = &m->rule;
    FILE *out = e->out;
    for (int n = 0; fixed && n < 3; n++)
        if (!spoor_export_on_grid(r->thr[n]))
            return off_grid(err, "rule cut", n, r->thr[n]);
    fprintf(out, "static inline int %s_predict%s(const %s *x)\n{\n", e->p, fixed ? "_fixed" : "",
            fixed ? "long long" : "double");
    for (int n = 0; n < 3; n++) {
        char decl[96];
        if (fixed)
            snprintf(decl, sizeof decl, "c%d = x[%u] < %lldLL", n, r->feat[n], split_q((float)r->thr[n]));
        else
            snprintf(decl, sizeof decl, "c%d = (float)x[%u] < %.17g", n, r->feat[n], r->thr[n]);
        fprintf(out, "    /* %s */\n", m->feat_names[r->feat[n]]);
        export_local(e, "int", decl, sizeof(int), false);
    }
    fprintf(out, "    return c0 ? (c1 ? %u : %u) : (c2 ? %u : %u);\n}\n", r->leaf[0], r->leaf[1], r->leaf[2], r->leaf[3]);
    return SPOOR_OK;
}

int export_trees(struct emit *e, const struct spoor_model *m, bool fixed, struct spoor_error *err)
{
    const struct spoor_forest *f = &m->forest;
    FILE *out = e->out;
    const char *p = e->p;
    for (size_t i = 0; fixed && i < f->nnodes; i++)
        if (f->nodes[i].feature >= 0 && !spoor_export_on_grid(f->nodes[i].threshold))
            return off_grid(err, "node", (long)i, f->nodes[i].threshold);
    fprintf(out, "/* Nodes: feature (-1 = leaf), left, right, threshold, leaf value. */\n");
    fprintf(out, "struct %s_node {\n    int feature, left, right;\n    %s threshold, leaf;\n};\n", p,
            fixed ? "long long" : "float");
    fprintf(out, "static const struct %s_node %s_nodes[%zu] = {\n", p, p, f->nnodes);
    for (size_t i = 0; i < f->nnodes; i++) {
        const struct spoor_forest_node *n = &f->nodes[i];
        fprintf(out, "    {%d, %d, %d, ", n->feature, n->left, n->right);
        if (fixed)
            fprintf(out, "%lldLL, %lldLL", split_q(n->threshold),
                    export_q(n->leaf, LEAF_FRAC));
        else
            fprintf(out, "%.9g, %.9g", n->threshold, n->leaf);
        fprintf(out, "}%s\n", i + 1 < f->nnodes ? "," : "");
    }
    fprintf(out, "};\nstatic const int %s_roots[%zu] = {", p, f->ntrees);
    for (size_t t = 0; t < f->ntrees; t++)
        fprintf(out, "%s%d", t ? ", " : "", f->roots[t]);
    fprintf(out, "};\nstatic const int %s_tree_class[%zu] = {", p, f->ntrees);
    for (size_t t = 0; t < f->ntrees; t++)
        fprintf(out, "%s%d", t ? ", " : "", f->groups[t]);
    fprintf(out, "};\n\n");
    const char *acc = fixed ? "long long" : "double";
    fprintf(out, "static inline int %s_predict%s(const %s *x)\n{\n", p, fixed ? "_fixed" : "",
            fixed ? "long long" : "double");
    char decl[64];
    snprintf(decl, sizeof decl, "margin[%zu]", m->nclasses);
    export_local(e, acc, decl, m->nclasses * sizeof(double), true);
    export_local(e, "int", "t, c, n, best = 0", 4 * sizeof(int), false);
    fprintf(out, "    for (c = 0; c < %zu; c++)\n        margin[c] = 0;\n", m->nclasses);
    fprintf(out, "    for (t = 0; t < %zu; t++) {\n        n = %s_roots[t];\n", f->ntrees, p);
    fprintf(out, "        while (%s_nodes[n].feature >= 0)\n", p);
    if (fixed)
        fprintf(out, "            n = x[%s_nodes[n].feature] < %s_nodes[n].threshold ? %s_nodes[n].left : %s_nodes[n].right;\n",
                p, p, p, p);
    else
        fprintf(out, "            n = (float)x[%s_nodes[n].feature] < %s_nodes[n].threshold ? %s_nodes[n].left : %s_nodes[n].right;\n",
                p, p, p, p);
    fprintf(out, "        margin[%s_tree_class[t]] += %s_nodes[n].leaf;\n    }\n", p, p);
    fprintf(out, "    for (c = 1; c < %zu; c++)\n        if (margin[c] > margin[best])\n            best = c;\n", m->nclasses);
    fprintf(out, "    return best;\n}\n");
    return SPOOR_OK;
}
