/* The inputs of a load as a report sheet: what `spoor stats` and `spoor
 * report` say of each trace (its dialect and units, sizes, lines, skips). */
#include "spoor/report.h"
#include "spoor/stats.h"

void spoor_stats_inputs_sheet(struct spoor_report *r, const struct spoor_load_result *res, unsigned formats)
{
    static const char *const h[] = {"path",       "dialect", "ts_unit", "dur_unit",  "pid_tid_swapped",
                                    "assumed",    "disk_bytes", "bytes", "lines",     "rows",
                                    "redefined",  "skipped", "skipped_by_reason", "warning"};
    struct spoor_sheet *in_sheet = spoor_report_rows(r, "inputs", 14, formats);
    for (size_t c = 0; c < 14; c++)
        spoor_sheet_column(in_sheet, c, h[c], c == 6 || c == 7 ? SPOOR_CU_BYTES : c >= 8 && c <= 11 ? SPOOR_CU_COUNT
                                                                                                    : SPOOR_CU_NONE,
                           0, SPOOR_HINT_NONE);
    for (size_t i = 0; i < res->ninputs; i++) {
        const struct spoor_input_report *in = &res->inputs[i];
        spoor_sheet_text(in_sheet, in->path);
        spoor_sheet_text(in_sheet, in->dialect.name);
        spoor_sheet_name(in_sheet, spoor_unit_name(in->dialect.ts_unit));
        spoor_sheet_name(in_sheet, spoor_unit_name(in->dialect.dur_unit));
        spoor_sheet_bool(in_sheet, in->dialect.pid_tid_swapped);
        spoor_sheet_text(in_sheet, in->dialect.assumed);
        spoor_sheet_count(in_sheet, in->disk_bytes);
        spoor_sheet_count(in_sheet, in->bytes);
        spoor_sheet_count(in_sheet, in->lines);
        spoor_sheet_count(in_sheet, in->rows);
        spoor_sheet_count(in_sheet, in->redefined);
        spoor_sheet_count(in_sheet, in->skips.total);
        struct spoor_sheet *reasons = spoor_sheet_props_new();
        for (size_t k = 0; k < in->skips.nreasons; k++) {
            spoor_sheet_prop(reasons, in->skips.reason[k], SPOOR_CU_COUNT, 0);
            spoor_sheet_count(reasons, in->skips.count[k]);
        }
        spoor_sheet_sheet(in_sheet, reasons);
        if (in->warning)
            spoor_sheet_text(in_sheet, in->warning);
        else
            spoor_sheet_null(in_sheet);
    }
}
