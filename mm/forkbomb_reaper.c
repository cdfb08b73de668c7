// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: the reaper, which forgets old history.
 *
 * Every fbk_interval_ms it looks for signs of stress since its last run:
 * an allocation stall, a kswapd run, an OOM kill, more processes than
 * before, or a failed fork. When there were none in this interval and the
 * one before, the system is calm: records that died before the previous
 * run are freed, and live records whose ancestry is freed become roots.
 * Asking for two quiet intervals in a row keeps a bomb that pauses for a
 * moment (processes exiting as fast as they fork) from being mistaken for
 * calm, which would make its history old. Under stress nothing is
 * forgotten that a scan could still use, so a fork bomb in the making
 * keeps its whole family on record: only leaves that died longer ago than
 * any scan looks back go. When three quarters of the cap on records
 * (fbk_max_records) are used, the reaper drops old leaves, which loses no
 * live process.
 */

#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/sched/stat.h>
#include <linux/spinlock.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>
#include "forkbomb_internal.h"

unsigned int fbk_interval_ms = 30000;

struct fbk_stress {
	unsigned long stalls;
	unsigned long kswapd_runs;
	unsigned long oom_kills;
	unsigned long fork_failures;
	int processes;
};

static struct fbk_stress fbk_last;	/* fbk_mutex */
static unsigned int fbk_quiet_runs;	/* fbk_mutex */
static unsigned long fbk_last_run_at;	/* fbk_mutex; jiffies */

static void fbk_reaper_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fbk_reaper_work, fbk_reaper_fn);

static void fbk_sample(struct fbk_stress *s)
{
#ifdef CONFIG_VM_EVENT_COUNTERS
	int cpu, zid;

	s->stalls = 0;
	s->kswapd_runs = 0;
	s->oom_kills = 0;
	for_each_online_cpu(cpu) {
		struct vm_event_state *ev = &per_cpu(vm_event_states, cpu);

		for (zid = 0; zid < MAX_NR_ZONES; zid++)
			s->stalls += ev->event[ALLOCSTALL_NORMAL - ZONE_NORMAL + zid];
		s->kswapd_runs += ev->event[PAGEOUTRUN];
		s->oom_kills += ev->event[OOM_KILL];
	}
#else
	s->stalls = 0;
	s->kswapd_runs = 0;
	s->oom_kills = 0;
#endif
	s->fork_failures = atomic_long_read(&fbk_fork_failures);
	s->processes = nr_processes();
}

/* Any sign of stress since the previous sample? */
static bool fbk_stressed(void)
{
	struct fbk_stress now;
	bool stressed;

	fbk_sample(&now);
	stressed = now.stalls != fbk_last.stalls ||
		   now.kswapd_runs != fbk_last.kswapd_runs ||
		   now.oom_kills != fbk_last.oom_kills ||
		   now.fork_failures != fbk_last.fork_failures ||
		   now.processes > fbk_last.processes;
	fbk_last = now;
	return stressed;
}

/*
 * Forget what died before @cutoff: FBK_BATCH records at a time under
 * fbk_lock, so that fork and exit wait at most that long, and scans let in
 * between the steps. A scan is never kept waiting: when one holds the
 * history, the reaper gives up until its next run (a writer that waits
 * for the rwsem would stop the next scan behind it, until the reaper's
 * worker got a CPU back from the fork bomb: seconds). Returns the records
 * forgotten.
 */
static unsigned long fbk_forget(unsigned long cutoff, bool reroot)
{
	struct fbk_walk walk = {};
	unsigned long removed = 0;
	HLIST_HEAD(freed);

	while (!fbk_walk_done(&walk)) {
		if (!down_write_trylock(&fbk_history_rwsem))
			break;
		spin_lock(&fbk_lock);
		removed += fbk_prune(&fbk_tree, &walk, cutoff, reroot, FBK_BATCH,
				     &freed);
		spin_unlock(&fbk_lock);
		up_write(&fbk_history_rwsem);
		fbk_free_list(&freed);
		cond_resched();
	}
	return removed;
}

static void fbk_reaper_fn(struct work_struct *work)
{
	unsigned long dropped = 0;
	bool calm;

	mutex_lock(&fbk_mutex);
	if (!fbk_tracking())
		goto out;
	fbk_quiet_runs = fbk_stressed() ? 0 : fbk_quiet_runs + 1;
	calm = fbk_quiet_runs >= 2;

	/*
	 * What died before the previous run is old. Under stress, what died
	 * longer ago than any scan looks back (FBK_BIRTH_SECONDS) and left no
	 * descendant goes all the same: on a host that is never calm (kswapd
	 * always running), the history then holds the live processes, the
	 * records that link them, and what exited in the last two minutes.
	 */
	if (calm)
		fbk_forget(fbk_last_run_at, true);
	else if (READ_ONCE(fbk_tree.nr_records) >= READ_ONCE(fbk_max_records) / 4 * 3)
		dropped = fbk_forget(fbk_last_run_at, false);
	else
		fbk_forget(jiffies - FBK_BIRTH_SECONDS * HZ, false);
	fbk_last_run_at = jiffies;

	if (calm)
		WRITE_ONCE(fbk_calm_at, jiffies);
	atomic_long_add(dropped, &fbk_records_dropped);
	queue_delayed_work(system_unbound_wq, &fbk_reaper_work,
			   msecs_to_jiffies(READ_ONCE(fbk_interval_ms)));
out:
	mutex_unlock(&fbk_mutex);
}

/**
 * fbk_reaper_sync - (re)start or stop the reaper after a knob changed
 *
 * Runs the reaper one interval from now when tracking is on, stops it
 * when it is off. Stress is measured from now on.
 *
 * Context: process context, fbk_mutex held.
 */
void fbk_reaper_sync(void)
{
	lockdep_assert_held(&fbk_mutex);
	if (fbk_tracking()) {
		fbk_sample(&fbk_last);
		fbk_quiet_runs = 0;
		fbk_last_run_at = jiffies;
		mod_delayed_work(system_unbound_wq, &fbk_reaper_work,
				 msecs_to_jiffies(READ_ONCE(fbk_interval_ms)));
	} else {
		/* Not _sync: the work takes fbk_mutex; it sees tracking off. */
		cancel_delayed_work(&fbk_reaper_work);
	}
}

static int __init fbk_reaper_init(void)
{
	mutex_lock(&fbk_mutex);
	fbk_reaper_sync();
	mutex_unlock(&fbk_mutex);
	return 0;
}
late_initcall(fbk_reaper_init);
