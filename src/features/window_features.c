/* The window features of block requests (window_features.h), shared word for
 * word by libspoor and the kernel module: declarations at the top of blocks
 * (the kernel's -Wdeclaration-after-statement), no division instruction. */
#include "window_features.h"

enum {
    SECTOR_SHIFT_BITS = 9,          /* 512-byte sectors */
    JUMP_SECTORS = 2048,            /* 1 MiB */
};

#define ALL_ONES ((uint64_t)-1)
#define NS_PER_S_Q16 (1000000000ull << SPOOR_WF_Q)

void spoor_wf_clear(struct spoor_wf_window *w)
{
    __builtin_memset(w, 0, sizeof *w); /* not a compound literal: no 9 KiB on the stack */
}

unsigned spoor_wf_bucket(uint64_t v)
{
    unsigned top;

    if (v >> SPOOR_WF_MAX_BITS)
        v = ((uint64_t)1 << SPOOR_WF_MAX_BITS) - 1;
    if (v < (1u << SPOOR_WF_EXACT_BITS))
        return (unsigned)v;
    top = 63 - (unsigned)__builtin_clzll(v);    /* >= SPOOR_WF_EXACT_BITS */
    /* the 5 leading bits (16..31) after (top - 4) blocks of 16 buckets: past the exact ones */
    return ((top - SPOOR_WF_EXACT_BITS + 1) << (SPOOR_WF_EXACT_BITS - 1)) +
           (unsigned)(v >> (top - (SPOOR_WF_EXACT_BITS - 1)));
}

uint64_t spoor_wf_bucket_floor(unsigned b)
{
    unsigned block = b >> (SPOOR_WF_EXACT_BITS - 1), half = 1u << (SPOOR_WF_EXACT_BITS - 1);

    if (b < (1u << SPOOR_WF_EXACT_BITS))
        return b;
    return (uint64_t)(half + (b & (half - 1))) << (block - 1);
}

uint64_t spoor_wf_mul_div(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t lo32 = 0xffffffffu;
    uint64_t ll = (a & lo32) * (b & lo32), lh = (a & lo32) * (b >> 32);
    uint64_t hl = (a >> 32) * (b & lo32), hh = (a >> 32) * (b >> 32);
    uint64_t mid = (ll >> 32) + (lh & lo32) + (hl & lo32);
    uint64_t lo = (mid << 32) | (ll & lo32), hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    uint64_t q = 0, r = hi;
    int i;

    if (hi >= c)
        return ALL_ONES;
    /* long division of hi:lo by c, a bit at a time; r < c throughout, and
     * a bit shifted out of r means r was past c */
    for (i = 63; i >= 0; i--) {
        bool carry = r >> 63;

        r = (r << 1) | ((lo >> i) & 1);
        q <<= 1;
        if (carry || r >= c) {
            r -= c;
            q |= 1;
        }
    }
    return q;
}

static void hist_add(struct spoor_wf_hist *h, uint64_t v)
{
    unsigned b = spoor_wf_bucket(v);

    if (!h->n || b < h->first)
        h->first = (uint16_t)b;
    if (!h->n || b > h->last)
        h->last = (uint16_t)b;
    h->n++;
    h->count[b]++;
}

void spoor_wf_issue(struct spoor_wf_window *w, struct spoor_wf_track *t, unsigned op, uint64_t sector,
                    uint64_t bytes, uint64_t depth)
{
    struct spoor_wf_sums *s = &w->ops[op];

    hist_add(&s->size, bytes);
    s->bytes += bytes;
    s->depth_sum += depth;
    if (t->seen[op]) {
        uint64_t end = t->end_sector[op];
        uint64_t distance = sector > end ? sector - end : end - sector;

        s->with_previous++;
        s->distance_sum += distance;
        s->jumps += distance > JUMP_SECTORS;
        s->sequential += distance == 0;
    }
    t->seen[op] = true;
    t->end_sector[op] = sector + (bytes >> SECTOR_SHIFT_BITS);
}

void spoor_wf_complete(struct spoor_wf_window *w, unsigned op, uint64_t latency_ns)
{
    struct spoor_wf_sums *s = &w->ops[op];

    hist_add(&s->latency, latency_ns);
    s->latency_sum += latency_ns;
}

/* sum / n in Q16, 0 for n = 0. */
static uint64_t mean_q16(uint64_t sum, uint64_t n)
{
    return n ? spoor_wf_mul_div(sum, (uint64_t)1 << SPOOR_WF_Q, n) : 0;
}

/* The pct-th percentile of the values counted in h (nearest rank: the
 * ceil(pct n / 100)-th smallest), as its bucket's smallest value; 0 for none. */
static uint64_t percentile(const struct spoor_wf_hist *h, unsigned pct)
{
    uint64_t rank = spoor_wf_mul_div(h->n * pct + 99, 1, 100), seen = 0;
    unsigned b;

    for (b = h->first; h->n && b <= h->last; b++) {
        seen += h->count[b];
        if (seen >= rank)
            return spoor_wf_bucket_floor(b);
    }
    return 0;
}

/* Empty again, clearing only the buckets used. */
static void hist_clear(struct spoor_wf_hist *h)
{
    if (h->n)
        __builtin_memset(&h->count[h->first], 0, (unsigned)(h->last - h->first + 1) * sizeof h->count[0]);
    h->n = 0;
}

void spoor_wf_finish(struct spoor_wf_window *w, uint64_t width_ns, struct spoor_wf_features out[SPOOR_WF_NOPS])
{
    unsigned op;

    for (op = 0; op < SPOOR_WF_NOPS; op++) {
        struct spoor_wf_sums *s = &w->ops[op];
        struct spoor_wf_features *f = &out[op];

        f->requests = s->size.n;
        f->bytes = s->bytes;
        f->completions = s->latency.n;
        f->with_previous = s->with_previous;
        f->size_mean_q16 = mean_q16(s->bytes, s->size.n);
        f->size_median = percentile(&s->size, 50);
        f->iops_q16 = spoor_wf_mul_div(s->size.n, NS_PER_S_Q16, width_ns);
        f->bandwidth_q16 = spoor_wf_mul_div(s->bytes, NS_PER_S_Q16, width_ns);
        f->latency_mean_q16 = mean_q16(s->latency_sum, s->latency.n);
        f->latency_p50 = percentile(&s->latency, 50);
        f->latency_p99 = percentile(&s->latency, 99);
        f->distance_mean_q16 = mean_q16(s->distance_sum, s->with_previous);
        f->jump_ratio_q16 = mean_q16(s->jumps, s->with_previous);
        f->sequential_ratio_q16 = mean_q16(s->sequential, s->with_previous);
        f->queue_depth_mean_q16 = mean_q16(s->depth_sum, s->size.n);
        /* the sums before the histograms, then what the histograms used */
        __builtin_memset(s, 0, __builtin_offsetof(struct spoor_wf_sums, size));
        hist_clear(&s->size);
        hist_clear(&s->latency);
    }
}
