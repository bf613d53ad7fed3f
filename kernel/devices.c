// SPDX-License-Identifier: GPL-2.0
/* The per-device state: a fixed array of slots, each claimed once by a
 * device number with cmpxchg and guarded by its own spinlock (issues come
 * from any CPU, completions from interrupts). A slot holds the device's
 * counts, its requests in flight (for latency and queue depth), and the
 * window features being summed by the accumulator spoor windows shares
 * (window_features.c). Nothing here allocates. */
#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/trace_clock.h>

#include "spoor_ra.h"

const char *const spoor_ra_count_names[SPOOR_RA_NCOUNTS] = {
	[SPOOR_RA_READ_REQUESTS] = "read_requests",
	[SPOOR_RA_READ_BYTES] = "read_bytes",
	[SPOOR_RA_READ_COMPLETIONS] = "read_completions",
	[SPOOR_RA_READ_COMPLETED_BYTES] = "read_completed_bytes",
	[SPOOR_RA_WRITE_REQUESTS] = "write_requests",
	[SPOOR_RA_WRITE_BYTES] = "write_bytes",
	[SPOOR_RA_WRITE_COMPLETIONS] = "write_completions",
	[SPOOR_RA_WRITE_COMPLETED_BYTES] = "write_completed_bytes",
	[SPOOR_RA_OTHER_REQUESTS] = "other_requests",
};

/* A request issued and not yet completed or requeued; rq NULL: a free entry. */
struct in_flight {
	struct request *rq;
	u64 issue_ns;
};

struct device_slot {
	dev_t devt; /* 0: free */
	spinlock_t lock;
	struct spoor_ra_counts total, at_window_start, last_window;
	/* Entries fill from the lowest free one, so a scan stops early while
	 * few requests are in flight. */
	struct in_flight in_flight[SPOOR_RA_MAX_IN_FLIGHT];
	unsigned int n_in_flight;
	struct spoor_wf_track track;
	struct spoor_wf_window window;
	struct spoor_wf_features features[SPOOR_WF_NOPS];
};

static struct device_slot slots[SPOOR_RA_MAX_DEVICES] = {
	[0 ... SPOOR_RA_MAX_DEVICES - 1] = { .lock = __SPIN_LOCK_UNLOCKED(slots.lock) },
};
static atomic64_t untracked = ATOMIC64_INIT(0);
static atomic64_t untimed = ATOMIC64_INIT(0);
static atomic64_t windows_closed = ATOMIC64_INIT(0);
/* Closes come from the timer's work and from sysfs: one at a time. */
static DEFINE_MUTEX(close_lock);
static u64 window_start_ns, last_width_ns;

u64 spoor_ra_now_ns(void)
{
	/* ftrace's default clock ("local"): the module's times are the trace's */
	return trace_clock_local();
}

void spoor_ra_start_windows(void)
{
	window_start_ns = spoor_ra_now_ns();
}

/* The slot of the disk, claiming the first free one if it has none (and
 * then a reference to the disk's readahead, readahead.c). Slots fill in
 * order and are never freed, so a device's slot is always before the first
 * free one, and two CPUs claiming the same new device meet at it: only the
 * one whose cmpxchg took the slot claims. */
static struct device_slot *slot_of(struct gendisk *disk)
{
	dev_t devt = disk_devt(disk);
	unsigned int i;

	for (i = 0; i < SPOOR_RA_MAX_DEVICES; i++) {
		dev_t held = READ_ONCE(slots[i].devt);

		if (!held) {
			held = cmpxchg(&slots[i].devt, 0, devt);
			if (!held) {
				spoor_ra_readahead_claim(i, disk);
				return &slots[i];
			}
		}
		if (held == devt)
			return &slots[i];
	}
	return NULL;
}

/* The request's device's slot; NULL without a disk or a free slot. */
static struct device_slot *slot_of_request(struct request *rq)
{
	struct gendisk *disk = rq->q->disk;

	return disk ? slot_of(disk) : NULL;
}

/* The request's operation for the features (SPOOR_WF_READ or _WRITE), or
 * SPOOR_WF_NOPS for the others (flushes, discards, ...). */
static unsigned int wf_op(struct request *rq)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return SPOOR_WF_READ;
	case REQ_OP_WRITE:
		return SPOOR_WF_WRITE;
	default:
		return SPOOR_WF_NOPS;
	}
}

/* Where the op's counts are from the reads'. */
static unsigned int count_offset(unsigned int op)
{
	return op == SPOOR_WF_WRITE ? SPOOR_RA_WRITE_REQUESTS - SPOOR_RA_READ_REQUESTS : 0;
}

/* Takes rq out of the slot's requests in flight (its lock held), with its
 * issue time; false if it was not in them. */
static bool take_in_flight(struct device_slot *s, struct request *rq, u64 *issue_ns)
{
	unsigned int i, seen = 0;

	for (i = 0; i < SPOOR_RA_MAX_IN_FLIGHT && seen < s->n_in_flight; i++) {
		if (s->in_flight[i].rq == rq) {
			*issue_ns = s->in_flight[i].issue_ns;
			s->in_flight[i].rq = NULL;
			s->n_in_flight--;
			return true;
		}
		seen += s->in_flight[i].rq != NULL;
	}
	return false;
}

/* Issued at now: in flight, and into the window's features with the queue
 * depth right after it (itself included), as spoor's block trace join
 * counts it. */
void spoor_ra_count_issue(struct request *rq)
{
	struct device_slot *s = slot_of_request(rq);
	unsigned int op = wf_op(rq), i;
	u64 now = spoor_ra_now_ns();
	unsigned long flags;

	if (!s) {
		atomic64_inc(&untracked);
		return;
	}
	spoor_ra_readahead_seen(s - slots, rq->q->disk);
	spin_lock_irqsave(&s->lock, flags);
	for (i = 0; i < SPOOR_RA_MAX_IN_FLIGHT && s->in_flight[i].rq; i++)
		;
	if (i < SPOOR_RA_MAX_IN_FLIGHT) {
		s->in_flight[i] = (struct in_flight){ .rq = rq, .issue_ns = now };
		s->n_in_flight++;
	} else {
		atomic64_inc(&untimed);
	}
	if (op == SPOOR_WF_NOPS) {
		s->total.n[SPOOR_RA_OTHER_REQUESTS]++;
	} else {
		s->total.n[count_offset(op) + SPOOR_RA_READ_REQUESTS]++;
		s->total.n[count_offset(op) + SPOOR_RA_READ_BYTES] += blk_rq_bytes(rq);
		spoor_wf_issue(&s->window, &s->track, op, blk_rq_pos(rq), blk_rq_bytes(rq), s->n_in_flight);
	}
	spin_unlock_irqrestore(&s->lock, flags);
}

/* nr_bytes: those this completion finished (a request may complete in
 * parts). The first completion ends the request's time in flight, as in
 * spoor's join, which takes the first completion of the issue's sector; a
 * completion of a request issued before load has no latency. */
void spoor_ra_count_completion(struct request *rq, unsigned int nr_bytes)
{
	struct device_slot *s = slot_of_request(rq);
	unsigned int op = wf_op(rq);
	u64 now = spoor_ra_now_ns(), issued;
	unsigned long flags;

	if (!s)
		return;
	spin_lock_irqsave(&s->lock, flags);
	if (take_in_flight(s, rq, &issued) && op != SPOOR_WF_NOPS)
		spoor_wf_complete(&s->window, op, now - issued);
	if (op != SPOOR_WF_NOPS) {
		s->total.n[count_offset(op) + SPOOR_RA_READ_COMPLETIONS]++;
		s->total.n[count_offset(op) + SPOOR_RA_READ_COMPLETED_BYTES] += nr_bytes;
	}
	spin_unlock_irqrestore(&s->lock, flags);
}

/* A requeued request is no longer in flight; it is issued again later. */
void spoor_ra_count_requeue(struct request *rq)
{
	struct device_slot *s = slot_of_request(rq);
	unsigned long flags;
	u64 issued;

	if (!s)
		return;
	spin_lock_irqsave(&s->lock, flags);
	take_in_flight(s, rq, &issued);
	spin_unlock_irqrestore(&s->lock, flags);
}

/* Every device's window closes at once: its counts since the one before,
 * and its features over the window's width, which then decide its
 * readahead (readahead.c; out of the slot's lock: only closes write the
 * features, one at a time). forget_ends: the next requests have no
 * previous one to measure a distance from, as in a trace that starts
 * there. */
void spoor_ra_close_window(bool forget_ends)
{
	unsigned int i, c;
	unsigned long flags;
	u64 now;

	mutex_lock(&close_lock);
	now = spoor_ra_now_ns();
	last_width_ns = now > window_start_ns ? now - window_start_ns : 1;
	window_start_ns = now;
	for (i = 0; i < SPOOR_RA_MAX_DEVICES && READ_ONCE(slots[i].devt); i++) {
		struct device_slot *s = &slots[i];

		spin_lock_irqsave(&s->lock, flags);
		for (c = 0; c < SPOOR_RA_NCOUNTS; c++)
			s->last_window.n[c] = s->total.n[c] - s->at_window_start.n[c];
		s->at_window_start = s->total;
		spoor_wf_finish(&s->window, last_width_ns, s->features);
		if (forget_ends)
			s->track = (struct spoor_wf_track){ 0 };
		spin_unlock_irqrestore(&s->lock, flags);
		spoor_ra_readahead_window(i, s->devt, s->features);
	}
	atomic64_inc(&windows_closed);
	mutex_unlock(&close_lock);
}

dev_t spoor_ra_slot_devt(unsigned int i)
{
	return READ_ONCE(slots[i].devt);
}

bool spoor_ra_snapshot(unsigned int i, struct spoor_ra_snapshot *out)
{
	struct device_slot *s = &slots[i];
	unsigned long flags;

	out->devt = READ_ONCE(s->devt);
	if (!out->devt)
		return false;
	spin_lock_irqsave(&s->lock, flags);
	out->total = s->total;
	out->last_window = s->last_window;
	memcpy(out->features, s->features, sizeof out->features);
	spin_unlock_irqrestore(&s->lock, flags);
	return true;
}

u64 spoor_ra_last_width_ns(void)
{
	u64 width;

	mutex_lock(&close_lock);
	width = last_width_ns;
	mutex_unlock(&close_lock);
	return width;
}

u64 spoor_ra_windows_closed(void)
{
	return atomic64_read(&windows_closed);
}

u64 spoor_ra_untracked_requests(void)
{
	return atomic64_read(&untracked);
}

u64 spoor_ra_untimed_requests(void)
{
	return atomic64_read(&untimed);
}
