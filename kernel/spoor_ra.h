/* SPDX-License-Identifier: GPL-2.0 */
/* spoor_ra: the block requests of each device counted from the block
 * layer's tracepoints, in total and per window; each window's features as
 * spoor windows computes them (window_features.c, a link to libspoor's
 * src/features/: the one definition), classified by an exported model and
 * turned into the device's readahead. The module's parts: devices.c (the
 * preallocated per-device state and the windows), probes.c (the
 * tracepoints), model.c (the classifier), readahead.c (the readahead
 * policy's parameters and each device's readahead), agree.c
 * (/dev/spoor_ra_model), sysfs.c (/sys/kernel/spoor_ra), main.c (the window
 * timer, load and unload). */
#ifndef SPOOR_RA_H
#define SPOOR_RA_H

#include <linux/blk-mq.h>
#include <linux/types.h>

#include "window_features.h"

/* Slots are claimed as devices are first seen and never freed: the request
 * path must not allocate. Requests of devices beyond them are only counted. */
#define SPOOR_RA_MAX_DEVICES 16
/* Requests in flight per device whose issue time is kept (for latency and
 * queue depth); beyond them a request is counted, but untimed. */
#define SPOOR_RA_MAX_IN_FLIGHT 256

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

/* A device's counts since load and in the last closed window, and that
 * window's features. */
struct spoor_ra_snapshot {
	dev_t devt;
	struct spoor_ra_counts total, last_window;
	struct spoor_wf_features features[SPOOR_WF_NOPS];
};

/* devices.c */
u64 spoor_ra_now_ns(void);
void spoor_ra_start_windows(void);
void spoor_ra_count_issue(struct request *rq);
void spoor_ra_count_completion(struct request *rq, unsigned int nr_bytes);
void spoor_ra_count_requeue(struct request *rq);
void spoor_ra_close_window(bool forget_ends);
/* The device in slot i; 0: the slot is free (and so are those after it). */
dev_t spoor_ra_slot_devt(unsigned int i);
/* Copies the device in slot i, if claimed, into *out. */
bool spoor_ra_snapshot(unsigned int i, struct spoor_ra_snapshot *out);
u64 spoor_ra_last_width_ns(void);
u64 spoor_ra_windows_closed(void);
u64 spoor_ra_untracked_requests(void);
u64 spoor_ra_untimed_requests(void);

/* model.c */
void spoor_ra_model_init(void);
bool spoor_ra_model_classifies(void);
unsigned int spoor_ra_model_nfeatures(void);
/* The class of a Q16 input vector (spoor_ra_model_nfeatures() of them). */
int spoor_ra_model_predict(const long long *x);
/* The class of a window; -1 when the model does not classify windows. */
int spoor_ra_model_classify_window(const struct spoor_wf_features features[SPOOR_WF_NOPS]);
const char *spoor_ra_model_class_name(int cls); /* "-" for none */
u32 spoor_ra_model_action_kb(int cls);
int spoor_ra_model_show(char *buf);

/* readahead.c */
int spoor_ra_readahead_check_params(void);
void spoor_ra_readahead_claim(unsigned int slot, struct gendisk *disk);
void spoor_ra_readahead_seen(unsigned int slot, struct gendisk *disk);
void spoor_ra_readahead_window(unsigned int slot, dev_t devt, const struct spoor_wf_features features[SPOOR_WF_NOPS]);
int spoor_ra_readahead_show(unsigned int slot, dev_t devt, char *buf, int at);
void spoor_ra_readahead_release(void);

/* agree.c */
int spoor_ra_agree_add(void);
void spoor_ra_agree_remove(void);

/* main.c: closes the window now, and the next one window_ms later. */
void spoor_ra_close_window_now(bool forget_ends);

/* probes.c */
int spoor_ra_attach_probes(void);
void spoor_ra_detach_probes(void);

/* sysfs.c */
int spoor_ra_sysfs_add(void);
void spoor_ra_sysfs_remove(void);

#endif
