/* SPDX-License-Identifier: GPL-2.0 */
/* spoor_ra: the block requests of each device counted from the block
 * layer's tracepoints, in total and per window. The module's parts:
 * devices.c (the preallocated per-device counts and the windows), probes.c
 * (the tracepoints), sysfs.c (/sys/kernel/spoor_ra), main.c (parameters,
 * load and unload). */
#ifndef SPOOR_RA_H
#define SPOOR_RA_H

#include <linux/blk-mq.h>
#include <linux/types.h>

/* Slots are claimed as devices are first seen and never freed: the request
 * path must not allocate. Requests of devices beyond them are only counted. */
#define SPOOR_RA_MAX_DEVICES 16

/* The counts of one device, one u64 each, so that windows can subtract
 * them all alike. Reads and writes apart; everything else is "other". */
enum spoor_ra_count {
	SPOOR_RA_READ_REQUESTS,
	SPOOR_RA_READ_BYTES,
	SPOOR_RA_READ_COMPLETIONS,
	SPOOR_RA_READ_COMPLETED_BYTES,
	SPOOR_RA_WRITE_REQUESTS,
	SPOOR_RA_WRITE_BYTES,
	SPOOR_RA_WRITE_COMPLETIONS,
	SPOOR_RA_WRITE_COMPLETED_BYTES,
	SPOOR_RA_OTHER_REQUESTS,
	SPOOR_RA_NCOUNTS
};

extern const char *const spoor_ra_count_names[SPOOR_RA_NCOUNTS];

struct spoor_ra_counts {
	u64 n[SPOOR_RA_NCOUNTS];
};

/* A device's counts since load and in the last closed window. */
struct spoor_ra_snapshot {
	dev_t devt;
	struct spoor_ra_counts total, last_window;
};

/* devices.c */
void spoor_ra_count_issue(struct request *rq);
void spoor_ra_count_completion(struct request *rq, unsigned int nr_bytes);
void spoor_ra_close_window(void);
/* Copies the device in slot i, if claimed, into *out. */
bool spoor_ra_snapshot(unsigned int i, struct spoor_ra_snapshot *out);
u64 spoor_ra_windows_closed(void);
u64 spoor_ra_untracked_requests(void);

/* probes.c */
int spoor_ra_attach_probes(void);
void spoor_ra_detach_probes(void);

/* sysfs.c */
int spoor_ra_sysfs_add(void);
void spoor_ra_sysfs_remove(void);

#endif
