/* The loader: the table is the same for any thread count, chunk size and
 * compression; line numbers point at the right lines; --strict stops at the
 * first bad line with its absolute number; several inputs keep their sources;
 * a corrupt gzip member adds no row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "spoor/gen.h"
#include "spoor/load.h"
#include "test_io_kit.h"
#include "testutil.h"

static char plain[4096], gz[4096];

static int make_traces(void **state)
{
    struct spoor_gen_opts g = {.size_bytes = 6 << 20, .procs = 3, .seed = 11};
    struct spoor_gen_result res;
    struct spoor_error err;
    snprintf(plain, sizeof plain, "%s/t.pfw", testutil_tmpdir());
    snprintf(gz, sizeof gz, "%s/t.pfw.gz", testutil_tmpdir());
    if (spoor_gen_write(plain, &g, &res, &err) || spoor_gen_write(gz, &g, &res, &err)) {
        fprintf(stderr, "gen: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static struct spoor_table *load(const char *path, int threads, size_t chunk_size, bool no_index)
{
    struct spoor_load_opts opts = {.threads = threads};
    opts.read.args = SPOOR_ARGS_ALL;
    opts.input.chunk_size = chunk_size;
    opts.input.no_index = no_index;
    struct spoor_table *t = NULL;
    struct spoor_load_result res;
    struct spoor_error err;
    int st = spoor_load_table(&path, 1, &opts, &t, &res, &err);
    if (st)
        fprintf(stderr, "load: %s\n", err.msg);
    assert_int_equal(st, SPOOR_OK);
    assert_int_equal(res.inputs[0].skips.total, 0);
    spoor_load_result_free(&res);
    return t;
}

/* Equal as a user sees them: same rows, same strings, same columns by name.
 * (String ids may differ when batch boundaries differ.) */
static void assert_tables_equal(const struct spoor_table *a, const struct spoor_table *b)
{
    assert_int_equal(a->nrows, b->nrows);
    assert_int_equal(a->ncols, b->ncols);
    for (size_t r = 0; r < a->nrows; r++) {
        assert_int_equal(a->ts[r], b->ts[r]);
        assert_int_equal(a->dur[r], b->dur[r]);
        assert_int_equal(a->tid[r], b->tid[r]);
        assert_int_equal(a->line[r], b->line[r]);
        assert_string_equal(spoor_table_str(a, a->name[r]), spoor_table_str(b, b->name[r]));
        assert_string_equal(spoor_table_str(a, a->cat[r]), spoor_table_str(b, b->cat[r]));
    }
    for (size_t c = 0; c < a->ncols; c++) {
        const struct spoor_column *ca = &a->cols[c];
        const struct spoor_column *cb = spoor_table_find_column(b, spoor_table_str(a, ca->name));
        assert_non_null(cb);
        assert_int_equal(ca->type, cb->type);
        for (size_t r = 0; r < a->nrows; r++) {
            assert_int_equal(spoor_column_valid(ca, r), spoor_column_valid(cb, r));
            if (!spoor_column_valid(ca, r))
                continue;
            if (ca->type == SPOOR_STR)
                assert_string_equal(spoor_table_str(a, ca->str[r]), spoor_table_str(b, cb->str[r]));
            else
                assert_memory_equal(&ca->i64[r], &cb->i64[r], sizeof(int64_t));
        }
    }
}

static void test_same_table_for_any_threads_and_chunking(void **state)
{
    struct spoor_table *ref = load(plain, 1, 0, true);
    assert_true(ref->nrows > 10000);
    const size_t chunks[] = {0, 64 << 10, 1 << 20};
    for (int threads = 1; threads <= 4; threads++)
        for (size_t k = 0; k < 3; k++) {
            struct spoor_table *t = load(plain, threads, chunks[k], true);
            assert_tables_equal(ref, t);
            spoor_table_free(t);
        }
    /* gzip: cold (builds the index), then through the index, any threads. */
    for (int round = 0; round < 2; round++)
        for (int threads = 1; threads <= 3; threads++) {
            struct spoor_table *t = load(gz, threads, 256 << 10, false);
            assert_tables_equal(ref, t);
            spoor_table_free(t);
        }
    spoor_table_free(ref);
}

static void test_line_numbers_point_at_the_source(void **state)
{
    struct spoor_table *t = load(plain, 2, 64 << 10, true);
    FILE *f = fopen(plain, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    uint64_t n = 0;
    size_t r = 0;
    while (getline(&line, &cap, f) > 0 && r < t->nrows) {
        n++;
        if (t->line[r] != n)
            continue;
        /* The row's name appears in its source line as "name": "<name>". */
        char needle[256];
        snprintf(needle, sizeof needle, "\"name\": \"%s\"", spoor_table_str(t, t->name[r]));
        assert_non_null(strstr(line, needle));
        r++;
    }
    assert_int_equal(r, t->nrows);
    free(line);
    fclose(f);
    spoor_table_free(t);
}

static void test_strict_names_the_absolute_line(void **state)
{
    /* 20000 good lines then garbage: with small chunks the bad line lies in a
     * later chunk, so its number must come from the ordered merge. */
    size_t cap = 20001 * 120, len = 0;
    char *text = malloc(cap);
    for (int i = 0; i < 20000; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "{\"pid\": 1, \"tid\": 1, \"name\": \"read\", \"cat\": \"sys\", \"ph\": \"X\", "
                                "\"ts\": %d, \"dur\": 5}\n", i);
    len += (size_t)snprintf(text + len, cap - len, "garbage\n");
    const char *path = testutil_write("strict.pfw", text, len);
    free(text);
    struct spoor_load_opts opts = {.threads = 2};
    opts.read.strict = true;
    opts.input.chunk_size = 64 << 10;
    struct spoor_load_result res;
    struct spoor_error err;
    struct spoor_sink sink = {0};
    assert_int_equal(spoor_load(&path, 1, &opts, &sink, &res, &err), SPOOR_ESTRICT);
    assert_non_null(strstr(err.msg, "strict.pfw:20001:"));
    spoor_load_result_free(&res);

    opts.read.strict = false;
    assert_int_equal(spoor_load(&path, 1, &opts, &sink, &res, &err), SPOOR_OK);
    assert_int_equal(res.inputs[0].skips.total, 1);
    assert_int_equal(res.inputs[0].skips.sample[0].line, 20001);
    assert_int_equal(res.inputs[0].rows, 20000);
    spoor_load_result_free(&res);
}

static void test_several_inputs_keep_their_sources(void **state)
{
    const char *paths[] = {plain, gz};
    struct spoor_load_opts opts = {.threads = 2};
    struct spoor_table *t;
    struct spoor_load_result res;
    struct spoor_error err;
    assert_int_equal(spoor_load_table(paths, 2, &opts, &t, &res, &err), SPOOR_OK);
    assert_int_equal(res.ninputs, 2);
    assert_int_equal(t->nsources, 2);
    assert_int_equal(res.inputs[0].rows + res.inputs[1].rows, t->nrows);
    assert_string_equal(t->sources[t->src[0]], plain);
    assert_string_equal(t->sources[t->src[t->nrows - 1]], gz);
    spoor_table_free(t);
    spoor_load_result_free(&res);
}

static void test_missing_file_is_an_error(void **state)
{
    const char *path = "/nonexistent/trace.pfw";
    struct spoor_load_opts opts = {.threads = 1};
    struct spoor_load_result res;
    struct spoor_error err;
    struct spoor_sink sink = {0};
    assert_int_not_equal(spoor_load(&path, 1, &opts, &sink, &res, &err), SPOOR_OK);
    assert_non_null(strstr(err.msg, path));
    spoor_load_result_free(&res);
}

static uint64_t line_of(const char *text, size_t at)
{
    uint64_t n = 1;
    for (size_t i = 0; i < at; i++)
        n += text[i] == '\n';
    return n;
}

/* The plain trace as gzip members of 512 KiB of text; member 3's CRC and
 * member `last`'s deflate data damaged. Rows come only from the other
 * members: the clean table without the lines touching member 3 (counted as
 * skipped, numbers after them still true) and without anything from the
 * last member's first line on (its decoding broke off). */
static void test_corrupt_gzip_member_adds_no_rows(void **state)
{
    (void)state;
    FILE *f = fopen(plain, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)ftell(f);
    rewind(f);
    char *text = malloc(len);
    assert_int_equal(fread(text, 1, len, f), len);
    fclose(f);
    enum { PIECE = 512 << 10 };
    size_t n = (len + PIECE - 1) / PIECE, gz_len = 0, comp[64];
    assert_true(n > 5 && n < 64);
    unsigned char *gz = malloc(len + 4096 * n);
    for (size_t k = 0; k < n; k++) {
        size_t piece_len, at = k * PIECE;
        unsigned char *piece = kit_gzip(text + at, len - at < PIECE ? len - at : PIECE, 6, 0, &piece_len);
        comp[k] = gz_len;
        memcpy(gz + gz_len, piece, piece_len);
        gz_len += piece_len;
        free(piece);
    }
    comp[n] = gz_len;
    gz[comp[4] - 7] ^= 0x41;
    gz[(comp[n - 1] + comp[n]) / 2] ^= 0x41;
    gz[(comp[n - 1] + comp[n]) / 2 + 9] ^= 0x41;
    const char *path = testutil_write("damaged.pfw.gz", gz, gz_len);
    /* Lines [first, last] touch member 3; lines from `cut` on, the last member. */
    size_t at3 = 3 * PIECE, at4 = 4 * PIECE, at_last = (n - 1) * PIECE;
    uint64_t first = line_of(text, at3), last = line_of(text, at4 - 1), cut = line_of(text, at_last);
    /* The members are cut mid-line (the cut lines go with the damage). */
    assert_true(text[at3 - 1] != '\n' && text[at4 - 1] != '\n');

    struct spoor_table *ref = load(plain, 1, 0, true);
    for (int threads = 1; threads <= 3; threads += 2) {
        struct spoor_load_opts opts = {.threads = threads, .no_cache = true};
        opts.read.args = SPOOR_ARGS_ALL;
        opts.input.chunk_size = 256 << 10;
        struct spoor_table *t = NULL;
        struct spoor_load_result res;
        struct spoor_error err;
        assert_int_equal(spoor_load_table(&path, 1, &opts, &t, &res, &err), SPOOR_OK);
        size_t r = 0;
        for (size_t i = 0; i < ref->nrows && ref->line[i] < cut; i++) {
            if (ref->line[i] >= first && ref->line[i] <= last)
                continue;
            assert_true(r < t->nrows);
            assert_int_equal(t->line[r], ref->line[i]);
            assert_int_equal(t->ts[r], ref->ts[i]);
            assert_int_equal(t->dur[r], ref->dur[i]);
            assert_int_equal(t->pid[r], ref->pid[i]);
            assert_int_equal(t->tid[r], ref->tid[i]);
            assert_string_equal(spoor_table_str(t, t->name[r]), spoor_table_str(ref, ref->name[i]));
            r++;
        }
        assert_int_equal(r, t->nrows);
        const struct spoor_skips *sk = &res.inputs[0].skips;
        assert_string_equal(sk->reason[0], "corrupt gzip member");
        assert_true(sk->count[0] >= last - first + 1);
        assert_int_equal(sk->sample[0].line, first);
        char want[96];
        snprintf(want, sizeof want, "bytes %zu-%zu, checksum mismatch", comp[3], comp[4]);
        assert_string_equal(sk->sample[0].detail, want);
        assert_int_equal(sk->sample[1].line, cut);
        snprintf(want, sizeof want, "corrupt gzip member at bytes %zu-%zu (checksum mismatch): dropped %llu lines",
                 comp[3], comp[4], (unsigned long long)(last - first + 1));
        assert_non_null(strstr(res.inputs[0].warning, want));
        spoor_table_free(t);
        spoor_load_result_free(&res);

        opts.read.strict = true;
        assert_int_equal(spoor_load_table(&path, 1, &opts, &t, &res, &err), SPOOR_ESTRICT);
        snprintf(want, sizeof want, "damaged.pfw.gz:%llu: corrupt gzip member: bytes %zu-%zu",
                 (unsigned long long)first, comp[3], comp[4]);
        assert_non_null(strstr(err.msg, want));
        spoor_load_result_free(&res);
    }
    spoor_table_free(ref);
    free(gz);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_table_for_any_threads_and_chunking),
        cmocka_unit_test(test_line_numbers_point_at_the_source),
        cmocka_unit_test(test_strict_names_the_absolute_line),
        cmocka_unit_test(test_several_inputs_keep_their_sources),
        cmocka_unit_test(test_missing_file_is_an_error),
        cmocka_unit_test(test_corrupt_gzip_member_adds_no_rows),
    };
    return cmocka_run_group_tests(tests, make_traces, NULL);
}
