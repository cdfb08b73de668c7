// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: acting when fork fails for lack of pids or threads.
 *
 * On a machine with plenty of memory a fork bomb never reaches OOM: fork
 * starts failing with -EAGAIN once kernel.threads-max, kernel.pid_max or
 * the user's RLIMIT_NPROC is exhausted, and stays so. copy_process() tells
 * us (forkbomb_fork_failed()); the failing fork only counts and queues a
 * work item, which runs the same scan as the OOM path, weighing subtrees
 * by processes instead of memory, and kills the bomb the same way.
 *
 * When the user is over RLIMIT_NPROC, only that user's processes are
 * scored and killed. Otherwise (threads-max, pid_max, or a pids cgroup
 * limit, which fail the same way) every process is in scope, and a bomb
 * must hold at least half of them.
 */

#include <linux/cred.h>
#include <linux/forkbomb.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/oom.h>
#include <linux/sched/signal.h>
#include <linux/sysfs.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>
#include "forkbomb_internal.h"

/* Scans after a kill come quickly, scans that found nothing less so. */
#define FBK_RETRY_AFTER_KILL	(HZ / 10)
#define FBK_RETRY_AFTER_NONE	HZ

static unsigned long fbk_next_scan;	/* jiffies */
static kuid_t fbk_fail_uid;
static bool fbk_fail_nproc;

static void fbk_fork_fail_fn(struct work_struct *work)
{
	struct fbk_scope scope = {
		.by_uid = READ_ONCE(fbk_fail_nproc),
		.uid = READ_ONCE(fbk_fail_uid),
	};
	bool killed;

	mutex_lock(&oom_lock);
	killed = fbk_scan_and_kill(&scope);
	mutex_unlock(&oom_lock);
	WRITE_ONCE(fbk_next_scan, jiffies +
		   (killed ? FBK_RETRY_AFTER_KILL : FBK_RETRY_AFTER_NONE));
}

static DECLARE_WORK(fbk_fork_fail_work, fbk_fork_fail_fn);

/**
 * __forkbomb_fork_failed - fork failed with -EAGAIN
 *
 * Called by the failing copy_process(), so it only looks at the current
 * task, counts, and queues the scan; rate limited.
 */
void __forkbomb_fork_failed(void)
{
	struct ucounts *ucounts = current_ucounts();
	bool nproc;

	atomic_long_inc(&fbk_fork_failures);
	if (!(READ_ONCE(fbk_triggers) & FBK_TRIGGER_FORK_FAIL) ||
	    time_before(jiffies, READ_ONCE(fbk_next_scan)))
		return;
	/* RLIMIT_NPROC does not bind root: its forks fail on global limits. */
	nproc = !uid_eq(current_uid(), GLOBAL_ROOT_UID) &&
		get_rlimit_value(ucounts, UCOUNT_RLIMIT_NPROC) >= rlimit(RLIMIT_NPROC);
	WRITE_ONCE(fbk_fail_nproc, nproc);
	WRITE_ONCE(fbk_fail_uid, current_uid());
	queue_work(system_unbound_wq, &fbk_fork_fail_work);
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

static struct kobj_attribute fbk_triggers_attr = __ATTR_RW(forkbomb_triggers);

static struct attribute *fbk_fork_fail_attrs[] = {
	&fbk_triggers_attr.attr,
	NULL,
};

static const struct attribute_group fbk_fork_fail_attr_group = {
	.attrs = fbk_fork_fail_attrs,
};

static int __init fbk_fork_fail_init(void)
{
	return fbk_sysfs_add_group(&fbk_fork_fail_attr_group);
}
late_initcall(fbk_fork_fail_init);
