/* The CSV and JSONL row writers: escaping, nulls, numbers, explicit and
 * default columns, output independent of batch boundaries, held-back CSV
 * header, the --columns parser, write errors and the atomic output file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <cJSON.h>
#include <cmocka.h>
#include <dirent.h>
#include <unistd.h>

#include "events_fixture.h"
#include "out/csv_widen.h"
#include "spoor/write.h"
#include "testutil.h"

struct capture {
    char *text;
    size_t len;
    FILE *fp;
};

static void capture_open(struct capture *c)
{
    c->fp = open_memstream(&c->text, &c->len);
    assert_non_null(c->fp);
}

static void capture_close(struct capture *c)
{
    fclose(c->fp);
}

/* Writes batches (each with an optional selection) and returns the output. */
static char *write_all(enum spoor_write_format fmt, const char *const *cols, size_t ncols,
                       struct spoor_table **batches, size_t nbatches, const uint32_t *sel, size_t nsel,
                       struct spoor_writer **keep)
{
    struct capture c;
    capture_open(&c);
    struct spoor_writer_opts o = {.format = fmt, .columns = cols, .ncolumns = ncols};
    struct spoor_writer *w = spoor_writer_new(c.fp, &o);
    struct spoor_error err;
    for (size_t i = 0; i < nbatches; i++)
        assert_int_equal(spoor_writer_write(w, batches[i], NULL, sel, nsel, &err), SPOOR_OK);
    assert_int_equal(spoor_writer_finish(w, &err), SPOOR_OK);
    capture_close(&c);
    if (keep)
        *keep = w;
    else
        spoor_writer_free(w);
    return c.text;
}

static struct spoor_table *strings_table(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "/data/my trace,1.pfw");
    size_t r = fx_row(t, 1, 2, "say \"hi\", then\nbye\r", "c\x01t", -5, 0, 'X');
    fx_str(t, r, "s", "caf\xc3\xa9 \xe2\x82\xac tab\there back\\slash");
    fx_str(t, r, "bad", "a\xff" "b\xc3" "c\xed\xa0\x80" "d");
    fx_real(t, r, "f", 0.1);
    r = fx_row(t, SPOOR_NULL, SPOOR_NULL, NULL, NULL, SPOOR_NULL, SPOOR_NULL, 0);
    fx_str(t, r, "s", "");
    fx_real(t, r, "f", 1e300);
    r = fx_row(t, INT64_MIN + 1, INT64_MAX, "n", "c", 0, 0, 'i');
    fx_real(t, r, "f", 0.0 / 0.0);
    return t;
}

static void test_csv_escaping(void **state)
{
    struct spoor_table *t = strings_table();
    const char *cols[] = {"ts", "dur", "name", "cat", "pid", "ph", "source", "s", "f", "line"};
    char *out = write_all(SPOOR_WRITE_CSV, cols, 10, &t, 1, NULL, 0, NULL);
    assert_string_equal(out,
                        "ts,dur,name,cat,pid,ph,source,s,f,line\n"
                        "1,2,\"say \"\"hi\"\", then\nbye\r\",c\x01t,-5,X,\"/data/my trace,1.pfw\","
                        "caf\xc3\xa9 \xe2\x82\xac tab\there back\\slash,0.1,1\n"
                        ",,,,,,\"/data/my trace,1.pfw\",\"\",1e+300,2\n"
                        "-9223372036854775807,9223372036854775807,n,c,0,i,\"/data/my trace,1.pfw\",,,3\n");
    free(out);
    spoor_table_free(t);
}

static void test_jsonl_escaping(void **state)
{
    struct spoor_table *t = strings_table();
    const char *cols[] = {"name", "cat", "s", "bad", "f", "ts", "ph", "nosuch"};
    char *out = write_all(SPOOR_WRITE_JSONL, cols, 8, &t, 1, NULL, 0, NULL);
    char *line = strtok(out, "\n");
    assert_string_equal(line,
                        "{\"name\":\"say \\\"hi\\\", then\\nbye\\r\",\"cat\":\"c\\u0001t\","
                        "\"s\":\"caf\xc3\xa9 \xe2\x82\xac tab\\there back\\\\slash\","
                        "\"bad\":\"a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "d\","
                        "\"f\":0.1,\"ts\":1,\"ph\":\"X\",\"nosuch\":null}");
    /* Every line is valid JSON that reads back to the values. */
    cJSON *j = cJSON_Parse(line);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "name")->valuestring, "say \"hi\", then\nbye\r");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "nosuch")));
    cJSON_Delete(j);
    line = strtok(NULL, "\n");
    assert_string_equal(line, "{\"name\":null,\"cat\":null,\"s\":\"\",\"bad\":null,\"f\":1e+300,\"ts\":null,"
                              "\"ph\":null,\"nosuch\":null}");
    line = strtok(NULL, "\n");
    j = cJSON_Parse(line);
    assert_non_null(j);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "f"))); /* NaN */
    cJSON_Delete(j);
    assert_null(strtok(NULL, "\n"));
    free(out);
    spoor_table_free(t);
}

static void test_numbers(void **state)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "x");
    const double values[] = {0.5, -2.25, 1.0 / 3, 123456789.125, 1e-7, 3.0, -0.0, 1e21, 2.5e15};
    const char *want[] = {"0.5", "-2.25", "0.3333333333333333", "123456789.125", "1e-07",
                          "3", "0", "1e+21", "2.5e+15"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        fx_real(t, fx_row(t, 0, 0, "n", "c", 0, 0, 'X'), "v", values[i]);
    const char *cols[] = {"v"};
    char *out = write_all(SPOOR_WRITE_CSV, cols, 1, &t, 1, NULL, 0, NULL);
    char *line = strtok(out, "\n");
    assert_string_equal(line, "v");
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        line = strtok(NULL, "\n");
        assert_non_null(line);
        assert_string_equal(line, want[i]);
        assert_true(strtod(line, NULL) == values[i]);
    }
    free(out);
    spoor_table_free(t);
}

/* Rows lo..hi-1 of a synthetic trace; `flip` creates the args columns in the
 * other order, as a batch that met them differently would. */
static struct spoor_table *synthetic(int lo, int hi, bool flip)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "trace.pfw");
    if (flip) /* a different pool: ids differ from the other batches */
        fx_intern(t, "padding");
    for (int i = lo; i < hi; i++) {
        size_t r = fx_row(t, i * 10, i, i % 2 ? "read" : "write", "POSIX", 7, i % 3, 'X');
        t->line[r] = (uint64_t)i + 1;
        if (flip) {
            if (i % 5 == 0)
                fx_int(t, r, "zeta", i);
            if (i % 3 == 0)
                fx_int(t, r, "alpha", i);
        } else {
            if (i % 3 == 0)
                fx_int(t, r, "alpha", i);
            if (i % 5 == 0)
                fx_int(t, r, "zeta", i);
        }
        if (i == 7)
            fx_str(t, r, "name", "arg-name");
        if (i == 4)
            fx_str(t, r, "mid", "m");
        if (i == 1500)
            fx_str(t, r, "late", "l");
    }
    return t;
}

/* A default CSV of t written to a rewritable temporary (as export -o FILE
 * does), read back. */
static char *write_own_file(struct spoor_table *t)
{
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/own", testutil_tmpdir());
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/out.csv", dir);
    struct spoor_atomic_file out;
    struct spoor_error err;
    assert_int_equal(spoor_atomic_file_open(&out, path, &err), SPOOR_OK);
    struct spoor_writer_opts o = {.format = SPOOR_WRITE_CSV, .rewritable = true, .name = path};
    struct spoor_writer *w = spoor_writer_new(out.fp, &o);
    assert_int_equal(spoor_writer_write(w, t, NULL, NULL, 0, &err), SPOOR_OK);
    assert_int_equal(spoor_writer_finish(w, &err), SPOOR_OK);
    spoor_writer_free(w);
    assert_int_equal(spoor_atomic_file_commit(&out, &err), SPOOR_OK);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char *text = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&text, &cap, '\0', fp);
    assert_true(n > 0);
    fclose(fp);
    unlink(path);
    rmdir(dir);
    return text;
}

static void test_default_columns_batch_independent(void **state)
{
    for (int fmt = 0; fmt < 2; fmt++) {
        struct spoor_table *whole = synthetic(0, 2000, false);
        struct spoor_writer *w;
        char *ref = write_all((enum spoor_write_format)fmt, NULL, 0, &whole, 1, NULL, 0, &w);
        if (fmt == SPOOR_WRITE_CSV) {
            /* Row 0 has alpha and zeta (by name), row 4 mid, row 7 the args "name";
             * row 1500, after the held rows, brings "late": every row has its cell. */
            const char *want = "ts,dur,name,cat,pid,tid,ph,line,source,file,host,alpha,zeta,mid,args.name,late\n"
                               "0,0,write,POSIX,7,0,X,1,trace.pfw,,,0,0,,,\n";
            assert_memory_equal(ref, want, strlen(want));
            assert_non_null(strstr(ref, "\n30,3,read,POSIX,7,0,X,4,trace.pfw,,,3,,,,\n"));
            assert_non_null(strstr(ref, "\n14990,1499,read,POSIX,7,2,X,1500,trace.pfw,,,,,,,\n"));
            assert_non_null(strstr(ref, "\n15000,1500,write,POSIX,7,0,X,1501,trace.pfw,,,1500,1500,,,l\n"));
            assert_non_null(strstr(ref, "\n19990,1999,read,POSIX,7,1,X,2000,trace.pfw,,,,,,,\n"));
            /* Our own output file, rewritten in place of a spill, holds the same. */
            char *file = write_own_file(whole);
            assert_string_equal(file, ref);
            free(file);
        } else {
            assert_non_null(strstr(ref, "\n{\"ts\":70,\"dur\":7,\"name\":\"read\",\"cat\":\"POSIX\",\"pid\":7,\"tid\":1,"
                                        "\"ph\":\"X\",\"line\":8,\"source\":\"trace.pfw\",\"file\":null,\"host\":null,"
                                        "\"args.name\":\"arg-name\"}\n"));
            assert_non_null(strstr(ref, "\"alpha\":1500,\"zeta\":1500,\"late\":\"l\"}"));
        }
        spoor_writer_free(w);
        /* Split at many places, with columns met in another order. */
        const int cuts[] = {0, 1, 3, 5, 6, 999, 1000, 1001, 1400, 2000};
        struct spoor_table *parts[9];
        for (int i = 0; i < 9; i++)
            parts[i] = synthetic(cuts[i], cuts[i + 1], i % 2);
        char *split = write_all((enum spoor_write_format)fmt, NULL, 0, parts, 9, NULL, 0, NULL);
        assert_string_equal(split, ref);
        free(split);
        free(ref);
        for (int i = 0; i < 9; i++)
            spoor_table_free(parts[i]);
        spoor_table_free(whole);
    }
}

/* The second writing of a CSV: rows of 3 MB told apart by their quoting
 * (line breaks and doubled quotes inside cells, across the 1 MiB reads),
 * each widened by its epoch; the old header skipped. */
static void test_csv_widen(void **state)
{
    enum { ROWS = 40000 };
    struct wbuf in, want, got;
    wbuf_init(&in, NULL, 1 << 20);
    wbuf_init(&want, NULL, 1 << 20);
    wbuf_init(&got, NULL, 1 << 20);
    const char header[] = "a,\"b\nc\"\n";
    wbuf_put(&in, header, sizeof header - 1);
    char row[256];
    for (int i = 0; i < ROWS; i++) {
        int n = snprintf(row, sizeof row, "%d,\"q\n\"\"%.*s\"\"\"", i, i % 97, "................................."
                         "................................................................................");
        wbuf_put(&in, row, (size_t)n);
        wbuf_put(&want, row, (size_t)n);
        wbuf_put(&in, "\n", 1);
        wbuf_put(&want, i < ROWS / 2 ? ",,\n" : ",\n", i < ROWS / 2 ? 3 : 2);
    }
    char path[4300];
    snprintf(path, sizeof path, "%s/widen.csv", testutil_tmpdir());
    FILE *fp = fopen(path, "w+");
    assert_non_null(fp);
    assert_int_equal(fwrite(in.data, 1, in.len, fp), in.len);
    assert_int_equal(fflush(fp), 0);
    rewind(fp);
    const struct csv_epoch epochs[] = {{0, 1}, {ROWS / 2, 2}};
    struct spoor_error err;
    assert_int_equal(csv_copy_rows(fileno(fp), epochs, 2, 3, true, &got, &err), SPOOR_OK);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);
    fclose(fp);
    unlink(path);
    wbuf_release(&in);
    wbuf_release(&want);
    wbuf_release(&got);
}

static void test_selection_and_explicit(void **state)
{
    struct spoor_table *t = synthetic(0, 10, false);
    const char *cols[] = {"line", "args.alpha", "nosuch", "host"};
    const uint32_t sel[] = {0, 3, 9};
    struct spoor_writer *w;
    char *out = write_all(SPOOR_WRITE_CSV, cols, 4, &t, 1, sel, 3, &w);
    assert_string_equal(out, "line,args.alpha,nosuch,host\n1,0,,\n4,3,,\n10,9,,\n");
    const char *names[4];
    assert_int_equal(spoor_writer_missing(w, names, 4), 1);
    assert_string_equal(names[0], "nosuch");
    spoor_writer_free(w);
    free(out);
    /* No rows: a CSV still has its header, JSONL is empty. */
    out = write_all(SPOOR_WRITE_CSV, cols, 4, &t, 1, sel, 0, NULL);
    assert_string_equal(out, "line,args.alpha,nosuch,host\n");
    free(out);
    out = write_all(SPOOR_WRITE_CSV, NULL, 0, NULL, 0, NULL, 0, NULL);
    assert_string_equal(out, "ts,dur,name,cat,pid,tid,ph,line,source,file,host\n");
    free(out);
    out = write_all(SPOOR_WRITE_JSONL, NULL, 0, &t, 1, sel, 0, NULL);
    assert_string_equal(out, "");
    free(out);
    spoor_table_free(t);
}

static void test_resolved_columns(void **state)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "x");
    fx_str(t, fx_row(t, 1, 1, "open", "POSIX", 1, 1, 'X'), "fhash", "9");
    fx_str(t, fx_row(t, 2, 1, "open", "POSIX", 1, 1, 'X'), "fname", "/b");
    fx_lookup(t, SPOOR_LOOKUP_FILE, "9", "/a,\"x\"");
    struct spoor_resolver *r = spoor_resolver_new();
    const struct spoor_resolved *res = spoor_resolver_resolve(r, t);
    struct capture c;
    capture_open(&c);
    const char *cols[] = {"ts", "file"};
    struct spoor_writer_opts o = {.format = SPOOR_WRITE_CSV, .columns = cols, .ncolumns = 2};
    struct spoor_writer *w = spoor_writer_new(c.fp, &o);
    struct spoor_error err;
    assert_int_equal(spoor_writer_write(w, t, res, NULL, 0, &err), SPOOR_OK);
    assert_int_equal(spoor_writer_finish(w, &err), SPOOR_OK);
    capture_close(&c);
    assert_string_equal(c.text, "ts,file\n1,\"/a,\"\"x\"\"\"\n2,/b\n");
    free(c.text);
    spoor_writer_free(w);
    spoor_resolver_free(r);
    spoor_table_free(t);
}

static void test_write_error(void **state)
{
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    struct spoor_table *t = synthetic(0, 3000, false);
    struct spoor_writer_opts o = {.format = SPOOR_WRITE_JSONL};
    struct spoor_writer *w = spoor_writer_new(full, &o);
    struct spoor_error err;
    int st = spoor_writer_write(w, t, NULL, NULL, 0, &err);
    if (st == SPOOR_OK)
        st = spoor_writer_finish(w, &err);
    assert_int_equal(st, SPOOR_EIO);
    assert_non_null(strstr(err.msg, "No space left on device"));
    spoor_writer_free(w);
    spoor_table_free(t);
    fclose(full);
}

static void test_columns_parse(void **state)
{
    char **names;
    size_t n;
    struct spoor_error err;
    assert_int_equal(spoor_columns_parse("ts, name ,args.size", &names, &n, &err), SPOOR_OK);
    assert_int_equal(n, 3);
    assert_string_equal(names[1], "name");
    assert_string_equal(names[2], "args.size");
    spoor_columns_free(names, n);
    assert_int_equal(spoor_columns_parse("ts,,name", &names, &n, &err), SPOOR_EUSAGE);
    assert_string_equal(err.msg, "empty column name at position 4");
    assert_int_equal(spoor_columns_parse("", &names, &n, &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_columns_parse("a, ", &names, &n, &err), SPOOR_EUSAGE);
}

static size_t entries(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.' || strstr(e->d_name, ".tmp-") != NULL;
    closedir(d);
    return n;
}

static void test_atomic_file(void **state)
{
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/atomic", testutil_tmpdir());
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/out.csv", dir);
    struct spoor_atomic_file f;
    struct spoor_error err;

    /* Abort leaves nothing behind. */
    assert_int_equal(spoor_atomic_file_open(&f, path, &err), SPOOR_OK);
    fputs("partial", f.fp);
    spoor_atomic_file_abort(&f);
    assert_int_equal(entries(dir), 0);

    /* Commit puts the whole file in place. */
    assert_int_equal(spoor_atomic_file_open(&f, path, &err), SPOOR_OK);
    assert_int_equal(entries(dir), 1); /* the temporary */
    fputs("whole\n", f.fp);
    assert_int_equal(spoor_atomic_file_commit(&f, &err), SPOOR_OK);
    assert_int_equal(entries(dir), 1);
    FILE *in = fopen(path, "r");
    char buf[32] = {0};
    assert_non_null(fgets(buf, sizeof buf, in));
    fclose(in);
    assert_string_equal(buf, "whole\n");

    /* A failed run keeps the old file intact. */
    assert_int_equal(spoor_atomic_file_open(&f, path, &err), SPOOR_OK);
    fputs("new", f.fp);
    spoor_atomic_file_abort(&f);
    in = fopen(path, "r");
    assert_non_null(fgets(buf, sizeof buf, in));
    fclose(in);
    assert_string_equal(buf, "whole\n");
    assert_int_equal(entries(dir), 1);

    assert_int_equal(spoor_atomic_file_open(&f, dir, &err), SPOOR_EIO);
    assert_non_null(strstr(err.msg, "is a directory"));
    snprintf(path, sizeof path, "%s/no/such/dir/out.csv", dir);
    assert_int_equal(spoor_atomic_file_open(&f, path, &err), SPOOR_EIO);
    assert_non_null(strstr(err.msg, "No such file or directory"));

    assert_int_equal(spoor_atomic_file_open(&f, "-", &err), SPOOR_OK);
    assert_ptr_equal(f.fp, stdout);
    assert_int_equal(spoor_atomic_file_commit(&f, &err), SPOOR_OK);
}

int main(void)
{
    setenv("TMPDIR", testutil_tmpdir(), 1); /* a default CSV's spill file */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_escaping),
        cmocka_unit_test(test_jsonl_escaping),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_default_columns_batch_independent),
        cmocka_unit_test(test_csv_widen),
        cmocka_unit_test(test_selection_and_explicit),
        cmocka_unit_test(test_resolved_columns),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_columns_parse),
        cmocka_unit_test(test_atomic_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
