/* Saving and loading ISA-L's inflate state (see gzip_snapshot.h for why).
 *
 * Snapshot bytes: read_in (8), read_in_length (4), total_out (4), then the
 * struct from lit_huff_code up to tmp_out_buffer (tables, block state,
 * counters), then tmp_out_buffer[0 .. tmp_out_valid) (history + pending). */
#include "io/gzip_snapshot.h"

#include <isa-l.h>
#include <string.h>
#include <zlib.h>

#define REGION_START offsetof(struct inflate_state, lit_huff_code)
#define REGION_END offsetof(struct inflate_state, tmp_out_buffer)
enum { SCALARS = 16, FIXED = SCALARS + REGION_END - REGION_START };

/* ISA-L's packing of its decode tables (igzip_inflate.c and the decoder
 * assembly in 2.30). The layout number includes the version, so an index made
 * with another ISA-L is never loaded. */
enum {
    LARGE_SYM_MASK = (1 << 25) - 1,
    LARGE_FLAG = 1 << 25,
    LARGE_COUNT_SHIFT = 26,
    LARGE_LEN_SHIFT = 28,
    LARGE_MAX_LEN_SHIFT = 26,
    LARGE_LONG_SYM_MASK = (1 << 10) - 1,
    LARGE_LONG_LEN_SHIFT = 10,
    SMALL_SYM_MASK = (1 << 9) - 1,
    SMALL_FLAG = 1 << 10,
    SMALL_LEN_SHIFT = 11,
    SMALL_LONG_LEN_SHIFT = 10,
    DIST_SYM_MASK = (1 << 5) - 1,
    MAX_LIT_LEN_SYM = 512,      /* 257..512 are lengths 3..258 */
    MAX_LIT_CODE_LEN = 21,      /* 15-bit code + 5 length extra bits, expanded */
    MAX_DIST_CODE_LEN = 15,
    DIST_SYMBOLS = 30,
};

uint32_t io_snapshot_layout(void)
{
    const uint32_t facts[] = {
        ISAL_VERSION,
        (uint32_t)sizeof(struct inflate_state),
        (uint32_t)REGION_START,
        (uint32_t)REGION_END,
        (uint32_t)offsetof(struct inflate_state, dist_huff_code),
        (uint32_t)offsetof(struct inflate_state, block_state),
        (uint32_t)offsetof(struct inflate_state, tmp_out_valid),
        ISAL_DECODE_LONG_BITS,
        ISAL_DECODE_SHORT_BITS,
        0x01020304,             /* byte order */
    };
    return (uint32_t)crc32(0, (const Bytef *)facts, sizeof facts);
}

static bool lit_long_valid(const struct inflate_huff_code_large *t, uint32_t first, uint32_t n)
{
    const uint32_t size = sizeof t->long_code_lookup / sizeof t->long_code_lookup[0];
    if (first > size || n > size - first)
        return false;
    for (uint32_t i = first; i < first + n; i++) {
        uint16_t v = t->long_code_lookup[i];
        if ((v >> LARGE_LONG_LEN_SHIFT) && (v & LARGE_LONG_SYM_MASK) > MAX_LIT_LEN_SYM)
            return false;
    }
    return true;
}

/* Literal/length table: a short entry is up to three symbols (only the last
 * may be a length or end of block) or a pointer into the long table. */
static bool lit_table_valid(const struct inflate_huff_code_large *t)
{
    for (uint32_t i = 0; i < (1u << ISAL_DECODE_LONG_BITS); i++) {
        uint32_t e = t->short_code_lookup[i];
        if (e & LARGE_FLAG) {
            uint32_t max_len = e >> LARGE_MAX_LEN_SHIFT;
            if (max_len <= ISAL_DECODE_LONG_BITS || max_len > MAX_LIT_CODE_LEN ||
                !lit_long_valid(t, e & LARGE_SYM_MASK, 1u << (max_len - ISAL_DECODE_LONG_BITS)))
                return false;
        } else if (e >> LARGE_LEN_SHIFT) {
            uint32_t count = (e >> LARGE_COUNT_SHIFT) & 3;
            if (count == 0 || ((e & LARGE_SYM_MASK) >> (8 * (count - 1))) > MAX_LIT_LEN_SYM)
                return false;
        }
    }
    return true;
}

static bool dist_long_valid(const struct inflate_huff_code_small *t, uint32_t first, uint32_t n)
{
    const uint32_t size = sizeof t->long_code_lookup / sizeof t->long_code_lookup[0];
    if (first > size || n > size - first)
        return false;
    for (uint32_t i = first; i < first + n; i++) {
        uint16_t v = t->long_code_lookup[i];
        if ((v >> SMALL_LONG_LEN_SHIFT) && (v & DIST_SYM_MASK) >= DIST_SYMBOLS)
            return false;
    }
    return true;
}

static bool dist_table_valid(const struct inflate_huff_code_small *t)
{
    for (uint32_t i = 0; i < (1u << ISAL_DECODE_SHORT_BITS); i++) {
        uint16_t e = t->short_code_lookup[i];
        if (e & SMALL_FLAG) {
            uint32_t max_len = (uint32_t)e >> SMALL_LEN_SHIFT;
            if (max_len <= ISAL_DECODE_SHORT_BITS || max_len > MAX_DIST_CODE_LEN ||
                !dist_long_valid(t, e & SMALL_SYM_MASK, 1u << (max_len - ISAL_DECODE_SHORT_BITS)))
                return false;
        } else if ((e >> SMALL_LEN_SHIFT) && (e & DIST_SYM_MASK) >= DIST_SYMBOLS) {
            return false;
        }
    }
    return true;
}

bool io_snapshot_valid(const struct inflate_state *s)
{
    if (s->read_in_length < 0 || s->read_in_length > 64)
        return false;
    if (s->read_in_length < 64 && (s->read_in >> s->read_in_length) != 0)
        return false;
    /* INPUT_DONE: the member's last block is decoded but some of its output
     * still waits in tmp_out_buffer; the trailer follows. */
    if (s->block_state != ISAL_BLOCK_NEW_HDR && s->block_state != ISAL_BLOCK_CODED &&
        s->block_state != ISAL_BLOCK_TYPE0 && s->block_state != ISAL_BLOCK_INPUT_DONE)
        return false;
    if (s->block_state == ISAL_BLOCK_TYPE0 && (s->type0_block_len < 0 || s->type0_block_len > 65535))
        return false;
    if (s->bfinal > 1 || s->crc_flag != ISAL_GZIP || s->wrapper_flag != 1 ||
        s->hist_bits > ISAL_DEF_MAX_HIST_BITS || s->dict_length > ISAL_DEF_HIST_SIZE)
        return false;
    if (s->write_overflow_len != 0 || s->copy_overflow_length != 0 || s->tmp_in_size != 0)
        return false;
    if (s->tmp_out_processed < 0 || s->tmp_out_valid < s->tmp_out_processed ||
        (size_t)s->tmp_out_valid > sizeof s->tmp_out_buffer)
        return false;
    if (s->block_state == ISAL_BLOCK_CODED &&
        (!lit_table_valid(&s->lit_huff_code) || !dist_table_valid(&s->dist_huff_code)))
        return false;
    return true;
}

size_t io_snapshot_min_size(void) { return FIXED; }

size_t io_snapshot_max_size(void)
{
    return FIXED + sizeof(((struct inflate_state *)0)->tmp_out_buffer);
}

size_t io_snapshot_size(const struct inflate_state *s)
{
    return FIXED + (size_t)s->tmp_out_valid;
}

void io_snapshot_save(const struct inflate_state *s, uint8_t *dst)
{
    int32_t read_in_length = s->read_in_length;
    memcpy(dst, &s->read_in, 8);
    memcpy(dst + 8, &read_in_length, 4);
    memcpy(dst + 12, &s->total_out, 4);
    memcpy(dst + SCALARS, (const uint8_t *)s + REGION_START, REGION_END - REGION_START);
    memcpy(dst + FIXED, s->tmp_out_buffer, (size_t)s->tmp_out_valid);
}

bool io_snapshot_load(struct inflate_state *s, const uint8_t *src, size_t len)
{
    if (len < FIXED)
        return false;
    isal_inflate_init(s);
    memcpy(&s->read_in, src, 8);
    memcpy(&s->read_in_length, src + 8, 4);
    memcpy(&s->total_out, src + 12, 4);
    memcpy((uint8_t *)s + REGION_START, src + SCALARS, REGION_END - REGION_START);
    if (s->tmp_out_valid < 0 || (size_t)s->tmp_out_valid > sizeof s->tmp_out_buffer ||
        len != FIXED + (size_t)s->tmp_out_valid)
        return false;
    memcpy(s->tmp_out_buffer, src + FIXED, (size_t)s->tmp_out_valid);
    return io_snapshot_valid(s);
}

size_t io_snapshot_history(const struct inflate_state *s)
{
    size_t n = (size_t)s->tmp_out_processed;
    return n < ISAL_DEF_HIST_SIZE ? n : ISAL_DEF_HIST_SIZE;
}

const uint8_t *io_snapshot_tail(const struct inflate_state *s, size_t n)
{
    return s->tmp_out_buffer + s->tmp_out_processed - n;
}
