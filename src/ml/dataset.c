/* Loading a dataset: the file becomes an event table through the engine's
 * readers (every field a column), then the chosen columns become a row-major
 * matrix, the label class ids or numbers, and the group ids. */
#include "spoor/ml.h"
#include "ml/dataset_internal.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string column's value as a number, if its whole text is one. */
static bool text_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    return end != s && *end == '\0';
}

/* The value of col at row as a number; false when absent or not a number. */
static bool cell_number(const struct spoor_table *t, const struct spoor_column *col, size_t row, double *v)
{
    if (!col->typed || !spoor_column_valid(col, row))
        return false;
    switch (col->type) {
    case SPOOR_I64: *v = (double)col->i64[row]; return true;
    case SPOOR_F64: *v = col->f64[row]; return true;
    case SPOOR_STR: return text_number(spoor_table_str(t, col->str[row]), v);
    }
    return false;
}

/* The value of col at row as text (numbers by their shortest spelling). */
static const char *cell_text(const struct spoor_table *t, const struct spoor_column *col, size_t row, char *buf,
                             size_t len)
{
    if (!col->typed || !spoor_column_valid(col, row))
        return NULL;
    switch (col->type) {
    case SPOOR_I64: snprintf(buf, len, "%lld", (long long)col->i64[row]); return buf;
    case SPOOR_F64: snprintf(buf, len, "%.17g", col->f64[row]); return buf;
    case SPOOR_STR: return spoor_table_str(t, col->str[row]);
    }
    return NULL;
}

/* A column of numbers: its first present value is one, or with `every`, all
 * of them are (a column picked by glob or by default, where a text value
 * such as "64k" among numbers would drop rows, not the column). */
static bool column_numeric(const struct spoor_table *t, const struct spoor_column *col, bool every)
{
    if (!col->typed)
        return false;
    if (col->type != SPOOR_STR)
        return true;
    bool seen = false;
    for (size_t r = 0; r < t->nrows; r++)
        if (spoor_column_valid(col, r)) {
            double v;
            if (!text_number(spoor_table_str(t, col->str[r]), &v))
                return false;
            seen = true;
            if (!every)
                return true;
        }
    return seen;
}

static const char *col_name(const struct spoor_table *t, const struct spoor_column *c) { return spoor_table_str(t, c->name); }

static bool is_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }

struct chosen {
    const struct spoor_column **cols;
    size_t n;
};

static bool already(const struct chosen *ch, const struct spoor_column *c)
{
    for (size_t i = 0; i < ch->n; i++)
        if (ch->cols[i] == c)
            return true;
    return false;
}

static bool reserved(const struct spoor_dataset_spec *spec, const char *name)
{
    return (spec->label && strcmp(spec->label, name) == 0) || (spec->group && strcmp(spec->group, name) == 0);
}

static void note_not_numeric(struct spoor_dataset *ds, const char *name)
{
    dataset_note_drop(ds, &(struct spoor_dataset_drop){.name = (char *)name, .reason = "not numeric"});
}

/* Feature columns by name or glob, in the order asked. */
static int choose_features(const struct spoor_table *t, const struct spoor_dataset_spec *spec,
                           struct spoor_dataset *ds, struct chosen *ch, struct spoor_error *err)
{
    ch->cols = spoor_xcalloc(t->ncols + 1, sizeof *ch->cols);
    if (spec->nfeatures == 0) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *name = col_name(t, &t->cols[c]);
            if (reserved(spec, name))
                continue;
            if (column_numeric(t, &t->cols[c], true))
                ch->cols[ch->n++] = &t->cols[c];
            else
                note_not_numeric(ds, name);
        }
        return ch->n ? SPOOR_OK : spoor_fail(err, SPOOR_EUSAGE, "%s: no numeric column to use as a feature", ds->path);
    }
    for (size_t f = 0; f < spec->nfeatures; f++) {
        const char *pat = spec->features[f];
        if (spec->exact || !is_glob(pat)) {
            const struct spoor_column *c = spoor_table_find_column(t, pat);
            if (!c)
                return spoor_fail(err, SPOOR_EUSAGE, "%s: no column '%s'", ds->path, pat);
            if (!column_numeric(t, c, false))
                return spoor_fail(err, SPOOR_EUSAGE, "%s: column '%s' is not numeric", ds->path, pat);
            if (!already(ch, c))
                ch->cols[ch->n++] = c;
            continue;
        }
        size_t matched = 0;
        for (size_t c = 0; c < t->ncols; c++) {
            const char *name = col_name(t, &t->cols[c]);
            if (fnmatch(pat, name, 0) != 0 || reserved(spec, name))
                continue;
            matched++;
            if (!column_numeric(t, &t->cols[c], true))
                note_not_numeric(ds, name);
            else if (!already(ch, &t->cols[c]))
                ch->cols[ch->n++] = &t->cols[c];
        }
        if (!matched)
            return spoor_fail(err, SPOOR_EUSAGE, "%s: no column matches '%s'", ds->path, pat);
    }
    return ch->n ? SPOOR_OK : spoor_fail(err, SPOOR_EUSAGE, "%s: no numeric feature among those asked", ds->path);
}

static uint32_t name_id(char ***names, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*names)[i], s) == 0)
            return (uint32_t)i;
    *names = spoor_xrealloc(*names, (*n + 1) * sizeof **names);
    (*names)[*n] = spoor_xstrdup(s);
    return (uint32_t)(*n)++;
}

static int find_column(const struct spoor_table *t, const char *name, const char *what, const char *path,
                       const struct spoor_column **out, struct spoor_error *err)
{
    *out = spoor_table_find_column(t, name);
    return *out ? SPOOR_OK : spoor_fail(err, SPOOR_EUSAGE, "%s: no %s column '%s'", path, what, name);
}

static void skip_row(struct spoor_dataset *ds, const struct spoor_table *t, size_t r, const char *field)
{
    if (!ds->skipped_rows++) {
        ds->first_skipped_line = t->line[r];
        snprintf(ds->first_skipped_field, sizeof ds->first_skipped_field, "%s", field);
    }
}

/* The label of row r into ds (false when it has none); classes grow unless fixed. */
static int label_row(const struct spoor_table *t, const struct spoor_column *col, const struct spoor_dataset_spec *spec,
                     struct spoor_dataset *ds, size_t r, size_t out, bool *ok, struct spoor_error *err)
{
    char buf[40];
    *ok = true;
    if (!ds->label_is_class) {
        *ok = cell_number(t, col, r, &ds->y[out]);
        return SPOOR_OK;
    }
    const char *s = cell_text(t, col, r, buf, sizeof buf);
    if (!s || !*s) {
        *ok = false;
        return SPOOR_OK;
    }
    if (spec->classes) {
        for (size_t k = 0; k < spec->nclasses; k++)
            if (strcmp(spec->classes[k], s) == 0) {
                ds->cls[out] = (uint32_t)k;
                ds->y[out] = (double)k;
                return SPOOR_OK;
            }
        return spoor_fail(err, SPOOR_EFORMAT, "%s:%llu: label '%s' is not one of the model's classes", ds->path,
                          (unsigned long long)t->line[r], s);
    }
    ds->cls[out] = name_id(&ds->class_names, &ds->nclasses, s);
    ds->y[out] = ds->cls[out];
    return SPOOR_OK;
}

static int build_rows(const struct spoor_table *t, const struct chosen *ch, const struct spoor_dataset_spec *spec,
                      const struct spoor_load_opts *load, struct spoor_dataset *ds, struct spoor_error *err)
{
    const struct spoor_column *lab = NULL, *grp = NULL;
    int st;
    if (spec->label && (st = find_column(t, spec->label, "label", ds->path, &lab, err)) != SPOOR_OK)
        return st;
    if (spec->group && (st = find_column(t, spec->group, "group", ds->path, &grp, err)) != SPOOR_OK)
        return st;
    if (lab) {
        ds->label_is_class = spec->label_kind == SPOOR_LABEL_CLASS ||
                             (spec->label_kind == SPOOR_LABEL_AUTO && !column_numeric(t, lab, true)) || spec->classes;
        if (!ds->label_is_class && !column_numeric(t, lab, false))
            return spoor_fail(err, SPOOR_EUSAGE, "%s: label column '%s' is not numeric", ds->path, spec->label);
        ds->label_name = spoor_xstrdup(spec->label);
        ds->y = spoor_xcalloc(t->nrows + 1, sizeof *ds->y);
        if (ds->label_is_class)
            ds->cls = spoor_xcalloc(t->nrows + 1, sizeof *ds->cls);
        if (spec->classes)
            for (size_t k = 0; k < spec->nclasses; k++)
                name_id(&ds->class_names, &ds->nclasses, spec->classes[k]);
    }
    if (grp) {
        ds->group_name = spoor_xstrdup(spec->group);
        ds->group = spoor_xcalloc(t->nrows + 1, sizeof *ds->group);
    }
    ds->nfeat = ch->n;
    ds->feat_names = spoor_xcalloc(ch->n, sizeof *ds->feat_names);
    for (size_t f = 0; f < ch->n; f++)
        ds->feat_names[f] = spoor_xstrdup(col_name(t, ch->cols[f]));
    ds->x = spoor_xcalloc(t->nrows * ch->n + 1, sizeof *ds->x);
    ds->line = spoor_xcalloc(t->nrows + 1, sizeof *ds->line);
    char buf[40];
    for (size_t r = 0; r < t->nrows; r++) {
        size_t o = ds->nrows;
        bool ok = true;
        for (size_t f = 0; f < ch->n && ok; f++)
            if (!(ok = cell_number(t, ch->cols[f], r, &ds->x[o * ch->n + f])))
                skip_row(ds, t, r, ds->feat_names[f]);
        if (ok && lab) {
            if ((st = label_row(t, lab, spec, ds, r, o, &ok, err)) != SPOOR_OK)
                return st;
            if (!ok)
                skip_row(ds, t, r, spec->label);
        }
        const char *g = ok && grp ? cell_text(t, grp, r, buf, sizeof buf) : NULL;
        if (ok && grp && !g)
            skip_row(ds, t, r, spec->group);
        if (!ok || (grp && !g))
            continue;
        if (grp)
            ds->group[o] = name_id(&ds->group_names, &ds->ngroups, g);
        ds->line[o] = t->line[r];
        ds->nrows++;
    }
    if (ds->skipped_rows && load->read.strict)
        return spoor_fail(err, SPOOR_ESTRICT, "%s:%llu: no numeric value for '%s' (--strict)", ds->path,
                          (unsigned long long)ds->first_skipped_line, ds->first_skipped_field);
    return ds->nrows ? SPOOR_OK : spoor_fail(err, SPOOR_EFORMAT, "%s: no complete row", ds->path);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A column's distinct values, and its blocks: runs of consecutive rows with
 * one value (empty cells skipped). */
static size_t distinct_values(const struct spoor_table *t, const struct spoor_column *col, size_t *blocks)
{
    char **v = spoor_xcalloc(t->nrows + 1, sizeof *v), buf[40];
    size_t n = 0, distinct = 0;
    *blocks = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *s = cell_text(t, col, r, buf, sizeof buf);
        if (!s)
            continue;
        *blocks += n == 0 || strcmp(s, v[n - 1]) != 0;
        v[n++] = spoor_xstrdup(s);
    }
    qsort(v, n, sizeof *v, cmp_str);
    for (size_t i = 0; i < n; i++)
        distinct += i == 0 || strcmp(v[i], v[i - 1]) != 0;
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    return distinct;
}

/* Columns but the label named like group ids whose values repeat, each
 * value's rows in one block: a file written group by group (run_id: one run's
 * windows together). A value recurring in blocks apart is an ordinal within
 * groups (window_id: 0..47 in every run) or an attribute, not a group id; a
 * file whose rows are shuffled hides its group id from this guess. */
static void find_group_like(const struct spoor_table *t, const struct spoor_dataset_spec *spec,
                            struct spoor_dataset *ds)
{
    for (size_t c = 0; c < t->ncols; c++) {
        const char *name = col_name(t, &t->cols[c]);
        if ((spec->label && strcmp(spec->label, name) == 0) || !dataset_id_like_name(name))
            continue;
        size_t blocks = 0, distinct = distinct_values(t, &t->cols[c], &blocks);
        if (distinct < 2 || distinct >= t->nrows || blocks != distinct)
            continue;
        ds->group_like = spoor_xrealloc(ds->group_like, (ds->ngroup_like + 1) * sizeof *ds->group_like);
        ds->group_like[ds->ngroup_like++] = (struct spoor_dataset_group_like){.name = spoor_xstrdup(name),
                                                                              .distinct = distinct};
    }
}

int spoor_dataset_load(const char *path, const struct spoor_dataset_spec *spec,
                       const struct spoor_load_opts *load, struct spoor_dataset **out,
                       struct spoor_load_result *result, struct spoor_error *err)
{
    struct spoor_load_opts opts = *load;
    opts.read.fields_exclusive = true; /* no field named: "name" or "ts" is just data */
    opts.read.args = SPOOR_ARGS_ALL;
    opts.no_cache = true; /* a snapshot holds fixed columns; datasets have none */
    struct spoor_load_result local = {0};
    struct spoor_table *t = NULL;
    int st = spoor_load_table(&path, 1, &opts, &t, result ? result : &local, err);
    spoor_load_result_free(&local);
    if (st != SPOOR_OK)
        return st;
    struct spoor_dataset *ds = spoor_xcalloc(1, sizeof *ds);
    ds->path = spoor_xstrdup(path);
    struct chosen ch = {0};
    st = choose_features(t, spec, ds, &ch, err);
    if (st == SPOOR_OK)
        st = build_rows(t, &ch, spec, load, ds, err);
    if (st == SPOOR_OK && spec->leaks != SPOOR_LEAKS_IGNORE)
        find_group_like(t, spec, ds);
    free(ch.cols);
    spoor_table_free(t);
    if (st == SPOOR_OK && !spec->exact)
        dataset_drop_redundant(ds);
    if (st == SPOOR_OK && spec->leaks != SPOOR_LEAKS_IGNORE)
        dataset_find_leaks(ds, spec->leaks == SPOOR_LEAKS_DROP);
    if (st == SPOOR_OK && ds->nfeat == 0)
        st = spoor_fail(err, SPOOR_EUSAGE, "%s: every feature is constant, a duplicate or leaky", path);
    if (st != SPOOR_OK) {
        spoor_dataset_free(ds);
        return st;
    }
    *out = ds;
    return SPOOR_OK;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

void spoor_dataset_free(struct spoor_dataset *ds)
{
    if (!ds)
        return;
    for (size_t i = 0; i < ds->ndropped; i++) {
        free(ds->dropped[i].name);
        free(ds->dropped[i].other);
    }
    free(ds->dropped);
    for (size_t i = 0; i < ds->ngroup_like; i++)
        free(ds->group_like[i].name);
    free(ds->group_like);
    free_names(ds->feat_names, ds->nfeat);
    free_names(ds->class_names, ds->nclasses);
    free_names(ds->group_names, ds->ngroups);
    free(ds->path);
    free(ds->x);
    free(ds->line);
    free(ds->label_name);
    free(ds->y);
    free(ds->cls);
    free(ds->group_name);
    free(ds->group);
    free(ds);
}

long spoor_dataset_feature(const struct spoor_dataset *ds, const char *name)
{
    for (size_t f = 0; f < ds->nfeat; f++)
        if (strcmp(ds->feat_names[f], name) == 0)
            return (long)f;
    return -1;
}
