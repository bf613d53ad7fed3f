/* The report of `spoor windows`: one sheet, a row per window (and device),
 * the read columns then the write columns, flat so that CSV feeds `spoor
 * train` as it is. */
#include <stdio.h>

#include "features/window_columns.h"
#include "spoor/windows.h"

/* The units of one operation's columns, in the order and under the names of
 * features/window_columns.h (prefixed "read_" or "write_"). */
static const struct {
    enum spoor_cell_unit unit;
    int digits;
} op_cols[] = {
    {SPOOR_CU_COUNT, 0},                        /* requests */
    {SPOOR_CU_BYTES, 0},                        /* bytes */
    {SPOOR_CU_BYTES, SPOOR_DIGITS_SHORTEST},    /* size_mean */
    {SPOOR_CU_BYTES, SPOOR_DIGITS_SHORTEST},    /* size_median */
    {SPOOR_CU_PER_S, SPOOR_DIGITS_SHORTEST},    /* iops */
    {SPOOR_CU_BYTES_PER_S, SPOOR_DIGITS_SHORTEST}, /* bandwidth */
    {SPOOR_CU_COUNT, 0},                        /* completions */
    {SPOOR_CU_NS, SPOOR_DIGITS_SHORTEST},       /* latency_mean */
    {SPOOR_CU_NS, SPOOR_DIGITS_SHORTEST},       /* latency_p50 */
    {SPOOR_CU_NS, SPOOR_DIGITS_SHORTEST},       /* latency_p99 */
    {SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST},     /* distance_mean */
    {SPOOR_CU_SHARE, SPOOR_DIGITS_SHORTEST},    /* jump_ratio */
    {SPOOR_CU_SHARE, SPOOR_DIGITS_SHORTEST},    /* sequential_ratio */
    {SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST},     /* queue_depth_mean */
};
enum { NOP_COLS = sizeof op_cols / sizeof op_cols[0] };
_Static_assert((int)NOP_COLS == (int)SPOOR_WF_NCOLUMNS, "a unit for each window column");
_Static_assert((int)SPOOR_WINDOW_NOPS == (int)SPOOR_WF_NOPS, "read and write");

static void op_cells(struct spoor_sheet *sh, const struct spoor_window_op *o)
{
    spoor_sheet_count(sh, o->requests);
    spoor_sheet_count(sh, o->bytes);
    spoor_sheet_float(sh, o->size_mean);
    spoor_sheet_float(sh, o->size_median);
    spoor_sheet_float(sh, o->iops);
    spoor_sheet_float(sh, o->bandwidth);
    spoor_sheet_count(sh, o->completions);
    spoor_sheet_float(sh, o->lat_mean);
    spoor_sheet_float(sh, o->lat_p50);
    spoor_sheet_float(sh, o->lat_p99);
    spoor_sheet_float(sh, o->distance_mean);
    spoor_sheet_float(sh, o->jump_ratio);
    spoor_sheet_float(sh, o->sequential_ratio);
    spoor_sheet_float(sh, o->queue_depth_mean);
}

struct spoor_report *spoor_windows_report(const struct spoor_windows *w, const struct spoor_windows_opts *wo)
{
    struct spoor_report *r = spoor_report_new("spoor windows");
    size_t nlead = 2 + wo->by_dev + (wo->run_id != NULL) + (wo->label != NULL);
    size_t ncols = nlead + SPOOR_WINDOW_NOPS * NOP_COLS;
    struct spoor_sheet *sh = spoor_report_rows(r, "windows", ncols, SPOOR_FORMATS_ALL);
    size_t c = 0;
    spoor_sheet_column(sh, c++, "window", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE);
    spoor_sheet_column(sh, c++, "start", SPOOR_CU_NONE, 0, SPOOR_HINT_TIME);
    if (wo->by_dev)
        spoor_sheet_column(sh, c++, "dev", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    if (wo->run_id)
        spoor_sheet_column(sh, c++, "run_id", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    if (wo->label)
        spoor_sheet_column(sh, c++, "label", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    for (int op = 0; op < SPOOR_WINDOW_NOPS; op++)
        for (size_t k = 0; k < NOP_COLS; k++) {
            char name[64];
            snprintf(name, sizeof name, "%s_%s", spoor_wf_op_names[op], spoor_wf_columns[k].name);
            spoor_sheet_column(sh, c++, name, op_cols[k].unit, op_cols[k].digits, SPOOR_HINT_SERIES);
        }
    spoor_sheet_title(sh, "%llu read and write requests in %zu windows (%llu others left out)",
                      (unsigned long long)w->requests, w->nwindows, (unsigned long long)w->other_requests);
    spoor_sheet_reserve(sh, w->nwindows);
    int64_t t0 = w->nwindows ? w->windows[0].start_ns : 0;
    for (size_t i = 0; i < w->nwindows; i++) {
        const struct spoor_window *win = &w->windows[i];
        spoor_sheet_int(sh, (win->start_ns - t0) / wo->every_ns);
        spoor_sheet_int(sh, win->start_ns);
        if (wo->by_dev)
            spoor_sheet_name(sh, w->devs[win->dev]);
        if (wo->run_id)
            spoor_sheet_name(sh, wo->run_id);
        if (wo->label)
            spoor_sheet_name(sh, wo->label);
        for (int op = 0; op < SPOOR_WINDOW_NOPS; op++)
            op_cells(sh, &win->ops[op]);
    }
    return r;
}
