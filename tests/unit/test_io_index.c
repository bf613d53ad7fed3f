/* The checkpoint index sidecar: written after the first full read, used by
 * the next, rebuilt when the trace changes, ignored when it belongs to
 * another file or is damaged, never a source of wrong data; a read-only
 * directory only costs a warning. */
#include "test_io_kit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/index_file.h"
#include "io/internal.h"
#include "io/input.h"

enum { CHUNK = 64 * 1024 };
/* Offsets in the sidecar format (src/io/index_file.c). */
enum { SIDECAR_HEADER = 96, SIDECAR_RECORD = 56, RECORD_CRC = 32 };

static const struct spoor_input_opts opts = {.chunk_size = CHUNK};

struct fixture {
    char *text;
    size_t len;
    char path[4096];
    char sidecar[4200];
};

static void make(struct fixture *f, const char *name, uint32_t seed)
{
    f->text = kit_text(2 << 20, seed, 0, 0, &f->len);
    size_t gz_len;
    unsigned char *gz = kit_gzip(f->text, f->len, 6, 0, &gz_len);
    snprintf(f->path, sizeof f->path, "%s", testutil_write(name, gz, gz_len));
    spoor_index_path(f->path, f->sidecar, sizeof f->sidecar);
    unlink(f->sidecar);
    free(gz);
}

static size_t parts_of(const char *path, const struct spoor_input_opts *o)
{
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, o, &in, &err), SPOOR_OK);
    size_t n = spoor_input_plan(in, 2);
    spoor_input_close(in);
    return n;
}

static void read_ok(const struct fixture *f, char *finish_warning, size_t cap)
{
    struct kit_read r;
    kit_read_path(f->path, &opts, &r, finish_warning, cap);
    kit_assert_same(&r, f->text, f->len);
    assert_string_equal(r.warning, "");
    kit_read_free(&r);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *len = (size_t)ftell(fp);
    rewind(fp);
    uint8_t *bytes = malloc(*len);
    assert_int_equal(fread(bytes, 1, *len, fp), *len);
    fclose(fp);
    return bytes;
}

static void spill(const char *path, const void *bytes, size_t len)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(bytes, 1, len, fp), len);
    fclose(fp);
}

static void test_written_then_used(void **state)
{
    (void)state;
    struct fixture f;
    make(&f, "used.gz", 1);
    char warning[512];
    read_ok(&f, warning, sizeof warning);
    assert_string_equal(warning, "");
    assert_true(exists(f.sidecar));
    size_t parts = parts_of(f.path, &opts);
    assert_true(parts > 10);
    read_ok(&f, NULL, 0);
    /* The index does not depend on the chunk size it was built with. */
    struct spoor_input_opts other = {.chunk_size = 1000};
    assert_int_equal(parts_of(f.path, &other), parts);
    free(f.text);
}

static void test_touched_trace_rebuilds(void **state)
{
    (void)state;
    struct fixture f;
    make(&f, "touched.gz", 2);
    read_ok(&f, NULL, 0);
    assert_true(parts_of(f.path, &opts) > 1);
    struct timespec times[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    assert_int_equal(utimensat(AT_FDCWD, f.path, times, 0), 0);
    assert_int_equal(parts_of(f.path, &opts), 1);     /* stale: read sequentially */
    read_ok(&f, NULL, 0);                               /* ... and rebuilt */
    assert_true(parts_of(f.path, &opts) > 1);
    read_ok(&f, NULL, 0);
    free(f.text);
}

static void test_replaced_trace(void **state)
{
    (void)state;
    struct fixture f, g;
    make(&f, "replaced.gz", 3);
    read_ok(&f, NULL, 0);
    /* Same name, other content: the old index is ignored, then rebuilt. */
    make(&g, "other.gz", 4);
    size_t len;
    uint8_t *bytes = slurp(g.path, &len);
    spill(f.path, bytes, len);
    free(bytes);
    free(f.text);
    f.text = g.text;
    f.len = g.len;
    assert_int_equal(parts_of(f.path, &opts), 1);
    read_ok(&f, NULL, 0);
    assert_true(parts_of(f.path, &opts) > 1);
    read_ok(&f, NULL, 0);
    free(g.text);
}

static void test_index_of_another_file(void **state)
{
    (void)state;
    struct fixture f, g;
    make(&f, "first.gz", 5);
    make(&g, "second.gz", 6);
    read_ok(&f, NULL, 0);
    size_t len;
    uint8_t *bytes = slurp(f.sidecar, &len);
    spill(g.sidecar, bytes, len);
    free(bytes);
    assert_int_equal(parts_of(g.path, &opts), 1);
    read_ok(&g, NULL, 0);
    free(f.text);
    free(g.text);
}

static void test_damaged_sidecar_ignored(void **state)
{
    (void)state;
    struct fixture f;
    make(&f, "damaged.gz", 7);
    read_ok(&f, NULL, 0);
    size_t len;
    uint8_t *good = slurp(f.sidecar, &len);
    uint8_t *bad = malloc(len);
    const size_t flips[] = {0, 9, 20, SIDECAR_HEADER + 3, len / 2, len - 1};
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        memcpy(bad, good, len);
        bad[flips[i]] ^= 0x40;
        spill(f.sidecar, bad, len);
        assert_int_equal(parts_of(f.path, &opts), 1);
    }
    spill(f.sidecar, good, len / 3);                    /* cut short */
    assert_int_equal(parts_of(f.path, &opts), 1);
    spill(f.sidecar, "", 0);                            /* empty */
    assert_int_equal(parts_of(f.path, &opts), 1);
    read_ok(&f, NULL, 0);                               /* rebuilt */
    assert_true(parts_of(f.path, &opts) > 1);
    free(good);
    free(bad);
    free(f.text);
}

/* A sidecar that passes every identity and checksum test but lies: the
 * decoder's CRC check at the next checkpoint catches it, the read fails with
 * an error and the sidecar is removed, so a wrong answer never completes. */
static void test_lying_sidecar(void **state)
{
    (void)state;
    struct fixture f;
    make(&f, "lying.gz", 8);
    read_ok(&f, NULL, 0);
    size_t len;
    uint8_t *good = slurp(f.sidecar, &len);
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(f.path, &opts, &in, &err), SPOOR_OK);
    struct spoor_fingerprint fp = in->fp;
    spoor_input_close(in);

    uint8_t *bad = malloc(len);
    memcpy(bad, good, len);
    bad[SIDECAR_HEADER + 3 * SIDECAR_RECORD + RECORD_CRC] ^= 1;
    io_index_stamp(bad, len, &fp);
    spill(f.sidecar, bad, len);
    struct kit_read r;
    kit_read_path(f.path, &opts, &r, NULL, 0);
    assert_int_equal(r.status, SPOOR_EFORMAT);
    assert_non_null(strstr(r.error, "does not match"));
    assert_memory_equal(r.data, f.text, r.len);
    assert_false(exists(f.sidecar));
    kit_read_free(&r);

    /* Damage inside the snapshots: an error or the right bytes, never a crash
     * (with one chunk per part, no damaged chunk gets out either). */
    size_t blobs = SIDECAR_HEADER + (size_t)(good[44] | good[45] << 8) * SIDECAR_RECORD;
    uint32_t x = 12345;
    for (int round = 0; round < 40; round++) {
        memcpy(bad, good, len);
        for (int i = 0; i < 1 + round % 4; i++) {
            x = x * 1103515245 + 12345;
            bad[blobs + x % (len - 4 - blobs)] ^= (uint8_t)(1 + (x >> 24) % 255);
        }
        io_index_stamp(bad, len, &fp);
        spill(f.sidecar, bad, len);
        kit_read_path(f.path, &opts, &r, NULL, 0);
        if (r.status == SPOOR_OK)
            kit_assert_same(&r, f.text, f.len);
        else
            assert_memory_equal(r.data, f.text, r.len);
        kit_read_free(&r);
    }
    free(good);
    free(bad);
    free(f.text);
}

static void test_read_only_directory(void **state)
{
    (void)state;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/ro", testutil_tmpdir());
    assert_int_equal(mkdir(dir, 0755), 0);
    size_t len, gz_len;
    char *text = kit_text(2 << 20, 9, 0, 0, &len);
    unsigned char *gz = kit_gzip(text, len, 6, 0, &gz_len);
    char path[4300], sidecar[4400];
    snprintf(path, sizeof path, "%s/trace.gz", dir);
    spill(path, gz, gz_len);
    spoor_index_path(path, sidecar, sizeof sidecar);
    assert_int_equal(chmod(dir, 0555), 0);

    struct kit_read r;
    char warning[512];
    kit_read_path(path, &opts, &r, warning, sizeof warning);
    kit_assert_same(&r, text, len);
    assert_non_null(strstr(warning, "cannot write the checkpoint index (read-only directory)"));
    assert_non_null(strstr(warning, "reading without it"));
    assert_false(exists(sidecar));
    kit_read_free(&r);

    assert_int_equal(chmod(dir, 0755), 0);
    free(gz);
    free(text);
}

static void test_no_index_option(void **state)
{
    (void)state;
    struct fixture f;
    make(&f, "noindex.gz", 10);
    struct spoor_input_opts off = {.chunk_size = CHUNK, .no_index = true};
    struct kit_read r;
    kit_read_path(f.path, &off, &r, NULL, 0);
    kit_assert_same(&r, f.text, f.len);
    kit_read_free(&r);
    assert_false(exists(f.sidecar));
    read_ok(&f, NULL, 0);
    assert_true(exists(f.sidecar));
    assert_int_equal(parts_of(f.path, &off), 1);    /* there, but not read */
    free(f.text);
}

/* Line numbers noted during a read reach the sidecar, so a later open at a
 * line starts near it instead of at the top. */
static void test_lines_noted(void **state)
{
    (void)state;
    struct fixture f;
    make(&f, "lines.gz", 11);
    read_ok(&f, NULL, 0);
    uint64_t total = kit_count_lines(f.text, f.len);
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(f.path, &opts, &in, &err), SPOOR_OK);
    struct spoor_cursor *c;
    uint64_t first;
    assert_int_equal(spoor_cursor_open_at_line(in, total - 5, &c, &first, &err), SPOOR_OK);
    assert_true(first > total / 2 && first <= total - 5);
    struct spoor_chunk chunk = {0};
    assert_int_equal(spoor_cursor_next(c, &chunk, &err), 1);
    assert_int_equal(kit_count_lines(f.text, (size_t)chunk.offset) + 1, first);
    spoor_chunk_release(&chunk);
    spoor_cursor_close(c);
    spoor_input_close(in);
    free(f.text);
}

/* Low-entropy lines: compress far better than kit_text's. */
static char *repetitive_text(size_t size, size_t *len)
{
    char *out = malloc(size + 256);
    size_t n = 0;
    for (size_t i = 0; n < size; i++)
        n += (size_t)sprintf(out + n,
                             "{\"id\":%zu,\"name\":\"read\",\"cat\":\"POSIX\",\"pid\":7,\"tid\":%zu,"
                             "\"ts\":%zu,\"dur\":%zu}\n",
                             i, i % 4, 1000000 + i * 10, i % 97);
    *len = n;
    return out;
}

static void check_size(const char *name, char *text, size_t len)
{
    size_t gz_len;
    unsigned char *gz = kit_gzip(text, len, 6, 0, &gz_len);
    const char *path = testutil_write(name, gz, gz_len);
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, NULL, &in, &err), SPOOR_OK);
    assert_int_equal(spoor_input_build_index(in, &err), SPOOR_OK);
    assert_true(spoor_input_plan(in, 2) >= 3);
    spoor_input_close(in);
    char sidecar[4200];
    spoor_index_path(path, sidecar, sizeof sidecar);
    struct stat st;
    assert_int_equal(stat(sidecar, &st), 0);
    print_message("%s: %zu bytes gzip (%.1f:1), index %lld bytes = %.2f%%\n", name, gz_len,
                  (double)len / (double)gz_len, (long long)st.st_size,
                  100.0 * (double)st.st_size / (double)gz_len);
    assert_true((double)st.st_size < 0.02 * (double)gz_len);
    free(gz);
    free(text);
}

static void test_index_size(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(24 << 20, 12, 0, 0, &len);
    check_size("random.gz", text, len);
    text = repetitive_text(96 << 20, &len);
    check_size("repetitive.gz", text, len);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_then_used),
        cmocka_unit_test(test_touched_trace_rebuilds),
        cmocka_unit_test(test_replaced_trace),
        cmocka_unit_test(test_index_of_another_file),
        cmocka_unit_test(test_damaged_sidecar_ignored),
        cmocka_unit_test(test_lying_sidecar),
        cmocka_unit_test(test_read_only_directory),
        cmocka_unit_test(test_no_index_option),
        cmocka_unit_test(test_lines_noted),
        cmocka_unit_test(test_index_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
