// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: acting when fork fails for lack of pids or threads.
 *
 * On a machine with plenty of memory a fork bomb never reaches OOM: fork
 * starts failing with -EAGAIN once kernel.threads-max, kernel.pid_max or
 * the user's RLIMIT_NPROC is exhausted, and stays so. copy_process() tells
 * us (forkbomb_fork_failed()), and the failing task has the same scan as
 * the OOM path run right there, weighing subtrees by processes instead of
 * memory, and the bomb killed the same way. That needs no thread to be
 * created, which could not be now, and no CPU to come free behind
 * thousands of runnable bomb processes (the scan runs in the real-time
 * fbk_killer thread): the kill comes within the failed fork.
 *
 * When the user is over RLIMIT_NPROC, only that user's processes are
 * scored and killed; when the task's pids cgroup (or one above it) is at
 * its pids.max, only the processes in that cgroup's subtree: a bomb that
 * fills its container is removed from that container alone, however few
 * processes it holds next to the host's. Otherwise (threads-max, pid_max)
 * every process is in scope. Either way the bomb must hold at least half
 * of the threads in scope: each took a pid, and counts against the limit.
 *
 * A spawner (one process forking children that stay) is only killed once
 * it keeps failing: a bounded job that hits its limit stops after a few
 * failed forks, a runaway spawner does not (fbk_spawner_confirmed()). Its
 * failures are noted as they happen, whichever task runs the scans.
 */

#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/forkbomb.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/oom.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/user_namespace.h>
#include "forkbomb_internal.h"

/* Scans after a kill or while a spawner is watched come soon, else less so. */
#define FBK_RETRY_SOON_JIFFIES		(HZ / 20)
#define FBK_RETRY_IDLE_JIFFIES		HZ

static unsigned long fbk_next_scan_at = INITIAL_JIFFIES;
/* Forks have kept failing since @fbk_exhausted_at, last at @fbk_failed_at. */
static unsigned long fbk_exhausted_at = INITIAL_JIFFIES;
static unsigned long fbk_failed_at = INITIAL_JIFFIES;

/* The spawner the scans found, and whether it keeps failing. */
static struct fbk_spawner_watch fbk_spawner_watch;
/* The last scan found a spawner (oom_lock). */
static bool fbk_spawner_watched;

/**
 * fbk_spawner_confirmed - does the spawner a scan found keep failing?
 * @top: the spawner's record, as the scan found it
 *
 * Whichever task runs the scan: the forks that fail in the spawner itself
 * are noted by __forkbomb_fork_failed() (a wide bomb whose first process
 * filled the limit with children has them all failing too, and one of
 * them runs most scans). See fbk_spawner_watch_confirm().
 *
 * Context: fbk_history_rwsem held, on behalf of the failing fork, which
 * holds oom_lock.
 * Return: true when the spawner may be killed.
 */
bool fbk_spawner_confirmed(const struct fbk_node *top)
{
	fbk_spawner_watched = true;
	return fbk_spawner_watch_confirm(&fbk_spawner_watch, top, jiffies);
}

/* The pids cgroup that stops the current task's forks, with a reference. */
static struct cgroup *fbk_pids_cgroup_at_limit(void)
{
#ifdef CONFIG_CGROUP_PIDS
	return pids_cgroup_at_limit(current);
#else
	return NULL;
#endif
}

static void fbk_pids_cgroup_put(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUP_PIDS
	if (cgrp)
		cgroup_put(cgrp);
#endif
}

/**
 * __forkbomb_fork_failed - fork failed with -EAGAIN
 *
 * Called by the failing copy_process(), which holds no lock and may sleep.
 * Rate limited; a task that is itself dying, a kernel thread or an
 * io_uring worker only counts the failure.
 */
void __forkbomb_fork_failed(void)
{
	struct fbk_scope scope = { .confirm_spawner = true };
	unsigned long now = jiffies, retry;
	enum fbk_result result;

	atomic_long_inc(&fbk_fork_failures);
	/* Racy, and only written when it changes: close enough. */
	if (READ_ONCE(fbk_failed_at) != now) {
		if (time_after(now, READ_ONCE(fbk_failed_at) + HZ))
			WRITE_ONCE(fbk_exhausted_at, now);
		WRITE_ONCE(fbk_failed_at, now);
	}
	/* current->mm is stable in current; the record is only compared. */
	if (current->mm)
		fbk_spawner_watch_failed(&fbk_spawner_watch,
					 fbk_mm_node(current->mm), now);
	if (!(READ_ONCE(fbk_triggers) & FBK_TRIGGER_FORK_FAIL) ||
	    time_before(jiffies, READ_ONCE(fbk_next_scan_at)) ||
	    (current->flags & (PF_KTHREAD | PF_IO_WORKER)) ||
	    fatal_signal_pending(current))
		return;
	if (!mutex_trylock(&oom_lock))
		return;
	if (time_before(jiffies, fbk_next_scan_at))
		goto unlock;

	scope.exhausted_at = READ_ONCE(fbk_exhausted_at);
	/* RLIMIT_NPROC does not bind root: its forks fail on global limits. */
	scope.uid = current_uid();
	scope.by_uid = !uid_eq(scope.uid, GLOBAL_ROOT_UID) &&
		       get_rlimit_value(current_ucounts(), UCOUNT_RLIMIT_NPROC) >=
		       rlimit(RLIMIT_NPROC);
	if (!scope.by_uid)
		scope.pids_cgroup = fbk_pids_cgroup_at_limit();
	fbk_spawner_watched = false;
	result = fbk_scan_and_kill(&scope);
	fbk_pids_cgroup_put(scope.pids_cgroup);
	retry = result == FBK_RESULT_NONE && !fbk_spawner_watched ?
		FBK_RETRY_IDLE_JIFFIES : FBK_RETRY_SOON_JIFFIES;
	WRITE_ONCE(fbk_next_scan_at, jiffies + retry);
unlock:
	mutex_unlock(&oom_lock);
}
