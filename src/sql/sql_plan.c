/* Push-down: which constraints of a query on events the virtual table uses
 * (xBestIndex), what they mean once their values are known (xFilter), and
 * which index a cursor walks.
 *
 * Used: ts = < <= > >= (BETWEEN arrives as >= and <=), and = on name, cat
 * (compared as interned ids, binary collation only), pid and tid. Each used
 * constraint is one character of idxStr, in argv order. SQLite still checks
 * every constraint on the rows handed out (omit stays 0): the filter need
 * only keep a superset, which keeps odd values (text for ts, 1.5 for pid,
 * NOCASE) correct without special cases.
 *
 * Ordering: with no constraint other than on ts, ORDER BY ts is served by
 * walking the ts index; with no constraint at all, ORDER BY or GROUP BY
 * name, cat or (cat, name) is served by walking an index sorted by the
 * text, so SQLite skips its sorter. With an equality constraint, a short span
 * of rows and a sort of the few that remain is cheaper than a whole walk.
 * Rows are always handed fully sorted, never merely grouped, although
 * sqlite3_vtab_distinct() == 1 says grouping is enough for a GROUP BY:
 * SQLite 3.40 reports 1 even when a matching ORDER BY relies on the same
 * order, and then skips its sort (tests/unit/test_sql.c, test_ordering). */
#include "sql/sql_internal.h"

#include <math.h>
#include <string.h>

enum {
    COL_TS = SPOOR_FIELD_TS,
    COL_NAME = SPOOR_FIELD_NAME,
    COL_CAT = SPOOR_FIELD_CAT,
    COL_PID = SPOOR_FIELD_PID,
    COL_TID = SPOOR_FIELD_TID,
};

/* The idxStr letter of a usable constraint, or 0. */
static char op_letter(sqlite3_index_info *info, int i)
{
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if (c->iColumn == COL_TS) {
        switch (c->op) {
        case SQLITE_INDEX_CONSTRAINT_EQ: return '=';
        case SQLITE_INDEX_CONSTRAINT_GT: return '>';
        case SQLITE_INDEX_CONSTRAINT_GE: return 'g';
        case SQLITE_INDEX_CONSTRAINT_LT: return '<';
        case SQLITE_INDEX_CONSTRAINT_LE: return 'l';
        default: return 0;
        }
    }
    if (c->op != SQLITE_INDEX_CONSTRAINT_EQ)
        return 0;
    bool binary = !sqlite3_stricmp(sqlite3_vtab_collation(info, i), "BINARY");
    switch (c->iColumn) {
    case COL_NAME: return binary ? 'n' : 0;
    case COL_CAT: return binary ? 'c' : 0;
    case COL_PID: return 'p';
    case COL_TID: return 't';
    default: return 0;
    }
}

/* Rough fraction of rows a constraint keeps, for SQLite to compare plans. */
static double selectivity(char op) { return op == '=' ? 0.001 : strchr("><gl", op) ? 0.3 : 0.1; }

/* The ordering that walking an index gives for free, if it is what SQLite
 * asks for (see the top of the file): ORDER BY ts, name, cat or (cat, name),
 * every term in the same direction. */
static enum sql_order order_served(const sqlite3_index_info *info, bool ts_only, bool unconstrained)
{
    static const struct {
        int cols[2];
        int n;
        enum sql_order asc;
        bool needs_unconstrained;
    } served[] = {
        {{COL_TS}, 1, SQL_ORDER_TS_ASC, false},
        {{COL_NAME}, 1, SQL_ORDER_NAME, true},
        {{COL_CAT}, 1, SQL_ORDER_CAT, true},
        {{COL_CAT, COL_NAME}, 2, SQL_ORDER_CAT_NAME, true},
    };
    for (size_t i = 0; i < sizeof served / sizeof *served; i++) {
        if (info->nOrderBy != served[i].n || (served[i].needs_unconstrained ? !unconstrained : !ts_only))
            continue;
        bool match = true;
        for (int k = 0; k < served[i].n; k++)
            match &= info->aOrderBy[k].iColumn == served[i].cols[k] &&
                     info->aOrderBy[k].desc == info->aOrderBy[0].desc;
        if (match)
            return served[i].asc + (info->aOrderBy[0].desc ? 1 : 0);
    }
    return SQL_ORDER_NONE;
}

int sql_plan_best_index(const struct spoor_sql *s, sqlite3_index_info *info)
{
    char ops[64];
    int nops = 0;
    double fraction = 1.0;
    bool ts_only = true;
    for (int i = 0; i < info->nConstraint && nops < (int)sizeof ops - 1; i++) {
        if (!info->aConstraint[i].usable)
            continue;
        char op = op_letter(info, i);
        if (!op)
            continue;
        ops[nops++] = op;
        info->aConstraintUsage[i].argvIndex = nops;
        fraction *= selectivity(op);
        ts_only &= info->aConstraint[i].iColumn == COL_TS;
    }
    ops[nops] = '\0';
    enum sql_order order = order_served(info, ts_only, nops == 0);
    info->orderByConsumed = order != SQL_ORDER_NONE;
    info->idxNum = (int)order;
    info->idxStr = sqlite3_mprintf("%s", ops);
    info->needToFreeIdxStr = 1;
    double rows = (double)s->t->nrows * fraction;
    info->estimatedRows = rows < 1 ? 1 : (sqlite3_int64)rows;
    info->estimatedCost = 10.0 + rows;
    return info->idxStr ? SQLITE_OK : SQLITE_NOMEM;
}

static int64_t clamp_floor(double d) { return d <= -9.2e18 ? INT64_MIN : d >= 9.2e18 ? INT64_MAX : (int64_t)floor(d); }
static int64_t clamp_ceil(double d) { return d <= -9.2e18 ? INT64_MIN : d >= 9.2e18 ? INT64_MAX : (int64_t)ceil(d); }

static void narrow_ts(struct sql_filter *f, char op, sqlite3_value *v)
{
    int64_t lo, hi; /* what the value allows, as a superset */
    int type = sqlite3_value_numeric_type(v);
    if (type == SQLITE_INTEGER) {
        int64_t x = sqlite3_value_int64(v);
        lo = hi = x;
        if (op == '>' && x == INT64_MAX)
            f->empty = true;
        if (op == '<' && x == INT64_MIN)
            f->empty = true;
        if (op == '>' && x < INT64_MAX)
            lo = x + 1;
        if (op == '<' && x > INT64_MIN)
            hi = x - 1;
    } else if (type == SQLITE_FLOAT) {
        double d = sqlite3_value_double(v);
        lo = clamp_floor(d);
        hi = clamp_ceil(d);
    } else {
        return; /* text, blob or null: SQLite decides */
    }
    f->has_ts = true;
    if (strchr("=>g", op) && lo > f->ts_lo)
        f->ts_lo = lo;
    if (strchr("=<l", op) && hi < f->ts_hi)
        f->ts_hi = hi;
}

static void equal_id(const struct spoor_table *t, bool *has, uint32_t *id, sqlite3_value *v, struct sql_filter *f)
{
    if (sqlite3_value_type(v) == SQLITE_NULL)
        return;
    const char *text = (const char *)sqlite3_value_text(v);
    uint32_t found = text ? spoor_strpool_find(t->pool, text, (size_t)sqlite3_value_bytes(v)) : UINT32_MAX;
    /* Never interned, or "" (id 0, which the column shows as null): no row. */
    if (found == UINT32_MAX || found == 0 || (*has && *id != found))
        f->empty = true;
    *has = true;
    *id = found;
}

static void equal_int(bool *has, int64_t *dst, sqlite3_value *v, struct sql_filter *f)
{
    int64_t x;
    int type = sqlite3_value_numeric_type(v);
    if (type == SQLITE_INTEGER) {
        x = sqlite3_value_int64(v);
    } else if (type == SQLITE_FLOAT) {
        double d = sqlite3_value_double(v);
        if (d != floor(d) || d < -9.2e18 || d > 9.2e18) {
            f->empty = true; /* no integer equals it (or SQLite will say so) */
            return;
        }
        x = (int64_t)d;
    } else {
        return;
    }
    if (*has && *dst != x)
        f->empty = true;
    *has = true;
    *dst = x;
}

void sql_plan_filter(const struct spoor_sql *s, const char *ops, int argc, sqlite3_value **argv,
                     struct sql_filter *f)
{
    memset(f, 0, sizeof *f);
    f->ts_lo = INT64_MIN;
    f->ts_hi = INT64_MAX;
    for (int i = 0; i < argc && ops && ops[i]; i++) {
        switch (ops[i]) {
        case 'n': equal_id(s->t, &f->has_name, &f->name, argv[i], f); break;
        case 'c': equal_id(s->t, &f->has_cat, &f->cat, argv[i], f); break;
        case 'p': equal_int(&f->has_pid, &f->pid, argv[i], f); break;
        case 't': equal_int(&f->has_tid, &f->tid, argv[i], f); break;
        default: narrow_ts(f, ops[i], argv[i]); break;
        }
    }
    if (f->has_ts && f->ts_lo == SPOOR_NULL)
        f->ts_lo = SPOOR_NULL + 1; /* a null ts meets no comparison: keep it out of the span */
    if (f->ts_lo > f->ts_hi)
        f->empty = true;
}

bool sql_filter_keeps(const struct spoor_table *t, const struct sql_filter *f, size_t row)
{
    if (f->has_ts && (t->ts[row] == SPOOR_NULL || t->ts[row] < f->ts_lo || t->ts[row] > f->ts_hi))
        return false;
    if (f->has_name && t->name[row] != f->name)
        return false;
    if (f->has_cat && t->cat[row] != f->cat)
        return false;
    if (f->has_pid && t->pid[row] != f->pid)
        return false;
    return !f->has_tid || t->tid[row] == f->tid;
}

static void consider(struct spoor_sql *s, enum sql_index_kind kind, int64_t lo, int64_t hi, struct sql_path *best)
{
    const struct sql_index *ix = sql_index(s, kind);
    size_t begin, end;
    sql_index_span(ix, lo, hi, &begin, &end);
    if (!best->rows || end - begin < best->end - best->begin)
        *best = (struct sql_path){.rows = ix->rows, .begin = begin, .end = end};
}

static void consider_id(struct spoor_sql *s, enum sql_index_kind kind, uint32_t id, struct sql_path *best)
{
    int64_t key = sql_index_key_of_id(sql_index(s, kind), id);
    consider(s, kind, key, key, best); /* -1: no row, an empty span */
}

void sql_plan_path(struct spoor_sql *s, enum sql_order order, const struct sql_filter *f, struct sql_path *path)
{
    static const enum sql_index_kind walked[] = {
        [SQL_ORDER_TS_ASC] = SQL_INDEX_TS,     [SQL_ORDER_TS_DESC] = SQL_INDEX_TS,
        [SQL_ORDER_NAME] = SQL_INDEX_NAME,     [SQL_ORDER_NAME_DESC] = SQL_INDEX_NAME,
        [SQL_ORDER_CAT] = SQL_INDEX_CAT,       [SQL_ORDER_CAT_DESC] = SQL_INDEX_CAT,
        [SQL_ORDER_CAT_NAME] = SQL_INDEX_CAT_NAME, [SQL_ORDER_CAT_NAME_DESC] = SQL_INDEX_CAT_NAME,
    };
    *path = (struct sql_path){.end = s->t->nrows};
    if (f->empty) {
        path->end = 0;
        return;
    }
    if (order != SQL_ORDER_NONE) {
        bool ts = walked[order] == SQL_INDEX_TS;
        consider(s, walked[order], ts ? f->ts_lo : INT64_MIN, ts ? f->ts_hi : INT64_MAX, path);
        path->desc = (order - SQL_ORDER_TS_ASC) % 2 == 1;
        return;
    }
    /* The shortest span among the constrained columns' indexes. */
    if (f->has_name)
        consider_id(s, SQL_INDEX_NAME, f->name, path);
    if (f->has_cat)
        consider_id(s, SQL_INDEX_CAT, f->cat, path);
    if (f->has_pid)
        consider(s, SQL_INDEX_PID, f->pid, f->pid, path);
    if (f->has_tid)
        consider(s, SQL_INDEX_TID, f->tid, f->tid, path);
    if (f->has_ts)
        consider(s, SQL_INDEX_TS, f->ts_lo, f->ts_hi, path);
}
