// SPDX-License-Identifier: GPL-2.0
/* spoor_ra: counts each block device's requests from the block layer's
 * tracepoints and closes a window of them, with its features, every
 * window_ms (and on demand, from sysfs); each closed window is classified
 * and decides the device's readahead (readahead.c, which holds the
 * readahead's parameters; nothing is set in a dry run, the default). */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "spoor_ra.h"

enum { WINDOW_MS_MIN = 100, WINDOW_MS_MAX = 600000 };

static unsigned int window_ms = 2500;

static int set_window_ms(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int err = kstrtouint(val, 0, &ms);

	if (err)
		return err;
	if (ms < WINDOW_MS_MIN || ms > WINDOW_MS_MAX) {
		pr_err("spoor_ra: window_ms=%u is out of [%d, %d]\n", ms, WINDOW_MS_MIN, WINDOW_MS_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(window_ms, ms);
	return 0;
}

static const struct kernel_param_ops window_ms_ops = {
	.set = set_window_ms,
	.get = param_get_uint,
};
module_param_cb(window_ms, &window_ms_ops, &window_ms, 0644);
MODULE_PARM_DESC(window_ms, "window length in ms (100..600000; default 2500); a change applies from the next window");

static void window_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(window_work, window_work_fn);

static void window_work_fn(struct work_struct *work)
{
	spoor_ra_close_window(false);
	schedule_delayed_work(&window_work, msecs_to_jiffies(READ_ONCE(window_ms)));
}

void spoor_ra_close_window_now(bool forget_ends)
{
	spoor_ra_close_window(forget_ends);
	mod_delayed_work(system_wq, &window_work, msecs_to_jiffies(READ_ONCE(window_ms)));
}

static int __init spoor_ra_init(void)
{
	int err;

	spoor_ra_model_init();
	err = spoor_ra_readahead_check_params();
	if (err)
		return err;
	spoor_ra_start_windows();
	err = spoor_ra_sysfs_add();
	if (err)
		return err;
	err = spoor_ra_agree_add();
	if (err)
		goto no_device;
	err = spoor_ra_attach_probes();
	if (err)
		goto no_probes;
	schedule_delayed_work(&window_work, msecs_to_jiffies(window_ms));
	pr_info("spoor_ra: counting block requests, windows of %u ms\n", window_ms);
	return 0;
no_probes:
	spoor_ra_agree_remove();
no_device:
	spoor_ra_sysfs_remove();
	/* probes attached before one failed may have claimed disks */
	spoor_ra_readahead_release();
	return err;
}

static void __exit spoor_ra_exit(void)
{
	/* first, so that no write to close re-arms the work once cancelled */
	spoor_ra_sysfs_remove();
	spoor_ra_detach_probes();
	/* the work re-arms itself: this cancels it for good */
	cancel_delayed_work_sync(&window_work);
	spoor_ra_agree_remove();
	/* no window closes now: readahead restored, disks let go */
	spoor_ra_readahead_release();
}

module_init(spoor_ra_init);
module_exit(spoor_ra_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("spoor readahead: block request windows per device, classified by an exported model, set the device's readahead");
