/* Helpers for the io tests: trace-like text, gzip files made with zlib, and
 * reading an input back part by part while checking the chunk contract. */
#ifndef SPOOR_TEST_IO_KIT_H
#define SPOOR_TEST_IO_KIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "spoor/load.h"
#include "testutil.h"
#include "io/input.h"

/* About `size` bytes of JSON lines with random hex (compresses ~3.5:1); line
 * `long_every` (if nonzero) is padded to `long_len` bytes. */
static inline char *kit_text(size_t size, uint32_t seed, size_t long_every, size_t long_len,
                             size_t *len)
{
    char *out = malloc(size + long_len + 512);
    size_t n = 0;
    uint64_t x = seed * 2654435761u + 1;
    for (size_t line = 1; n < size; line++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        n += (size_t)sprintf(out + n,
                             "{\"id\":%zu,\"name\":\"read\",\"ts\":%llu,\"args\":{\"hash\":\"%016llx\"",
                             line, (unsigned long long)(x >> 20), (unsigned long long)x);
        if (long_every && line % long_every == 0)
            while (n < size + long_len && n % long_len != 0)
                out[n++] = 'x';
        n += (size_t)sprintf(out + n, "}}\n");
    }
    *len = n;
    return out;
}

/* gzip of data with zlib at `level`, as one member or as members of
 * `member` input bytes each. */
static inline unsigned char *kit_gzip(const void *data, size_t len, int level, size_t member,
                                      size_t *out_len)
{
    size_t cap = len + len / 100 + 1024 * (len / (member ? member : len + 1) + 2);
    unsigned char *out = malloc(cap);
    size_t n = 0, at = 0;
    do {
        size_t piece = member && len - at > member ? member : len - at;
        z_stream z = {0};
        assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
        z.next_in = (Bytef *)data + at;
        z.avail_in = (uInt)piece;
        z.next_out = out + n;
        z.avail_out = (uInt)(cap - n);
        assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
        n += z.total_out;
        deflateEnd(&z);
        at += piece;
    } while (at < len);
    *out_len = n;
    return out;
}

static inline uint64_t kit_count_lines(const char *p, size_t len)
{
    uint64_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += p[i] == '\n';
    return n + (len > 0 && p[len - 1] != '\n');
}

struct kit_read {
    char *data;             /* everything delivered, in order */
    size_t len;
    size_t parts, chunks;
    size_t unterminated;    /* chunks not ending with a newline (only the last may) */
    size_t drops;           /* chunks that came after a dropped damaged stretch */
    uint64_t dropped_lines; /* ... and the lines they say were dropped */
    char warning[512];      /* the first cursor warning, or "" */
    int status;             /* first hard error, or SPOOR_OK */
    char error[1024];
};

/* Reads every part of an open input in order, asserting that chunks are
 * contiguous and line-aligned. */
static inline void kit_read_input(struct spoor_input *in, struct kit_read *r)
{
    memset(r, 0, sizeof *r);
    size_t cap = 1 << 20;
    r->data = malloc(cap);
    r->parts = spoor_input_plan(in, 2);
    struct spoor_chunk chunk = {0};
    struct spoor_error err;
    uint64_t line = 1;
    for (size_t p = 0; p < r->parts && r->status == SPOOR_OK; p++) {
        struct spoor_cursor *c = NULL;
        r->status = spoor_cursor_open(in, p, &c, &err);
        int got = 0;
        while (r->status == SPOOR_OK && (got = spoor_cursor_next(c, &chunk, &err)) > 0) {
            assert_int_equal(chunk.offset, r->len);
            r->drops += chunk.dropped.why != NULL;
            r->dropped_lines += chunk.dropped.lines;
            if (chunk.len == 0) {   /* only to tell of a drop */
                assert_non_null(chunk.dropped.why);
                continue;
            }
            assert_int_equal(r->unterminated, 0);
            r->unterminated += chunk.data[chunk.len - 1] != '\n';
            if (chunk.len + r->len > cap) {
                while (chunk.len + r->len > cap)
                    cap *= 2;
                r->data = realloc(r->data, cap);
            }
            memcpy(r->data + r->len, chunk.data, chunk.len);
            r->len += chunk.len;
            r->chunks++;
            /* As the loader does: line numbers reach the index in order. */
            spoor_input_note_line(in, chunk.offset, line);
            line += kit_count_lines(chunk.data, chunk.len) - (chunk.data[chunk.len - 1] != '\n');
        }
        if (got < 0)
            r->status = err.code;
        if (r->status != SPOOR_OK)
            snprintf(r->error, sizeof r->error, "%s", err.msg);
        if (c && spoor_cursor_warning(c) && !r->warning[0])
            snprintf(r->warning, sizeof r->warning, "%s", spoor_cursor_warning(c));
        spoor_cursor_close(c);
    }
    spoor_chunk_release(&chunk);
}

/* Opens path, reads it all and finishes (the index is written then). */
static inline void kit_read_path(const char *path, const struct spoor_input_opts *opts,
                                 struct kit_read *r, char *finish_warning, size_t cap)
{
    struct spoor_input *in = NULL;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, opts, &in, &err), SPOOR_OK);
    kit_read_input(in, r);
    const char *warning = NULL;
    assert_int_equal(spoor_input_finish(in, &warning, &err), SPOOR_OK);
    if (finish_warning)
        snprintf(finish_warning, cap, "%s", warning ? warning : "");
    spoor_input_close(in);
}

/* Resident KiB of this process's mappings of the file at path, from
 * /proc/self/smaps (each mapping's header line, then its Rss line). */
static inline long kit_mapped_rss_kb(const char *path)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[4096], perms[8];
    unsigned long from, to;
    long kb, total = 0;
    bool in_file = false;
    size_t plen = strlen(path);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        size_t n = strlen(line);
        if (sscanf(line, "%lx-%lx %7s", &from, &to, perms) == 3)
            in_file = n >= plen && strcmp(line + n - plen, path) == 0;
        else if (in_file && sscanf(line, "Rss: %ld kB", &kb) == 1)
            total += kb;
    }
    fclose(f);
    return total;
}

static inline void kit_read_free(struct kit_read *r)
{
    free(r->data);
    r->data = NULL;
}

/* The input read back without error and byte for byte as expected. */
static inline void kit_assert_same(const struct kit_read *r, const char *want, size_t want_len)
{
    assert_int_equal(r->status, SPOOR_OK);
    assert_int_equal(r->len, want_len);
    assert_memory_equal(r->data, want, want_len);
}

#endif
