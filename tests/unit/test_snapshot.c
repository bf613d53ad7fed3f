/* The snapshot sidecar: a table survives the round trip whole (every column
 * type, nulls, promotions, lookups), as one view or as slices; whole-table
 * loads write it and map it back without a copy; streaming loads through it
 * equal parses for any thread count; several sources; anything stale or
 * damaged is ignored, reparsed and rewritten; read-only directories warn;
 * --cache-dir works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "spoor/gen.h"
#include "spoor/load.h"
#include "testutil.h"
#include "util/bytes.h"
#include "table/snapshot.h"

static char trace[4096], snap[4200];

/* Everything a table holds, as text: rows, columns by name, lookups. */
static char *render(const struct spoor_table *t)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    for (size_t r = 0; r < t->nrows; r++)
        fprintf(f, "%lld %lld %s %s %lld %lld %c %llu %s\n", (long long)t->ts[r], (long long)t->dur[r],
                spoor_table_str(t, t->name[r]), spoor_table_str(t, t->cat[r]), (long long)t->pid[r],
                (long long)t->tid[r], t->ph[r] ? t->ph[r] : '-', (unsigned long long)t->line[r],
                t->sources[t->src[r]]);
    for (size_t c = 0; c < t->ncols; c++) {
        const struct spoor_column *col = &t->cols[c];
        fprintf(f, "column %s type %d:", spoor_table_str(t, col->name), (int)col->type);
        for (size_t r = 0; r < t->nrows; r++) {
            if (!spoor_column_valid(col, r))
                fprintf(f, " null");
            else if (col->type == SPOOR_I64)
                fprintf(f, " %lld", (long long)col->i64[r]);
            else if (col->type == SPOOR_F64)
                fprintf(f, " %.17g", col->f64[r]);
            else
                fprintf(f, " '%s'", spoor_table_str(t, col->str[r]));
        }
        fprintf(f, "\n");
    }
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        for (size_t i = 0; i < t->lookups[k].n; i++)
            fprintf(f, "lookup %d %s=%s from line %llu\n", k, spoor_table_str(t, t->lookups[k].keys[i]),
                    spoor_table_str(t, t->lookups[k].values[i]), (unsigned long long)t->lookups[k].lines[i]);
    fclose(f);
    return buf;
}

static void set_i64(struct spoor_table *t, const char *col, size_t row, int64_t v)
{
    struct spoor_column *c = spoor_table_column(t, spoor_table_intern(t, col, strlen(col)));
    spoor_table_set(t, c, row, &(struct spoor_value){.type = SPOOR_I64, .i64 = v});
}

static void set_f64(struct spoor_table *t, const char *col, size_t row, double v)
{
    struct spoor_column *c = spoor_table_column(t, spoor_table_intern(t, col, strlen(col)));
    spoor_table_set(t, c, row, &(struct spoor_value){.type = SPOOR_F64, .f64 = v});
}

static void set_str(struct spoor_table *t, const char *col, size_t row, const char *s)
{
    struct spoor_column *c = spoor_table_column(t, spoor_table_intern(t, col, strlen(col)));
    spoor_table_set(t, c, row, &(struct spoor_value){.type = SPOOR_STR, .str = spoor_table_intern(t, s, strlen(s))});
}

/* A batch of n rows: every column type, nulls, a column promoted to float and
 * one to string, an all-null column, lookups. */
static struct spoor_table *batch(size_t n, uint64_t first_line)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "trace");
    for (size_t r = 0; r < n; r++) {
        spoor_table_add_row(t);
        t->ts[r] = (int64_t)(first_line + r) * 1000;
        t->dur[r] = r % 3 ? (int64_t)r : SPOOR_NULL;
        char name[32];
        snprintf(name, sizeof name, "op%zu", r % 7);
        t->name[r] = spoor_table_intern(t, name, strlen(name));
        t->cat[r] = spoor_table_intern(t, r % 2 ? "posix" : "", r % 2 ? 5 : 0);
        t->pid[r] = 7;
        t->tid[r] = r % 5 ? (int64_t)r : SPOOR_NULL;
        t->ph[r] = r % 11 ? 'X' : 'M';
        t->line[r] = first_line + r;
        if (r % 2)
            set_i64(t, "size", r, (int64_t)r * 4096);
        set_i64(t, "to_float", r, (int64_t)r);
        set_i64(t, "to_string", r, -(int64_t)r);
        if (r % 3 == 0)
            set_str(t, "fname", r, r % 6 ? "/a" : "/b/c");
    }
    set_f64(t, "to_float", n - 1, 0.5);
    set_str(t, "to_string", n / 2, "text");
    spoor_table_column(t, spoor_table_intern(t, "never", 5));
    uint32_t k = spoor_table_intern(t, "h1", 2), v = spoor_table_intern(t, "/file/one", 9);
    spoor_lookup_put(&t->lookups[SPOOR_LOOKUP_FILE], 0, k, v, 1);
    spoor_lookup_put(&t->lookups[SPOOR_LOOKUP_FILE], 0, k, spoor_table_intern(t, "/file/two", 9), 7);
    spoor_lookup_put(&t->lookups[SPOOR_LOOKUP_HOST], 0, spoor_table_intern(t, "hh", 2), spoor_table_intern(t, "node", 4),
                     2);
    return t;
}

static const struct spoor_snapshot_key KEY = {.trace = {.size = 123, .mtime_sec = 4, .head_crc = 5}, .options = 6};

/* Appends views of s cut every `slice` rows (a multiple of 64). */
static struct spoor_table *sliced(const struct spoor_snapshot *s, size_t slice)
{
    struct spoor_table *t = spoor_table_new();
    for (size_t first = 0; first < spoor_snapshot_rows(s); first += slice) {
        struct spoor_table *b = spoor_snapshot_view(s, first, slice, NULL);
        assert_true(b->borrowed);
        spoor_table_append(t, b);
        spoor_table_free(b);
    }
    return t;
}

static void test_round_trip(void **state)
{
    struct spoor_table *parts[2] = {batch(300, 1), batch(70, 301)};
    struct spoor_table *want = spoor_table_new();
    struct spoor_error err;
    char path[4200];
    snprintf(path, sizeof path, "%s/round.spoor-snap", testutil_tmpdir());
    for (int i = 0; i < 2; i++)
        spoor_table_append(want, parts[i]);
    assert_int_equal(spoor_snapshot_write(path, &KEY, want, "report", 6, &err), SPOOR_OK);

    struct spoor_snapshot *s = spoor_snapshot_open(path, "trace", &KEY);
    assert_non_null(s);
    assert_true(spoor_snapshot_verify(s, NULL));
    assert_int_equal(spoor_snapshot_rows(s), 370);
    size_t len;
    assert_memory_equal(spoor_snapshot_report(s, &len), "report", 6);
    char *a = render(want);
    for (size_t slice = 64; slice <= 448; slice += 192) { /* 64, 256 and one view of all */
        struct spoor_table *got = sliced(s, slice);
        char *b = render(got);
        assert_string_equal(a, b);
        assert_non_null(strstr(b, "column to_string type 2"));
        assert_non_null(strstr(b, "column to_float type 1"));
        assert_non_null(strstr(b, "lookup 0 h1=/file/one"));
        free(b);
        spoor_table_free(got);
    }

    /* A listed subset shows only those columns. */
    uint32_t size_id = spoor_strpool_find(spoor_snapshot_pool(s), "size", 4);
    struct spoor_table *only = spoor_snapshot_view(s, 64, 100, &(struct spoor_snapshot_cols){.names = &size_id, .n = 1});
    assert_int_equal(only->ncols, 1);
    assert_int_equal(only->nrows, 100);
    assert_int_equal(only->line[0], 65);
    assert_null(spoor_table_find_column(only, "fname"));
    spoor_table_free(only);

    /* The whole table owning its snapshot: freeing it unmaps (ASan sees leaks). */
    struct spoor_table *whole = spoor_snapshot_table(s, NULL);
    char *b = render(whole);
    assert_string_equal(a, b);
    free(b);
    spoor_table_free(whole);

    /* Another fingerprint or options hash: not used. */
    struct spoor_snapshot_key other = KEY;
    other.options++;
    assert_null(spoor_snapshot_open(path, "trace", &other));
    other = KEY;
    other.trace.mtime_nsec = 1;
    assert_null(spoor_snapshot_open(path, "trace", &other));
    free(a);
    spoor_table_free(want);
    spoor_table_free(parts[0]);
    spoor_table_free(parts[1]);
}

/* Loads through the loader, counting batches served from a snapshot. */
struct counted {
    struct spoor_table *t;
    size_t borrowed, batches;
};

static int count_reduce(void *ctx, size_t input, const struct spoor_table *b)
{
    struct counted *c = ctx;
    c->batches++;
    c->borrowed += b->borrowed;
    spoor_table_append(c->t, b);
    return SPOOR_OK;
}

struct loaded {
    char *text;
    size_t borrowed, batches;
    char *warning;
    uint64_t lines, rows;
};

static struct loaded load_with(const char *path, struct spoor_load_opts opts)
{
    struct counted c = {.t = spoor_table_new()};
    struct spoor_sink sink = {.ctx = &c, .reduce = count_reduce};
    struct spoor_load_result res;
    struct spoor_error err;
    int st = spoor_load(&path, 1, &opts, &sink, &res, &err);
    if (st != SPOOR_OK)
        fail_msg("load: %s", err.msg);
    struct loaded l = {render(c.t), c.borrowed, c.batches, NULL, res.inputs[0].lines, res.inputs[0].rows};
    if (res.inputs[0].warning)
        l.warning = strdup(res.inputs[0].warning);
    spoor_load_result_free(&res);
    spoor_table_free(c.t);
    return l;
}

/* A whole-table load (spoor_load_table): the one that writes snapshots; its
 * table is one borrowed view when served from the snapshot. */
static struct loaded table_with(const char *path, struct spoor_load_opts opts)
{
    struct spoor_table *t;
    struct spoor_load_result res;
    struct spoor_error err;
    if (spoor_load_table(&path, 1, &opts, &t, &res, &err) != SPOOR_OK)
        fail_msg("load table: %s", err.msg);
    struct loaded l = {render(t), t->borrowed, 1, NULL, res.inputs[0].lines, res.inputs[0].rows};
    if (res.inputs[0].warning)
        l.warning = strdup(res.inputs[0].warning);
    spoor_load_result_free(&res);
    spoor_table_free(t);
    return l;
}

static struct spoor_load_opts opts_of(int threads, bool no_cache)
{
    struct spoor_load_opts o = {.threads = threads, .no_cache = no_cache, .input.chunk_size = 256 << 10};
    o.read.args = SPOOR_ARGS_ALL;
    return o;
}

static struct loaded load(int threads, bool no_cache) { return load_with(trace, opts_of(threads, no_cache)); }
static struct loaded load_table(int threads, bool no_cache) { return table_with(trace, opts_of(threads, no_cache)); }

static void loaded_free(struct loaded *l)
{
    free(l->text);
    free(l->warning);
}

static int make_trace(void **state)
{
    struct spoor_gen_opts g = {.size_bytes = 3 << 20, .procs = 2, .seed = 5};
    struct spoor_gen_result res;
    struct spoor_error err;
    snprintf(trace, sizeof trace, "%s/t.pfw.gz", testutil_tmpdir());
    snprintf(snap, sizeof snap, "%s.spoor-snap", trace);
    if (spoor_gen_write(trace, &g, &res, &err)) {
        fprintf(stderr, "gen: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* The reference: a parse that neither reads nor writes a snapshot. */
static struct loaded reference(void)
{
    unlink(snap);
    struct loaded ref = load(1, true);
    assert_int_equal(ref.borrowed, 0);
    assert_int_equal(access(snap, F_OK), -1);
    return ref;
}

static void test_same_for_any_threads(void **state)
{
    struct loaded ref = reference();
    struct loaded l = load(2, false); /* a stream does not write */
    assert_int_equal(access(snap, F_OK), -1);
    loaded_free(&l);
    struct loaded first = load_table(2, false); /* parses, writes */
    assert_int_equal(first.borrowed, 0);
    assert_string_equal(first.text, ref.text);
    assert_int_equal(access(snap, F_OK), 0);
    l = load_table(1, false); /* the mapped table itself */
    assert_int_equal(l.borrowed, 1);
    assert_string_equal(l.text, ref.text);
    assert_int_equal(l.rows, ref.rows);
    loaded_free(&l);
    for (int threads = 1; threads <= 4; threads++) {
        struct loaded l = load(threads, false);
        assert_true(l.batches > 1);
        assert_int_equal(l.borrowed, l.batches);
        assert_string_equal(l.text, ref.text);
        assert_int_equal(l.lines, ref.lines);
        assert_int_equal(l.rows, ref.rows);
        loaded_free(&l);
    }
    /* Fewer args requested: served from the same snapshot. */
    struct spoor_load_opts none = opts_of(2, false);
    none.read.args = SPOOR_ARGS_NONE;
    l = load_with(trace, none);
    assert_int_equal(l.borrowed, l.batches);
    assert_null(strstr(l.text, "column "));
    loaded_free(&l);
    l = table_with(trace, none);
    assert_int_equal(l.borrowed, 1);
    assert_null(strstr(l.text, "column "));
    loaded_free(&l);
    loaded_free(&first);
    loaded_free(&ref);
}

static void test_several_sources(void **state)
{
    char copy[4200];
    snprintf(copy, sizeof copy, "%s/copy.pfw.gz", testutil_tmpdir());
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", trace, copy);
    assert_int_equal(system(cmd), 0);
    const char *paths[2] = {trace, copy};
    struct spoor_load_opts o = opts_of(2, false);
    struct spoor_table *cold, *warm;
    struct spoor_load_result res;
    struct spoor_error err;
    o.no_cache = true;
    assert_int_equal(spoor_load_table(paths, 2, &o, &cold, &res, &err), SPOOR_OK);
    spoor_load_result_free(&res);
    o.no_cache = false;
    for (int i = 0; i < 2; i++) { /* writes, then reads */
        assert_int_equal(spoor_load_table(paths, 2, &o, &warm, &res, &err), SPOOR_OK);
        spoor_load_result_free(&res);
        char *a = render(cold), *b = render(warm);
        assert_string_equal(a, b);
        assert_non_null(strstr(b, "copy.pfw.gz"));
        free(a);
        free(b);
        spoor_table_free(warm);
    }
    spoor_table_free(cold);
}

/* After a change of the trace, the next loads parse (no borrowed batch) and
 * give the parse's answer; once a whole-table load rewrote the snapshot, both
 * kinds of load are served again. */
static void expect_reparse_then_reuse(struct spoor_load_opts opts)
{
    struct loaded ref = load_with(trace, (struct spoor_load_opts){.threads = 1, .no_cache = true, .read = opts.read});
    struct loaded l = load_with(trace, opts);
    assert_int_equal(l.borrowed, 0);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    l = table_with(trace, opts);
    assert_int_equal(l.borrowed, 0);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    l = load_with(trace, opts);
    assert_int_equal(l.borrowed, l.batches);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    l = table_with(trace, opts);
    assert_int_equal(l.borrowed, 1);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    loaded_free(&ref);
}

static void test_stale(void **state)
{
    struct loaded l = load_table(2, false);
    loaded_free(&l);
    l = load(2, false);
    assert_true(l.borrowed > 0);
    loaded_free(&l);

    /* touched */
    struct timespec times[2] = {{0, UTIME_OMIT}, {1700000000, 5}};
    assert_int_equal(utimensat(AT_FDCWD, trace, times, 0), 0);
    expect_reparse_then_reuse(opts_of(2, false));

    /* another read option */
    struct spoor_load_opts ms = opts_of(2, false);
    ms.read.ts_unit = SPOOR_UNIT_MS;
    expect_reparse_then_reuse(ms);

    /* truncated */
    struct stat st;
    assert_int_equal(stat(trace, &st), 0);
    assert_int_equal(truncate(trace, st.st_size / 2), 0);
    expect_reparse_then_reuse(opts_of(2, false));

    /* other content of the same size, same mtime */
    assert_int_equal(stat(trace, &st), 0);
    char *junk = malloc((size_t)st.st_size);
    FILE *f = fopen(trace, "r+");
    assert_non_null(f);
    memset(junk, ' ', (size_t)st.st_size);
    const char *line = "{\"name\":\"x\",\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1}\n";
    memcpy(junk, line, strlen(line));
    junk[st.st_size - 1] = '\n';
    assert_int_equal(fwrite(junk, 1, (size_t)st.st_size, f), (size_t)st.st_size);
    fclose(f);
    free(junk);
    struct timespec same[2] = {{0, UTIME_OMIT}, st.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, trace, same, 0), 0);
    expect_reparse_then_reuse(opts_of(2, false));
    make_trace(NULL);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    uint8_t *p = malloc(*len);
    assert_int_equal(fread(p, 1, *len, f), *len);
    fclose(f);
    return p;
}

static void spit(const char *path, const uint8_t *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, len, f), len);
    fclose(f);
}

/* One flipped byte anywhere (header, each section, directory): the snapshot is
 * ignored, the answer is the parse's, and the snapshot is rewritten. */
static void test_damaged(void **state)
{
    struct loaded ref = reference();
    struct loaded l = load_table(2, false);
    loaded_free(&l);
    size_t len;
    uint8_t *good = slurp(snap, &len);
    uint64_t dir = spoor_get64(good + 56);
    uint32_t n = spoor_get32(good + 44);
    size_t spots[64], nspots = 0;
    spots[nspots++] = 20;           /* fingerprint */
    spots[nspots++] = 64;           /* header crc */
    spots[nspots++] = dir + 9;      /* directory */
    for (uint32_t i = 0; i < n && nspots < 64; i++) {
        const uint8_t *e = good + dir + i * 24;
        spots[nspots++] = spoor_get64(e + 8) + spoor_get64(e + 16) / 2; /* middle of each section */
    }
    for (size_t i = 0; i < nspots; i++) {
        uint8_t *bad = malloc(len);
        memcpy(bad, good, len);
        bad[spots[i]] ^= 0x20;
        spit(snap, bad, len);
        free(bad);
        l = load(1 + (int)(i % 3), false);
        assert_int_equal(l.borrowed, 0);
        assert_string_equal(l.text, ref.text);
        loaded_free(&l);
        l = load_table(1 + (int)(i % 2), false); /* parses, rewrites */
        assert_int_equal(l.borrowed, 0);
        assert_string_equal(l.text, ref.text);
        loaded_free(&l);
        l = load(2, false);
        assert_int_equal(l.borrowed, l.batches);
        loaded_free(&l);
    }
    /* cut short */
    spit(snap, good, len / 3);
    l = load_table(2, false);
    assert_int_equal(l.borrowed, 0);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    free(good);
    loaded_free(&ref);
}

/* Where section i starts (0 is the shape, the column arrays follow). */
static uint64_t section_at(const uint8_t *file, uint32_t i)
{
    return spoor_get64(file + spoor_get64(file + 56) + i * 24 + 8);
}

/* Columns are verified when a reader asks for them: damage in one column
 * fails the readers of that column only, and stays found. */
static void test_verify_columns(void **state)
{
    struct spoor_table *t = batch(200, 1);
    struct spoor_error err;
    char path[4200];
    snprintf(path, sizeof path, "%s/columns.spoor-snap", testutil_tmpdir());
    assert_int_equal(spoor_snapshot_write(path, &KEY, t, "", 0, &err), SPOOR_OK);
    spoor_table_free(t);
    size_t len;
    uint8_t *bytes = slurp(path, &len);
    uint64_t dur_at = section_at(bytes, 1 + SPOOR_SNAP_DUR) + 8;
    bytes[dur_at] ^= 1;
    spit(path, bytes, len);
    struct spoor_snapshot *s = spoor_snapshot_open(path, "trace", &KEY);
    assert_non_null(s);
    struct spoor_snapshot_need ts = {.fixed = 1u << SPOOR_SNAP_TS}, dur = {.fixed = 1u << SPOOR_SNAP_DUR};
    assert_true(spoor_snapshot_verify(s, &ts));
    assert_false(spoor_snapshot_verify(s, &dur));
    assert_true(spoor_snapshot_verify(s, &ts));
    assert_false(spoor_snapshot_verify(s, NULL));
    spoor_snapshot_close(s);

    /* The last args column's validity words: only its readers fail. */
    bytes[dur_at] ^= 1;
    uint32_t ncols = spoor_get32(bytes + section_at(bytes, 0) + 8);
    uint32_t last = spoor_get32(bytes + section_at(bytes, 0) + 16 + (ncols - 1) * 8);
    bytes[section_at(bytes, 8 + 2 * ncols)] ^= 1;
    spit(path, bytes, len);
    s = spoor_snapshot_open(path, "trace", &KEY);
    assert_non_null(s);
    uint32_t other = spoor_get32(bytes + section_at(bytes, 0) + 16);
    assert_true(spoor_snapshot_verify(s, &(struct spoor_snapshot_need){.fixed = ~0u, .args = &other, .nargs = 1}));
    assert_false(spoor_snapshot_verify(s, &(struct spoor_snapshot_need){.args = &last, .nargs = 1}));
    assert_false(spoor_snapshot_verify(s, &(struct spoor_snapshot_need){.all_args = true}));
    spoor_snapshot_close(s);
    free(bytes);
}

/* spoor_load_opts.columns_read: the fixed column *ctx alone. */
static void read_one(void *ctx, const struct spoor_table *t, struct spoor_snapshot_need *need)
{
    need->fixed = 1u << *(const int *)ctx;
}

/* A whole-table load that reads only undamaged columns is served by the
 * snapshot; one that reads the damaged column reparses and rewrites it. */
static void test_damaged_column(void **state)
{
    struct loaded ref = reference();
    struct loaded l = load_table(2, false);
    loaded_free(&l);
    size_t len;
    uint8_t *bytes = slurp(snap, &len);
    bytes[section_at(bytes, 1 + SPOOR_SNAP_DUR) + 100] ^= 1;
    spit(snap, bytes, len);
    free(bytes);
    struct spoor_load_opts o = opts_of(2, false);
    int column = SPOOR_SNAP_TS;
    o.columns_read = read_one;
    o.columns_read_ctx = &column;
    l = table_with(trace, o);
    assert_int_equal(l.borrowed, 1);
    loaded_free(&l);
    column = SPOOR_SNAP_DUR;
    l = table_with(trace, o);
    assert_int_equal(l.borrowed, 0);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    l = load_table(2, false); /* rewritten whole */
    assert_int_equal(l.borrowed, 1);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    loaded_free(&ref);
}

static void test_read_only_dir_and_cache_dir(void **state)
{
    char dir[4200], ro_trace[4300], cache[4200], cmd[30000];
    snprintf(dir, sizeof dir, "%s/ro", testutil_tmpdir());
    snprintf(ro_trace, sizeof ro_trace, "%s/t.pfw.gz", dir);
    snprintf(cache, sizeof cache, "%s/cache", testutil_tmpdir());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s' && cp '%s' '%s' && chmod 555 '%s'", dir, cache, trace, ro_trace, dir);
    assert_int_equal(system(cmd), 0);
    struct loaded ref = load_with(ro_trace, opts_of(2, true));
    struct loaded l = table_with(ro_trace, opts_of(2, false));
    assert_non_null(l.warning);
    assert_non_null(strstr(l.warning, "read-only directory"));
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);

    struct spoor_load_opts o = opts_of(2, false);
    o.cache_dir = cache;
    l = table_with(ro_trace, o);
    assert_int_equal(l.borrowed, 0);
    loaded_free(&l);
    char path[9000];
    spoor_snapshot_path(ro_trace, cache, path, sizeof path);
    assert_int_equal(access(path, F_OK), 0);
    l = load_with(ro_trace, o);
    assert_int_equal(l.borrowed, l.batches);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    l = table_with(ro_trace, o);
    assert_int_equal(l.borrowed, 1);
    assert_string_equal(l.text, ref.text);
    loaded_free(&l);
    loaded_free(&ref);
    snprintf(cmd, sizeof cmd, "chmod 755 '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_same_for_any_threads),
        cmocka_unit_test(test_several_sources),
        cmocka_unit_test(test_stale),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_verify_columns),
        cmocka_unit_test(test_damaged_column),
        cmocka_unit_test(test_read_only_dir_and_cache_dir),
    };
    return cmocka_run_group_tests(tests, make_trace, NULL);
}
