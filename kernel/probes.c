// SPDX-License-Identifier: GPL-2.0
/* The block layer's request tracepoints, found by name (they are not
 * exported to modules as symbols) and probed. The probes' signatures are
 * those of include/trace/events/block.h in 6.1, after the probe's data. */
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "spoor_ra.h"

static void on_issue(void *data, struct request *rq)
{
	spoor_ra_count_issue(rq);
}

static void on_complete(void *data, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	spoor_ra_count_completion(rq, nr_bytes);
}

static void on_requeue(void *data, struct request *rq)
{
	spoor_ra_count_requeue(rq);
}

struct probe {
	const char *tracepoint;
	void *func;
	struct tracepoint *tp; /* found; NULL until then */
};

static struct probe probes[] = {
	{ "block_rq_issue", on_issue },
	{ "block_rq_complete", on_complete },
	{ "block_rq_requeue", on_requeue },
};

static void find_tracepoint(struct tracepoint *tp, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(tp->name, probes[i].tracepoint))
			probes[i].tp = tp;
}

static void detach_first(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(probes[n].tp, probes[n].func, NULL);
	/* no probe may still be running when the module's code goes away */
	tracepoint_synchronize_unregister();
}

int spoor_ra_attach_probes(void)
{
	unsigned int i;
	int err;

	for_each_kernel_tracepoint(find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (!probes[i].tp) {
			pr_err("spoor_ra: the kernel has no tracepoint %s\n", probes[i].tracepoint);
			detach_first(i);
			return -ENOENT;
		}
		err = tracepoint_probe_register(probes[i].tp, probes[i].func, NULL);
		if (err) {
			pr_err("spoor_ra: cannot probe %s (%d)\n", probes[i].tracepoint, err);
			detach_first(i);
			return err;
		}
	}
	return 0;
}

void spoor_ra_detach_probes(void)
{
	detach_first(ARRAY_SIZE(probes));
}
