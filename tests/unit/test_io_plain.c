/* Plain and zstd inputs, open errors, and the shared sample traces: parts
 * of plain files hold the lines that start in them; zstd frames follow one
 * another; a too-long line is an error naming its byte. */
#include "test_io_kit.h"
#include "io/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

static void test_plain_parts(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(1 << 20, 1, 0, 0, &len);
    const char *path = testutil_write("plain.pfw", text, len);
    struct spoor_input_opts opts = {.chunk_size = 64 * 1024};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    assert_int_equal(spoor_input_kind(in), SPOOR_INPUT_PLAIN);
    size_t parts = spoor_input_plan(in, 1);
    assert_true(parts >= 15 && parts <= 17);    /* ~1 MiB / 64 KiB, whatever the threads */
    assert_int_equal(spoor_input_plan(in, 8), parts);
    struct kit_read r;
    kit_read_input(in, &r);
    kit_assert_same(&r, text, len);
    assert_true(r.chunks == parts || r.chunks == parts - 1); /* the last may hold no line start */
    kit_read_free(&r);

    /* A part is one chunk, a window of the file mapped for it alone, from
     * the first line start in the part. */
    struct spoor_cursor *c;
    struct spoor_chunk chunk = {0};
    assert_int_equal(spoor_cursor_open(in, 3, &c, &err), SPOOR_OK);
    assert_int_equal(spoor_cursor_next(c, &chunk, &err), 1);
    assert_non_null(chunk.map);
    assert_true(chunk.data >= (char *)chunk.map && chunk.data + chunk.len <= (char *)chunk.map + chunk.map_len);
    assert_true(chunk.offset >= 3 * 64 * 1024 && chunk.offset < 3 * 64 * 1024 + 200);
    assert_int_equal(text[chunk.offset - 1], '\n');
    assert_memory_equal(chunk.data, text + chunk.offset, chunk.len);
    assert_int_equal(chunk.first_line, 0);
    assert_int_equal(spoor_cursor_next(c, &chunk, &err), 0);
    spoor_cursor_close(c);
    spoor_chunk_release(&chunk);
    assert_int_equal(spoor_cursor_open(in, parts, &c, &err), SPOOR_EUSAGE);
    spoor_input_close(in);
    free(text);
}

static void test_plain_edges(void **state)
{
    (void)state;
    struct spoor_input_opts opts = {.chunk_size = 16};
    struct kit_read r;
    kit_read_path(testutil_write("no-newline.txt", "aa\nbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\ncc", 40), &opts,
                  &r, NULL, 0);
    kit_assert_same(&r, "aa\nbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\ncc", 40);
    assert_int_equal(r.unterminated, 1);
    kit_read_free(&r);

    kit_read_path(testutil_write("empty.txt", "", 0), NULL, &r, NULL, 0);
    assert_int_equal(r.status, SPOOR_OK);
    assert_int_equal(r.len, 0);
    assert_int_equal(r.parts, 1);
    kit_read_free(&r);

    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(testutil_write("head.txt", "abc\n", 4), NULL, &in, &err), SPOOR_OK);
    char head[16];
    assert_int_equal(spoor_input_head(in, head, sizeof head), 4);
    assert_memory_equal(head, "abc\n", 4);
    spoor_input_close(in);
}

/* A line past 256 MiB: an error naming where it starts. The file is sparse
 * (zeros, no newline), so this costs little disk. */
static void test_line_cap(void **state)
{
    (void)state;
    const char *path = testutil_write("huge-line.txt", "first\n", 6);
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)300 << 20), 0);
    close(fd);
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, NULL, &in, &err), SPOOR_OK);
    struct spoor_cursor *c;
    struct spoor_chunk chunk = {0};
    int got = 1;
    for (size_t p = 0; p < spoor_input_plan(in, 1) && got >= 0; p++) {
        assert_int_equal(spoor_cursor_open(in, p, &c, &err), SPOOR_OK);
        while ((got = spoor_cursor_next(c, &chunk, &err)) > 0)
            ;
        spoor_cursor_close(c);
    }
    assert_true(got < 0);
    assert_int_equal(err.code, SPOOR_EFORMAT);
    assert_non_null(strstr(err.msg, "the line at byte 6 is longer than 256 MiB"));
    spoor_input_close(in);
}

/* A file truncated while it is read: a chunk already mapped reads zeros past
 * the new end instead of raising SIGBUS, and the cursor's next call, and any
 * later part, fail naming both sizes. */
static void test_shrinks_while_read(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(1 << 20, 3, 0, 0, &len);
    const char *path = testutil_write("shrinks.pfw", text, len);
    free(text);
    struct spoor_input_opts opts = {.chunk_size = 256 * 1024};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    struct spoor_cursor *c;
    struct spoor_chunk chunk = {0};
    assert_int_equal(spoor_cursor_open(in, 1, &c, &err), SPOOR_OK);
    assert_int_equal(spoor_cursor_next(c, &chunk, &err), 1);
    assert_non_null(chunk.map);
    assert_int_equal(truncate(path, 300000), 0);
    unsigned sum = 0;
    for (size_t i = 0; i < chunk.len; i++)     /* past byte 300000: SIGBUS without the guard */
        sum += (unsigned char)((volatile const char *)chunk.data)[i];
    assert_true(sum > 0);
    char want[4400];
    snprintf(want, sizeof want, "%s: shrank from %zu to 300000 bytes while being read", path, len);
    assert_true(spoor_cursor_next(c, &chunk, &err) < 0);
    assert_string_equal(err.msg, want);
    spoor_cursor_close(c);
    assert_int_equal(spoor_cursor_open(in, 3, &c, &err), SPOOR_OK);
    assert_true(spoor_cursor_next(c, &chunk, &err) < 0);
    assert_string_equal(err.msg, want);
    spoor_cursor_close(c);
    spoor_chunk_release(&chunk);
    spoor_input_close(in);
}

/* Bytes appended while a file is read (a trace still being written) are
 * left for the next run: what is read is the file as it was at open. */
static void test_grows_while_read(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(600 * 1024, 5, 0, 0, &len);
    const char *path = testutil_write("grows.pfw", text, len);
    struct spoor_input_opts opts = {.chunk_size = 64 * 1024};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("{\"appended\":1}\n", f);
    fclose(f);
    struct kit_read r;
    kit_read_input(in, &r);
    kit_assert_same(&r, text, len);
    kit_read_free(&r);
    spoor_input_close(in);
    free(text);
}

static void expect_open_error(const char *path, const char *what)
{
    struct spoor_input *in = NULL;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, NULL, &in, &err), SPOOR_EIO);
    assert_null(in);
    char want[8448]; /* room for any path (4200) and the reason: gcc -O3 checks */
    snprintf(want, sizeof want, "%s: %s", path, what);
    assert_string_equal(err.msg, want);
}

static void test_open_errors(void **state)
{
    (void)state;
    char path[4200];
    snprintf(path, sizeof path, "%s/missing.pfw.gz", testutil_tmpdir());
    expect_open_error(path, "no such file");
    expect_open_error(testutil_tmpdir(), "is a directory");
    if (geteuid() != 0) {   /* root reads anything */
        const char *locked = testutil_write("locked.pfw", "x\n", 2);
        chmod(locked, 0);
        expect_open_error(locked, "permission denied");
    }
}

static unsigned char *zstd_frames(const char *text, size_t len, size_t frame, size_t *out_len)
{
    size_t cap = ZSTD_compressBound(len) + 64 * (len / frame + 1);
    unsigned char *out = malloc(cap);
    size_t n = 0;
    for (size_t at = 0; at < len; at += frame) {
        size_t piece = len - at < frame ? len - at : frame;
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);   /* as the zstd tool does */
        size_t z = ZSTD_compress2(cctx, out + n, cap - n, text + at, piece);
        ZSTD_freeCCtx(cctx);
        assert_false(ZSTD_isError(z));
        n += z;
    }
    *out_len = n;
    return out;
}

static void test_zstd(void **state)
{
    (void)state;
    size_t len, z_len;
    char *text = kit_text(3 << 20, 2, 0, 0, &len);
    struct spoor_input_opts opts = {.chunk_size = 128 * 1024};
    struct kit_read r;
    const size_t frames[] = {len, 100 * 1000};
    for (size_t i = 0; i < 2; i++) {
        unsigned char *z = zstd_frames(text, len, frames[i], &z_len);
        const char *path = testutil_write("trace.zst", z, z_len);
        kit_read_path(path, &opts, &r, NULL, 0);
        assert_int_equal(r.parts, 1);
        kit_assert_same(&r, text, len);
        assert_string_equal(r.warning, "");
        assert_true(r.chunks > 20);
        kit_read_free(&r);

        struct spoor_input *in;
        struct spoor_error err;
        assert_int_equal(spoor_input_open(path, NULL, &in, &err), SPOOR_OK);
        assert_int_equal(spoor_input_kind(in), SPOOR_INPUT_ZSTD);
        char head[1000];
        assert_int_equal(spoor_input_head(in, head, sizeof head), sizeof head);
        assert_memory_equal(head, text, sizeof head);
        spoor_input_close(in);

        /* Cut short: what decodes comes out, then a warning. */
        kit_read_path(testutil_write("cut.zst", z, z_len / 2), &opts, &r, NULL, 0);
        assert_int_equal(r.status, SPOOR_OK);
        char expect[64];
        snprintf(expect, sizeof expect, "truncated at byte %zu", z_len / 2);
        assert_string_equal(r.warning, expect);
        assert_true(r.len > len / 3);
        assert_memory_equal(r.data, text, r.len);
        kit_read_free(&r);

        z[z_len / 2] ^= 0xff;
        z[z_len / 2 + 1] ^= 0xff;
        kit_read_path(testutil_write("bad.zst", z, z_len), &opts, &r, NULL, 0);
        assert_int_equal(r.status, SPOOR_OK);
        assert_non_null(strstr(r.warning, "corrupt zstd data"));
        kit_read_free(&r);
        free(z);
    }
    free(text);
}

/* The shared samples: line counts as zcat | wc -l sees them. */
static void expect_lines(const char *name, uint64_t lines, char last)
{
    const char *path = testutil_data(name);
    struct spoor_input_opts opts = {.chunk_size = 256 * 1024};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    struct kit_read r;
    kit_read_input(in, &r);
    spoor_input_close(in);   /* not finished: nothing is written next to shared data */
    assert_int_equal(r.status, SPOOR_OK);
    assert_string_equal(r.warning, "");
    assert_int_equal(kit_count_lines(r.data, r.len), lines);
    assert_int_equal(r.data[r.len - 1], last);
    kit_read_free(&r);
}

static void test_shared_samples(void **state)
{
    (void)state;
    expect_lines("pfw/dftracer-dlio-pytorch-2023.pfw.gz", 93895, '\n');
    expect_lines("pfw/dftracer-cm1-2024-rank0.pfw.gz", 8792 + 1, ']');
    expect_lines("pfw/datacrumbs-trace-2024.pfw.gz", 2883, '\n');
    expect_lines("pfw/dftracer-quoted-2023.pfw.gz", 1013, '\n');
    expect_lines("pfw/datacrumbs-profile-2024.pfw", 5613, '\n');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_parts),
        cmocka_unit_test(test_plain_edges),
        cmocka_unit_test(test_line_cap),
        cmocka_unit_test(test_shrinks_while_read),
        cmocka_unit_test(test_grows_while_read),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_zstd),
        cmocka_unit_test(test_shared_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
