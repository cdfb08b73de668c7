// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: the knobs under /sys/kernel/mm/oom/, all of them.
 *
 * mm_tracking_* control and count the history (forkbomb.c,
 * forkbomb_reaper.c), forkbomb_* the killer (forkbomb_kill.c,
 * forkbomb_forkfail.c). Writes are root only (mode 0644). A value that
 * does not parse, is out of range or has trailing junk is rejected with
 * -EINVAL and the knob keeps its value.
 * Documentation/ABI/testing/sysfs-kernel-mm-oom lists them all.
 */

#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/threads.h>
#include "forkbomb_internal.h"

/**
 * fbk_parse_uint - parse a knob's unsigned value
 * @buf: what was written: decimal digits, optionally a newline
 * @min: smallest value accepted
 * @max: largest value accepted
 * @val: the value, on success
 *
 * Return: 0, or -EINVAL for anything else, an overflow or a value out of
 * range.
 */
int fbk_parse_uint(const char *buf, unsigned int min, unsigned int max,
		   unsigned int *val)
{
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v < min || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

static ssize_t mm_tracking_enabled_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", fbk_tracking() ? "enabled" : "disabled");
}

static ssize_t mm_tracking_enabled_store(struct kobject *kobj,
					 struct kobj_attribute *attr,
					 const char *buf, size_t count)
{
	bool enable;

	if (sysfs_streq(buf, "enabled"))
		enable = true;
	else if (sysfs_streq(buf, "disabled"))
		enable = false;
	else
		return -EINVAL;

	mutex_lock(&fbk_mutex);
	if (enable != fbk_tracking()) {
		fbk_set_tracking(enable);
		fbk_reaper_sync();
	}
	mutex_unlock(&fbk_mutex);
	return count;
}

static ssize_t mm_tracking_reset_interval_msecs_show(struct kobject *kobj,
						     struct kobj_attribute *attr,
						     char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(fbk_interval_ms));
}

static ssize_t mm_tracking_reset_interval_msecs_store(struct kobject *kobj,
						      struct kobj_attribute *attr,
						      const char *buf, size_t count)
{
	unsigned int ms;

	if (fbk_parse_uint(buf, FBK_INTERVAL_MIN_MS, FBK_INTERVAL_MAX_MS, &ms))
		return -EINVAL;
	mutex_lock(&fbk_mutex);
	WRITE_ONCE(fbk_interval_ms, ms);
	fbk_reaper_sync();
	mutex_unlock(&fbk_mutex);
	return count;
}

static ssize_t mm_tracking_records_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(fbk_tree.nr_records));
}

static ssize_t mm_tracking_max_records_show(struct kobject *kobj,
					    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(fbk_max_records));
}

static ssize_t mm_tracking_max_records_store(struct kobject *kobj,
					     struct kobj_attribute *attr,
					     const char *buf, size_t count)
{
	unsigned int max;

	if (fbk_parse_uint(buf, FBK_MIN_RECORDS, FBK_MAX_RECORDS, &max))
		return -EINVAL;
	WRITE_ONCE(fbk_max_records, max);
	return count;
}

static ssize_t mm_tracking_records_dropped_show(struct kobject *kobj,
						struct kobj_attribute *attr,
						char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&fbk_records_dropped));
}

static ssize_t forkbomb_min_descendants_show(struct kobject *kobj,
					     struct kobj_attribute *attr,
					     char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(fbk_min_descendants));
}

static ssize_t forkbomb_min_descendants_store(struct kobject *kobj,
					      struct kobj_attribute *attr,
					      const char *buf, size_t count)
{
	unsigned int min;

	if (fbk_parse_uint(buf, 2, PID_MAX_LIMIT, &min))
		return -EINVAL;
	WRITE_ONCE(fbk_min_descendants, min);
	return count;
}

static ssize_t forkbomb_triggers_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return fbk_format_triggers(READ_ONCE(fbk_triggers), buf, PAGE_SIZE);
}

static ssize_t forkbomb_triggers_store(struct kobject *kobj,
				       struct kobj_attribute *attr,
				       const char *buf, size_t count)
{
	unsigned int mask;

	if (fbk_parse_triggers(buf, &mask))
		return -EINVAL;
	WRITE_ONCE(fbk_triggers, mask);
	return count;
}

static ssize_t forkbomb_kills_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&fbk_kills));
}

static ssize_t forkbomb_tasks_killed_show(struct kobject *kobj,
					  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&fbk_tasks_killed));
}

static ssize_t forkbomb_fork_failures_show(struct kobject *kobj,
					   struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&fbk_fork_failures));
}

static struct kobj_attribute fbk_enabled_attr = __ATTR_RW(mm_tracking_enabled);
static struct kobj_attribute fbk_interval_attr =
	__ATTR_RW(mm_tracking_reset_interval_msecs);
static struct kobj_attribute fbk_records_attr = __ATTR_RO(mm_tracking_records);
static struct kobj_attribute fbk_max_records_attr =
	__ATTR_RW(mm_tracking_max_records);
static struct kobj_attribute fbk_dropped_attr =
	__ATTR_RO(mm_tracking_records_dropped);
static struct kobj_attribute fbk_min_descendants_attr =
	__ATTR_RW(forkbomb_min_descendants);
static struct kobj_attribute fbk_triggers_attr = __ATTR_RW(forkbomb_triggers);
static struct kobj_attribute fbk_kills_attr = __ATTR_RO(forkbomb_kills);
static struct kobj_attribute fbk_tasks_killed_attr =
	__ATTR_RO(forkbomb_tasks_killed);
static struct kobj_attribute fbk_fork_failures_attr =
	__ATTR_RO(forkbomb_fork_failures);

static struct attribute *fbk_attrs[] = {
	&fbk_enabled_attr.attr,
	&fbk_interval_attr.attr,
	&fbk_records_attr.attr,
	&fbk_max_records_attr.attr,
	&fbk_dropped_attr.attr,
	&fbk_min_descendants_attr.attr,
	&fbk_triggers_attr.attr,
	&fbk_kills_attr.attr,
	&fbk_tasks_killed_attr.attr,
	&fbk_fork_failures_attr.attr,
	NULL,
};

static const struct attribute_group fbk_attr_group = {
	.attrs = fbk_attrs,
};

static int __init fbk_sysfs_init(void)
{
	struct kobject *kobj;
	int err;

	kobj = kobject_create_and_add("oom", mm_kobj);
	if (!kobj)
		return -ENOMEM;
	err = sysfs_create_group(kobj, &fbk_attr_group);
	if (err)
		kobject_put(kobj);
	return err;
}
subsys_initcall(fbk_sysfs_init);
