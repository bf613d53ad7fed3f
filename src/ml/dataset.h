/* Datasets for learning: a CSV or JSONL file read through the engine's readers
 * into a numeric matrix (row-major doubles), a label (class ids with names, or
 * numbers) and an optional group column (e.g. run_id), plus the splits and the
 * standard scaler every model needs.
 *
 * Library code never prints: what was dropped (constant or duplicate features,
 * rows with missing values) is reported in the dataset for the caller to warn
 * about. */
#ifndef SPOOR_ML_DATASET_H
#define SPOOR_ML_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/load.h"

enum spoor_label_kind {
    SPOOR_LABEL_AUTO,   /* strings become classes, numbers stay numbers */
    SPOOR_LABEL_CLASS,  /* always classes (numbers by their text, e.g. "3") */
    SPOOR_LABEL_NUMBER, /* always numbers (a string label is an error) */
};

struct spoor_dataset_spec {
    /* Feature columns by name or glob (fnmatch), in this order, each column once.
     * None: every numeric column except the label and the group. A name that
     * matches no column is an error; a glob that matches none is too. */
    const char *const *features;
    size_t nfeatures;
    /* Take the features exactly as listed (plain names, no globs) and drop none:
     * for applying a trained model, whose inputs are fixed. */
    bool exact;
    const char *label;              /* NULL: no label */
    enum spoor_label_kind label_kind;
    /* Class names to number the labels by (a trained model's classes); a label
     * outside them is an error. NULL: classes in order of first sight. */
    const char *const *classes;
    size_t nclasses;
    const char *group;              /* NULL: no group column */
    /* Leaky features (dataset_leak.c): not looked for, listed, or listed and dropped. */
    enum { SPOOR_LEAKS_IGNORE, SPOOR_LEAKS_WARN, SPOOR_LEAKS_DROP } leaks;
};

/* A feature left out, and why (for a one-line warning). */
struct spoor_dataset_drop {
    char *name;
    const char *reason;             /* "constant", "duplicate of", "not numeric", or why it leaks */
    char *other;                    /* the kept feature it duplicates, or NULL */
    double r;                       /* Pearson r with `other` */
    bool leak;                      /* a leaky feature (dataset_leak.c) */
    bool kept;                      /* a leak listed but kept (SPOOR_LEAKS_WARN) */
};

/* A column that looks like a group id (see dataset_leak.c). */
struct spoor_dataset_group_like {
    char *name;
    size_t distinct;
};

struct spoor_dataset {
    char *path;
    size_t nrows, nfeat;
    double *x;                      /* nrows * nfeat, row-major */
    char **feat_names;              /* nfeat */
    uint64_t *line;                 /* source line of each row */

    char *label_name;               /* NULL when no label */
    bool label_is_class;
    double *y;                      /* label per row: the class id, or the number */
    uint32_t *cls;                  /* class id per row (label_is_class only) */
    char **class_names;
    size_t nclasses;

    char *group_name;               /* NULL when no group */
    uint32_t *group;                /* group id per row, in order of first sight */
    char **group_names;
    size_t ngroups;

    struct spoor_dataset_drop *dropped;
    size_t ndropped;
    struct spoor_dataset_group_like *group_like; /* columns but the label that look like group ids */
    size_t ngroup_like;
    uint64_t skipped_rows;          /* rows lacking a feature, the label or the group */
    uint64_t first_skipped_line;
    char first_skipped_field[64];
};

/* Reads path (format detected, or as load->read.format says) and builds the
 * dataset. Every field of the file becomes a column (no field fills the event
 * table's fixed ts/name/... columns). Unless spec->exact, constant features and
 * features with |r| > 0.999 against an earlier kept one are dropped and listed;
 * then leaky features are listed (and dropped) as spec->leaks says, and the
 * columns that look like group ids are listed in ds->group_like.
 * Rows lacking a value are skipped and counted; with load->read.strict the
 * first one is an error. result (may be NULL) receives the reader's report. */
int spoor_dataset_load(const char *path, const struct spoor_dataset_spec *spec,
                       const struct spoor_load_opts *load, struct spoor_dataset **out,
                       struct spoor_load_result *result, struct spoor_error *err);
void spoor_dataset_free(struct spoor_dataset *ds);

/* Index of the feature named name, or -1. */
long spoor_dataset_feature(const struct spoor_dataset *ds, const char *name);

/* ---- splits: lists of row indexes into a dataset ---- */

struct spoor_split {
    size_t *train, *test;
    size_t ntrain, ntest;
};

struct spoor_folds {
    struct spoor_split *fold;       /* fold[i].test is the i-th held-out part */
    size_t n;
};

/* Splits rows (NULL = every row of ds; else nrows indexes) into train and test
 * with about test_frac of them in test. With ds->group set, whole groups go to
 * test (the honest split when rows of a group are correlated); otherwise rows
 * are drawn per class (stratified) when the label is a class, else at random.
 * Deterministic for a seed. Fails when a side would be empty. */
int spoor_split_holdout(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, double test_frac,
                        uint64_t seed, struct spoor_split *out, struct spoor_error *err);
/* The same without groups: stratified (classes) or random rows, even when ds
 * has a group column (to reproduce a row-level split on purpose). */
int spoor_split_rows(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, double test_frac,
                     uint64_t seed, struct spoor_split *out, struct spoor_error *err);

/* k folds over rows: whole groups per fold when ds has groups, else stratified
 * (classes) or random rows. k must be 2..number of rows (or groups). */
int spoor_folds_kfold(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, size_t k,
                      uint64_t seed, struct spoor_folds *out, struct spoor_error *err);
/* One fold per group, holding that group out (leave-one-group-out). Needs a
 * group column with at least two groups among rows. */
int spoor_folds_logo(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, struct spoor_folds *out,
                     struct spoor_error *err);

/* The first class (label_is_class) with rows among `rows` but none in
 * s->test, or -1 when the test part has every class. */
long spoor_split_missing_class(const struct spoor_dataset *ds, const struct spoor_split *s);

void spoor_split_free(struct spoor_split *s);
void spoor_folds_free(struct spoor_folds *f);

/* ---- the standard scaler, fitted on training rows only ---- */

struct spoor_scaler {
    size_t n;
    double *mean, *scale;           /* scale = standard deviation, 1 when it is 0 */
};

/* Fits on the rows listed (x is row-major with n columns). */
void spoor_scaler_fit(struct spoor_scaler *s, const double *x, size_t n, const size_t *rows, size_t nrows);
/* (v - mean) / scale for one row of s->n values, from in to out (may alias). */
void spoor_scaler_apply(const struct spoor_scaler *s, const double *in, double *out);
void spoor_scaler_free(struct spoor_scaler *s);

#endif
