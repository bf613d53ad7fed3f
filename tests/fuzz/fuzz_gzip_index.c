/* Fuzzes gzip reading together with the checkpoint index sidecar. Input:
 * one knob byte, a 4-byte little-endian length n, n bytes of trace (usually
 * gzip), then the sidecar's bytes. The harness stamps the sidecar with the
 * trace's real identity and checksum, so mutations reach the checkpoint
 * records and snapshots. Reading every part, a line seek and the head must
 * never crash, and a clean read must give the same bytes as a read without
 * the index. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/index_file.h"
#include "io/internal.h"
#include "spoor/load.h"
#include "io/input.h"

static void spill(const char *path, const uint8_t *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(bytes, 1, len, f) != len) || fclose(f) != 0)
        abort();
}

/* Everything the input delivers, part after part; NULL on a hard error. */
static char *read_all(struct spoor_input *in, size_t *len)
{
    size_t cap = 1 << 16;
    char *out = malloc(cap);
    *len = 0;
    struct spoor_chunk chunk = {0};
    struct spoor_error err;
    size_t parts = spoor_input_plan(in, 2);
    bool failed = false;
    for (size_t p = 0; p < parts && !failed; p++) {
        struct spoor_cursor *c;
        if (spoor_cursor_open(in, p, &c, &err) != SPOOR_OK) {
            failed = true;
            break;
        }
        int got;
        while ((got = spoor_cursor_next(c, &chunk, &err)) > 0) {
            if (chunk.offset != *len)
                abort();
            while (*len + chunk.len > cap)
                out = realloc(out, cap *= 2);
            memcpy(out + *len, chunk.data, chunk.len);
            *len += chunk.len;
            spoor_input_note_line(in, chunk.offset, 1 + p);
        }
        failed = got < 0;
        spoor_cursor_close(c);
    }
    spoor_chunk_release(&chunk);
    if (failed) {
        free(out);
        return NULL;
    }
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    uint8_t knobs = data[0];
    size_t n = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16 | (size_t)data[4] << 24;
    data += 5;
    size -= 5;
    if (n > size)
        n = size;
    static char trace[64], sidecar[128];
    if (!trace[0])
        snprintf(trace, sizeof trace, "/tmp/fuzz_gzip_index-%d.gz", (int)getpid());
    spoor_index_path(trace, sidecar, sizeof sidecar);
    spill(trace, data, n);
    unlink(sidecar);

    static const size_t chunks[] = {4096, 16384, 65536, 1 << 20};
    struct spoor_input_opts plain_opts = {.chunk_size = chunks[knobs & 3], .no_index = true};
    struct spoor_input *in;
    struct spoor_error err;
    if (spoor_input_open(trace, &plain_opts, &in, &err) != SPOOR_OK)
        abort();
    size_t want_len = 0;
    char *want = read_all(in, &want_len);
    struct spoor_fingerprint fp = in->fp;
    spoor_input_close(in);

    if (size > n) {
        uint8_t *index = malloc(size - n);
        memcpy(index, data + n, size - n);
        io_index_stamp(index, size - n, &fp);
        spill(sidecar, index, size - n);
        free(index);
    }
    struct spoor_input_opts opts = {.chunk_size = chunks[(knobs >> 2) & 3]};
    if (spoor_input_open(trace, &opts, &in, &err) != SPOOR_OK)
        abort();
    char head[4096];
    spoor_input_head(in, head, sizeof head);
    size_t got_len = 0;
    char *got = read_all(in, &got_len);
    if (got && want && (got_len != want_len || memcmp(got, want, got_len) != 0) &&
        spoor_input_plan(in, 2) == 1)
        abort();    /* without a (usable) index both reads are the same sequential read */
    struct spoor_cursor *c;
    uint64_t first;
    if (spoor_cursor_open_at_line(in, 1 + knobs, &c, &first, &err) == SPOOR_OK) {
        struct spoor_chunk chunk = {0};
        while (spoor_cursor_next(c, &chunk, &err) > 0)
            ;
        spoor_chunk_release(&chunk);
        spoor_cursor_close(c);
    }
    const char *warning;
    spoor_input_finish(in, &warning, &err);
    spoor_input_close(in);
    free(got);
    free(want);
    return 0;
}
