/* Rules and boosted trees as C. Thresholds in fixed point: a Q16 input x_q
 * stands for x_q / 65536, so x <= t holds exactly when x_q <= floor(t * 65536)
 * and x < t when x_q < ceil(t * 65536). Tree leaves sum in Q24. */
#include "ml/export_internal.h"

#include <math.h>

#define LEAF_FRAC 24

void export_rule(const struct emit *e, const struct spoor_model *m, bool fixed)
{
    const struct spoor_rule *r = &m->rule;
    FILE *out = e->out;
    fprintf(out, "static inline int %s_predict%s(const %s *x)\n{\n", e->p, fixed ? "_fixed" : "",
            fixed ? "long long" : "double");
    for (int n = 0; n < 3; n++) {
        fprintf(out, "    %sint c%d = x[%u] <= ", n == 0 ? "" : "", n, r->feat[n]);
        if (fixed)
            fprintf(out, "%lldLL;", export_q_floor(r->thr[n], SPOOR_EXPORT_IN_FRAC));
        else
            fprintf(out, "%.17g;", r->thr[n]);
        fprintf(out, " /* %s */\n", m->feat_names[r->feat[n]]);
    }
    fprintf(out, "    return c0 ? (c1 ? %u : %u) : (c2 ? %u : %u);\n}\n", r->leaf[0], r->leaf[1], r->leaf[2], r->leaf[3]);
}

void export_trees(const struct emit *e, const struct spoor_model *m, bool fixed)
{
    const struct spoor_forest *f = &m->forest;
    FILE *out = e->out;
    const char *p = e->p;
    fprintf(out, "/* Nodes: feature (-1 = leaf), left, right, threshold, leaf value. */\n");
    fprintf(out, "struct %s_node {\n    int feature, left, right;\n    %s threshold, leaf;\n};\n", p,
            fixed ? "long long" : "float");
    fprintf(out, "static const struct %s_node %s_nodes[%zu] = {\n", p, p, f->nnodes);
    for (size_t i = 0; i < f->nnodes; i++) {
        const struct spoor_forest_node *n = &f->nodes[i];
        fprintf(out, "    {%d, %d, %d, ", n->feature, n->left, n->right);
        if (fixed)
            fprintf(out, "%lldLL, %lldLL", export_q_ceil(n->threshold, SPOOR_EXPORT_IN_FRAC),
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
    fprintf(out, "    %s margin[%zu] = {0};\n    int t, c, best = 0;\n", acc, m->nclasses);
    fprintf(out, "    for (t = 0; t < %zu; t++) {\n        int n = %s_roots[t];\n", f->ntrees, p);
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
}
