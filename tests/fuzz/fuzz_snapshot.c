/* Fuzzes the snapshot reader: the input is a snapshot file. The harness first
 * stamps it with the key it is opened with and recomputes the header's and
 * every in-bounds section's crc32, so mutations reach the section checks, and
 * also opens the bytes as they came. Opening, verifying, reading every row of
 * the verified table with every value and decoding the report must never
 * crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>

#include "read/load_snapshot.h"
#include "spoor/load.h"
#include "table/snapshot_format.h"
#include "util/bytes.h"
#include "table/snapshot.h"

static const struct spoor_snapshot_key KEY = {.trace = {.size = 1, .mtime_sec = 2, .mtime_nsec = 3}, .options = 4};


static void stamp(uint8_t *b, size_t len)
{
    if (len < SNAP_HEADER)
        return;
    memcpy(b, SNAP_MAGIC, 8);
    spoor_put32(b + 8, SNAP_VERSION);
    spoor_put32(b + 12, SNAP_BYTE_ORDER);
    memcpy(b + 16, &KEY.trace.size, 8);
    memcpy(b + 24, &KEY.trace.mtime_sec, 8);
    spoor_put32(b + 32, KEY.trace.mtime_nsec);
    spoor_put32(b + 36, KEY.trace.head_crc);
    spoor_put32(b + 40, KEY.trace.tail_crc);
    memcpy(b + 48, &KEY.options, 8);
    memcpy(b + 72, &KEY.trace.ctime_sec, 8);
    spoor_put32(b + 80, KEY.trace.ctime_nsec);
    memcpy(b + 88, &KEY.trace.inode, 8);
    uint64_t dir = spoor_get64(b + 56);
    if (dir < SNAP_HEADER || dir > len)
        return;
    uint64_t n = (len - dir) / SNAP_DIR_ENTRY;
    spoor_put32(b + 44, (uint32_t)n);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t *e = b + dir + i * SNAP_DIR_ENTRY;
        uint64_t off = spoor_get64(e + 8), slen = spoor_get64(e + 16);
        if (off <= len && slen <= len - off)
            spoor_put32(e + 4, crc32_gzip_refl(0, b + off, slen));
    }
    spoor_put32(b + 64, crc32_gzip_refl(crc32_gzip_refl(0, b, 64), b + dir, n * SNAP_DIR_ENTRY));
}

static volatile uint64_t sink; /* keeps the reads */

/* Reads every value a view exposes, as a consumer would. */
static void consume_view(struct spoor_table *b)
{
    for (size_t r = 0; r < b->nrows; r++) {
        sink += (uint64_t)b->ts[r] + (uint64_t)b->dur[r] + (uint64_t)b->pid[r] + (uint64_t)b->tid[r] + b->ph[r] +
                b->line[r] + strlen(b->sources[b->src[r]]);
        sink += strlen(spoor_table_str(b, b->name[r])) + strlen(spoor_table_str(b, b->cat[r]));
        for (size_t c = 0; c < b->ncols; c++) {
            const struct spoor_column *col = &b->cols[c];
            if (!spoor_column_valid(col, r))
                continue;
            sink += col->type == SPOOR_STR ? strlen(spoor_table_str(b, col->str[r])) : (uint64_t)col->i64[r];
        }
    }
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        for (size_t j = 0; j < b->lookups[k].n; j++)
            sink += strlen(spoor_table_str(b, spoor_lookup_get(&b->lookups[k], 0, b->lookups[k].keys[j],
                                                                                b->lookups[k].lines[j], NULL, NULL)));
    sink += spoor_table_find_column(b, "fname") != NULL;
    spoor_table_free(b);
}

/* The report, then the table cut into views of 64 rows (the unit slices keep). */
static void consume(const struct spoor_snapshot *s)
{
    size_t len;
    const uint8_t *report = spoor_snapshot_report(s, &len);
    struct spoor_input_report rep = {0};
    load_report_decode(report, len, &rep);
    free(rep.warning);
    free(rep.text);
    for (size_t first = 0; first < spoor_snapshot_rows(s); first += 64)
        consume_view(spoor_snapshot_view(s, first, 64, NULL));
}

/* Verifies the name column alone first, as a query reading only it would,
 * then everything, and reads every value once all checked out. */
static void open_and_read(const uint8_t *bytes, size_t size)
{
    struct spoor_snapshot *s = spoor_snapshot_parse(bytes, size, "trace", &KEY);
    if (!s)
        return;
    struct spoor_snapshot_need name = {.fixed = 1u << SPOOR_SNAP_NAME};
    if (spoor_snapshot_verify(s, &name) && spoor_snapshot_verify(s, NULL))
        consume(s);
    spoor_snapshot_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t *aligned = malloc((size / 8 + 1) * 8);
    uint8_t *bytes = (uint8_t *)aligned;
    memcpy(bytes, data, size);
    open_and_read(bytes, size);
    stamp(bytes, size);
    open_and_read(bytes, size);
    free(aligned);
    return 0;
}
