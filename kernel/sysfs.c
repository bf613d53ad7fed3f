// SPDX-License-Identifier: GPL-2.0
/* /sys/kernel/spoor_ra: counts and window (one line per device seen: its
 * device number, then name=value for every count since load, or in the last
 * closed window; sectors are bytes / 512; as many devices as fit in a page),
 * windows (how many have closed) and untracked_requests (requests of devices
 * beyond the slots, or of no disk). */
#include <linux/kobject.h>
#include <linux/sysfs.h>

#include "spoor_ra.h"

static struct kobject *dir;

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

static struct kobj_attribute counts_attr = __ATTR_RO(counts);
static struct kobj_attribute window_attr = __ATTR_RO(window);
static struct kobj_attribute windows_attr = __ATTR_RO(windows);
static struct kobj_attribute untracked_requests_attr = __ATTR_RO(untracked_requests);

static struct attribute *attrs[] = {
	&counts_attr.attr,
	&window_attr.attr,
	&windows_attr.attr,
	&untracked_requests_attr.attr,
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
