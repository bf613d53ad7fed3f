// SPDX-License-Identifier: GPL-2.0
/* The per-device counts: a fixed array of slots, each claimed once by a
 * device number with cmpxchg and guarded by its own spinlock (issues come
 * from any CPU, completions from interrupts). Nothing here allocates. */
#include <linux/atomic.h>
#include <linux/spinlock.h>

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

struct device_slot {
	dev_t devt; /* 0: free */
	spinlock_t lock;
	struct spoor_ra_counts total, at_window_start, last_window;
};

static struct device_slot slots[SPOOR_RA_MAX_DEVICES] = {
	[0 ... SPOOR_RA_MAX_DEVICES - 1] = { .lock = __SPIN_LOCK_UNLOCKED(slots.lock) },
};
static atomic64_t untracked = ATOMIC64_INIT(0);
static atomic64_t windows_closed = ATOMIC64_INIT(0);

/* The slot of devt, claiming the first free one if it has none. Slots fill
 * in order and are never freed, so a device's slot is always before the
 * first free one, and two CPUs claiming the same new device meet at it. */
static struct device_slot *slot_of(dev_t devt)
{
	unsigned int i;

	for (i = 0; i < SPOOR_RA_MAX_DEVICES; i++) {
		dev_t held = READ_ONCE(slots[i].devt);

		if (!held)
			held = cmpxchg(&slots[i].devt, 0, devt) ?: devt;
		if (held == devt)
			return &slots[i];
	}
	return NULL;
}

/* The request's device's slot; NULL without a disk or a free slot. */
static struct device_slot *slot_of_request(struct request *rq)
{
	struct gendisk *disk = rq->q->disk;

	return disk ? slot_of(disk_devt(disk)) : NULL;
}

/* Where the op's counts are from the reads': 0 for reads, the writes'
 * offset for writes, -1 for other ops. */
static int op_offset(struct request *rq)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return 0;
	case REQ_OP_WRITE:
		return SPOOR_RA_WRITE_REQUESTS - SPOOR_RA_READ_REQUESTS;
	default:
		return -1;
	}
}

void spoor_ra_count_issue(struct request *rq)
{
	struct device_slot *s = slot_of_request(rq);
	int op = op_offset(rq);
	unsigned long flags;

	if (!s) {
		atomic64_inc(&untracked);
		return;
	}
	spin_lock_irqsave(&s->lock, flags);
	if (op < 0) {
		s->total.n[SPOOR_RA_OTHER_REQUESTS]++;
	} else {
		s->total.n[op + SPOOR_RA_READ_REQUESTS]++;
		s->total.n[op + SPOOR_RA_READ_BYTES] += blk_rq_bytes(rq);
	}
	spin_unlock_irqrestore(&s->lock, flags);
}

/* nr_bytes: those this completion finished (a request may complete in parts). */
void spoor_ra_count_completion(struct request *rq, unsigned int nr_bytes)
{
	struct device_slot *s = slot_of_request(rq);
	int op = op_offset(rq);
	unsigned long flags;

	if (!s || op < 0)
		return;
	spin_lock_irqsave(&s->lock, flags);
	s->total.n[op + SPOOR_RA_READ_COMPLETIONS]++;
	s->total.n[op + SPOOR_RA_READ_COMPLETED_BYTES] += nr_bytes;
	spin_unlock_irqrestore(&s->lock, flags);
}

/* Every device's last window becomes what it counted since the one before.
 * The place where the window's features will be classified and the device's
 * readahead set. */
void spoor_ra_close_window(void)
{
	unsigned int i, c;
	unsigned long flags;

	for (i = 0; i < SPOOR_RA_MAX_DEVICES && READ_ONCE(slots[i].devt); i++) {
		struct device_slot *s = &slots[i];

		spin_lock_irqsave(&s->lock, flags);
		for (c = 0; c < SPOOR_RA_NCOUNTS; c++)
			s->last_window.n[c] = s->total.n[c] - s->at_window_start.n[c];
		s->at_window_start = s->total;
		spin_unlock_irqrestore(&s->lock, flags);
	}
	atomic64_inc(&windows_closed);
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
	spin_unlock_irqrestore(&s->lock, flags);
	return true;
}

u64 spoor_ra_windows_closed(void)
{
	return atomic64_read(&windows_closed);
}

u64 spoor_ra_untracked_requests(void)
{
	return atomic64_read(&untracked);
}
