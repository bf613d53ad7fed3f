/* The timeline as report sheets (JSON and whatever renderer draws it), in a
 * compact columnar encoding, since a 1 GB trace gives a million cells:
 *
 *   timeline          properties: the run (first_ts, last_end, events), the
 *                     process lanes (the first rows of timeline_lanes; the
 *                     rest are thread lanes, whose tid may be null too), the
 *                     finest width (finest_ns), the levels in and dropped,
 *                     the tile width (tile_ns) and K (tile_events), events
 *                     kept and omitted, whether thread lanes have cells;
 *   timeline_lanes    one row per lane, its index the row's: pid (null for
 *                     the run-wide lanes of events without one), tid (null
 *                     for a process lane), kind ("calls" or "phases"), the
 *                     longest kept event's dur (how far left of a view its
 *                     tiles must be read) and the process's name
 *                     (proc_names.h; null when nothing names it);
 *   timeline_strings  one row per string id: the text of cats, names, keys;
 *   timeline_cells    one row per (level, lane), coarsest level first:
 *                     width_ns, first (the first bucket's index) and four
 *                     lists of equal length, one per stored bucket: gap
 *                     (buckets after the previous stored one; 0 first),
 *                     count, busy (ns) and key (a string id). A bucket's
 *                     start is (first + sum of gaps so far) x width_ns;
 *   timeline_tiles    one row per tile: lane, start_ns, events, kept,
 *                     omitted, and per kept event (longest first) the lists
 *                     ts (ns after start_ns), dur, cat and name (string ids)
 *                     and bytes (null when none).
 *
 * A view picks the coarsest level whose width is at most its visible range
 * over its pixel columns, and draws those cells (a custom series: one
 * rectangle per bucket, its opacity from busy / width, its colour the key);
 * past the finest level it draws the kept events of the tiles it shows. */
#include "analyze/timeline.h"

#include "analyze/proc_names.h"

#include "spoor/report.h"

#define JSON_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON)

static void prop_int(struct spoor_sheet *p, const char *key, enum spoor_cell_unit unit, int64_t v)
{
    spoor_sheet_prop(p, key, unit, 0);
    spoor_sheet_int_or_null(p, v, SPOOR_NULL);
}

static void run_props(struct spoor_report *r, const struct timeline *t)
{
    struct spoor_sheet *p = spoor_report_props(r, "timeline", JSON_ONLY);
    prop_int(p, "first_ts", SPOOR_CU_NS, t->first_ts);
    prop_int(p, "last_end", SPOOR_CU_NS, t->last_end);
    prop_int(p, "events", SPOOR_CU_COUNT, (int64_t)t->events);
    prop_int(p, "out_of_range", SPOOR_CU_COUNT, (int64_t)t->out_of_range);
    prop_int(p, "finest_ns", SPOOR_CU_NS, (int64_t)1 << t->shift);
    prop_int(p, "process_lanes", SPOOR_CU_COUNT, (int64_t)t->nprocess_lanes);
    prop_int(p, "levels", SPOOR_CU_COUNT, (int64_t)t->nlevels);
    prop_int(p, "levels_dropped", SPOOR_CU_COUNT, (int64_t)t->nlevels_dropped);
    prop_int(p, "columns", SPOOR_CU_COUNT, (int64_t)t->columns);
    prop_int(p, "tile_ns", SPOOR_CU_NS, (int64_t)1 << t->tile_shift);
    prop_int(p, "tile_events", SPOOR_CU_COUNT, (int64_t)t->tile_events);
    prop_int(p, "kept", SPOOR_CU_COUNT, (int64_t)t->kept);
    prop_int(p, "omitted", SPOOR_CU_COUNT, (int64_t)t->omitted);
    spoor_sheet_prop(p, "thread_lanes", SPOOR_CU_NONE, 0);
    spoor_sheet_bool(p, t->thread_lanes);
}

static void lanes_sheet(struct spoor_report *r, const struct timeline *t, const struct proc_names *names)
{
    static const struct spoor_sheet_col cols[] = {{"pid", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
                                                  {"tid", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
                                                  {"kind", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
                                                  {"longest_ns", SPOOR_CU_NS, 0, SPOOR_HINT_TIMELINE},
                                                  {"name", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE}};
    struct spoor_sheet *s = spoor_report_table(r, "timeline_lanes", JSON_ONLY, cols, 5);
    for (size_t i = 0; i < t->nlanes; i++) {
        const struct timeline_lane *l = &t->lanes[i];
        const char *name = l->pid == SPOOR_NULL ? NULL : proc_names_of(names, l->pid);
        spoor_sheet_int_or_null(s, l->pid, SPOOR_NULL);
        spoor_sheet_int_or_null(s, l->tid, SPOOR_NULL);
        spoor_sheet_name(s, l->phases ? "phases" : "calls");
        spoor_sheet_int(s, l->longest);
        if (name)
            spoor_sheet_text(s, name);
        else
            spoor_sheet_null(s);
    }
    static const struct spoor_sheet_col text[] = {{"text", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE}};
    struct spoor_sheet *strings = spoor_report_table(r, "timeline_strings", JSON_ONLY, text, 1);
    for (size_t i = 0; i < t->nstrings; i++)
        spoor_sheet_text(strings, t->strings[i]);
}

static struct spoor_sheet *list(void) { return spoor_sheet_list_new(SPOOR_CU_NONE, 0); }

static void cells_sheet(struct spoor_report *r, const struct timeline *t)
{
    static const struct spoor_sheet_col cols[] = {
        {"level", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE}, {"lane", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"width_ns", SPOOR_CU_NS, 0, SPOOR_HINT_TIMELINE}, {"first", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"gap", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},   {"count", SPOOR_CU_COUNT, 0, SPOOR_HINT_TIMELINE},
        {"busy", SPOOR_CU_NS, 0, SPOOR_HINT_TIMELINE},    {"key", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE}};
    struct spoor_sheet *s = spoor_report_table(r, "timeline_cells", JSON_ONLY, cols, 8);
    for (size_t j = t->nlevels; j-- > 0;) {
        const struct timeline_level *lv = &t->levels[j];
        for (size_t c = 0; c < lv->ncells;) {
            uint32_t lane = lv->cells[c].lane;
            spoor_sheet_int(s, (int64_t)(t->nlevels - 1 - j)); /* 0: the coarsest */
            spoor_sheet_int(s, lane);
            spoor_sheet_int(s, (int64_t)1 << lv->shift);
            spoor_sheet_int(s, lv->cells[c].bucket);
            struct spoor_sheet *gap = list(), *count = list(), *busy = list(), *key = list();
            for (int64_t prev = lv->cells[c].bucket; c < lv->ncells && lv->cells[c].lane == lane; c++) {
                const struct timeline_cell *cell = &lv->cells[c];
                spoor_sheet_int(gap, cell->bucket - prev);
                prev = cell->bucket;
                spoor_sheet_count(count, cell->count);
                spoor_sheet_int(busy, cell->busy);
                spoor_sheet_int(key, cell->key);
            }
            spoor_sheet_sheet(s, gap);
            spoor_sheet_sheet(s, count);
            spoor_sheet_sheet(s, busy);
            spoor_sheet_sheet(s, key);
        }
    }
}

static void tiles_sheet(struct spoor_report *r, const struct timeline *t)
{
    static const struct spoor_sheet_col cols[] = {
        {"lane", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},     {"start_ns", SPOOR_CU_NS, 0, SPOOR_HINT_TIMELINE},
        {"events", SPOOR_CU_COUNT, 0, SPOOR_HINT_TIMELINE},  {"kept", SPOOR_CU_COUNT, 0, SPOOR_HINT_TIMELINE},
        {"omitted", SPOOR_CU_COUNT, 0, SPOOR_HINT_TIMELINE}, {"ts", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"dur", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},      {"cat", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"name", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},     {"bytes", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE}};
    struct spoor_sheet *s = spoor_report_table(r, "timeline_tiles", JSON_ONLY, cols, 10);
    int shift = t->tile_shift;
    for (size_t i = 0; i < t->ntiles; i++) {
        const struct timeline_tile *tile = &t->tiles[i];
        int64_t start = tile->index << shift;
        spoor_sheet_int(s, tile->lane);
        spoor_sheet_int(s, start);
        spoor_sheet_count(s, tile->events);
        spoor_sheet_count(s, tile->nkept);
        spoor_sheet_count(s, tile->events - tile->nkept);
        struct spoor_sheet *ts = list(), *dur = list(), *cat = list(), *name = list(), *bytes = list();
        for (size_t k = 0; k < tile->nkept; k++) {
            const struct timeline_event *e = &tile->kept[k];
            spoor_sheet_int(ts, e->ts - start);
            spoor_sheet_int(dur, e->dur);
            spoor_sheet_int(cat, e->cat);
            spoor_sheet_int(name, e->name);
            spoor_sheet_int_or_null(bytes, e->bytes, SPOOR_NULL);
        }
        spoor_sheet_sheet(s, ts);
        spoor_sheet_sheet(s, dur);
        spoor_sheet_sheet(s, cat);
        spoor_sheet_sheet(s, name);
        spoor_sheet_sheet(s, bytes);
    }
}

void timeline_sheets(struct spoor_report *r, const struct timeline *t, const struct proc_names *names)
{
    run_props(r, t);
    lanes_sheet(r, t, names);
    cells_sheet(r, t);
    tiles_sheet(r, t);
}
