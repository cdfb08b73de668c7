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
 * An unprivileged user can make its forks fail at will, and a user's scan
 * walks every process of the machine: the scans of users and pids
 * cgroups take a bounded share of the time together, however many
 * processes the machine holds and however many scopes fail
 * (FBK_SCAN_DUTY_FACTOR); a user with fewer threads than a bomb has
 * young processes is not scanned at all.
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
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/oom.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/user_namespace.h>
#include "forkbomb_internal.h"

/*
 * When fork failed, a spawner must keep failing this long after it was
 * found, without a pause longer than the gap.
 */
#define FBK_SPAWNER_CONFIRM_JIFFIES	(HZ / 4)
#define FBK_SPAWNER_GAP_JIFFIES		(HZ / 2)

/* Scopes whose forks fail, the least recently failing one replaced first. */
#define FBK_EXHAUSTIONS			8
static struct fbk_exhaustion fbk_exhaustions[FBK_EXHAUSTIONS];
/*
 * Until when the scans of every user and pids cgroup wait for the last
 * one's duty (fbk_scan_duty_jiffies()): however many scopes an
 * unprivileged user makes fail, their scans together take a bounded
 * share of the time.
 */
static unsigned long fbk_restricted_scan_at = INITIAL_JIFFIES;
static DEFINE_SPINLOCK(fbk_exhaustion_lock);

/* A failed fork of @node: note it in the watch of its spawner, if any. */
static void fbk_spawner_failed(struct fbk_exhaustion *ex,
			       const struct fbk_node *node, unsigned long now)
{
	struct fbk_spawner_watch *watch;
	unsigned int i;

	for (i = 0; node && i < FBK_WATCHED_SPAWNERS; i++) {
		watch = &ex->spawners[i];
		if (watch->top != node)
			continue;
		if (!watch->failing ||
		    time_after(now, watch->failed_at + FBK_SPAWNER_GAP_JIFFIES))
			watch->failing_since = now;
		watch->failed_at = now;
		watch->failing = true;
	}
}

/**
 * fbk_exhaustion_failed - a fork failed in a scope: note it
 * @table: the scopes whose forks fail
 * @size: the entries of @table
 * @key: the scope of the failed fork (0: the whole system)
 * @node: the record of the task whose fork failed (may be NULL)
 * @now: the time, in jiffies
 *
 * The scope's entry is found, or made in place of the one whose forks
 * failed longest ago. Its forks keep failing since the first failure
 * after a pause of FBK_EXHAUSTION_PAUSE_JIFFIES. A failure of a spawner
 * its scans found is noted for fbk_exhaustion_confirm().
 *
 * Context: the caller serializes the calls on @table.
 * Return: the scope's entry.
 */
struct fbk_exhaustion *fbk_exhaustion_failed(struct fbk_exhaustion *table,
					     unsigned int size, u64 key,
					     const struct fbk_node *node,
					     unsigned long now)
{
	struct fbk_exhaustion *ex = NULL, *oldest = &table[0];
	unsigned int i;

	for (i = 0; i < size; i++) {
		if (table[i].used && table[i].key == key) {
			ex = &table[i];
			break;
		}
		if (!table[i].used ||
		    (oldest->used && time_before(table[i].failed_at, oldest->failed_at)))
			oldest = &table[i];
	}
	if (!ex) {
		ex = oldest;
		memset(ex, 0, sizeof(*ex));
		ex->used = true;
		ex->key = key;
		ex->exhausted_at = now;
		ex->next_scan_at = now;
	} else if (time_after(now, ex->failed_at + FBK_EXHAUSTION_PAUSE_JIFFIES)) {
		ex->exhausted_at = now;
	}
	ex->failed_at = now;
	fbk_spawner_failed(ex, node, now);
	return ex;
}

/**
 * fbk_exhaustion_confirm - may the spawner a scan of a scope found be killed?
 * @ex: the scope's entry
 * @top: the spawner's record, as the scan found it
 * @now: the time, in jiffies
 *
 * A bounded job that hits its limit stops forking after a few failures (a
 * shell retries with growing pauses), a runaway spawner does not. The
 * first time @top is found, it is watched from then on, in place of the
 * spawner of the scope found longest ago. It is confirmed once its own
 * processes' forks have failed for FBK_SPAWNER_CONFIRM_JIFFIES without a
 * pause longer than FBK_SPAWNER_GAP_JIFFIES, the last one no longer than
 * that ago; the failures of its children do not count (a bomb's children
 * are killed with it, a bounded job's children may be failing for reasons
 * of their own).
 *
 * Context: the caller serializes the calls with fbk_exhaustion_failed().
 * Return: true when the spawner keeps failing.
 */
bool fbk_exhaustion_confirm(struct fbk_exhaustion *ex,
			    const struct fbk_node *top, unsigned long now)
{
	struct fbk_spawner_watch *watch = NULL, *oldest = &ex->spawners[0];
	unsigned int i;

	for (i = 0; i < FBK_WATCHED_SPAWNERS; i++) {
		if (ex->spawners[i].top == top)
			watch = &ex->spawners[i];
		else if (oldest->top &&
			 (!ex->spawners[i].top ||
			  time_before(ex->spawners[i].found_at, oldest->found_at)))
			oldest = &ex->spawners[i];
	}
	ex->spawner_watched = true;
	if (!watch) {
		memset(oldest, 0, sizeof(*oldest));
		oldest->top = top;
		oldest->found_at = now;
		return false;
	}
	watch->found_at = now;
	return watch->failing &&
	       !time_after(now, watch->failed_at + FBK_SPAWNER_GAP_JIFFIES) &&
	       !time_before(watch->failed_at,
			    watch->failing_since + FBK_SPAWNER_CONFIRM_JIFFIES);
}

/**
 * fbk_scan_duty_jiffies - how long after a restricted scan the next may run
 * @spent_ns: how long the scan took, its kill included
 *
 * FBK_SCAN_DUTY_FACTOR times @spent_ns, at most FBK_SCAN_DUTY_MAX_JIFFIES.
 *
 * Return: the wait, in jiffies.
 */
unsigned long fbk_scan_duty_jiffies(u64 spent_ns)
{
	u64 wait_ns = spent_ns * FBK_SCAN_DUTY_FACTOR;

	return min_t(unsigned long, nsecs_to_jiffies(wait_ns),
		     FBK_SCAN_DUTY_MAX_JIFFIES);
}

/**
 * fbk_exhaustion_scanned - when may a scope be scanned again?
 * @ex: the scope's entry
 * @found: the scan killed a bomb, or found the victims of a kill exiting
 * @spent_ns: how long the scan took, its kill included
 * @now: the time the scan ended, in jiffies
 *
 * Soon after a kill or while a spawner the scans found is watched
 * (FBK_RETRY_SOON_JIFFIES), else in FBK_RETRY_IDLE_JIFFIES; for a user or
 * a pids cgroup (@ex->key not 0), no sooner than fbk_scan_duty_jiffies().
 *
 * Context: the caller serializes the calls with fbk_exhaustion_failed().
 */
void fbk_exhaustion_scanned(struct fbk_exhaustion *ex, bool found,
			    u64 spent_ns, unsigned long now)
{
	unsigned long retry = FBK_RETRY_IDLE_JIFFIES;

	if (found || ex->spawner_watched)
		retry = FBK_RETRY_SOON_JIFFIES;
	if (ex->key)
		retry = max(retry, fbk_scan_duty_jiffies(spent_ns));
	ex->next_scan_at = now + retry;
}

/*
 * May the scope of @ex be scanned at @now? Not before its next scan's
 * time, nor, for a user or a pids cgroup, before the last such scan's
 * duty is over (a time no further ahead than the duty can be).
 * Context: fbk_exhaustion_lock.
 */
static bool fbk_may_scan(const struct fbk_exhaustion *ex, unsigned long now)
{
	if (time_before(now, ex->next_scan_at))
		return false;
	return !ex->key ||
	       !time_in_range_open(now, fbk_restricted_scan_at -
				   FBK_SCAN_DUTY_MAX_JIFFIES,
				   fbk_restricted_scan_at);
}

/* The entry of the scope @key, or NULL. Context: fbk_exhaustion_lock. */
static struct fbk_exhaustion *fbk_exhaustion_find(u64 key)
{
	unsigned int i;

	for (i = 0; i < FBK_EXHAUSTIONS; i++)
		if (fbk_exhaustions[i].used && fbk_exhaustions[i].key == key)
			return &fbk_exhaustions[i];
	return NULL;
}

/**
 * fbk_spawner_confirmed - does the spawner a scan found keep failing?
 * @scope: the scope of the scan
 * @top: the spawner's record, as the scan found it
 *
 * Whichever task runs the scan: the forks that fail in the spawner itself
 * are noted by __forkbomb_fork_failed() (a wide bomb whose first process
 * filled the limit with children has them all failing too, and one of
 * them runs most scans). See fbk_exhaustion_confirm().
 *
 * Context: fbk_history_rwsem held, on behalf of the failing fork, which
 * holds oom_lock.
 * Return: true when the spawner may be killed.
 */
bool fbk_spawner_confirmed(const struct fbk_scope *scope,
			   const struct fbk_node *top)
{
	struct fbk_exhaustion *ex;
	bool confirmed = false;

	spin_lock(&fbk_exhaustion_lock);
	ex = fbk_exhaustion_find(scope->key);
	if (ex)
		confirmed = fbk_exhaustion_confirm(ex, top, jiffies);
	spin_unlock(&fbk_exhaustion_lock);
	return confirmed;
}

/* The key of a scope: the system, a user or a pids cgroup. */
static u64 fbk_scope_key(const struct fbk_scope *scope)
{
	if (scope->by_uid)
		return BIT_ULL(63) | from_kuid(&init_user_ns, scope->uid);
#ifdef CONFIG_CGROUP_PIDS
	if (scope->pids_cgroup)
		return BIT_ULL(62) | cgroup_id(scope->pids_cgroup);
#endif
	return 0;
}

/*
 * The threads of the current task's user, when it is at its RLIMIT_NPROC
 * in its user namespace or in one above it (copy_process() checks every
 * level, each against the limit its namespace was created with); else 0.
 * Root is not held to RLIMIT_NPROC: its forks fail on global limits.
 */
static long fbk_user_at_nproc(void)
{
	unsigned long limit = rlimit(RLIMIT_NPROC);
	long max = min_t(unsigned long, limit, LONG_MAX), nr;
	struct ucounts *iter;

	if (uid_eq(current_uid(), GLOBAL_ROOT_UID))
		return 0;
	for (iter = current_ucounts(); iter; iter = iter->ns->ucounts) {
		/* The failed fork's thread is no longer counted: >=, not >. */
		nr = get_rlimit_value(iter, UCOUNT_RLIMIT_NPROC);
		if (nr >= max)
			return nr;
		max = get_userns_rlimit_max(iter->ns, UCOUNT_RLIMIT_NPROC);
	}
	return 0;
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
 * The failure is noted for its scope: the user when it is over
 * RLIMIT_NPROC (which does not bind root: its forks fail on global
 * limits), else the pids cgroup at its pids.max, else the system. The
 * scan is rate limited per scope (fbk_exhaustion_scanned()), and the
 * scans of users and pids cgroups together (fbk_may_scan()); a task that
 * is itself dying, a kernel thread or an io_uring worker only notes the
 * failure, and so does a user with fewer threads than min_descendants
 * (a bomb has at least that many young processes).
 */
void __forkbomb_fork_failed(void)
{
	struct fbk_scope scope = { .confirm_spawner = true };
	unsigned long now = jiffies, retry;
	struct fbk_exhaustion *ex;
	enum fbk_result result;
	long nr_user;
	u64 spent_ns;
	bool scan;

	atomic_long_inc(&fbk_fork_failures);
	scope.uid = current_uid();
	nr_user = fbk_user_at_nproc();
	scope.by_uid = nr_user > 0;
	if (!scope.by_uid)
		scope.pids_cgroup = fbk_pids_cgroup_at_limit();
	scope.key = fbk_scope_key(&scope);

	spin_lock(&fbk_exhaustion_lock);
	/* current->mm is stable in current; the record is only compared. */
	ex = fbk_exhaustion_failed(fbk_exhaustions, FBK_EXHAUSTIONS, scope.key,
				   current->mm ? fbk_mm_node(current->mm) : NULL,
				   now);
	scope.exhausted_at = ex->exhausted_at;
	scan = fbk_may_scan(ex, now);
	spin_unlock(&fbk_exhaustion_lock);

	/* Fewer threads than a bomb's young processes: no bomb to find. */
	if (scope.by_uid && nr_user < READ_ONCE(fbk_min_descendants))
		scan = false;
	if (!scan || !(READ_ONCE(fbk_triggers) & FBK_TRIGGER_FORK_FAIL) ||
	    (current->flags & (PF_KTHREAD | PF_IO_WORKER)) ||
	    fatal_signal_pending(current) || !mutex_trylock(&oom_lock))
		goto out;

	/* Another failure of the scope may have scanned meanwhile. */
	spin_lock(&fbk_exhaustion_lock);
	ex = fbk_exhaustion_find(scope.key);
	scan = ex && fbk_may_scan(ex, jiffies);
	if (scan) {
		ex->next_scan_at = jiffies + FBK_RETRY_IDLE_JIFFIES;
		ex->spawner_watched = false;
	}
	spin_unlock(&fbk_exhaustion_lock);
	if (scan) {
		result = fbk_scan_and_kill(&scope, &spent_ns);
		spin_lock(&fbk_exhaustion_lock);
		if (scope.key) {
			retry = fbk_scan_duty_jiffies(spent_ns);
			fbk_restricted_scan_at = jiffies + retry;
		}
		ex = fbk_exhaustion_find(scope.key);
		if (ex)
			fbk_exhaustion_scanned(ex, result != FBK_RESULT_NONE,
					       spent_ns, jiffies);
		spin_unlock(&fbk_exhaustion_lock);
	}
	mutex_unlock(&oom_lock);
out:
	fbk_pids_cgroup_put(scope.pids_cgroup);
}
