// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: keeping the history tree from fork, exec and exit.
 *
 * Every address space created by fork (not CLONE_VM) or exec gets a
 * record, linked to the record of the address space it came from. The
 * record outlives its mm: the reaper (forkbomb_reaper.c) forgets it later.
 *
 * Locking:
 *
 *  fbk_lock (spinlock) guards the structure of the forest, the records'
 *  @nr_mm, @died_at and @history, the mm->fbk_node links and fbk_active.
 *  Fork, exec and mm release take it for a handful of instructions, and
 *  so does the reaper for each step of its prune (FBK_BATCH records). It
 *  is the only lock fork, exec and exit take.
 *
 *  fbk_history_rwsem guards the records' lifetime: scans hold it for
 *  reading while they walk the forest, whoever frees records (the reaper,
 *  disabling) holds it for writing. Scans walk locklessly alongside
 *  fbk_link(), which only ever publishes initialized records at the head
 *  of a list, so a scan never stops fork or exit. It is a sleeping lock:
 *  scans and frees proceed in bounded steps with cond_resched() between
 *  them, and the writer lets readers in between its steps.
 *
 *  Lock order: fbk_mutex -> fbk_history_rwsem -> fbk_lock; a scan takes
 *  rcu_read_lock() and task_lock inside fbk_history_rwsem, for a bounded
 *  number of processes at a time. Records are allocated before any of
 *  these is taken, never under them.
 *
 *  mm->fbk_node is only valid while mm->fbk_gen equals fbk_gen: disabling
 *  tracking frees every record and advances fbk_gen first (under both
 *  locks), so the mms that still point to a freed record are recognised
 *  without having to find them.
 */

#include <linux/forkbomb.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "forkbomb_internal.h"

DEFINE_STATIC_KEY_FALSE(forkbomb_tracking_key);

DEFINE_SPINLOCK(fbk_lock);
DECLARE_RWSEM(fbk_history_rwsem);
/* Serializes enabling, disabling and the reaper. */
DEFINE_MUTEX(fbk_mutex);

struct fbk_tree fbk_tree;
static bool fbk_active;			/* fbk_lock */
static unsigned int fbk_gen;		/* fbk_lock and fbk_history_rwsem to write */
static struct kmem_cache *fbk_cache;

/* When the reaper last found the system calm, in jiffies. */
unsigned long fbk_calm_at;
/* Cap on the records of the forest; see fbk_link_mm(). */
unsigned long fbk_max_records;
/* Records not kept: allocation failed, over the cap, or trimmed by the cap. */
atomic_long_t fbk_records_dropped = ATOMIC_LONG_INIT(0);
/* Failed forks: a sign of stress for the reaper. */
atomic_long_t fbk_fork_failures = ATOMIC_LONG_INIT(0);

/**
 * fbk_mm_node - the record of an address space
 * @mm: the address space
 *
 * Context: fbk_lock or fbk_history_rwsem held, @mm stable.
 * Return: the record, or NULL when @mm is not tracked.
 */
struct fbk_node *fbk_mm_node(struct mm_struct *mm)
{
	struct fbk_node *node = READ_ONCE(mm->fbk_node);

	/* Pairs with smp_store_release() in fbk_link_forked(). */
	if (!node || smp_load_acquire(&mm->fbk_forking) ||
	    READ_ONCE(mm->fbk_gen) != fbk_gen)
		return NULL;
	return node;
}

static void fbk_set_mm_node(struct mm_struct *mm, struct fbk_node *node)
{
	WRITE_ONCE(mm->fbk_gen, fbk_gen);
	WRITE_ONCE(mm->fbk_node, node);
}

/*
 * A new record, zeroed, when the history may grow. Never reclaims nor
 * calls the OOM killer for it: without one, the process joins its
 * parent's record (fbk_link_mm()).
 */
static struct fbk_node *fbk_alloc(void)
{
	if (READ_ONCE(fbk_tree.nr_records) >= READ_ONCE(fbk_max_records))
		return NULL;
	return kmem_cache_zalloc(fbk_cache, GFP_NOWAIT | __GFP_NOWARN);
}

/*
 * Give @mm the record @node (which may be NULL) below the record of
 * @parent_mm (which may be NULL); @history is FBK_EXEC for an exec.
 * Return: @node when it was not used, for the caller to free.
 */
static struct fbk_node *fbk_link_mm(struct mm_struct *parent_mm,
				    struct mm_struct *mm,
				    struct fbk_node *node, u8 history)
{
	struct fbk_node *parent;

	spin_lock(&fbk_lock);
	if (!fbk_active)
		goto unlock;
	parent = parent_mm ? fbk_mm_node(parent_mm) : NULL;
	if (!node || fbk_tree.nr_records >= fbk_max_records) {
		/*
		 * No record of its own: the process joins its parent's, so
		 * it still counts with its family and dies with it.
		 */
		atomic_long_inc(&fbk_records_dropped);
		if (parent) {
			parent->nr_mm++;
			fbk_set_mm_node(mm, parent);
		}
		goto unlock;
	}
	node->history = history;
	fbk_link(&fbk_tree, node, parent, jiffies);
	fbk_set_mm_node(mm, node);
	node = NULL;
unlock:
	spin_unlock(&fbk_lock);
	return node;
}

/**
 * __forkbomb_mm_fork - make the record of an address space created by fork
 * @oldmm: the parent's address space
 * @mm: the child's new copy of it
 *
 * The record waits in @mm (mm->fbk_forking) until the fork cannot fail
 * any more (fbk_link_forked()): a fork that fails later, on pid_max, on a
 * pids cgroup's pids.max or on a fatal signal, leaves nothing in the
 * history. Also notes the anonymous pages the child shares with its
 * parent copy-on-write, which are not its own (fbk_mm_own_pages()).
 */
void __forkbomb_mm_fork(struct mm_struct *oldmm, struct mm_struct *mm)
{
	mm->fbk_inherited_pages = get_mm_counter(mm, MM_ANONPAGES) +
				  get_mm_counter(mm, MM_SWAPENTS);
	mm->fbk_node = fbk_alloc();
	mm->fbk_forking = true;
}

/* Link the record of @p, a forked child (see __forkbomb_post_fork()). */
static void fbk_link_forked(struct task_struct *p)
{
	struct mm_struct *mm = p->mm;
	struct fbk_node *node;

	/* A kernel thread, a thread or a CLONE_VM child: no new mm. */
	if (!mm || !mm->fbk_forking)
		return;
	node = mm->fbk_node;
	WRITE_ONCE(mm->fbk_node, NULL);
	node = fbk_link_mm(current->mm, mm, node, 0);
	/* After the link: see fbk_mm_node(). */
	smp_store_release(&mm->fbk_forking, false);
	if (node)
		kmem_cache_free(fbk_cache, node);
}

/**
 * __forkbomb_post_fork - a child was forked and is visible
 * @p: the child, which has not run yet
 *
 * Links the record __forkbomb_mm_fork() made for its address space into
 * the history. Never fails: a child without a record of its own is
 * folded into its parent's. Until it is linked, the kill's walks take the
 * child for one still to come (fbk_kill_task()). While a fork bomb is
 * being killed, a child of it dies right here (fbk_kill_at_birth()).
 */
void __forkbomb_post_fork(struct task_struct *p)
{
	fbk_link_forked(p);
	if (unlikely(READ_ONCE(fbk_killing_mark)))
		fbk_kill_at_birth(p);
}

/**
 * __forkbomb_mm_exec - record the address space exec is about to install
 * @oldmm: the address space being replaced (NULL for a kernel thread)
 * @mm: the new one
 *
 * The new record is a child of the old one, which dies when exec drops
 * the old mm (a vfork child's new record is a child of its parent's).
 * While a fork bomb is being killed, a process of it that execs dies.
 */
void __forkbomb_mm_exec(struct mm_struct *oldmm, struct mm_struct *mm)
{
	struct fbk_node *node = fbk_link_mm(oldmm, mm, fbk_alloc(), FBK_EXEC);

	if (node)
		kmem_cache_free(fbk_cache, node);
	/* The old mm is still current's: its record tells. */
	if (unlikely(READ_ONCE(fbk_killing_mark)))
		fbk_kill_at_birth(current);
}

/**
 * __forkbomb_mm_release - an address space is gone
 * @mm: the address space, whose last user just left
 *
 * Its record dies but stays in the tree, with its family. Whether the
 * last process ended by exit() (a finished job) or by a signal (a killed
 * one) is noted: see the dead leaves in forkbomb_score.c.
 */
void __forkbomb_mm_release(struct mm_struct *mm)
{
	bool exited = (current->flags & PF_EXITING) &&
		      !(current->exit_code & 0x7f);
	struct fbk_node *node;

	/* The fork failed: its record never joined the history. */
	if (mm->fbk_forking) {
		if (mm->fbk_node)
			kmem_cache_free(fbk_cache, mm->fbk_node);
		mm->fbk_node = NULL;
		mm->fbk_forking = false;
		return;
	}
	spin_lock(&fbk_lock);
	node = fbk_mm_node(mm);
	if (node) {
		/* A victim of a kill is on its way: see fbk_victim_pending(). */
		if (READ_ONCE(node->doomed))
			atomic_long_inc(&fbk_victims_gone);
		fbk_node_put(&fbk_tree, node, jiffies, exited);
	}
	WRITE_ONCE(mm->fbk_node, NULL);
	spin_unlock(&fbk_lock);
}

/**
 * fbk_mm_own_pages - the memory only this address space holds
 * @mm: the address space
 *
 * Anonymous and swapped-out pages, less those it shared with its parent
 * copy-on-write when it was forked (which its parent counts), plus its
 * page tables. Killing every process of a pre-forking server frees each
 * of its shared pages once; this counts each of them once. Read as the OOM
 * killer reads the counters: approximately, without locks.
 *
 * Return: the number of pages.
 */
unsigned long fbk_mm_own_pages(struct mm_struct *mm)
{
	long anon = get_mm_counter(mm, MM_ANONPAGES) +
		    get_mm_counter(mm, MM_SWAPENTS) -
		    READ_ONCE(mm->fbk_inherited_pages);

	return max(anon, 0L) + mm_pgtables_bytes(mm) / PAGE_SIZE;
}

/**
 * fbk_free_list - free records removed from the forest
 * @freed: the list fbk_prune() or fbk_detach() filled
 *
 * Context: process context; may sleep between batches of FBK_BATCH.
 */
void fbk_free_list(struct hlist_head *freed)
{
	struct fbk_node *node;
	struct hlist_node *tmp;
	unsigned int n = 0;

	hlist_for_each_entry_safe(node, tmp, freed, sibling) {
		kmem_cache_free(fbk_cache, node);
		if (!(++n % FBK_BATCH))
			cond_resched();
	}
	INIT_HLIST_HEAD(freed);
}

/**
 * fbk_tracking - is tracking enabled?
 *
 * Return: true when the hooks record the history.
 */
bool fbk_tracking(void)
{
	return static_branch_unlikely(&forkbomb_tracking_key);
}

/**
 * fbk_set_tracking - enable or disable tracking
 * @enable: the new state
 *
 * Disabling forgets the whole history: once no hook uses the forest any
 * more, it is freed FBK_BATCH records at a time, fbk_history_rwsem held
 * for writing only for each batch, so that a scan (which the OOM killer
 * waits for, holding oom_lock) waits for one batch at most, not for a
 * million records. What a scan sees between the batches is a smaller
 * forest (fbk_detach() takes children before their parents) that no
 * process uses any more (fbk_mm_node()).
 * Enabling starts a fresh one.
 *
 * Context: process context, fbk_mutex held.
 */
void fbk_set_tracking(bool enable)
{
	struct fbk_walk walk = {};
	HLIST_HEAD(freed);

	lockdep_assert_held(&fbk_mutex);
	if (enable == fbk_tracking())
		return;
	if (enable) {
		WRITE_ONCE(fbk_calm_at, jiffies);
		spin_lock(&fbk_lock);
		fbk_active = true;
		spin_unlock(&fbk_lock);
		static_branch_enable(&forkbomb_tracking_key);
		return;
	}
	static_branch_disable(&forkbomb_tracking_key);
	down_write(&fbk_history_rwsem);
	spin_lock(&fbk_lock);
	fbk_active = false;
	fbk_gen++;
	spin_unlock(&fbk_lock);
	up_write(&fbk_history_rwsem);
	/* No hook links or puts a record from here on: the forest is ours. */
	while (!fbk_walk_done(&walk)) {
		down_write(&fbk_history_rwsem);
		fbk_detach(&fbk_tree, &walk, FBK_BATCH, &freed);
		up_write(&fbk_history_rwsem);
		fbk_free_list(&freed);
	}
}

static int __init fbk_init(void)
{
	BUILD_BUG_ON(sizeof(struct fbk_node) > 64);

	fbk_cache = KMEM_CACHE(fbk_node, 0);
	if (!fbk_cache)
		return -ENOMEM;
	fbk_tree_init(&fbk_tree);
	/* Records may take up to 1/256 of memory: 16k records for 256 MiB. */
	fbk_max_records = max_t(unsigned long, FBK_MIN_RECORDS,
				(totalram_pages() << PAGE_SHIFT) / 256 /
				sizeof(struct fbk_node));
	mutex_lock(&fbk_mutex);
	fbk_set_tracking(true);
	mutex_unlock(&fbk_mutex);
	return 0;
}
subsys_initcall(fbk_init);
