// SPDX-License-Identifier: GPL-2.0
/* /sys/kernel/spoor_ra: counts and window (one line per device seen: its
 * device number, then name=value for every count since load, or in the last
 * closed window; sectors are bytes / 512; as many devices as fit in a page),
 * features (the same lines with the last window's features, named as spoor
 * windows' CSV columns), window_ns (that window's width), close (a write
 * closes the window now; "restart" also forgets the last requests' ends), windows (how many have closed), untracked_requests
 * (requests of devices beyond the slots, or of no disk), untimed_requests
 * (requests beyond the in-flight entries of their device), state (one line
 * per device: its class, the readahead policy's decision and readahead,
 * readahead.c) and model (what the model is and whether it classifies
 * windows, model.c). */
#include <linux/kobject.h>
#include <linux/stddef.h>
#include <linux/sysfs.h>

#include "spoor_ra.h"
#include "window_columns.h"

static struct kobject *dir;

/* A Q16 value as the exact decimal of value / 2^16 (2^-16 = 152587890625e-16). */
static int emit_q16(char *buf, int at, u64 v)
{
	u64 frac = (v & 0xffff) * 152587890625ull; /* the 16 decimals of the fraction */
	int digits = 16;

	if (!frac)
		return sysfs_emit_at(buf, at, "%llu", v >> SPOOR_WF_Q);
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	return sysfs_emit_at(buf, at, "%llu.%0*llu", v >> SPOOR_WF_Q, digits, frac);
}

static ssize_t features_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct spoor_ra_snapshot s;
	unsigned int i, op, c;
	int at = 0;

	for (i = 0; i < SPOOR_RA_MAX_DEVICES && spoor_ra_snapshot(i, &s); i++) {
		at += sysfs_emit_at(buf, at, "%u:%u", MAJOR(s.devt), MINOR(s.devt));
		for (op = 0; op < SPOOR_WF_NOPS; op++)
			for (c = 0; c < SPOOR_WF_NCOLUMNS; c++) {
				const struct spoor_wf_column *col = &spoor_wf_columns[c];
				u64 v = *(const u64 *)((const char *)&s.features[op] + col->offset);

				at += sysfs_emit_at(buf, at, " %s_%s=", spoor_wf_op_names[op], col->name);
				at += col->q16 ? emit_q16(buf, at, v) : sysfs_emit_at(buf, at, "%llu", v);
			}
		at += sysfs_emit_at(buf, at, "\n");
	}
	return at;
}

static ssize_t window_ns_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", spoor_ra_last_width_ns());
}

/* "restart" closes the window and forgets where the last requests ended
 * (so that a trace started there has the same distances); anything else
 * only closes it. */
static ssize_t close_store(struct kobject *kobj, struct kobj_attribute *attr, const char *buf, size_t count)
{
	spoor_ra_close_window_now(sysfs_streq(buf, "restart"));
	return count;
}

static ssize_t untimed_requests_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", spoor_ra_untimed_requests());
}

/* One line per device: its counts since load, or in the last window. */
static ssize_t show_devices(char *buf, bool last_window)
{
	struct spoor_ra_snapshot s;
	unsigned int i, c;
	int at = 0;

	for (i = 0; i < SPOOR_RA_MAX_DEVICES && spoor_ra_snapshot(i, &s); i++) {
		const u64 *n = last_window ? s.last_window.n : s.total.n;

		at += sysfs_emit_at(buf, at, "%u:%u", MAJOR(s.devt), MINOR(s.devt));
		for (c = 0; c < SPOOR_RA_NCOUNTS; c++)
			at += sysfs_emit_at(buf, at, " %s=%llu", spoor_ra_count_names[c], n[c]);
		at += sysfs_emit_at(buf, at, " read_sectors=%llu write_sectors=%llu\n",
				    n[SPOOR_RA_READ_BYTES] >> SECTOR_SHIFT, n[SPOOR_RA_WRITE_BYTES] >> SECTOR_SHIFT);
	}
	return at;
}

static ssize_t counts_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return show_devices(buf, false);
}

static ssize_t window_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return show_devices(buf, true);
}

static ssize_t windows_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", spoor_ra_windows_closed());
}

static ssize_t untracked_requests_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", spoor_ra_untracked_requests());
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	unsigned int i;
	int at = 0;

	for (i = 0; i < SPOOR_RA_MAX_DEVICES; i++) {
		dev_t devt = spoor_ra_slot_devt(i);

		if (!devt)
			break;
		at += spoor_ra_readahead_show(i, devt, buf, at);
	}
	return at;
}

static ssize_t model_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return spoor_ra_model_show(buf);
}

static struct kobj_attribute counts_attr = __ATTR_RO(counts);
static struct kobj_attribute window_attr = __ATTR_RO(window);
static struct kobj_attribute windows_attr = __ATTR_RO(windows);
static struct kobj_attribute untracked_requests_attr = __ATTR_RO(untracked_requests);
static struct kobj_attribute features_attr = __ATTR_RO(features);
static struct kobj_attribute window_ns_attr = __ATTR_RO(window_ns);
static struct kobj_attribute close_attr = __ATTR_WO(close);
static struct kobj_attribute untimed_requests_attr = __ATTR_RO(untimed_requests);
static struct kobj_attribute state_attr = __ATTR_RO(state);
static struct kobj_attribute model_attr = __ATTR_RO(model);

static struct attribute *attrs[] = {
	&counts_attr.attr,
	&window_attr.attr,
	&windows_attr.attr,
	&untracked_requests_attr.attr,
	&features_attr.attr,
	&window_ns_attr.attr,
	&close_attr.attr,
	&untimed_requests_attr.attr,
	&state_attr.attr,
	&model_attr.attr,
	NULL,
};

static const struct attribute_group group = { .attrs = attrs };

int spoor_ra_sysfs_add(void)
{
	int err;

	dir = kobject_create_and_add("spoor_ra", kernel_kobj);
	if (!dir)
		return -ENOMEM;
	err = sysfs_create_group(dir, &group);
	if (err)
		kobject_put(dir);
	return err;
}

void spoor_ra_sysfs_remove(void)
{
	kobject_put(dir);
}
