/* The window features of block requests, one definition for user space
 * (`spoor windows`) and the kernel (kernel/, spoor_ra): integers only, no
 * allocation, no floating point, no library call, a bounded stack, so that
 * both sides compile this same file and agree bit for bit.
 *
 * Per window and operation (read, write): the requests issued and their
 * bytes, mean and median size, IOPS and bandwidth, the mean distance from the
 * previous request's end with the shares of jumps (> 1 MiB) and sequential
 * requests (distance 0), the mean queue depth at issue; and of the requests
 * *completed* in the window, the latency mean, p50 and p99. A completion
 * counts in the window it happens in, whichever window its issue was in: a
 * window can then be finished as soon as it ends, in the kernel too.
 *
 * Formats:
 * - means, ratios, IOPS and bandwidth are Q16 (value * 2^16, rounded down);
 * - quantiles are nearest-rank (the ceil(p n)-th smallest value) read from a
 *   log-linear histogram: the exact value rounded down to its 5 leading
 *   significant bits (values below 2^5 are exact; above, at most 1/16 =
 *   6.25 % below the exact one). Values of 2^40 and more (bytes; ns: 18 min)
 *   count as 2^40 - 1. */
#ifndef SPOOR_FEATURES_WINDOW_FEATURES_H
#define SPOOR_FEATURES_WINDOW_FEATURES_H

/* The compat part: the kernel has its own fixed-width types, and no <stdint.h>. */
#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
#endif

enum { SPOOR_WF_READ, SPOOR_WF_WRITE, SPOOR_WF_NOPS };

enum {
    SPOOR_WF_Q = 16,                /* the fractional bits of the Q16 features */
    SPOOR_WF_EXACT_BITS = 5,        /* a histogram bucket keeps the 5 leading bits */
    SPOOR_WF_MAX_BITS = 40,         /* values are clamped below 2^40 */
    SPOOR_WF_BUCKETS = (SPOOR_WF_MAX_BITS - SPOOR_WF_EXACT_BITS + 2) << (SPOOR_WF_EXACT_BITS - 1),
};

/* Where each operation's last request ended on one device: distances run in
 * issue order across windows, within a device, and outlive each window. */
struct spoor_wf_track {
    uint64_t end_sector[SPOOR_WF_NOPS];
    bool seen[SPOOR_WF_NOPS];
};

/* Values counted by bucket; first and last bound the buckets used, so that
 * finishing a window reads and clears only those. */
struct spoor_wf_hist {
    uint64_t n;
    uint16_t first, last;           /* valid when n > 0 */
    uint32_t count[SPOOR_WF_BUCKETS];
};

/* One operation's sums in the window being filled: its requests are
 * size.n, its completions latency.n. */
struct spoor_wf_sums {
    uint64_t bytes, depth_sum, latency_sum;
    uint64_t with_previous, distance_sum, jumps, sequential;
    struct spoor_wf_hist size, latency;
};

/* The window being filled (one device's, or several devices' together). */
struct spoor_wf_window {
    struct spoor_wf_sums ops[SPOOR_WF_NOPS];
};

/* One operation's features of a finished window. */
struct spoor_wf_features {
    uint64_t requests, bytes, completions, with_previous;
    uint64_t size_mean_q16, size_median;
    uint64_t iops_q16, bandwidth_q16;                   /* per second of the window's width */
    uint64_t latency_mean_q16, latency_p50, latency_p99;/* ns, of the completions */
    uint64_t distance_mean_q16;                         /* sectors of 512 bytes */
    uint64_t jump_ratio_q16, sequential_ratio_q16;      /* of with_previous */
    uint64_t queue_depth_mean_q16;
};

/* An empty window (a fresh one, or after spoor_wf_finish). */
void spoor_wf_clear(struct spoor_wf_window *w);

/* A request of op issued at sector, of bytes, with depth requests of its
 * device in flight right after its issue (itself included); t is its
 * device's track. */
void spoor_wf_issue(struct spoor_wf_window *w, struct spoor_wf_track *t, unsigned op, uint64_t sector,
                    uint64_t bytes, uint64_t depth);

/* A request of op completed latency_ns after its issue. */
void spoor_wf_complete(struct spoor_wf_window *w, unsigned op, uint64_t latency_ns);

/* The window's features over its width (ns, > 0), into out[op]; the window
 * is cleared for the next one. */
void spoor_wf_finish(struct spoor_wf_window *w, uint64_t width_ns, struct spoor_wf_features out[SPOOR_WF_NOPS]);

/* floor(a * b / c) without overflow in the product (c > 0); saturates at
 * UINT64_MAX when the quotient does not fit. No division instruction, so
 * that 32-bit kernels need no helper either. */
uint64_t spoor_wf_mul_div(uint64_t a, uint64_t b, uint64_t c);

/* The histogram bucket of v, and the smallest value of bucket b. */
unsigned spoor_wf_bucket(uint64_t v);
uint64_t spoor_wf_bucket_floor(unsigned b);

#endif
