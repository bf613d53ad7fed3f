/* The sections of `spoor series` built from a finished pass, as sheets. */
#ifndef SPOOR_SERIES_SECTIONS_H
#define SPOOR_SERIES_SECTIONS_H

#include "spoor/report.h"
#include "spoor/series.h"

enum series_section {
    SEC_METRICS = 1 << 0,
    SEC_GROUPS = 1 << 1,
    SEC_HOUR = 1 << 2,
    SEC_WEEKDAY = 1 << 3,
    SEC_HOUR_WEEKDAY = 1 << 4,
    SEC_CORR = 1 << 5,
    SEC_PAIRS = 1 << 6,
    SEC_RESAMPLE = 1 << 7,
    SEC_HEADROOM = 1 << 8,
};

/* Section names for --show, in output order. */
extern const char *const series_section_names[];
extern const size_t series_nsections;

struct series_view {
    struct spoor_report *report;  /* where the sections go */
    const struct spoor_series *s;
    const char *group_field;      /* NULL without --group */
    double corr_threshold;
    const char *resample_text;    /* as given, e.g. "1h" */
    const char *target_metric;    /* NULL without --target */
    double target;
    int64_t utc_offset_ns;
};

/* The sheet of one section (a single bit), added to the view's report. */
struct spoor_sheet *series_section_sheet(const struct series_view *v, enum series_section sec);

#endif
