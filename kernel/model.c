// SPDX-License-Identifier: GPL-2.0
/* The classifier: the header `spoor export-model --fixed-point --prefix
 * spoor_model` wrote, chosen at build time (make MODEL=/abs/path/model.h;
 * readahead_model.h by default). At load its feature names are looked up
 * among the window columns (window_columns.c): when all are found and its
 * action is readahead_kb, windows are classified; any model still serves the
 * agreement device (agree.c), which gives it the inputs itself.
 *
 * Every prediction holds predict_lock: a header exported with
 * --static-buffers keeps its arrays static (not reentrant), and the window
 * input below is static too, so that no model's input size reaches the
 * stack. Predictions come from the window work and the device's writers,
 * never from the request path, so a mutex serves. */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "spoor_ra.h"
#include "window_columns.h"

#ifdef SPOOR_RA_MODEL
#include SPOOR_RA_MODEL
#else
#include "readahead_model.h"
#endif

static DEFINE_MUTEX(predict_lock);
/* Each feature's window column, valid when classifies. */
static unsigned int feature_op[SPOOR_MODEL_NFEATURES], feature_column[SPOOR_MODEL_NFEATURES];
static bool classifies;
static long long window_input[SPOOR_MODEL_NFEATURES];

static bool has_readahead_action(void)
{
#ifdef SPOOR_MODEL_ACTION_NAME
	return !strcmp(SPOOR_MODEL_ACTION_NAME, "readahead_kb");
#else
	return false;
#endif
}

/* Maps each feature to its window column; the index of the first that is
 * none, or SPOOR_MODEL_NFEATURES when all are. */
static unsigned int map_features(void)
{
	unsigned int f;

	for (f = 0; f < SPOOR_MODEL_NFEATURES; f++)
		if (!spoor_wf_find_column(spoor_model_feature_names[f], &feature_op[f], &feature_column[f]))
			break;
	return f;
}

void spoor_ra_model_init(void)
{
	unsigned int unmapped = map_features();

	classifies = unmapped == SPOOR_MODEL_NFEATURES && has_readahead_action();
	if (classifies)
		pr_info("spoor_ra: classifying windows with a model of %d window features and %d classes\n",
			SPOOR_MODEL_NFEATURES, SPOOR_MODEL_NCLASSES);
	else if (unmapped < SPOOR_MODEL_NFEATURES)
		pr_info("spoor_ra: not classifying windows: the model's feature %s is no window column; agreement device only\n",
			spoor_model_feature_names[unmapped]);
	else
		pr_info("spoor_ra: not classifying windows: the model has no readahead_kb action; agreement device only\n");
}

bool spoor_ra_model_classifies(void)
{
	return classifies;
}

unsigned int spoor_ra_model_nfeatures(void)
{
	return SPOOR_MODEL_NFEATURES;
}

/* Not inlined, so that -fstack-usage shows the model's frame as this
 * function's (the header's predict is static inline); the stack check
 * (tests/kernel) holds it within SPOOR_MODEL_STACK_BYTES + 64. */
static noinline int spoor_ra_model_predict_locked(const long long *x)
{
	return spoor_model_predict_fixed(x);
}

int spoor_ra_model_predict(const long long *x)
{
	int cls;

	mutex_lock(&predict_lock);
	cls = spoor_ra_model_predict_locked(x);
	mutex_unlock(&predict_lock);
	return cls;
}

int spoor_ra_model_classify_window(const struct spoor_wf_features features[SPOOR_WF_NOPS])
{
	unsigned int f;
	int cls;

	if (!classifies)
		return -1;
	mutex_lock(&predict_lock);
	for (f = 0; f < SPOOR_MODEL_NFEATURES; f++)
		window_input[f] = spoor_wf_column_q16(features, feature_op[f], feature_column[f]);
	cls = spoor_ra_model_predict_locked(window_input);
	mutex_unlock(&predict_lock);
	return cls;
}

const char *spoor_ra_model_class_name(int cls)
{
	return cls >= 0 && cls < SPOOR_MODEL_NCLASSES ? spoor_model_class_names[cls] : "-";
}

u32 spoor_ra_model_action_kb(int cls)
{
#ifdef SPOOR_MODEL_ACTION_NAME
	long long kb = spoor_model_action[cls];

	return kb < 0 ? 0 : kb > U32_MAX ? U32_MAX : kb;
#else
	return 0;
#endif
}

/* One line: classifies=yes|no features=N classes=A,B,C action=NAME:KB,KB,KB
 * (action=- without one). */
int spoor_ra_model_show(char *buf)
{
	int at = sysfs_emit(buf, "classifies=%s features=%d classes=", classifies ? "yes" : "no",
			    SPOOR_MODEL_NFEATURES);
	int c;

	for (c = 0; c < SPOOR_MODEL_NCLASSES; c++)
		at += sysfs_emit_at(buf, at, "%s%s", c ? "," : "", spoor_model_class_names[c]);
#ifdef SPOOR_MODEL_ACTION_NAME
	at += sysfs_emit_at(buf, at, " action=%s:", SPOOR_MODEL_ACTION_NAME);
	for (c = 0; c < SPOOR_MODEL_NCLASSES; c++)
		at += sysfs_emit_at(buf, at, "%s%lld", c ? "," : "", spoor_model_action[c]);
#else
	at += sysfs_emit_at(buf, at, " action=-");
#endif
	return at + sysfs_emit_at(buf, at, "\n");
}
