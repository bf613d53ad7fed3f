/* Exported C headers, compiled with gcc as a kernel module would include
 * them: boosted trees and the rule baseline in fixed point take every split
 * as the float model does, on a feature equal to each split value and one float ulp either side;
 * a model saved with thresholds off the Q16 grid is refused; the stated
 * stack figure bounds what gcc -fstack-usage measures, and a function over
 * 1 KiB is refused unless its buffers are static. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/ml.h"
#include "testutil.h"
#include "ml_testutil.h"
#include "ml/export_internal.h"

/* 400 rows, 3 classes by a < 0.4 and b < 0.5; values carry 9 significant
 * digits, so the trees' split values fall between multiples of 1/65536. */
static struct spoor_dataset *fine_values(void)
{
    size_t cap = 400 * 80 + 64, len = 0;
    char *csv = malloc(cap);
    len += (size_t)snprintf(csv, cap, "a,b,c,label\n");
    uint64_t s = 7;
    for (int i = 0; i < 400; i++) {
        double v[3];
        for (int k = 0; k < 3; k++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            v[k] = (double)(s >> 11) / 9007199254740992.0;
        }
        v[2] *= 3000; /* a wider unit: thresholds past 128 are on the grid already */
        const char *label = v[0] < 0.4 ? "low" : v[1] < 0.5 ? "mid" : "high";
        len += (size_t)snprintf(csv + len, cap - len, "%.9g,%.9g,%.9g,%s\n", v[0], v[1], v[2], label);
    }
    struct spoor_dataset *ds = ml_test_load_csv("fine.csv", csv, len, NULL);
    free(csv);
    return ds;
}

/* Writes the model's header to dir/name; returns the call's status. */
static int export(const struct spoor_model *m, const char *name, const struct spoor_export_opts *o, size_t *stack,
                  struct spoor_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int st = spoor_export_header(m, f, o, stack, err);
    fclose(f);
    return st;
}

/* A shell command, formatted; it must succeed. */
static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
    char cmd[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    assert_int_equal(system(cmd), 0);
}

/* Rows of feature values on stdin; "float fixed" classes out. The fixed input
 * as the header says: floor((float)x * 65536). With an argument, rows of Q16
 * integers instead, as a kernel would pass them (the float header gets their
 * value). */
static const char driver[] =
    "#include <math.h>\n#include <stdio.h>\n#include \"mf.h\"\n#include \"mq.h\"\n"
    "int main(int argc, char **argv)\n{\n    double x[MF_NFEATURES];\n    long long q[MF_NFEATURES];\n"
    "    (void)argv;\n    for (;;) {\n        for (int f = 0; f < MF_NFEATURES; f++) {\n"
    "            if (argc > 1 ? scanf(\"%lld\", &q[f]) != 1 : scanf(\"%lf\", &x[f]) != 1)\n                return 0;\n"
    "            if (argc > 1)\n                x[f] = ldexp((double)q[f], -MQ_IN_FRAC);\n"
    "            else\n                q[f] = (long long)floor(ldexp((float)x[f], MQ_IN_FRAC));\n        }\n"
    "        printf(\"%d %d\\n\", mf_predict(x), mq_predict_fixed(q));\n    }\n}\n";

/* Runs the driver on rows and checks both headers against want[]. */
static void check_driver(const char *rows_path, bool raw, const uint32_t *want, size_t n)
{
    const char *dir = testutil_tmpdir();
    char out_path[4200];
    snprintf(out_path, sizeof out_path, "%s/classes.txt", dir);
    run("%s/driver %s < %s > %s", dir, raw ? "raw" : "", rows_path, out_path);
    FILE *out = fopen(out_path, "r");
    size_t got = 0;
    int fl, fx;
    while (fscanf(out, "%d %d", &fl, &fx) == 2) {
        assert_true(got < n);
        assert_int_equal((uint32_t)fl, want[got]);
        assert_int_equal((uint32_t)fx, want[got]);
        got++;
    }
    fclose(out);
    assert_int_equal(got, n);
}

/* One split of a model: its feature and threshold (a float on the Q16 grid). */
struct split {
    int feature;
    float t;
};

/* Exports m as float (mf.h) and fixed-point (mq.h) headers and checks both
 * take every split as the model does: its feature at the threshold and one
 * float ulp either side, as doubles and as the double just below (one the
 * float model rounds onto the threshold), the other features from a few
 * training rows; and as Q16 integers T - 2 .. T + 1 around the threshold. */
static void check_splits(const struct spoor_model *m, const struct spoor_dataset *ds, const struct split *sp,
                         size_t nsplits)
{
    struct spoor_error err = {0};
    assert_int_equal(export(m, "mf.h", &(struct spoor_export_opts){.prefix = "mf"}, NULL, &err), SPOOR_OK);
    assert_int_equal(export(m, "mq.h", &(struct spoor_export_opts){.prefix = "mq", .fixed = true}, NULL, &err),
                     SPOOR_OK);
    testutil_write("driver.c", driver, strlen(driver));
    const char *dir = testutil_tmpdir();
    run("gcc -std=c11 -O2 -Wall -Werror -I%s -o %s/driver %s/driver.c -lm", dir, dir, dir);

    char rows_path[4200], raw_path[4200];
    snprintf(rows_path, sizeof rows_path, "%s/rows.txt", dir);
    snprintf(raw_path, sizeof raw_path, "%s/raw.txt", dir);
    FILE *rows = fopen(rows_path, "w"), *raw = fopen(raw_path, "w");
    size_t n = 0, nraw = 0, cap = 8 * nsplits * 5;
    uint32_t *want = calloc(cap, sizeof *want), *want_raw = calloc(cap, sizeof *want_raw);
    for (size_t i = 0; i < nsplits; i++) {
        float t = sp[i].t;
        double at[4] = {nextafterf(t, -INFINITY), t, nextafterf(t, INFINITY), 0};
        at[3] = nextafter((double)t, -INFINITY); /* rounds to t as a float */
        long long tq = (long long)floor(ldexp(t, SPOOR_EXPORT_IN_FRAC));
        for (size_t base = 0; base < ds->nrows; base += ds->nrows / 4) {
            double row[3], scores[3];
            for (int k = 0; k < 4; k++) {
                memcpy(row, ds->x + base * ds->nfeat, sizeof row);
                row[sp[i].feature] = at[k];
                want[n++] = spoor_model_predict(m, row, scores);
                fprintf(rows, "%.17g %.17g %.17g\n", row[0], row[1], row[2]);
            }
            for (long long d = -2; d <= 1; d++) {
                long long q[3];
                for (int k = 0; k < 3; k++) {
                    q[k] = (long long)floor(ldexp(ds->x[base * ds->nfeat + k], SPOOR_EXPORT_IN_FRAC));
                    if (k == sp[i].feature)
                        q[k] = tq + d;
                    row[k] = ldexp((double)q[k], -SPOOR_EXPORT_IN_FRAC);
                }
                want_raw[nraw++] = spoor_model_predict(m, row, scores);
                fprintf(raw, "%lld %lld %lld\n", q[0], q[1], q[2]);
            }
        }
    }
    fclose(rows);
    fclose(raw);
    check_driver(rows_path, false, want, n);
    check_driver(raw_path, true, want_raw, nraw);
    free(want_raw);
    free(want);
}

static void trees_fixed_takes_every_split_as_float(void **state)
{
    struct spoor_dataset *ds = fine_values();
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.kind = SPOOR_MODEL_TREES;
    o.trees_rounds = 8;
    o.trees_depth = 3;
    struct spoor_model *m = ml_test_train_all(ds, &o);
    const struct spoor_forest *f = &m->forest;
    struct split *sp = calloc(f->nnodes, sizeof *sp);
    size_t nsplits = 0;
    for (size_t i = 0; i < f->nnodes; i++)
        if (f->nodes[i].feature >= 0) {
            assert_true(spoor_export_on_grid(f->nodes[i].threshold));
            sp[nsplits++] = (struct split){f->nodes[i].feature, f->nodes[i].threshold};
        }
    assert_true(nsplits >= 8);
    check_splits(m, ds, sp, nsplits);
    free(sp);
    spoor_model_free(m);
    spoor_dataset_free(ds);
}

/* The rule baseline likewise: its three cuts, on values that fall between
 * multiples of 1/65536. */
static void rule_fixed_takes_every_cut_as_float(void **state)
{
    struct spoor_dataset *ds = fine_values();
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.kind = SPOOR_MODEL_RULE;
    struct spoor_model *m = ml_test_train_all(ds, &o);
    const struct spoor_rule *r = &m->rule;
    struct split sp[3];
    for (int n = 0; n < 3; n++)
        sp[n] = (struct split){(int)r->feat[n], (float)r->thr[n]};
    check_splits(m, ds, sp, 3);
    spoor_model_free(m);
    spoor_dataset_free(ds);
}

#define TREES_JSON(thr)                                                                                              \
    "{\"format\": \"spoor-model\", \"version\": 1, \"label\": \"y\", \"features\": [\"a\"], \"classes\": [\"x\", "   \
    "\"z\"], \"kind\": \"trees\", \"trees\": {\"base_margin\": 0, \"ntrees\": 2, \"nnodes\": 6, \"roots\": [0, 3], " \
    "\"groups\": [0, 1], \"feature\": [0, -1, -1, 0, -1, -1], \"left\": [1, 0, 0, 4, 0, 0], \"right\": [2, 0, 0, "  \
    "5, 0, 0], \"missing\": [2, 0, 0, 5, 0, 0], \"threshold\": [" thr ", 0, 0, " thr ", 0, 0], \"leaf\": [0, 1, "    \
    "-1, 0, -1, 1], \"gain\": [1, 0, 0, 1, 0, 0]}}"

/* A model from before the grid (or edited by hand) cannot promise the same splits. */
static void off_grid_refused(void **state)
{
    static const char off[] = TREES_JSON("0.300010011"), on[] = TREES_JSON("0.30000305175781250");
    struct spoor_model *m = NULL;
    struct spoor_error err = {0};
    assert_int_equal(spoor_model_parse(off, strlen(off), "off", &m, &err), SPOOR_OK);
    assert_int_equal(export(m, "off.h", &(struct spoor_export_opts){.prefix = "q", .fixed = true}, NULL, &err),
                     SPOOR_EFORMAT);
    assert_non_null(strstr(err.msg, "not a float multiple of 1/65536"));
    assert_int_equal(export(m, "off_float.h", &(struct spoor_export_opts){.prefix = "f"}, NULL, &err), SPOOR_OK);
    spoor_model_free(m);
    assert_int_equal(spoor_model_parse(on, strlen(on), "on", &m, &err), SPOOR_OK);
    assert_int_equal(export(m, "on.h", &(struct spoor_export_opts){.prefix = "q", .fixed = true}, NULL, &err),
                     SPOOR_OK);
    spoor_model_free(m);
    /* A rule from before the grid (a midpoint cut). */
    static const char rule[] =
        "{\"format\": \"spoor-model\", \"version\": 1, \"kind\": \"rule\", \"label\": \"y\", \"features\": "
        "[\"a\"], \"classes\": [\"x\", \"z\"], \"rule\": {\"feature\": [\"a\", \"a\", \"a\"], \"threshold\": "
        "[0.5, 0.25, 0.300010011], \"leaf\": [\"x\", \"z\", \"x\", \"z\"]}}";
    assert_int_equal(spoor_model_parse(rule, strlen(rule), "rule", &m, &err), SPOOR_OK);
    assert_int_equal(export(m, "rule.h", &(struct spoor_export_opts){.prefix = "q", .fixed = true}, NULL, &err),
                     SPOOR_EFORMAT);
    assert_non_null(strstr(err.msg, "rule cut 2: threshold 0.300010011"));
    spoor_model_free(m);
}

/* gcc's frame of NAME_predict_fixed from -fstack-usage (not inlined, -O2 as kernels build). */
static long gcc_frame(const char *header)
{
    char src[256];
    int len = snprintf(src, sizeof src, "#include \"%s\"\nint use(const long long *x) { return q_predict_fixed(x); }\n",
                       header);
    testutil_write("use.c", src, (size_t)len);
    run("cd %s && gcc -std=c11 -O2 -fno-inline -ffreestanding -mgeneral-regs-only -fstack-usage -c use.c -o use.o",
        testutil_tmpdir());
    char path[4200], line[512];
    snprintf(path, sizeof path, "%s/use.su", testutil_tmpdir());
    FILE *su = fopen(path, "r");
    assert_non_null(su);
    long frame = -1;
    while (fgets(line, sizeof line, su)) {
        char *fn = strstr(line, ":q_predict_fixed\t");
        if (fn)
            frame = strtol(fn + strlen(":q_predict_fixed\t"), NULL, 10);
    }
    fclose(su);
    assert_true(frame >= 0);
    return frame;
}

static void stack_stated_and_limited(void **state)
{
    struct spoor_dataset *ds = fine_values();
    struct spoor_train_opts o;
    spoor_train_opts_default(&o);
    o.epochs = 1;
    o.val_frac = 0;
    struct spoor_error err = {0};
    size_t stack = 0;
    struct spoor_export_opts fixed = {.prefix = "q", .fixed = true};

    /* 3 -> 32 -> 16 -> 3: well under the limit; gcc's frame stays within the
     * stated locals plus saved registers. */
    struct spoor_model *m = ml_test_train_all(ds, &o);
    assert_int_equal(export(m, "small.h", &fixed, &stack, &err), SPOOR_OK);
    assert_int_equal(stack, 8 * (2 + 32 + 16 + 3) + 3 * 4);
    long frame = gcc_frame("small.h");
    assert_true(frame <= (long)stack + 64);
    spoor_model_free(m);

    /* 3 -> 128 -> 64 -> 3: 1,588 bytes of locals, refused; with static buffers
     * only the scalars stay on the stack. */
    o.hidden[0] = 128;
    o.hidden[1] = 64;
    m = ml_test_train_all(ds, &o);
    assert_int_equal(export(m, "big.h", &fixed, &stack, &err), SPOOR_EUSAGE);
    assert_non_null(strstr(err.msg, "q_predict_fixed would keep 1588 bytes on the stack, over 1024"));
    fixed.static_buffers = true;
    assert_int_equal(export(m, "big.h", &fixed, &stack, &err), SPOOR_OK);
    assert_int_equal(stack, 8 * 2 + 3 * 4);
    frame = gcc_frame("big.h");
    assert_true(frame <= (long)stack + 64);
    spoor_model_free(m);

    /* Trees: the margins and four ints. */
    o.kind = SPOOR_MODEL_TREES;
    o.trees_rounds = 3;
    fixed.static_buffers = false;
    m = ml_test_train_all(ds, &o);
    assert_int_equal(export(m, "trees.h", &fixed, &stack, &err), SPOOR_OK);
    assert_int_equal(stack, 8 * 3 + 4 * 4);
    assert_true(gcc_frame("trees.h") <= (long)stack + 64);
    spoor_model_free(m);
    spoor_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trees_fixed_takes_every_split_as_float),
        cmocka_unit_test(rule_fixed_takes_every_cut_as_float),
        cmocka_unit_test(off_grid_refused),
        cmocka_unit_test(stack_stated_and_limited),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
