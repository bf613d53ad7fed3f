// SPDX-License-Identifier: GPL-2.0
/* Each device's readahead, set from the classes of its windows, and the
 * parameters that rule it. The decisions are readahead_policy.c's (the
 * policy `spoor tune` is built on): windows with too few reads are idle, a
 * class must win `hysteresis` windows in a row, its action is clamped to
 * [min_kb, max_kb]. On a set, and not in a dry run, the device's
 * backing_dev_info gets ra_pages = kb >> (PAGE_SHIFT - 10), as
 * /sys/block/DEV/queue/read_ahead_kb stores it (queue_ra_store in 6.1). A
 * file takes its readahead from there when it is opened
 * (file_ra_state_init): a change reaches the files opened after it.
 *
 * The device's backing_dev_info is referenced (bdi_get) when its slot is
 * claimed, on the request path, from the request's disk, and let go
 * (bdi_put) at unload: the pointer stays valid even if the disk goes away.
 * If a request comes from another disk with the same number (the first one
 * removed, a new one attached), the device is marked stale and its readahead
 * left alone from then on. At unload, each device's readahead is put back
 * to what it was before the module set it, if it still holds the value the
 * module set (a value written by hand since is kept). */
#include <linux/backing-dev.h>
#include <linux/blkdev.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "readahead_policy.h"
#include "spoor_ra.h"

enum { HYSTERESIS_MAX = 1000, KB_MAX = 1 << 20 /* 1 GiB */ };

static bool dry_run = true;
static unsigned int hysteresis = 2, min_kb = 16, max_kb = 4096;
static unsigned long long min_requests = 16;
/* The devices= list; none: every disk seen is controlled. */
static dev_t listed[SPOOR_RA_MAX_DEVICES];
static unsigned int n_listed;
/* Once loaded, a parameter written is checked against the others and the
 * model; at load their order on the command line must not matter, so
 * spoor_ra_readahead_check_params() checks them together. */
static bool loaded;

struct control {
	struct backing_dev_info *bdi; /* referenced; NULL until claimed */
	unsigned long original_pages; /* before the module's first set (at claim until then) */
	bool stale; /* a request came from another disk with this number */
	bool stale_reported;
	bool started; /* the policy runs (from the first closed window) */
	bool controlled; /* listed in devices= (or no list) */
	bool dry; /* dry_run when the policy started */
	bool holds; /* the module set set_pages, and has not restored it */
	unsigned long set_pages;
	struct spoor_rap_state policy;
	int cls; /* the last class; -1: none */
	enum spoor_rap_decision decision;
	u64 classified, idle, sets;
};

/* By slot (devices.c). Claims write bdi and original_pages once; the rest
 * is under control_lock. */
static struct control controls[SPOOR_RA_MAX_DEVICES];
static DEFINE_MUTEX(control_lock);

static u32 pages_to_kb(unsigned long pages)
{
	return pages << (PAGE_SHIFT - 10);
}

static unsigned long kb_to_pages(u32 kb)
{
	return kb >> (PAGE_SHIFT - 10);
}

/* dry_run=N needs a model that classifies windows. */
static int check_dry_run(bool dry)
{
	if (dry || spoor_ra_model_classifies())
		return 0;
	pr_err("spoor_ra: dry_run=N is refused: the model does not classify windows\n");
	return -EINVAL;
}

static int set_dry_run(const char *val, const struct kernel_param *kp)
{
	bool dry;
	int err = kstrtobool(val, &dry);

	if (err)
		return err;
	err = loaded ? check_dry_run(dry) : 0;
	if (err)
		return err;
	WRITE_ONCE(dry_run, dry);
	return 0;
}

static int set_hysteresis(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	if (n < 1 || n > HYSTERESIS_MAX) {
		pr_err("spoor_ra: hysteresis=%u is out of [1, %d]\n", n, HYSTERESIS_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(hysteresis, n);
	return 0;
}

/* min_kb and max_kb: each within [0, KB_MAX]; once loaded, min_kb <= max_kb. */
static int set_bound(const char *val, const struct kernel_param *kp)
{
	unsigned int kb, *bound = kp->arg;
	bool is_min = bound == &min_kb;
	int err = kstrtouint(val, 0, &kb);

	if (err)
		return err;
	if (kb > KB_MAX) {
		pr_err("spoor_ra: %s=%u is over %d\n", kp->name, kb, KB_MAX);
		return -EINVAL;
	}
	if (loaded && (is_min ? kb > max_kb : kb < min_kb)) {
		pr_err("spoor_ra: %s=%u would put min_kb over max_kb (%u, %u)\n", kp->name, kb, min_kb, max_kb);
		return -EINVAL;
	}
	WRITE_ONCE(*bound, kb);
	return 0;
}

/* devices=MAJ:MIN,MAJ:MIN,... (at most SPOOR_RA_MAX_DEVICES); empty: all. */
static int set_devices(const char *val, const struct kernel_param *kp)
{
	dev_t list[SPOOR_RA_MAX_DEVICES];
	unsigned int n = 0, major, minor;
	const char *at = skip_spaces(val);
	int used;

	while (*at && *at != '\n') {
		if (n == SPOOR_RA_MAX_DEVICES || sscanf(at, "%u:%u%n", &major, &minor, &used) != 2 ||
		    major >= (1U << (32 - MINORBITS)) || minor > MINORMASK)
			goto bad;
		list[n++] = MKDEV(major, minor);
		at += used;
		if (*at == ',')
			at++;
		else if (*at && *at != '\n')
			goto bad;
	}
	memcpy(listed, list, n * sizeof *list);
	n_listed = n;
	return 0;
bad:
	pr_err("spoor_ra: devices='%s': want at most %d MAJ:MIN, separated by commas\n", val, SPOOR_RA_MAX_DEVICES);
	return -EINVAL;
}

static int get_devices(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int at = 0;

	for (i = 0; i < n_listed; i++)
		at += sysfs_emit_at(buf, at, "%s%u:%u", i ? "," : "", MAJOR(listed[i]), MINOR(listed[i]));
	return at + sysfs_emit_at(buf, at, "\n");
}

static const struct kernel_param_ops dry_run_ops = { .set = set_dry_run, .get = param_get_bool };
static const struct kernel_param_ops hysteresis_ops = { .set = set_hysteresis, .get = param_get_uint };
static const struct kernel_param_ops bound_ops = { .set = set_bound, .get = param_get_uint };
static const struct kernel_param_ops devices_ops = { .set = set_devices, .get = get_devices };

module_param_cb(dry_run, &dry_run_ops, &dry_run, 0644);
MODULE_PARM_DESC(dry_run, "classify and decide, never set readahead (default Y; N needs a model that classifies windows)");
module_param_cb(hysteresis, &hysteresis_ops, &hysteresis, 0644);
MODULE_PARM_DESC(hysteresis, "windows in a row a class must win before its readahead is set (1..1000; default 2)");
module_param_cb(min_kb, &bound_ops, &min_kb, 0644);
MODULE_PARM_DESC(min_kb, "the least readahead set, KiB (default 16; <= max_kb)");
module_param_cb(max_kb, &bound_ops, &max_kb, 0644);
MODULE_PARM_DESC(max_kb, "the most readahead set, KiB (default 4096; at most 1048576)");
module_param(min_requests, ullong, 0644);
MODULE_PARM_DESC(min_requests, "reads a window needs to be classified; fewer: idle (default 16)");
module_param_cb(devices, &devices_ops, NULL, 0444);
MODULE_PARM_DESC(devices, "MAJ:MIN,... the disks whose readahead is set (default: every disk seen); at load only");

int spoor_ra_readahead_check_params(void)
{
	int err = check_dry_run(dry_run);

	if (err)
		return err;
	if (min_kb > max_kb) {
		pr_err("spoor_ra: min_kb=%u is over max_kb=%u\n", min_kb, max_kb);
		return -EINVAL;
	}
	loaded = true;
	return 0;
}

/* On the request path, by the CPU that claimed the slot: a reference, no
 * allocation. The pointer is published last, for the window work. */
void spoor_ra_readahead_claim(unsigned int slot, struct gendisk *disk)
{
	struct control *c = &controls[slot];

	c->original_pages = READ_ONCE(disk->bdi->ra_pages);
	smp_store_release(&c->bdi, bdi_get(disk->bdi));
}

/* On the request path: one compare, to notice another disk under the number. */
void spoor_ra_readahead_seen(unsigned int slot, struct gendisk *disk)
{
	struct backing_dev_info *bdi = smp_load_acquire(&controls[slot].bdi);

	if (bdi && bdi != disk->bdi)
		WRITE_ONCE(controls[slot].stale, true);
}

static bool is_listed(dev_t devt)
{
	unsigned int i;

	for (i = 0; i < n_listed; i++)
		if (listed[i] == devt)
			return true;
	return !n_listed;
}

/* The module's value back to what was there before, unless someone wrote
 * another value since. */
static void restore(struct control *c)
{
	if (c->holds && READ_ONCE(c->bdi->ra_pages) == c->set_pages)
		WRITE_ONCE(c->bdi->ra_pages, c->original_pages);
	c->holds = false;
}

static void set_readahead(struct control *c, u32 kb)
{
	if (!c->holds)
		c->original_pages = READ_ONCE(c->bdi->ra_pages);
	c->set_pages = kb_to_pages(kb);
	WRITE_ONCE(c->bdi->ra_pages, c->set_pages);
	c->holds = true;
}

/* The policy (re)starts from the device's readahead: at the first window,
 * and when dry_run changed (after restoring what the module had set). */
static void start(struct control *c, dev_t devt, bool dry)
{
	if (c->started)
		restore(c);
	else
		c->cls = -1;
	c->started = true;
	c->dry = dry;
	c->controlled = is_listed(devt);
	spoor_rap_start(&c->policy, pages_to_kb(READ_ONCE(c->bdi->ra_pages)));
}

static void step(struct control *c, const struct spoor_wf_features features[SPOOR_WF_NOPS])
{
	struct spoor_rap_config config = {
		.hysteresis = READ_ONCE(hysteresis),
		.min_kb = READ_ONCE(min_kb),
		.max_kb = READ_ONCE(max_kb),
		.min_requests = READ_ONCE(min_requests),
	};
	u64 reads = features[SPOOR_WF_READ].requests;
	int cls = reads >= config.min_requests ? spoor_ra_model_classify_window(features) : -1;

	c->decision = spoor_rap_step(&config, &c->policy, reads, cls, cls < 0 ? 0 : spoor_ra_model_action_kb(cls));
	if (c->decision == SPOOR_RAP_IDLE) {
		c->idle++;
		return;
	}
	c->cls = cls;
	c->classified++;
	if (c->decision != SPOOR_RAP_SET)
		return;
	c->sets++;
	if (!c->dry && c->controlled && !READ_ONCE(c->stale))
		set_readahead(c, c->policy.kb);
}

/* At each window's close (devices.c), in the window work: no request waits. */
void spoor_ra_readahead_window(unsigned int slot, dev_t devt, const struct spoor_wf_features features[SPOOR_WF_NOPS])
{
	struct control *c = &controls[slot];
	bool dry = READ_ONCE(dry_run);

	if (!smp_load_acquire(&c->bdi))
		return; /* claimed this instant: from the next window */
	mutex_lock(&control_lock);
	if (READ_ONCE(c->stale) && !c->stale_reported) {
		pr_warn("spoor_ra: %u:%u is another disk now: its readahead is left alone until reload\n",
			MAJOR(devt), MINOR(devt));
		c->stale_reported = true;
	}
	if (!c->started || c->dry != dry)
		start(c, devt, dry);
	if (spoor_ra_model_classifies())
		step(c, features);
	mutex_unlock(&control_lock);
}

/* MAJ:MIN class=NAME decision=D streak=N readahead_kb=N original_kb=N
 * classified=N idle=N sets=N, written at buf + at; returns its length.
 * readahead_kb: the policy's (in a dry run, the value it would have set). */
int spoor_ra_readahead_show(unsigned int slot, dev_t devt, char *buf, int at)
{
	struct control *c = &controls[slot];
	u32 original_kb, kb;
	int n;

	if (!smp_load_acquire(&c->bdi))
		return sysfs_emit_at(buf, at, "%u:%u class=- decision=idle streak=0 readahead_kb=0 original_kb=0 classified=0 idle=0 sets=0\n",
				     MAJOR(devt), MINOR(devt));
	mutex_lock(&control_lock);
	original_kb = pages_to_kb(c->original_pages);
	kb = c->started ? c->policy.kb : original_kb;
	n = sysfs_emit_at(buf, at, "%u:%u class=%s decision=%s streak=%u readahead_kb=%u original_kb=%u classified=%llu idle=%llu sets=%llu\n",
			   MAJOR(devt), MINOR(devt), spoor_ra_model_class_name(c->started ? c->cls : -1),
			   spoor_rap_decision_name(c->decision), c->started ? c->policy.streak : 0, kb, original_kb,
			   c->classified, c->idle, c->sets);
	mutex_unlock(&control_lock);
	return n;
}

/* At unload, once no window can close: each device's readahead restored,
 * its reference dropped. */
void spoor_ra_readahead_release(void)
{
	unsigned int i;

	for (i = 0; i < SPOOR_RA_MAX_DEVICES; i++) {
		struct control *c = &controls[i];

		if (!c->bdi)
			continue;
		restore(c);
		bdi_put(c->bdi);
		c->bdi = NULL;
	}
}
