/* `spoor lifecycle` over logs: each read through the pivot's sink, merged,
 * folded into the result and shown as its report. */
#include "spoor/lifecycle.h"
#include "analyze/lifecycle.h"

#include <stdlib.h>

/* Reads paths into a merged pivot. */
static int pivot_logs(const char *const *paths, size_t n, const struct spoor_load_opts *opts,
                      const struct spoor_lc_spec *s, const char *const *fields, size_t nfields,
                      struct spoor_lc_pivot **out, struct spoor_load_result *res, struct spoor_error *err)
{
    *out = spoor_lc_pivot_begin(spoor_load_threads(opts), s, fields, nfields);
    struct spoor_sink sink = spoor_lc_pivot_sink(*out);
    int st = spoor_load(paths, n, opts, &sink, res, err);
    if (st == SPOOR_OK)
        spoor_lc_pivot_merge(*out);
    return st;
}

static struct spoor_lc_input input_of(const struct spoor_load_result *res)
{
    struct spoor_lc_input in = {0};
    for (size_t i = 0; i < res->ninputs; i++) {
        in.lines += res->inputs[i].lines;
        in.skipped += res->inputs[i].skips.total;
    }
    return in;
}

int spoor_lc_run(const struct spoor_lc_spec *s, const char *const *paths, size_t n, const char *compare,
                 const struct spoor_load_opts *opts, struct spoor_lc_run *out, struct spoor_error *err)
{
    *out = (struct spoor_lc_run){0};
    const char *fields[SPOOR_LC_MAX_FIELDS];
    size_t nfields = spoor_lc_spec_fields(s, fields);
    struct spoor_load_opts o = *opts;
    o.read.args = SPOOR_ARGS_LISTED;
    o.read.arg_keys = fields;
    o.read.n_arg_keys = nfields;
    struct spoor_lc_pivot *p = NULL, *other = NULL;
    int st = pivot_logs(paths, n, &o, s, fields, nfields, &p, &out->loaded, err);
    if (st == SPOOR_OK && compare)
        st = pivot_logs(&compare, 1, &o, s, fields, nfields, &other, &out->other_loaded, err);
    if (st == SPOOR_OK) {
        spoor_lc_analyze(s, p, other, &out->result);
        struct spoor_lc_input in = input_of(&out->loaded);
        out->report = spoor_lc_report(s, &out->result, &in);
    }
    spoor_lc_pivot_free(p);
    spoor_lc_pivot_free(other);
    return st;
}

void spoor_lc_run_free(struct spoor_lc_run *r)
{
    if (r->report) {
        spoor_report_free(r->report);
        spoor_lc_result_free(&r->result);
    }
    spoor_load_result_free(&r->loaded);
    spoor_load_result_free(&r->other_loaded);
}
