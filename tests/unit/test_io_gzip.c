/* gzip inputs: round trips at several zlib levels, multi-member files, one
 * big member, long lines; resuming from every checkpoint; truncated files
 * decoded as far as they go; damaged members dropped, and the rest read. */
#include "test_io_kit.h"

#include <unistd.h>

#include "io/stream.h"  /* IO_HOLD */
#include "io/input.h"

enum { SMALL_CHUNK = 64 * 1024 };

static const char *write_gz(const char *name, const char *text, size_t len, int level,
                            size_t member, size_t *gz_len)
{
    unsigned char *gz = kit_gzip(text, len, level, member, gz_len);
    const char *path = testutil_write(name, gz, *gz_len);
    free(gz);
    return path;
}

static size_t parts_of(const char *path, const struct spoor_input_opts *opts)
{
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, opts, &in, &err), SPOOR_OK);
    size_t n = spoor_input_plan(in, 2);
    spoor_input_close(in);
    return n;
}

/* Reads the file twice: the first read builds the index, the second uses it. */
static void round_trip(const char *name, int level, size_t member, size_t size, size_t chunk)
{
    size_t len, gz_len;
    char *text = kit_text(size, (uint32_t)level, 0, 0, &len);
    const char *path = write_gz(name, text, len, level, member, &gz_len);
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    struct spoor_input_opts opts = {.chunk_size = chunk};
    struct kit_read r;
    char warning[512];

    assert_int_equal(parts_of(copy, &opts), 1);
    kit_read_path(copy, &opts, &r, warning, sizeof warning);
    kit_assert_same(&r, text, len);
    assert_string_equal(r.warning, "");
    assert_string_equal(warning, "");
    kit_read_free(&r);

    size_t parts = parts_of(copy, &opts);
    assert_true(parts > 4);
    kit_read_path(copy, &opts, &r, NULL, 0);
    assert_int_equal(r.parts, parts);
    kit_assert_same(&r, text, len);
    assert_string_equal(r.warning, "");
    kit_read_free(&r);
    free(text);
}

static void test_levels(void **state)
{
    (void)state;
    round_trip("level1.gz", 1, 0, 3 << 20, SMALL_CHUNK);
    round_trip("level6.gz", 6, 0, 3 << 20, SMALL_CHUNK);
    round_trip("level9.gz", 9, 0, 3 << 20, SMALL_CHUNK);
}

static void test_multi_member(void **state)
{
    (void)state;
    round_trip("members.gz", 6, 100 * 1000, 3 << 20, SMALL_CHUNK);
    /* Members smaller than a chunk: many member ends inside one chunk. */
    round_trip("tiny-members.gz", 6, 5000, 1 << 20, SMALL_CHUNK);
}

static void test_single_big_member(void **state)
{
    (void)state;
    round_trip("big.gz", 6, 0, 24 << 20, 1 << 20);
}

/* Every part read on its own gives exactly its slice of the text, and its
 * first chunk knows its line number once the index has learnt it. */
static void test_each_checkpoint(void **state)
{
    (void)state;
    size_t len, gz_len;
    char *text = kit_text(4 << 20, 11, 0, 0, &len);
    const char *path = write_gz("each.gz", text, len, 6, 0, &gz_len);
    struct spoor_input_opts opts = {.chunk_size = SMALL_CHUNK};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    assert_int_equal(spoor_input_build_index(in, &err), SPOOR_OK);
    size_t parts = spoor_input_plan(in, 2);
    assert_true(parts > 20);
    struct spoor_chunk chunk = {0};
    uint64_t expect_offset = 0;
    /* Backwards, so no part benefits from state left by the one before. */
    for (size_t p = parts; p-- > 0;) {
        struct spoor_cursor *c;
        assert_int_equal(spoor_cursor_open(in, p, &c, &err), SPOOR_OK);
        int got;
        bool first = true;
        uint64_t start = 0, end = 0;
        while ((got = spoor_cursor_next(c, &chunk, &err)) > 0) {
            if (first) {
                start = chunk.offset;
                assert_int_equal(chunk.first_line, kit_count_lines(text, (size_t)start) + 1);
                first = false;
            }
            assert_int_equal(chunk.offset, end ? end : start);
            assert_memory_equal(chunk.data, text + chunk.offset, chunk.len);
            end = chunk.offset + chunk.len;
        }
        assert_int_equal(got, 0);
        assert_null(spoor_cursor_warning(c));
        spoor_cursor_close(c);
        assert_true(end > start);
        if (p + 1 < parts)
            assert_int_equal(end, expect_offset);
        else
            assert_int_equal(end, len);
        expect_offset = start;
    }
    assert_int_equal(expect_offset, 0);
    spoor_chunk_release(&chunk);
    spoor_input_close(in);
    free(text);
}

/* `spoor cat`'s entry point: start at or before a line, near it. */
static void test_open_at_line(void **state)
{
    (void)state;
    size_t len, gz_len;
    char *text = kit_text(2 << 20, 5, 0, 0, &len);
    const char *path = write_gz("at-line.gz", text, len, 6, 0, &gz_len);
    struct spoor_input_opts opts = {.chunk_size = SMALL_CHUNK};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    assert_int_equal(spoor_input_build_index(in, &err), SPOOR_OK);
    uint64_t total = kit_count_lines(text, len);
    const uint64_t wanted[] = {1, 2, total / 3, total / 2, total - 1, total};
    struct spoor_chunk chunk = {0};
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        struct spoor_cursor *c;
        uint64_t first = 0;
        assert_int_equal(spoor_cursor_open_at_line(in, wanted[i], &c, &first, &err), SPOOR_OK);
        assert_true(first >= 1 && first <= wanted[i]);
        if (wanted[i] > 10000)
            assert_true(wanted[i] - first < 10000);     /* near: one part's worth */
        assert_int_equal(spoor_cursor_next(c, &chunk, &err), 1);
        assert_int_equal(kit_count_lines(text, (size_t)chunk.offset) + 1, first);
        assert_memory_equal(chunk.data, text + chunk.offset, chunk.len);
        spoor_cursor_close(c);
    }
    spoor_chunk_release(&chunk);
    spoor_input_close(in);
    free(text);
}

static void test_long_lines(void **state)
{
    (void)state;
    size_t len, gz_len;
    /* Every 200th line is 150 KB: longer than the 64 KB chunks. */
    char *text = kit_text(4 << 20, 3, 200, 150 * 1000, &len);
    const char *path = write_gz("long.gz", text, len, 6, 0, &gz_len);
    struct spoor_input_opts opts = {.chunk_size = SMALL_CHUNK};
    struct kit_read r;
    kit_read_path(path, &opts, &r, NULL, 0);
    kit_assert_same(&r, text, len);
    kit_read_free(&r);
    kit_read_path(path, &opts, &r, NULL, 0);
    assert_true(r.parts > 1);
    kit_assert_same(&r, text, len);
    kit_read_free(&r);
    free(text);
}

static void test_head(void **state)
{
    (void)state;
    size_t len, gz_len;
    char *text = kit_text(300000, 8, 0, 0, &len);
    const char *path = write_gz("head.gz", text, len, 6, 1000, &gz_len);
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, NULL, &in, &err), SPOOR_OK);
    assert_int_equal(spoor_input_kind(in), SPOOR_INPUT_GZIP);
    assert_int_equal(spoor_input_size(in), gz_len);
    char head[70000];
    assert_int_equal(spoor_input_head(in, head, sizeof head), sizeof head);
    assert_memory_equal(head, text, sizeof head);
    spoor_input_close(in);
    free(text);
}

/* A crashed job's trace: everything up to the cut comes out, then a warning. */
static void test_truncated(void **state)
{
    (void)state;
    size_t len, gz_len;
    char *text = kit_text(2 << 20, 4, 0, 0, &len);
    unsigned char *gz = kit_gzip(text, len, 6, 0, &gz_len);
    size_t cut = gz_len * 6 / 10;
    const char *path = testutil_write("truncated.gz", gz, cut);

    /* What zlib can decode from the same bytes. */
    z_stream z = {0};
    char *ref = malloc(len);
    assert_int_equal(inflateInit2(&z, 31), Z_OK);
    z.next_in = gz;
    z.avail_in = (uInt)cut;
    z.next_out = (Bytef *)ref;
    z.avail_out = (uInt)len;
    inflate(&z, Z_SYNC_FLUSH);
    size_t decodable = z.total_out;
    inflateEnd(&z);

    struct spoor_input_opts opts = {.chunk_size = SMALL_CHUNK};
    struct kit_read r;
    kit_read_path(path, &opts, &r, NULL, 0);
    assert_int_equal(r.status, SPOOR_OK);
    char expect[64];
    snprintf(expect, sizeof expect, "truncated at byte %zu", cut);
    assert_string_equal(r.warning, expect);
    assert_true(r.len + 1024 >= decodable);
    assert_true(r.len <= decodable);
    assert_memory_equal(r.data, text, r.len);
    kit_read_free(&r);

    /* Cut inside the gzip header and inside the trailer. */
    kit_read_path(testutil_write("header-cut.gz", gz, 5), &opts, &r, NULL, 0);
    assert_int_equal(r.len, 0);
    assert_string_equal(r.warning, "truncated at byte 5");
    kit_read_free(&r);
    kit_read_path(testutil_write("trailer-cut.gz", gz, gz_len - 3), &opts, &r, NULL, 0);
    assert_int_equal(r.len, len);
    assert_non_null(strstr(r.warning, "truncated"));
    kit_read_free(&r);
    free(ref);
    free(gz);
    free(text);
}

/* A gzip file of n members, each a slice of text (cut anywhere, or after a
 * newline when line_aligned): where each starts on disk and in the text. */
struct members {
    unsigned char *gz;
    size_t gz_len, n;
    size_t comp[17], text_at[17];      /* [n] is the end */
};

static void make_members(struct members *m, const char *text, size_t len, size_t n, bool line_aligned)
{
    assert_true(n < 17);
    m->n = n;
    m->gz = malloc(len + 4096 * n);
    m->gz_len = 0;
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        size_t end = k + 1 == n ? len : len / n * (k + 1);
        if (line_aligned && k + 1 < n)
            end = (size_t)((const char *)memchr(text + end, '\n', len - end) - text) + 1;
        size_t piece;
        unsigned char *gz = kit_gzip(text + at, end - at, 6, 0, &piece);
        m->comp[k] = m->gz_len;
        m->text_at[k] = at;
        memcpy(m->gz + m->gz_len, gz, piece);
        m->gz_len += piece;
        free(gz);
        at = end;
    }
    m->comp[n] = m->gz_len;
    m->text_at[n] = len;
}

enum damage { IN_DEFLATE, IN_CRC, IN_ISIZE, IN_HEADER };

/* A copy of the file with member k damaged. */
static unsigned char *damage(const struct members *m, size_t k, enum damage how)
{
    unsigned char *bad = malloc(m->gz_len);
    memcpy(bad, m->gz, m->gz_len);
    size_t at = how == IN_CRC ? m->comp[k + 1] - 7
              : how == IN_ISIZE ? m->comp[k + 1] - 2
              : how == IN_HEADER ? m->comp[k] + 1
              : (m->comp[k] + m->comp[k + 1]) / 2;
    for (int i = 0; i < (how == IN_DEFLATE ? 8 : 1); i++)
        bad[at + (size_t)i * 7] ^= 0x41;
    return bad;
}

static size_t line_start(const char *text, size_t at)
{
    while (at > 0 && text[at - 1] != '\n')
        at--;
    return at;
}

static size_t line_end(const char *text, size_t len, size_t at)
{
    const char *nl = memchr(text + at, '\n', len - at);
    return nl ? (size_t)(nl - text) + 1 : len;
}

/* What was read is the text without the lines that touch member k's slice:
 * exactly those when its decoded output was whole (a damaged trailer), else
 * possibly one line more after it (the decoding broke off mid-line, so the
 * first line of the next member may be the rest of a cut one). */
static void assert_member_dropped(const struct kit_read *r, const char *text, size_t len,
                                  const struct members *m, size_t k, bool exact)
{
    assert_int_equal(r->status, SPOOR_OK);
    size_t from = line_start(text, m->text_at[k]);
    size_t to = m->text_at[k + 1] == len ? len : line_end(text, len, m->text_at[k + 1] - 1);
    assert_true(r->len >= from);
    assert_memory_equal(r->data, text, from);
    size_t rest = len - (r->len - from);
    if (!(rest == to || (!exact && rest == line_end(text, len, to))))
        fail_msg("member %zu: read resumes at text byte %zu, want %zu", k, rest, to);
    assert_memory_equal(r->data + from, text + rest, r->len - from);
    assert_int_equal(r->drops, 1);
    char want[128];
    snprintf(want, sizeof want, "corrupt gzip member at bytes %zu-%zu (", m->comp[k], m->comp[k + 1]);
    if (strstr(r->warning, want) != r->warning)
        fail_msg("warning '%s' lacks '%s'", r->warning, want);
    if (exact)
        assert_int_equal(r->dropped_lines, kit_count_lines(text + from, to - from));
}

static void read_damaged(const struct members *m, size_t k, enum damage how, size_t chunk,
                         struct kit_read *r)
{
    unsigned char *bad = damage(m, k, how);
    struct spoor_input_opts opts = {.chunk_size = chunk};
    kit_read_path(testutil_write("damaged.gz", bad, m->gz_len), &opts, r, NULL, 0);
    free(bad);
}

/* No line of a damaged member comes out, whatever the damage and wherever
 * the member; the members after it are read. */
static void test_damaged_member_dropped(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(2 << 20, 6, 0, 0, &len);
    const size_t chunks[] = {SMALL_CHUNK, 1 << 20};
    for (int aligned = 0; aligned < 2; aligned++) {
        struct members m;
        make_members(&m, text, len, 8, aligned);
        for (size_t c = 0; c < 2; c++)
            for (size_t k = 0; k < m.n; k += 3) {
                /* (A first member without its magic makes no gzip file.) */
                for (int how = IN_DEFLATE; how <= (k ? IN_HEADER : IN_ISIZE); how++) {
                    struct kit_read r;
                    read_damaged(&m, k, (enum damage)how, chunks[c], &r);
                    assert_member_dropped(&r, text, len, &m, k, how == IN_CRC || how == IN_ISIZE);
                    kit_read_free(&r);
                }
            }
        free(m.gz);
    }
    free(text);
}

/* Members far smaller than a chunk: the drop falls inside the chunk being
 * decoded; and two damaged members in one file. */
static void test_damaged_small_members(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(120000, 2, 0, 0, &len);
    struct members m;
    make_members(&m, text, len, 16, false);
    for (size_t k = 0; k < m.n; k += 5) {
        struct kit_read r;
        read_damaged(&m, k, IN_CRC, SMALL_CHUNK, &r);
        assert_member_dropped(&r, text, len, &m, k, true);
        kit_read_free(&r);
    }
    unsigned char *bad = damage(&m, 4, IN_CRC);
    bad[(m.comp[9] + m.comp[10]) / 2] ^= 0x41;
    struct spoor_input_opts opts = {.chunk_size = SMALL_CHUNK};
    struct kit_read r;
    kit_read_path(testutil_write("twice.gz", bad, m.gz_len), &opts, &r, NULL, 0);
    assert_int_equal(r.status, SPOOR_OK);
    assert_int_equal(r.drops, 2);
    size_t from = line_start(text, m.text_at[4]);
    assert_memory_equal(r.data, text, from);
    assert_true(r.len < len - (m.text_at[5] - m.text_at[4]) - (m.text_at[10] - m.text_at[9]));
    assert_memory_equal(r.data + r.len - (len - m.text_at[11]), text + m.text_at[11], len - m.text_at[11]);
    assert_non_null(strstr(r.warning, "and 1 more damaged stretches"));
    kit_read_free(&r);
    free(bad);
    free(m.gz);
    free(text);
}

/* One member: damage anywhere drops all of it, the lines decoded before the
 * damage was found included. */
static void test_damaged_single_member(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(2 << 20, 6, 0, 0, &len);
    struct members m;
    make_members(&m, text, len, 1, false);
    for (int how = IN_DEFLATE; how <= IN_ISIZE; how++) {
        struct kit_read r;
        read_damaged(&m, 0, (enum damage)how, SMALL_CHUNK, &r);
        assert_int_equal(r.status, SPOOR_OK);
        assert_int_equal(r.len, 0);
        assert_int_equal(r.drops, 1);
        assert_true(r.dropped_lines > 0);
        char want[96];
        snprintf(want, sizeof want, "corrupt gzip member at bytes 0-%zu (", m.gz_len);
        assert_ptr_equal(strstr(r.warning, want), r.warning);
        kit_read_free(&r);
    }
    free(m.gz);
    free(text);
}

/* A member larger than what is held back goes out before its check; damage
 * found in it after that is a hard error, not a warning over invented lines. */
static void test_damaged_huge_member_fails(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(IO_HOLD + (2 << 20), 6, 0, 0, &len);
    struct members m;
    make_members(&m, text, len, 1, false);
    struct kit_read r;
    read_damaged(&m, 0, IN_CRC, 1 << 20, &r);
    assert_int_equal(r.status, SPOOR_EFORMAT);
    assert_non_null(strstr(r.error, "corrupt gzip member at bytes 0-"));
    assert_non_null(strstr(r.error, "cannot be taken back"));
    assert_true(r.len > 0 && r.len < len);
    assert_memory_equal(r.data, text, r.len);
    kit_read_free(&r);
    free(m.gz);
    free(text);
}

/* The head used to detect the format leaves a damaged first member out. */
static void test_head_skips_damaged_member(void **state)
{
    (void)state;
    size_t len;
    char *text = kit_text(300000, 8, 0, 0, &len);
    size_t cut = line_end(text, len, 1000), first, second;
    unsigned char *a = kit_gzip(text, cut, 6, 0, &first);
    unsigned char *b = kit_gzip(text + cut, len - cut, 6, 0, &second);
    unsigned char *both = malloc(first + second);
    memcpy(both, a, first);
    memcpy(both + first, b, second);
    both[first - 6] ^= 0x41;     /* the first member's CRC */
    const char *path = testutil_write("head-damaged.gz", both, first + second);
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, NULL, &in, &err), SPOOR_OK);
    char head[4096];
    assert_int_equal(spoor_input_head(in, head, sizeof head), sizeof head);
    assert_memory_equal(head, text + cut, sizeof head);
    spoor_input_close(in);
    free(both);
    free(a);
    free(b);
    free(text);
}

static void test_trailing_bytes(void **state)
{
    (void)state;
    size_t len, gz_len;
    char *text = kit_text(200000, 9, 0, 0, &len);
    unsigned char *gz = kit_gzip(text, len, 6, 0, &gz_len);
    unsigned char *padded = calloc(1, gz_len + 4096);
    memcpy(padded, gz, gz_len);
    struct kit_read r;
    kit_read_path(testutil_write("zeros.gz", padded, gz_len + 4096), NULL, &r, NULL, 0);
    kit_assert_same(&r, text, len);
    assert_string_equal(r.warning, "ignored 4096 bytes of zero padding after the last gzip member");
    kit_read_free(&r);

    memcpy(padded + gz_len, "garbage!", 8);
    kit_read_path(testutil_write("garbage.gz", padded, gz_len + 8), NULL, &r, NULL, 0);
    kit_assert_same(&r, text, len);
    char expect[128];
    snprintf(expect, sizeof expect,
             "ignored 8 bytes of trailing garbage after the last gzip member at byte %zu", gz_len);
    assert_string_equal(r.warning, expect);
    kit_read_free(&r);
    free(padded);
    free(gz);
    free(text);
}

static void test_empty_member(void **state)
{
    (void)state;
    size_t gz_len;
    unsigned char *gz = kit_gzip("", 0, 6, 0, &gz_len);
    struct kit_read r;
    kit_read_path(testutil_write("empty.gz", gz, gz_len), NULL, &r, NULL, 0);
    assert_int_equal(r.status, SPOOR_OK);
    assert_int_equal(r.len, 0);
    assert_string_equal(r.warning, "");
    kit_read_free(&r);
    free(gz);
}

/* The compressed side is mapped a bounded window at a time, so a huge .gz
 * neither becomes resident nor takes address space: in the middle of a long
 * read (the first, index-building scan) and in each part read with the index. */
static void test_releases_consumed_pages(void **state)
{
    (void)state;
    size_t len, gz_len;
    char *text = kit_text(120 << 20, 7, 0, 0, &len);
    const char *path = write_gz("release.gz", text, len, 1, 0, &gz_len);
    free(text);
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    assert_true(gz_len > (32u << 20)); /* ~3:1 */
    for (int pass = 0; pass < 2; pass++) {
        struct spoor_input *in;
        struct spoor_error err;
        assert_int_equal(spoor_input_open(copy, NULL, &in, &err), SPOOR_OK);
        size_t parts = spoor_input_plan(in, 2);
        assert_true(pass == 0 ? parts == 1 : parts > 1);
        struct spoor_chunk chunk = {0};
        long peak_kb = 0;
        uint64_t line = 1;
        for (size_t p = 0; p < parts; p++) {
            struct spoor_cursor *c = NULL;
            assert_int_equal(spoor_cursor_open(in, p, &c, &err), SPOOR_OK);
            while (spoor_cursor_next(c, &chunk, &err) > 0) {
                spoor_input_note_line(in, chunk.offset, line);
                line += kit_count_lines(chunk.data, chunk.len);
                long kb = kit_mapped_rss_kb(copy);
                peak_kb = kb > peak_kb ? kb : peak_kb;
            }
            spoor_cursor_close(c);
        }
        spoor_chunk_release(&chunk);
        /* the compressed bytes are mapped a window (8 MiB) at a time, never whole */
        assert_true(peak_kb <= 9 << 10);
        const char *warning;
        assert_int_equal(spoor_input_finish(in, &warning, &err), SPOOR_OK);
        spoor_input_close(in);
    }
}

/* A .gz truncated to `keep` bytes while it is read (a job restarted, log
 * rotation): the read fails naming both sizes, and nothing crashes. */
static void shrink_while_read(const char *name, long keep_from_end, size_t keep)
{
    size_t len, gz_len;
    char *text = kit_text(8 << 20, 9, 0, 0, &len);
    const char *path = write_gz(name, text, len, 1, 0, &gz_len);
    free(text);
    assert_true(gz_len > (2u << 20));
    if (keep_from_end)
        keep = gz_len - (size_t)keep_from_end;
    struct spoor_input_opts opts = {.chunk_size = SMALL_CHUNK, .no_index = true};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    struct spoor_cursor *c;
    struct spoor_chunk chunk = {0};
    assert_int_equal(spoor_cursor_open(in, 0, &c, &err), SPOOR_OK);
    assert_int_equal(spoor_cursor_next(c, &chunk, &err), 1);
    assert_int_equal(truncate(path, (off_t)keep), 0);
    int got;
    while ((got = spoor_cursor_next(c, &chunk, &err)) > 0)
        ;
    assert_true(got < 0);
    char want[4400];
    snprintf(want, sizeof want, "%s: shrank from %zu to %zu bytes while being read", path, gz_len, keep);
    assert_string_equal(err.msg, want);
    spoor_chunk_release(&chunk);
    spoor_cursor_close(c);
    spoor_input_close(in);
}

static void test_shrinks_while_read(void **state)
{
    (void)state;
    shrink_while_read("shrinks.gz", 0, 100000);
}

/* Cut within its last page: the mapping reads zeros there, no SIGBUS. */
static void test_shrinks_within_last_page(void **state)
{
    (void)state;
    shrink_while_read("shrinks-little.gz", 100, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_multi_member),
        cmocka_unit_test(test_single_big_member),
        cmocka_unit_test(test_each_checkpoint),
        cmocka_unit_test(test_open_at_line),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_head),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_damaged_member_dropped),
        cmocka_unit_test(test_damaged_small_members),
        cmocka_unit_test(test_damaged_single_member),
        cmocka_unit_test(test_damaged_huge_member_fails),
        cmocka_unit_test(test_head_skips_damaged_member),
        cmocka_unit_test(test_trailing_bytes),
        cmocka_unit_test(test_empty_member),
        cmocka_unit_test(test_releases_consumed_pages),
        cmocka_unit_test(test_shrinks_while_read),
        cmocka_unit_test(test_shrinks_within_last_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
