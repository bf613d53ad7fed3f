/* Checking a snapshot costs one pass over its bytes: sections are taken in
 * order by up to two threads; each walks its section in blocks small enough to
 * stay in cache, so the id max-reduction reads what the crc just loaded. */
#include "table/snapshot_check.h"
#include "util/parallel.h"

#include <isa-l/crc.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    BLOCK = 128 << 10,          /* bytes per crc + max step (a multiple of 4) */
    LANES = 16,                 /* independent maxima: one or two vector registers */
    PARALLEL_BYTES = 4 << 20,   /* below this a second thread costs more than it saves */
};

uint32_t snap_max_id(const uint32_t *ids, size_t n)
{
    uint32_t lane[LANES] = {0};
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int j = 0; j < LANES; j++)
            lane[j] = ids[i + j] > lane[j] ? ids[i + j] : lane[j];
    uint32_t m = 0;
    for (; i < n; i++)
        m = ids[i] > m ? ids[i] : m;
    for (int j = 0; j < LANES; j++)
        m = lane[j] > m ? lane[j] : m;
    return m;
}

void snap_release_pages(const uint8_t *p, uint64_t len)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1), to = ((uintptr_t)p + len) & ~(page - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);
}

static void check_one(struct snap_check *c)
{
    uint32_t crc = 0, max = 0;
    for (uint64_t at = 0; at < c->len; at += BLOCK) {
        uint64_t len = c->len - at < BLOCK ? c->len - at : BLOCK;
        crc = crc32_gzip_refl(crc, c->p + at, len);
        if (c->ids) {
            uint32_t m = snap_max_id((const uint32_t *)(c->p + at), len / 4);
            max = m > max ? m : max;
        }
        if (c->release)
            snap_release_pages(c->p + at, len);
    }
    c->ok = crc == c->crc && (!c->ids || c->len % 4 == 0);
    c->max_id = max;
}

static void check_task(void *ctx, size_t task, int worker)
{
    (void)worker;
    check_one((struct snap_check *)ctx + task);
}

bool snap_check_sections(struct snap_check *c, size_t n)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += c[i].len;
    spoor_parallel_for(n, bytes >= PARALLEL_BYTES ? 2 : 1, check_task, c);
    for (size_t i = 0; i < n; i++)
        if (!c[i].ok)
            return false;
    return true;
}
