/* The pfw reader on inline lines of every dialect: detection and units,
 * metadata lookups, hashes, the writers' quirks (quoted numbers, swapped
 * pid/tid, unescaped strings, trailing commas, missing brackets), skips and
 * --strict, invalid UTF-8, huge and empty inputs, args modes, and that the
 * fast tokenizer and the tolerant scanner give the same table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "pfw_tables.h"
#include "read_harness.h"

#define S(lit) lit, sizeof(lit) - 1

static const struct spoor_read_opts all_args = {.args = SPOOR_ARGS_ALL};

static int load(const char *text, size_t len, const struct spoor_read_opts *opts, struct harness *h)
{
    return harness_load(&spoor_format_pfw, text, len, len, 0, opts, h);
}

static const char *str(const struct harness *h, uint32_t id) { return spoor_table_str(h->table, id); }

/* The name a lookup gives for key text (NULL when absent). */
static const char *lookup(const struct harness *h, enum spoor_lookup_kind kind, const char *key)
{
    uint32_t id = spoor_strpool_find(h->table->pool, key, strlen(key));
    if (id == UINT32_MAX)
        return NULL;
    uint32_t v = spoor_lookup_get(&h->table->lookups[kind], 0, id, UINT64_MAX, NULL, NULL);
    return v ? str(h, v) : NULL;
}

static void assert_dialect(const char *text, size_t len, const char *name, enum spoor_unit ts, enum spoor_unit dur,
                           bool swapped)
{
    struct harness h;
    assert_int_equal(load(text, len, &all_args, &h), SPOOR_OK);
    assert_string_equal(h.dialect.name, name);
    assert_int_equal(h.dialect.ts_unit, ts);
    assert_int_equal(h.dialect.dur_unit, dur);
    assert_int_equal(h.dialect.pid_tid_swapped, swapped);
    assert_non_null(strstr(h.dialect.assumed, name));
    assert_int_equal(h.skips.total, 0);
    harness_free(&h);
}

static const char dftracer_2023[] =
    "[\n"
    "  {\"id\":\"0\",\"name\":\"open\",\"cat\":\"POSIX\",\"pid\":\"12\",\"tid\":\"34\",\"ts\":\"1698352095942658\","
    "\"dur\":\"8\",\"ph\":\"X\",\"args\":{\"hostname\":\"ruby165\",\"fname\":\"/p/a\",\"ret\":\"3276800\"}}\n"
    "{\"id\":\"1\",\"name\":\"read\",\"cat\":\"POSIX\",\"pid\":\"12\",\"tid\":\"34\",\"ts\":\"1698352095942700\","
    "\"dur\":\"100\",\"ph\":\"X\",\"args\":{\"hostname\":\"ruby165\",\"ret\":18}}\n";

static const char dftracer_2024[] =
    "[\n"
    "{\"id\":1,\"name\":\"HH\",\"cat\":\"dftracer\",\"pid\":7,\"tid\":8,\"ph\":\"M\",\"args\":{\"name\":\"corona173\",\"value\":5692}}\n"
    "{\"id\":2,\"name\":\"thread_name\",\"cat\":\"dftracer\",\"pid\":7,\"tid\":8,\"ph\":\"M\",\"args\":{\"name\":\"8\",\"value\":\"thread_name\"}}\n"
    "{\"id\":3,\"name\":\"SH\",\"cat\":\"dftracer\",\"pid\":7,\"tid\":8,\"ph\":\"M\",\"args\":{\"name\":\"./cm1.exe\",\"value\":33764}}\n"
    "{\"id\":4,\"name\":\"FH\",\"cat\":\"dftracer\",\"pid\":7,\"tid\":8,\"ph\":\"M\",\"args\":{\"name\":\"/etc/x.conf\",\"value\":33084}}\n"
    "{\"id\":5,\"name\":\"fread\",\"cat\":\"STDIO\",\"pid\":7,\"tid\":8,\"ts\":1727387307985825,\"dur\":10,\"ph\":\"X\","
    "\"args\":{\"hhash\":5692,\"p_idx\":-1,\"ret\":3107,\"fhash\":33084}}\n"
    "{\"id\":6,\"name\":\"PR\",\"cat\":\"dftracer\",\"pid\":7,\"tid\":8,\"ph\":\"M\",\"args\":{\"name\":\"rank\",\"value\":\"0\"}}\n"
    "{\"id\":7,\"name\":\"process_name\",\"cat\":\"dftracer\",\"pid\":7,\"tid\":8,\"ph\":\"M\",\"args\":{\"name\":\"Rank 0\",\"value\":\"process_name\"}}\n"
    "]";

static const char dftracer_2025[] =
    "{\"name\":\"HH\",\"cat\":\"dftracer\",\"type\":0,\"pid\":5,\"tid\":6,\"ph\":4,\"args\":{\"hhash\":\"a1b2c3d4\",\"name\":\"node1\",\"value\":\"a1b2c3d4\"}}\n"
    "{\"name\":\"FH\",\"cat\":\"dftracer\",\"type\":0,\"pid\":5,\"tid\":6,\"ph\":4,\"args\":{\"hhash\":\"a1b2c3d4\",\"name\":\"/data/f\",\"value\":\"0099ff\"}}\n"
    "{\"id\":1,\"name\":\"read\",\"cat\":\"POSIX\",\"type\":0,\"pid\":5,\"tid\":6,\"ts\":100,\"dur\":20,\"ph\":1,"
    "\"args\":{\"hhash\":\"a1b2c3d4\",\"fhash\":\"0099ff\",\"size\":4096}}\n"
    "{\"name\":\"read\",\"cat\":\"POSIX\",\"type\":0,\"ts\":1000,\"ph\":3,\"pid\":5,\"tid\":6,"
    "\"args\":{\"hhash\":\"a1b2c3d4\",\"dft_cnt\":3,\"size_sum\":12288,\"size_min\":4096,\"size_max\":4096}}\n"
    "{\"name\":\"cpu\",\"cat\":\"psutil\",\"type\":5,\"ts\":2000,\"ph\":2,\"pid\":5,\"tid\":6,\"args\":{\"hhash\":\"a1b2c3d4\",\"util\":0.5}}\n";

static const char datacrumbs_2024[] =
    "[\n"
    "{\"name\": \"HH\", \"cat\": \"dftracer\", \"ph\": \"M\", \"args\": {\"name\": \"ebpf\", \"value\": 314828689199209182275661060106169083757}}\n"
    "{\"pid\": 26954, \"tid\": 26954, \"name\": \"FH\", \"cat\": \"dftracer\", \"ph\": \"M\", \"args\": {\"name\": \"/etc/a.conf\", \"value\": 133892054826312681618397557253802428535}}\n"
    "{\"pid\": 26954, \"tid\": 26955, \"name\": \"read\", \"cat\": \"sys\", \"ph\": \"X\", \"ts\": 1396, \"dur\": 9085, "
    "\"args\": {\"hhash\": 314828689199209182275661060106169083757, \"size_sum\": 3357, \"fhash\": 133892054826312681618397557253802428535}}\n";

static const char datacrumbs_profile[] =
    "[\n"
    "{\"pid\": 37818, \"tid\": 37818, \"name\": \"close\", \"cat\": \"sys\", \"ph\": \"C\", \"ts\": 0, \"args\": {\"freq\": 1, \"time\": 7.86e-07, \"size_sum\": null, \"fname\": \"/sys/a\"}}\n"
    "{\"pid\": 37818, \"tid\": 37818, \"name\": \"read\", \"cat\": \"sys\", \"ph\": \"C\", \"ts\": 1000000, \"args\": {\"freq\": 2, \"time\": 1.2626e-05, \"size_sum\": 64, \"fname\": \"/sys/b\"}}\n";

/* DataCrumbs' C++ writer: pid is the thread, tid the process; strings are
 * written raw, quotes and backslashes included; events in end-time order. */
static const char datacrumbs_cpp[] =
    "[\n"
    "{\"id\":1,\"name\":\"vfs_read\",\"cat\":\"kprobe\",\"ph\":\"X\",\"ts\":5000,\"dur\":3,\"pid\":101,\"tid\":100}\n"
    "{\"id\":2,\"name\":\"SH\",\"cat\":\"dftracer\",\"ph\":\"M\",\"args\":{\"value\":\"say \"hi\"\",\"hash\":12345}}\n"
    "{\"id\":3,\"name\":\"a\"b\\c\",\"cat\":\"usdt\",\"ph\":\"X\",\"ts\":4000,\"dur\":1500,\"pid\":102,\"tid\":100}\n"
    "{\"id\":4,\"name\":\"C:\\dir\\\",\"cat\":\"usdt\",\"ph\":\"X\",\"ts\":6000,\"dur\":1,\"pid\":101,\"tid\":100,\"args\":{\"f\":1.500000}}\n"
    "]\n";

static const char chrome[] =
    "{\"name\":\"step\",\"ph\":\"B\",\"ts\":1.5,\"pid\":1,\"tid\":2}\n"
    "{\"ph\":\"E\",\"ts\":2.25,\"pid\":1,\"tid\":2}\n";

static void test_detect_dialects(void **state)
{
    assert_dialect(S(dftracer_2023), "dftracer-2023", SPOOR_UNIT_US, SPOOR_UNIT_US, false);
    assert_dialect(S(dftracer_2024), "dftracer-2024", SPOOR_UNIT_US, SPOOR_UNIT_US, false);
    assert_dialect(S(dftracer_2025), "dftracer-2025", SPOOR_UNIT_US, SPOOR_UNIT_US, false);
    assert_dialect(S(datacrumbs_2024), "datacrumbs-2024", SPOOR_UNIT_US, SPOOR_UNIT_NS, false);
    assert_dialect(S(datacrumbs_profile), "datacrumbs-profile-2024", SPOOR_UNIT_US, SPOOR_UNIT_NS, false);
    assert_dialect(S(datacrumbs_cpp), "datacrumbs-cpp", SPOOR_UNIT_US, SPOOR_UNIT_US, true);
    assert_dialect(S(chrome), "chrome", SPOOR_UNIT_US, SPOOR_UNIT_US, false);
}

static void test_sniff(void **state)
{
    assert_true(spoor_format_pfw.sniff(S(dftracer_2024)) > 60);
    assert_true(spoor_format_pfw.sniff(S(datacrumbs_2024)) > 60);
    assert_true(spoor_format_pfw.sniff(S("{\"a\":1,\"b\":2}\n")) < 60);
    assert_int_equal(spoor_format_pfw.sniff(S("a,b,c\n1,2,3\n")), 0);
    assert_int_equal(spoor_format_pfw.sniff(S("")), 0);
}

static void test_overrides(void **state)
{
    struct harness h;
    struct spoor_read_opts opts = {.dialect = "datacrumbs-cpp", .ts_unit = SPOOR_UNIT_NS};
    assert_int_equal(load(S(dftracer_2024), &opts, &h), SPOOR_OK);
    assert_string_equal(h.dialect.name, "datacrumbs-cpp");
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_NS);
    assert_int_equal(h.dialect.dur_unit, SPOOR_UNIT_US);
    assert_non_null(strstr(h.dialect.assumed, "(given)"));
    /* fread: ts taken as ns now, pid and tid swapped */
    assert_true(h.table->ts[4] == 1727387307985825LL);
    assert_int_equal(h.table->pid[4], 8);
    harness_free(&h);
    opts = (struct spoor_read_opts){.dialect = "nope"};
    assert_int_equal(load(S(dftracer_2024), &opts, &h), SPOOR_EUSAGE);
    assert_non_null(strstr(h.err.msg, "nope"));
    harness_free(&h);
}

static void test_dftracer_2023(void **state)
{
    struct harness h;
    assert_int_equal(load(S(dftracer_2023), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.lines, 3);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(h.table->line[0], 2);
    assert_true(h.table->ts[0] == 1698352095942658000LL);
    assert_true(h.table->dur[0] == 8000);
    assert_int_equal(h.table->pid[0], 12);
    assert_int_equal(h.table->tid[0], 34);
    assert_int_equal(h.table->ph[0], 'X');
    assert_string_equal(str(&h, h.table->name[0]), "open");
    assert_string_equal(str(&h, h.table->cat[0]), "POSIX");
    /* quoted and bare numbers in one column stay numbers */
    assert_int_equal(spoor_table_find_column(h.table, "ret")->type, SPOOR_I64);
    assert_string_equal(harness_cell(&h, "ret", 0), "3276800");
    assert_string_equal(harness_cell(&h, "ret", 1), "18");
    assert_string_equal(harness_cell(&h, "hostname", 1), "ruby165");
    assert_string_equal(harness_cell(&h, "fname", 0), "/p/a");
    assert_string_equal(harness_cell(&h, "fname", 1), "");
    assert_string_equal(harness_cell(&h, "id", 1), "1");
    harness_free(&h);
}

static void test_dftracer_2024_metadata(void **state)
{
    struct harness h;
    assert_int_equal(load(S(dftracer_2024), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.lines, 9);
    assert_int_equal(h.table->nrows, 7);
    assert_int_equal(h.skips.total, 0);
    /* metadata events are rows too */
    assert_int_equal(h.table->ph[0], 'M');
    assert_true(h.table->ts[0] == SPOOR_NULL);
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_HOST, "5692"), "corona173");
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_FILE, "33084"), "/etc/x.conf");
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_STRING, "33764"), "./cm1.exe");
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_THREAD, "8"), "8");
    /* PR names the process from its line (7), process_name from the next one */
    uint32_t pid = spoor_strpool_find(h.table->pool, "7", 1);
    const struct spoor_lookup *procs = &h.table->lookups[SPOOR_LOOKUP_PROCESS];
    assert_string_equal(str(&h, spoor_lookup_get(procs, 0, pid, 7, NULL, NULL)), "rank 0");
    assert_string_equal(str(&h, spoor_lookup_get(procs, 0, pid, 8, NULL, NULL)), "Rank 0");
    assert_int_equal(spoor_lookup_get(procs, 0, pid, 6, NULL, NULL), 0);
    /* hashes are interned text and join the lookups by id */
    const struct spoor_column *fh = spoor_table_find_column(h.table, "fhash");
    assert_int_equal(fh->type, SPOOR_STR);
    assert_string_equal(str(&h, spoor_lookup_get(&h.table->lookups[SPOOR_LOOKUP_FILE], 0, fh->str[4], h.table->line[4],
                                                 NULL, NULL)),
                        "/etc/x.conf");
    assert_int_equal(spoor_table_find_column(h.table, "p_idx")->type, SPOOR_I64);
    assert_string_equal(harness_cell(&h, "p_idx", 4), "-1");
    assert_true(h.table->ts[4] == 1727387307985825000LL);
    assert_true(h.table->dur[4] == 10000);
    harness_free(&h);
}

static void test_process_name_alone(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":3,\"tid\":3,\"args\":{\"name\":\"trainer\"}}\n"
                            "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":3,\"tid\":4,\"args\":{\"name\":\"loader\"}}\n"),
                          &all_args, &h), SPOOR_OK);
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_PROCESS, "3"), "trainer");
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_THREAD, "4"), "loader");
    harness_free(&h);
}

static void test_dftracer_2025(void **state)
{
    struct harness h;
    assert_int_equal(load(S(dftracer_2025), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 5);
    assert_int_equal(h.table->ph[0], 'M');
    assert_int_equal(h.table->ph[2], 'X');
    assert_int_equal(h.table->ph[3], 'A');
    assert_int_equal(h.table->ph[4], 'C');
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_HOST, "a1b2c3d4"), "node1");
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_FILE, "0099ff"), "/data/f");
    /* hex hashes that look like numbers stay text */
    assert_int_equal(spoor_table_find_column(h.table, "fhash")->type, SPOOR_STR);
    assert_string_equal(harness_cell(&h, "fhash", 2), "0099ff");
    /* aggregated events: no dur, the aggregates as columns */
    assert_true(h.table->dur[3] == SPOOR_NULL);
    assert_true(h.table->ts[3] == 1000000);
    assert_string_equal(harness_cell(&h, "dft_cnt", 3), "3");
    assert_string_equal(harness_cell(&h, "size_sum", 3), "12288");
    assert_string_equal(harness_cell(&h, "type", 4), "5");
    assert_string_equal(harness_cell(&h, "util", 4), "0.5");
    harness_free(&h);
}

static void test_datacrumbs_2024(void **state)
{
    struct harness h;
    assert_int_equal(load(S(datacrumbs_2024), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 3);
    /* ts in us, dur in ns */
    assert_true(h.table->ts[2] == 1396000);
    assert_true(h.table->dur[2] == 9085);
    assert_int_equal(h.table->tid[2], 26955);
    /* the HH line has no pid/tid */
    assert_true(h.table->pid[0] == SPOOR_NULL);
    /* 128-bit hashes are never truncated */
    assert_string_equal(harness_cell(&h, "hhash", 2), "314828689199209182275661060106169083757");
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_HOST, "314828689199209182275661060106169083757"), "ebpf");
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_FILE, "133892054826312681618397557253802428535"), "/etc/a.conf");
    const struct spoor_column *fh = spoor_table_find_column(h.table, "fhash");
    assert_string_equal(str(&h, spoor_lookup_get(&h.table->lookups[SPOOR_LOOKUP_FILE], 0, fh->str[2], h.table->line[2],
                                                 NULL, NULL)),
                        "/etc/a.conf");
    assert_string_equal(harness_cell(&h, "size_sum", 2), "3357");
    harness_free(&h);
}

static void test_datacrumbs_profile(void **state)
{
    struct harness h;
    assert_int_equal(load(S(datacrumbs_profile), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(h.table->ph[1], 'C');
    assert_true(h.table->ts[1] == 1000000000LL);
    assert_true(h.table->dur[1] == SPOOR_NULL);
    assert_int_equal(spoor_table_find_column(h.table, "time")->type, SPOOR_F64);
    assert_string_equal(harness_cell(&h, "time", 1), "1.2626e-05");
    assert_string_equal(harness_cell(&h, "size_sum", 0), ""); /* null */
    assert_string_equal(harness_cell(&h, "size_sum", 1), "64");
    assert_string_equal(harness_cell(&h, "fname", 1), "/sys/b");
    harness_free(&h);
}

static void test_datacrumbs_cpp(void **state)
{
    struct harness h;
    assert_int_equal(load(S(datacrumbs_cpp), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.skips.total, 0);
    assert_int_equal(h.table->nrows, 4);
    /* swapped back: the process is 100, threads 101 and 102 */
    assert_int_equal(h.table->pid[0], 100);
    assert_int_equal(h.table->tid[0], 101);
    assert_int_equal(h.table->tid[2], 102);
    assert_true(h.table->ts[0] == 5000000);
    assert_true(h.table->dur[2] == 1500000);
    /* raw quotes and backslashes kept as written */
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_STRING, "12345"), "say \"hi\"");
    assert_string_equal(str(&h, h.table->name[2]), "a\"b\\c");
    assert_string_equal(str(&h, h.table->name[3]), "C:\\dir\\");
    assert_string_equal(harness_cell(&h, "f", 3), "1.5");
    harness_free(&h);
}

static void test_chrome_and_phases(void **state)
{
    struct harness h;
    assert_int_equal(load(S(chrome), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(h.table->ph[0], 'B');
    assert_int_equal(h.table->ph[1], 'E');
    assert_true(h.table->ts[0] == 1500);     /* fractional us */
    assert_true(h.table->ts[1] == 2250);
    assert_int_equal(h.table->name[1], 0);   /* an E event needs no name */
    harness_free(&h);
}

static void test_structure_and_commas(void **state)
{
    struct harness h;
    const char text[] = "[\n"
                        "\n"
                        "  ,\n"
                        "{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":2},\n"
                        "{\"name\":\"b\",\"ph\":\"X\",\"ts\":3,\"args\":{\"k\":1,},},\n"
                        "[{\"name\":\"c\",\"ph\":\"i\",\"ts\":4}]\n"
                        " ] \n"
                        "{\"name\":\"d\",\"ph\":\"X\",\"ts\":5}";
    assert_int_equal(load(S(text), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.lines, 8);
    assert_int_equal(h.table->nrows, 4);
    assert_int_equal(h.skips.total, 0);
    assert_string_equal(str(&h, h.table->name[2]), "c");
    assert_int_equal(h.table->line[3], 8);
    assert_string_equal(harness_cell(&h, "k", 1), "1");
    harness_free(&h);
}

static void test_skips_and_strict(void **state)
{
    struct harness h;
    const char text[] = "{\"name\":\"ok\",\"ph\":\"X\",\"ts\":1}\n"
                        "garbage\n"
                        "{\"name\":\"cut\",\"ph\":\"X\",\"ts\":12\n"
                        "{\"ph\":\"X\",\"ts\":1}\n"
                        "{\"name\":\"x\",\"ph\":\"X\",\"ts\":\"soon\"}\n"
                        "{\"name\":\"x\",\"ph\":\"Q!\",\"ts\":1}\n"
                        "{\"name\":\"x\",\"ph\":9,\"ts\":1}\n"
                        "{\"name\":\"x\",\"ph\":\"X\",\"ts\":1} {\"name\":\"y\"}\n"
                        "{\"name\":\"x\",\"ph\":\"X\",\"ts\":99999999999999999}\n"
                        "{\"name\":\"x\",\"ph\":\"X\",\"ts\":1,\"args\":{\"a\" 1}}\n"
                        "{\"name\":\"ok2\",\"ph\":\"X\",\"ts\":2}\n"
                        "{\"name\":\"late\",\"ph\":\"X\",\"ts\":5,\"dur\":-3}\n"
                        "{\"name\":\"early\",\"ph\":\"X\",\"ts\":\"-7\",\"dur\":3}\n";
    assert_int_equal(load(S(text), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.lines, 13);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(h.skips.total, 11);
    assert_int_equal(h.skips.nreasons, 8);
    assert_string_equal(h.skips.reason[6], "negative dur");
    assert_string_equal(h.skips.reason[7], "negative ts");
    assert_int_equal(h.skips.count[6], 1);
    assert_int_equal(h.skips.count[7], 1);
    assert_int_equal(h.skips.nsamples, 8);
    assert_int_equal(h.skips.sample[0].line, 2);
    assert_string_equal(h.skips.sample[0].reason, "not an object");
    assert_string_equal(h.skips.sample[0].detail, "garbage");
    assert_string_equal(h.skips.sample[1].reason, "malformed JSON");
    assert_string_equal(h.skips.sample[2].reason, "missing name");
    assert_string_equal(h.skips.sample[3].reason, "invalid ts");
    assert_string_equal(h.skips.sample[4].reason, "unknown ph");
    assert_string_equal(h.skips.sample[5].reason, "unknown ph");
    assert_string_equal(h.skips.sample[6].reason, "text after object");
    assert_string_equal(h.skips.sample[7].reason, "invalid ts"); /* overflows int64 ns */
    /* a malformed args object drops the row it had started */
    assert_string_equal(str(&h, h.table->name[1]), "ok2");
    assert_int_equal(h.table->line[1], 11);
    harness_free(&h);

    struct spoor_read_opts strict = {.args = SPOOR_ARGS_ALL, .strict = true};
    assert_int_equal(load(S(text), &strict, &h), SPOOR_ESTRICT);
    assert_int_equal(h.skips.total, 1);
    assert_int_equal(h.skips.sample[0].line, 2);
    assert_int_equal(h.table->nrows, 1);
    assert_non_null(strstr(h.err.msg, "not an object"));
    harness_free(&h);
}

static void test_invalid_utf8(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"name\":\"r\xff" "ead\",\"cat\":\"\xc3\xa9t\xc3\",\"ph\":\"X\",\"ts\":1,"
                            "\"args\":{\"f\xfe\":\"a\xed\xa0\x80z\"}}\n"), &all_args, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 1);
    assert_string_equal(str(&h, h.table->name[0]), "r\xef\xbf\xbd" "ead");
    assert_string_equal(str(&h, h.table->cat[0]), "\xc3\xa9t\xef\xbf\xbd");
    assert_string_equal(harness_cell(&h, "f\xef\xbf\xbd", 0), "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdz");
    harness_free(&h);
}

static void test_escapes(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"name\":\"a\\\"b\\u00e9\\n\",\"ph\":\"X\",\"ts\":1,\"args\":{\"p\\u0061th\":\"C:\\\\x\"}}\n"),
                          &all_args, &h), SPOOR_OK);
    assert_string_equal(str(&h, h.table->name[0]), "a\"b\xc3\xa9\n");
    assert_string_equal(harness_cell(&h, "path", 0), "C:\\x");
    harness_free(&h);
}

static void test_huge_line_and_empty(void **state)
{
    enum { BIG = 10 << 20 };
    char *text = malloc(BIG + 256);
    size_t n = (size_t)sprintf(text, "{\"name\":\"big\",\"ph\":\"X\",\"ts\":7,\"args\":{\"blob\":\"");
    memset(text + n, 'a', BIG);
    n += BIG;
    n += (size_t)sprintf(text + n, "\"}}\n{\"name\":\"after\",\"ph\":\"X\",\"ts\":8}\n");
    struct harness h;
    assert_int_equal(load(text, n, &all_args, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    const struct spoor_column *blob = spoor_table_find_column(h.table, "blob");
    size_t len;
    spoor_strpool_get(h.table->pool, blob->str[0], &len);
    assert_int_equal(len, BIG);
    harness_free(&h);
    /* and a 10 MB line of garbage is one skip with a short detail */
    memset(text, 'x', BIG);
    text[BIG] = '\n';
    assert_int_equal(load(text, BIG + 1, &all_args, &h), SPOOR_OK);
    assert_int_equal(h.skips.total, 1);
    assert_true(strlen(h.skips.sample[0].detail) < 96);
    harness_free(&h);
    free(text);

    assert_int_equal(load("", 0, &all_args, &h), SPOOR_OK);
    assert_int_equal(h.lines, 0);
    assert_int_equal(h.table->nrows, 0);
    harness_free(&h);
}

/* Every prefix of some lines, each in a heap buffer of exactly its size, so
 * the sanitizer build catches any read past the end of a chunk. */
static void test_buffer_ends(void **state)
{
    const char *texts[] = {
        datacrumbs_2024, dftracer_2024, dftracer_2025, datacrumbs_cpp,
        "{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,                                                            ",
        "{\"name\":\"a\",\"ph\":\"X\",\"ts\":1234567890123456,\"args\":{\"s\":\"0123456789abcdef0123\"}}\n",
    };
    struct spoor_read_opts modes[] = {{.args = SPOOR_ARGS_ALL}, {.args = SPOOR_ARGS_NONE}};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        size_t len = strlen(texts[i]);
        for (size_t cut = 1; cut <= len; cut++) {
            char *buf = malloc(cut);
            memcpy(buf, texts[i], cut);
            for (size_t m = 0; m < 2; m++) {
                struct harness h;
                assert_int_equal(harness_load(&spoor_format_pfw, buf, cut, cut, 0, &modes[m], &h), SPOOR_OK);
                assert_true(h.table->nrows + h.skips.total <= h.lines);
                harness_free(&h);
            }
            free(buf);
        }
    }
}

static void test_args_modes(void **state)
{
    static const char *keys[] = {"fhash", "ret", "missing"};
    struct spoor_read_opts listed = {.args = SPOOR_ARGS_LISTED, .arg_keys = keys, .n_arg_keys = 3};
    struct spoor_read_opts none = {.args = SPOOR_ARGS_NONE};
    struct harness h;
    assert_int_equal(load(S(dftracer_2024), &listed, &h), SPOOR_OK);
    assert_non_null(spoor_table_find_column(h.table, "fhash"));
    assert_non_null(spoor_table_find_column(h.table, "ret"));
    assert_null(spoor_table_find_column(h.table, "hhash"));
    assert_null(spoor_table_find_column(h.table, "id"));
    assert_string_equal(harness_cell(&h, "ret", 4), "3107");
    /* lookups are filled in every mode */
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_FILE, "33084"), "/etc/x.conf");
    harness_free(&h);
    assert_int_equal(load(S(dftracer_2024), &none, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 0);
    assert_int_equal(h.table->nrows, 7);
    assert_string_equal(lookup(&h, SPOOR_LOOKUP_FILE, "33084"), "/etc/x.conf");
    harness_free(&h);
}

/* Loads text as is and with every line indented by one blank, which keeps
 * the fast tokenizer out; the tables must be the same. Also in small chunks. */
static void assert_paths_agree(const char *text, const struct spoor_read_opts *opts)
{
    size_t len = strlen(text);
    char *indented = malloc(2 * len + 2);
    size_t n = 0;
    indented[n++] = ' ';
    for (size_t i = 0; i < len; i++) {
        indented[n++] = text[i];
        if (text[i] == '\n' && i + 1 < len)
            indented[n++] = ' ';
    }
    struct harness fast, slow, chunked;
    assert_int_equal(harness_load(&spoor_format_pfw, text, len, len, 0, opts, &fast), SPOOR_OK);
    assert_int_equal(harness_load(&spoor_format_pfw, indented, n, n, 0, opts, &slow), SPOOR_OK);
    assert_int_equal(harness_load(&spoor_format_pfw, text, len, len, 100, opts, &chunked), SPOOR_OK);
    char why[256];
    if (!pfw_tables_equal(fast.table, slow.table, why, sizeof why))
        fail_msg("fast and tolerant paths differ: %s", why);
    if (!pfw_tables_equal(fast.table, chunked.table, why, sizeof why))
        fail_msg("chunking changes the table: %s", why);
    assert_int_equal(fast.skips.total, slow.skips.total);
    assert_int_equal(fast.lines, slow.lines);
    harness_free(&fast);
    harness_free(&slow);
    harness_free(&chunked);
    free(indented);
}

static void test_fast_and_tolerant_agree(void **state)
{
    static const char *keys[] = {"fhash", "hhash", "fname", "hostname", "size", "size_sum", "ret"};
    struct spoor_read_opts modes[] = {
        {.args = SPOOR_ARGS_ALL},
        {.args = SPOOR_ARGS_NONE},
        {.args = SPOOR_ARGS_LISTED, .arg_keys = keys, .n_arg_keys = 7},
    };
    const char *texts[] = {dftracer_2023, dftracer_2024, dftracer_2025, datacrumbs_2024, datacrumbs_profile,
                           datacrumbs_cpp, chrome};
    for (size_t m = 0; m < 3; m++)
        for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
            assert_paths_agree(texts[i], &modes[m]);
    /* lines the fast path reads by a learned shape, then lines that break it */
    assert_paths_agree("{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":{\"k\":\"v\",\"n\":3}}\n"
                       "{\"name\":\"a\",\"ph\":\"X\",\"ts\":10,\"dur\":20,\"args\":{\"k\":\"w\",\"n\":4}}\n"
                       "{\"name\":\"a\",\"ph\":\"X\",\"ts\":11,\"dur\":-2,\"args\":{\"k\":\"x\",\"n\":5.5}}\n"
                       "{\"name\":\"a\",\"ph\":\"X\",\"ts\":12,\"dur\":2,\"args\":{\"k\":7,\"n\":\"s\"}}\n"
                       "{\"name\":\"a\",\"ph\":\"X\",\"ts\":13,\"dur\":2,\"args\":{\"n\":3,\"k\":\"v\"}}\n"
                       "{\"name\":\"a\",\"ph\":\"X\",\"ts\":13,\"dur\":2,\"args\":{\"k\":\"v\",\"n\":3,\"z\":[1,{\"a\":\"]\"}]}}\n"
                       "{\"name\":\"a\",\"ph\":\"X\",\"ts\":1234567890123456789,\"dur\":2,\"args\":{}}\n"
                       "{\"name\":\"b\",\"ph\":\"X\",\"ts\":0001,\"dur\":2,\"args\":{\"t\":true,\"n\":null}}\n"
                       "{\"name\":\"b\",\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":{\"k\":\"a\",\"n\":\"x\"y\"}}\n",
                       &modes[0]);
    /* args as a string that starts like an object (found by the fuzzer);
     * lines follow so the fast path is not kept out by the buffer's end */
    assert_paths_agree("{\"name\":\"c\",\"ph\":\"M\",\"ts\":1,\"args\":\"{\"k\":54826312681618397557}}\n"
                       "{\"name\":\"c\",\"ph\":\"X\",\"ts\":1,\"args\":\"{not an object\"}\n"
                       "{\"name\":\"padding to keep the buffer end away\",\"ph\":\"X\",\"ts\":1}\n"
                       "{\"name\":\"padding to keep the buffer end away\",\"ph\":\"X\",\"ts\":2}\n",
                       &modes[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect_dialects),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_dftracer_2023),
        cmocka_unit_test(test_dftracer_2024_metadata),
        cmocka_unit_test(test_process_name_alone),
        cmocka_unit_test(test_dftracer_2025),
        cmocka_unit_test(test_datacrumbs_2024),
        cmocka_unit_test(test_datacrumbs_profile),
        cmocka_unit_test(test_datacrumbs_cpp),
        cmocka_unit_test(test_chrome_and_phases),
        cmocka_unit_test(test_structure_and_commas),
        cmocka_unit_test(test_skips_and_strict),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_huge_line_and_empty),
        cmocka_unit_test(test_buffer_ends),
        cmocka_unit_test(test_args_modes),
        cmocka_unit_test(test_fast_and_tolerant_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
