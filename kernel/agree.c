// SPDX-License-Identifier: GPL-2.0
/* /dev/spoor_ra_model, the agreement device: the model's prediction for a
 * feature vector given from user space, so that tests can hold the
 * module's classes against spoor predict's on any dataset.
 *
 * A write holds one line: the model's SPOOR_MODEL_NFEATURES inputs in Q16
 * (what spoor_model_predict_fixed takes), decimal integers separated by
 * blanks, a newline at the end or not. A read then returns "INDEX NAME\n",
 * the class, once; a read before any write, or a second read, returns 0
 * bytes (end of file). Anything else written (too few or too many numbers,
 * one that is no integer or out of range, a line too long, a NUL byte) is
 * -EINVAL. Each open has its own line and answer, guarded by its own mutex;
 * the model's calls are serialised by model.c. */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "spoor_ra.h"

/* "-9223372036854775808" and a blank, per input, and the newline */
enum { DIGITS_PER_INPUT = 21, ANSWER_MAX = 80 };

struct agree_file {
	struct mutex lock;
	size_t line_max;
	char answer[ANSWER_MAX];
	size_t answer_len; /* 0: nothing to read */
	long long *inputs; /* spoor_ra_model_nfeatures() of them */
	char *line; /* line_max + 1 bytes */
};

static int agree_open(struct inode *inode, struct file *file)
{
	unsigned int n = spoor_ra_model_nfeatures();
	struct agree_file *a = kzalloc(sizeof *a, GFP_KERNEL);

	if (!a)
		return -ENOMEM;
	a->line_max = (size_t)n * DIGITS_PER_INPUT + 1;
	a->inputs = kcalloc(n, sizeof *a->inputs, GFP_KERNEL);
	a->line = kmalloc(a->line_max + 1, GFP_KERNEL);
	if (!a->inputs || !a->line) {
		kfree(a->inputs);
		kfree(a->line);
		kfree(a);
		return -ENOMEM;
	}
	mutex_init(&a->lock);
	file->private_data = a;
	return 0;
}

static int agree_release(struct inode *inode, struct file *file)
{
	struct agree_file *a = file->private_data;

	kfree(a->inputs);
	kfree(a->line);
	kfree(a);
	return 0;
}

/* The line's numbers into a->inputs; false unless exactly all of them. */
static bool parse_inputs(struct agree_file *a)
{
	unsigned int n = spoor_ra_model_nfeatures(), i = 0;
	char *at = a->line, *word;

	for (;;) {
		at = skip_spaces(at);
		if (!*at)
			return i == n;
		word = at;
		while (*at && !isspace(*at))
			at++;
		if (*at)
			*at++ = '\0';
		if (i == n || kstrtoll(word, 10, &a->inputs[i++]))
			return false;
	}
}

static ssize_t agree_write(struct file *file, const char __user *buf, size_t count, loff_t *pos)
{
	struct agree_file *a = file->private_data;
	ssize_t ret = count;
	int cls;

	mutex_lock(&a->lock);
	a->answer_len = 0; /* a refused line leaves no answer either */
	if (count > a->line_max) {
		ret = -EINVAL;
		goto out;
	}
	if (copy_from_user(a->line, buf, count)) {
		ret = -EFAULT;
		goto out;
	}
	a->line[count] = '\0';
	/* one line a write, and no NUL byte in it */
	if (strlen(a->line) != count || (strchr(a->line, '\n') && strchr(a->line, '\n') != a->line + count - 1)) {
		ret = -EINVAL;
		goto out;
	}
	if (!parse_inputs(a)) {
		ret = -EINVAL;
		goto out;
	}
	cls = spoor_ra_model_predict(a->inputs);
	a->answer_len = scnprintf(a->answer, sizeof a->answer, "%d %s\n", cls, spoor_ra_model_class_name(cls));
out:
	mutex_unlock(&a->lock);
	return ret;
}

static ssize_t agree_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
{
	struct agree_file *a = file->private_data;
	ssize_t ret = 0;

	mutex_lock(&a->lock);
	if (a->answer_len) {
		ret = min(count, a->answer_len);
		if (copy_to_user(buf, a->answer, ret))
			ret = -EFAULT;
		a->answer_len = 0;
	}
	mutex_unlock(&a->lock);
	return ret;
}

static const struct file_operations agree_fops = {
	.owner = THIS_MODULE,
	.open = agree_open,
	.release = agree_release,
	.read = agree_read,
	.write = agree_write,
	.llseek = noop_llseek,
};

static struct miscdevice agree_device = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "spoor_ra_model",
	.fops = &agree_fops,
	.mode = 0600,
};

int spoor_ra_agree_add(void)
{
	return misc_register(&agree_device);
}

void spoor_ra_agree_remove(void)
{
	misc_deregister(&agree_device);
}
