// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: finding the fork bomb in the history and killing it.
 *
 * out_of_memory() calls forkbomb_oom_kill() before it picks its ordinary
 * victim, and a failed fork calls the same scan (forkbomb_forkfail.c). A
 * scan scores the history tree with the live processes (see
 * forkbomb_score.c for the rule); when it finds a fork bomb, every live
 * process of the bomb is killed and the OOM counts as handled. When it
 * finds none, the ordinary OOM killer runs exactly as before.
 *
 * Like the OOM killer, a scan first waits for the victims of the last
 * kill: while one of them in scope has not exited (or, for an OOM, has not
 * been reaped), nothing else is killed.
 *
 * The kill is complete: the bomb's records are doomed first, and a record
 * linked below a doomed one is doomed at birth (fbk_link()), so whatever
 * the bomb forks while it is being killed bears the mark. The kill loop
 * runs under RCU, as the OOM killer's does, in passes until one finds no
 * process left to kill: a fork that completes after its parent's SIGKILL
 * fails ("Let kill terminate clone/fork in the middle"), and one that
 * completed before it is taken by the next pass. Processes of the bomb's
 * records that were not killed (out of scope, protected) are undoomed
 * afterwards, so that their later children are not taken for the bomb.
 *
 * No lock that fork or exit takes is held across a walk: the walks of
 * the forest hold only fbk_history_rwsem for reading (forks and exits go
 * on and link records meanwhile), the walks of the processes hold
 * rcu_read_lock() for FBK_TASK_BATCH processes at a time. The scan of a
 * memcg OOM or of a failure on pids.max walks the processes of its cgroup
 * only, as the OOM killer does for a memcg OOM, so that its cost follows
 * the cgroup's size; the cgroup's task iterator takes css_set_lock, with
 * interrupts off, for one step at a time. The kill walks every process
 * (see fbk_kill_doomed()).
 *
 * The scan and the kill run in a kernel thread, fbk_killer, at the lowest
 * real-time priority, on behalf of the task that ran out, which waits for
 * it (holding oom_lock). Being real-time, the thread gets a CPU at once,
 * however many processes a bomb keeps runnable, and it offers the CPU
 * between batches of processes to real-time tasks only: ordinary tasks,
 * the bomb's among them, wait until it is done. See fbk_walk_processes().
 */

#define pr_fmt(fmt) "forkbomb: " fmt

#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/forkbomb.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rwsem.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/swap.h>
#include <linux/wait.h>
#include "internal.h"
#include "forkbomb_internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/forkbomb.h>

/*
 * Victims of a kill that were not OOM victims are waited for as long as
 * one of them releases its memory every so often.
 */
#define FBK_VICTIM_WAIT_JIFFIES		(5 * HZ)
/* Victims of one kill given memory reserves and the OOM reaper. */
#define FBK_RESERVE_VICTIMS		64
/* Passes of the kill, at most; one more than a bomb's forks in flight. */
#define FBK_KILL_PASSES			8

unsigned int fbk_triggers = FBK_TRIGGERS_ALL;
unsigned int fbk_min_descendants = 10;
atomic_long_t fbk_kills = ATOMIC_LONG_INIT(0);
atomic_long_t fbk_tasks_killed = ATOMIC_LONG_INIT(0);
/* Address spaces of doomed records released (fbk_lock, or atomic). */
atomic_long_t fbk_victims_gone = ATOMIC_LONG_INIT(0);
/* When the records of eligible processes were born, for the scan (oom_lock). */
static struct fbk_births fbk_births;
/*
 * The last kill: its mark, and when it or the last exit of one of its
 * victims (fbk_victims_gone) was seen (oom_lock).
 */
static u8 fbk_doom_mark;
static unsigned long fbk_victims_moved_at = INITIAL_JIFFIES;
static long fbk_victims_gone_seen;
/*
 * The kill going on (fbk_kill_doomed()), for the children its processes
 * fork meanwhile: its mark (0: none) and its scope, valid while the mark
 * is set and for an RCU grace period after (see __forkbomb_post_fork()).
 */
u8 fbk_killing_mark;
static const struct fbk_scope *fbk_killing_scope;
/* Children killed at birth by forkbomb_post_fork(). */
static atomic_long_t fbk_killed_at_birth = ATOMIC_LONG_INIT(0);

/* What the kill loop saw, for the report. */
struct fbk_report {
	unsigned int tasks;
	unsigned long pages;		/* only theirs */
	unsigned long top_born_at;	/* birth time of the record of @pid */
	pid_t pid;			/* the bomb's top process among them */
	uid_t uid;
	char comm[TASK_COMM_LEN];
	pid_t spared_pid;		/* the spared top, if any and alive */
	char spared_comm[TASK_COMM_LEN];
	unsigned int passes;		/* walks of the processes */
	unsigned long tasks_at_birth;	/* forked during the kill, killed at birth */
	u64 scan_ns;			/* how long the scan took */
	u64 kill_ns;			/* and the kill */
};

static bool fbk_in_memcg(struct task_struct *p, struct mem_cgroup *memcg)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *task_memcg = mem_cgroup_from_task(p);

	return task_memcg && mem_cgroup_is_descendant(task_memcg, memcg);
#else
	return true;
#endif
}

/*
 * Would the OOM killer kill @p's whole memory cgroup (memory.oom.group),
 * up to @domain (NULL: the root)? As mem_cgroup_get_oom_group() decides.
 * Context: rcu_read_lock() held.
 */
static bool fbk_in_oom_group(struct task_struct *p, struct mem_cgroup *domain)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg;

	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys))
		return false;
	memcg = mem_cgroup_from_task(p);
	if (!memcg || mem_cgroup_is_root(memcg))
		return false;
	for (; memcg; memcg = parent_mem_cgroup(memcg)) {
		if (READ_ONCE(memcg->oom_group))
			return true;
		if (memcg == domain)
			break;
	}
#endif
	return false;
}

static bool fbk_in_scope(struct task_struct *p, const struct fbk_scope *scope)
{
	if (scope->memcg)
		return fbk_in_memcg(p, scope->memcg);
	if (scope->by_uid)
		return uid_eq(task_uid(p), scope->uid);
#ifdef CONFIG_CGROUP_PIDS
	if (scope->pids_cgroup)
		return cgroup_is_descendant(task_cgroup(p, pids_cgrp_id),
					    scope->pids_cgroup);
#endif
	return true;
}

/*
 * Is @p, a thread group leader, on its way out? As the OOM killer's
 * __task_will_free_mem() tells: the whole group is exiting, or it is a
 * single thread that is. A leader that called pthread_exit() is exiting
 * alone: its other threads live on, and so does the process.
 */
static bool fbk_dying(struct task_struct *p)
{
	return fatal_signal_pending(p) ||
	       (p->signal->flags & SIGNAL_GROUP_EXIT) ||
	       (thread_group_empty(p) && (p->flags & PF_EXITING));
}

/*
 * @p is a thread group leader, @t a thread of it that has the mm, locked.
 * A vfork child, which borrows its parent's mm until it execs, is not
 * counted (its parent counts the mm), but it is killed with its parent's
 * record (@kill): it would exec the bomb's next process.
 * Context: rcu_read_lock() held.
 */
static enum fbk_class fbk_task_class(struct task_struct *p,
				     struct task_struct *t,
				     const struct fbk_scope *scope, bool kill)
{
	struct fbk_task_info info = {
		.kthread = p->flags & PF_KTHREAD,
		.init = is_global_init(p),
		.adj_min = p->signal->oom_score_adj == OOM_SCORE_ADJ_MIN,
		.vfork = !kill && in_vfork(t),
		.dying = fbk_dying(p) || tsk_is_oom_victim(p) ||
			 test_bit(MMF_OOM_SKIP, &t->mm->flags),
		.in_scope = fbk_in_scope(p, scope),
	};

	return fbk_classify(&info);
}

/*
 * Is a victim of an earlier kill in scope still on its way out? An OOM
 * victim until the OOM reaper or exit_mmap() is done with its memory, as
 * the OOM killer waits; a process killed by the fork bomb killer until it
 * is gone, as long as its fellow victims keep going: one of them released
 * its memory within FBK_VICTIM_WAIT_JIFFIES (a thrashing machine takes a
 * minute to let thousands of them exit, and an ordinary OOM kill in the
 * meantime takes an innocent process).
 * Context: rcu_read_lock() held, @t locked.
 */
static bool fbk_victim_pending(struct task_struct *p, struct task_struct *t,
			       struct fbk_node *node,
			       const struct fbk_scope *scope)
{
	/* SysRq-F asks for a kill now, as the OOM killer's does. */
	if (scope->sysrq || !fbk_in_scope(p, scope))
		return false;
	if (scope->oom && !scope->sysrq && tsk_is_oom_victim(p))
		return !test_bit(MMF_OOM_SKIP, &p->signal->oom_mm->flags);
	return node && READ_ONCE(node->doomed) && fbk_dying(p) &&
	       time_before(jiffies, fbk_victims_moved_at + FBK_VICTIM_WAIT_JIFFIES);
}

/*
 * @p's share of @pages of @mm: the processes that use @mm (CLONE_VM
 * without CLONE_THREAD) share it as their threads do.
 */
static unsigned long fbk_mm_share(struct task_struct *p, struct mm_struct *mm,
				  unsigned long pages)
{
	unsigned long threads = get_nr_threads(p);
	unsigned long users = max(atomic_read(&mm->mm_users), 1);

	return pages * min(threads, users) / users;
}

/*
 * The weight of a process: for an OOM, what killing it frees, in pages:
 * its own memory (fbk_mm_own_pages(): each page counted once), shared
 * with the processes that use the same address space as their threads
 * share it, and the kernel stacks of its threads; when fork failed, its
 * threads. oom_score_adj does not change what a kill frees: it only
 * chooses the ordinary OOM killer's victim (fbk_badness()).
 */
static unsigned long fbk_task_weight(struct task_struct *p, struct mm_struct *mm,
				     const struct fbk_scope *scope)
{
	unsigned long threads = get_nr_threads(p);

	if (!scope->oom)
		return threads;
	return fbk_mm_share(p, mm, fbk_mm_own_pages(mm)) +
	       threads * (THREAD_SIZE >> PAGE_SHIFT);
}

/* The OOM killer's badness of @p (oom_badness()), @mm its locked mm. */
static long fbk_badness(struct task_struct *p, struct mm_struct *mm,
			const struct fbk_scope *scope)
{
	return get_mm_rss(mm) + get_mm_counter(mm, MM_SWAPENTS) +
	       mm_pgtables_bytes(mm) / PAGE_SIZE +
	       (long)p->signal->oom_score_adj * (long)(scope->totalpages / 1000);
}

/*
 * Visit every process of a scope (not kernel threads): @walk->visit returns
 * false to end the walk.
 *
 * In fbk_killer, a real-time thread (fbk_tree.may_yield, which it sets for
 * its scans), a walk offers the CPU every FBK_TASK_BATCH processes: a
 * real-time task waits for one batch at most (256 processes: about 4 ms
 * under TCG, where a walk of 100,000 takes 0.2-1.5 s). An ordinary task
 * must not: a fork bomb keeps thousands of tasks runnable, and a walk
 * that lets one run waits for a whole round of them (measured under TCG
 * with 1,500: a scan of 8 ms took 2-10 s when it yielded once, a kill of
 * 0.5-1.4 s took 11-26 s when it yielded between batches), while the bomb
 * forks on. So the fallback (no thread) and the debugfs dry run do not,
 * as the OOM killer's own walk does not.
 */
struct fbk_process_walk {
	bool (*visit)(struct task_struct *p, void *data);
	void *data;
};

/*
 * Every process of the system, FBK_TASK_BATCH at a time under
 * rcu_read_lock(), in the order of their pids, so that the walk resumes
 * where it stopped.
 */
static void fbk_walk_all_processes(const struct fbk_process_walk *walk)
{
	struct task_struct *p;
	struct pid *pid;
	int nr = 1, n;

	do {
		rcu_read_lock();
		for (n = 0; n < FBK_TASK_BATCH; n++) {
			pid = find_ge_pid(nr, &init_pid_ns);
			if (!pid)
				break;
			nr = pid_nr(pid) + 1;
			p = pid_task(pid, PIDTYPE_TGID);
			if (p && !(p->flags & PF_KTHREAD) &&
			    !walk->visit(p, walk->data)) {
				pid = NULL;
				break;
			}
		}
		rcu_read_unlock();
		if (fbk_tree.may_yield)
			cond_resched();
	} while (pid);
}

#ifdef CONFIG_CGROUPS
/*
 * Every process of @root's cgroup and of its descendants, as
 * mem_cgroup_scan_tasks() finds a memory cgroup's: the cost follows the
 * processes of the cgroup, not of the system. The task iterator holds its
 * place (and a reference to the task it returned) between two visits,
 * which are each under rcu_read_lock(); the descendant walk holds a
 * reference to the css whose tasks it walks, and RCU between two of them.
 */
static void fbk_walk_css_processes(struct cgroup_subsys_state *root,
				   const struct fbk_process_walk *walk)
{
	struct cgroup_subsys_state *pos;
	struct css_task_iter it;
	struct task_struct *p;
	unsigned int n = 0;
	bool more = true;

	rcu_read_lock();
	css_for_each_descendant_pre(pos, root) {
		if (!css_tryget(pos))
			continue;
		rcu_read_unlock();
		css_task_iter_start(pos, CSS_TASK_ITER_PROCS, &it);
		while (more && (p = css_task_iter_next(&it))) {
			if (!(p->flags & PF_KTHREAD)) {
				rcu_read_lock();
				more = walk->visit(p, walk->data);
				rcu_read_unlock();
			}
			if (!(++n % FBK_TASK_BATCH) && fbk_tree.may_yield)
				cond_resched();
		}
		css_task_iter_end(&it);
		rcu_read_lock();
		css_put(pos);
		if (!more)
			break;
	}
	rcu_read_unlock();
}

/*
 * The css whose processes are @scope's, with a reference: its memory
 * cgroup's or its pids cgroup's; NULL for the system (and the root memory
 * cgroup) and for a user, whose processes have no list of their own (a
 * user's scans are rate limited instead, see __forkbomb_fork_failed()).
 */
static struct cgroup_subsys_state *fbk_scope_css(const struct fbk_scope *scope)
{
#ifdef CONFIG_MEMCG
	if (scope->memcg && !mem_cgroup_is_root(scope->memcg)) {
		css_get(&scope->memcg->css);
		return &scope->memcg->css;
	}
#endif
#ifdef CONFIG_CGROUP_PIDS
	if (scope->pids_cgroup)
		return cgroup_get_e_css(scope->pids_cgroup, &pids_cgrp_subsys);
#endif
	return NULL;
}
#else
static void fbk_walk_css_processes(struct cgroup_subsys_state *root,
				   const struct fbk_process_walk *walk)
{
}

static struct cgroup_subsys_state *fbk_scope_css(const struct fbk_scope *scope)
{
	return NULL;
}
#endif

/*
 * Every process of @scope: its cgroup's, or the system's.
 * Return: true when the walk was of a cgroup's processes only.
 */
static bool fbk_walk_processes(const struct fbk_scope *scope,
			       const struct fbk_process_walk *walk)
{
	struct cgroup_subsys_state *css = fbk_scope_css(scope);

	if (!css) {
		fbk_walk_all_processes(walk);
		return false;
	}
	fbk_walk_css_processes(css, walk);
	css_put(css);
	return true;
}

struct fbk_scan_ctx {
	const struct fbk_scope *scope;
	struct fbk_policy *policy;
	long victim_badness;	/* the OOM killer's pick so far */
	bool pending;
};

/* The kernel thread that scans and kills (see fbk_scan_and_kill()). */
static struct task_struct *fbk_killer;

static bool fbk_in_killer(void)
{
	return current == fbk_killer;
}

/* Report one live process to the scan; stop when a victim is pending. */
static bool fbk_scan_task(struct task_struct *p, void *data)
{
	struct fbk_scan_ctx *ctx = data;
	const struct fbk_scope *scope = ctx->scope;
	struct fbk_policy *policy = ctx->policy;
	unsigned long weight = 0;
	bool oom_group = false;
	struct task_struct *t;
	struct fbk_node *node;
	enum fbk_class class;
	long badness = 0;

	policy->walked_tasks++;
	t = find_lock_task_mm(p);
	if (!t)
		return true;
	__acquire(&t->alloc_lock);	/* for sparse: t is locked */
	node = fbk_mm_node(t->mm);
	ctx->pending = fbk_victim_pending(p, t, node, scope);
	class = fbk_task_class(p, t, scope, false);
	if (class == FBK_COUNT) {
		weight = fbk_task_weight(p, t->mm, scope);
		if (scope->oom) {
			badness = fbk_badness(p, t->mm, scope);
			oom_group = fbk_in_oom_group(p, scope->memcg);
		}
	}
	task_unlock(t);
	if (ctx->pending)
		return false;

	if (class == FBK_COUNT) {
		policy->total_tasks++;
		policy->total_mass += weight;
		if (scope->oom && badness > ctx->victim_badness) {
			ctx->victim_badness = badness;
			policy->victim = node;
			policy->victim_mass = weight;
		}
	}
	if (node) {
		fbk_account(node, class, weight, &fbk_births);
		if (oom_group)
			fbk_account_oom_group(node);
	}
	return true;
}

/*
 * Report every live process to the scan.
 * Return: false when a victim of an earlier kill is still exiting.
 */
static bool fbk_scan_tasks(const struct fbk_scope *scope,
			   struct fbk_policy *policy)
{
	struct fbk_scan_ctx ctx = {
		.scope = scope, .policy = policy, .victim_badness = LONG_MIN,
	};
	struct fbk_process_walk walk = { .visit = fbk_scan_task, .data = &ctx };

	policy->cgroup_only = fbk_walk_processes(scope, &walk);
	return !ctx.pending;
}

/* Can the OOM reaper take @mm when @p dies, harming no other process? */
static bool fbk_mm_private(struct task_struct *p, struct mm_struct *mm)
{
	return !test_bit(MMF_MULTIPROCESS, &mm->flags) &&
	       atomic_read(&mm->mm_users) <= get_nr_threads(p);
}

struct fbk_kill_ctx {
	const struct fbk_scope *scope;
	const struct fbk_choice *choice;
	u8 mark;
	unsigned int killed;		/* in this pass */
	unsigned int in_flight;		/* forked, record not linked yet */
	unsigned int reserves;		/* victims given memory reserves */
	struct fbk_report *report;
};

/* SIGKILL one process if its record bears the doom mark. */
static bool fbk_kill_task(struct task_struct *p, void *data)
{
	struct fbk_kill_ctx *ctx = data;
	struct fbk_report *report = ctx->report;
	struct task_struct *t;
	struct fbk_node *node;
	struct mm_struct *mm;
	bool reap = false;

	/* Killed already (by an earlier pass, mostly): not worth the lock. */
	if (fbk_dying(p))
		return true;
	t = find_lock_task_mm(p);
	if (!t)
		return true;
	__acquire(&t->alloc_lock);	/* for sparse: t is locked */
	mm = t->mm;
	if (READ_ONCE(mm->fbk_forking)) {
		/* Its record is about to be linked, doomed or not: look again. */
		ctx->in_flight++;
		task_unlock(t);
		return true;
	}
	node = fbk_mm_node(mm);
	if (node && node == ctx->choice->top && ctx->choice->spared) {
		report->spared_pid = task_tgid_nr(p);
		strscpy(report->spared_comm, p->comm, sizeof(report->spared_comm));
	}
	if (!node || READ_ONCE(node->doomed) != ctx->mark ||
	    fbk_task_class(p, t, ctx->scope, true) != FBK_COUNT) {
		task_unlock(t);
		return true;
	}
	node->flags |= FBK_KILLED;

	if (!report->tasks || time_before(node->born_at, report->top_born_at)) {
		report->top_born_at = node->born_at;
		report->pid = task_tgid_nr(p);
		report->uid = from_kuid(&init_user_ns, task_uid(p));
		strscpy(report->comm, p->comm, sizeof(report->comm));
	}
	report->tasks++;
	report->pages += fbk_mm_share(p, mm, fbk_mm_own_pages(mm));
	ctx->killed++;

	if (ctx->scope->oom) {
		count_vm_event(OOM_KILL);
		memcg_memory_event_mm(mm, MEMCG_OOM_KILL);
	}
	do_send_sig_info(SIGKILL, SEND_SIG_PRIV, p, PIDTYPE_TGID);
	/*
	 * Memory reserves to exit and the OOM reaper behind, as the OOM
	 * killer gives its one victim, for the first FBK_RESERVE_VICTIMS; the
	 * others, which hold little each, exit on their own. Not where
	 * another process shares the mm.
	 */
	if (ctx->scope->oom && ctx->reserves < FBK_RESERVE_VICTIMS &&
	    fbk_mm_private(p, mm)) {
		mark_oom_victim(t);
		ctx->reserves++;
		reap = true;
	}
	task_unlock(t);
	if (reap)
		queue_oom_reaper(t);
	return true;
}

/*
 * SIGKILL every eligible process of @scope whose record bears the doom
 * @mark, under RCU as __oom_kill_process() does, FBK_TASK_BATCH at a time.
 * A child forked meanwhile is born doomed and killed at birth
 * (forkbomb_post_fork(), as cgroup.kill kills the children of a cgroup
 * being killed), or was visible before the pass reached its pid: a second
 * pass finds nobody new but the children forked before their parent's
 * SIGKILL, which the pass that killed the parent may have missed. The
 * passes end when one finds nobody, and no child whose record is still
 * being linked, after FBK_KILL_PASSES at most. They walk every process,
 * not the scope's cgroup: a child has its pid (and a record being linked)
 * before it is on its cgroup's task list (cgroup_post_fork()), and a pass
 * that did not see it could end the kill before the child reads the mark.
 */
static void fbk_kill_doomed(const struct fbk_scope *scope,
			    const struct fbk_choice *choice, u8 mark,
			    struct fbk_report *report)
{
	struct fbk_kill_ctx ctx = {
		.scope = scope, .choice = choice, .mark = mark, .report = report,
	};
	struct fbk_process_walk walk = { .visit = fbk_kill_task, .data = &ctx };
	long born_killed = atomic_long_read(&fbk_killed_at_birth);
	int pass;

	for (pass = 0; pass < FBK_KILL_PASSES; pass++) {
		ctx.killed = 0;
		ctx.in_flight = 0;
		fbk_walk_all_processes(&walk);
		report->passes++;
		if (!ctx.killed && !ctx.in_flight)
			break;
	}
	report->tasks_at_birth = atomic_long_read(&fbk_killed_at_birth) -
				 born_killed;
}

/**
 * fbk_kill_at_birth - kill a child of the bomb being killed
 * @p: the new process or thread, visible to the kill's walks already,
 *     its record linked; or the current task, which execs
 *
 * A child whose record bears the mark of the kill going on (it was forked
 * by a process of the bomb, see fbk_link()) and that the kill would take
 * is killed at once, as cgroup_post_fork() kills the children of a cgroup
 * being killed: the kill needs no pass for it, and ends however fast the
 * bomb forks on other CPUs. So is a process of the bomb that execs (a
 * vfork child of it, which the kill's walk may have passed, would exec
 * the bomb's next process).
 */
void fbk_kill_at_birth(struct task_struct *p)
{
	const struct fbk_scope *scope;
	struct fbk_node *node;
	struct task_struct *t;
	bool kill = false;
	u8 mark;

	rcu_read_lock();
	/* Pairs with smp_store_release() in __fbk_scan_and_kill(). */
	mark = smp_load_acquire(&fbk_killing_mark);
	scope = READ_ONCE(fbk_killing_scope);
	if (!mark || !scope)
		goto out;
	t = find_lock_task_mm(p);
	if (!t)
		goto out;
	__acquire(&t->alloc_lock);	/* for sparse: t is locked */
	node = fbk_mm_node(t->mm);
	kill = node && READ_ONCE(node->doomed) == mark &&
	       fbk_task_class(p, t, scope, true) == FBK_COUNT;
	if (kill && scope->oom) {
		count_vm_event(OOM_KILL);
		memcg_memory_event_mm(t->mm, MEMCG_OOM_KILL);
	}
	task_unlock(t);
	if (kill) {
		do_send_sig_info(SIGKILL, SEND_SIG_PRIV, p, PIDTYPE_TGID);
		atomic_long_inc(&fbk_killed_at_birth);
	}
out:
	rcu_read_unlock();
}

static const char *fbk_result_name(enum fbk_result result)
{
	switch (result) {
	case FBK_RESULT_KILLED:
		return "kill";
	case FBK_RESULT_WAIT:
		return "wait";
	default:
		return "none";
	}
}

static const char *fbk_trigger_name(const struct fbk_scope *scope)
{
	if (!scope->oom)
		return "fork_fail";
	return scope->memcg ? "memcg_oom" : "oom";
}

/* What ran out, for the report: "out of memory", "fork failed on ..." */
static void fbk_describe_scope(const struct fbk_scope *scope, char *buf,
			       size_t size)
{
	size_t __maybe_unused len;

	if (scope->oom) {
		strscpy(buf, scope->memcg ? "memory cgroup out of memory" :
			"out of memory", size);
		return;
	}
	if (scope->by_uid) {
		strscpy(buf, "fork failed on RLIMIT_NPROC", size);
		return;
	}
	strscpy(buf, scope->pids_cgroup ? "fork failed on pids.max of " :
		"fork failed", size);
#ifdef CONFIG_CGROUP_PIDS
	len = strlen(buf);
	if (scope->pids_cgroup)
		cgroup_path(scope->pids_cgroup, buf + len, size - len);
#endif
}

static void fbk_report(const struct fbk_scope *scope,
		       const struct fbk_report *report,
		       const struct fbk_choice *choice)
{
	unsigned long kb = report->pages << (PAGE_SHIFT - 10);
	const char *shape = fbk_shape_name(choice->shape);
	const struct fbk_profile *prof = &choice->profile;
	unsigned long tasks = report->tasks + report->tasks_at_birth;
	char why[96];

	fbk_describe_scope(scope, why, sizeof(why));
	pr_err("%s: killed fork bomb (%s): top pid %d (%s), uid %u, %lu tasks killed, %lu kB of their own memory\n",
	       why, shape, report->pid, report->comm, report->uid, tasks, kb);
	if (report->spared_pid)
		pr_info("its parent pid %d (%s) was not part of it and lives\n",
			report->spared_pid, report->spared_comm);
	pr_info("evidence: %u young of %u processes, branching %u deep (%u records), %u generations, %u multiplying, %u finished jobs, spawner children %u of %u live; scan %llu us, kill %llu us in %u passes, %lu killed at birth\n",
		prof->young, prof->tasks, prof->depth, prof->branching,
		prof->generations, prof->multipliers, prof->dead_leaves,
		prof->live_children, prof->children,
		div_u64(report->scan_ns, NSEC_PER_USEC),
		div_u64(report->kill_ns, NSEC_PER_USEC), report->passes,
		report->tasks_at_birth);
	trace_forkbomb_kill(fbk_trigger_name(scope), shape, report->pid,
			    report->comm, report->uid, tasks, kb);
}

/**
 * fbk_scan - score the history tree and find a fork bomb
 * @scope: the trigger and the processes it concerns
 * @policy: filled in with what the scan saw
 * @choice: the verdict
 *
 * Context: fbk_history_rwsem held, and oom_lock by the task that ran out.
 * Return: FBK_RESULT_WAIT while victims of an earlier kill are exiting,
 * else FBK_RESULT_KILLED when @choice is a fork bomb (not killed yet),
 * else FBK_RESULT_NONE.
 */
static enum fbk_result fbk_scan(const struct fbk_scope *scope,
				struct fbk_policy *policy,
				struct fbk_choice *choice)
{
	lockdep_assert_held(&fbk_history_rwsem);
	memset(policy, 0, sizeof(*policy));
	memset(choice, 0, sizeof(*choice));
	policy->trigger = scope->oom ? FBK_TRIGGER_OOM : FBK_TRIGGER_FORK_FAIL;
	policy->min_descendants = READ_ONCE(fbk_min_descendants);
	policy->now = jiffies;
	policy->exhausted_at = scope->oom ? policy->now : scope->exhausted_at;
	fbk_births.now = policy->exhausted_at;
	fbk_scan_reset(&fbk_tree, &fbk_births);
	if (atomic_long_read(&fbk_victims_gone) != fbk_victims_gone_seen) {
		fbk_victims_gone_seen = atomic_long_read(&fbk_victims_gone);
		fbk_victims_moved_at = policy->now;
	}
	if (!fbk_scan_tasks(scope, policy))
		return FBK_RESULT_WAIT;
	fbk_set_youth(policy, &fbk_births);
	fbk_aggregate(&fbk_tree, policy);
	if (!fbk_choose(&fbk_tree, policy, choice))
		return FBK_RESULT_NONE;
	return FBK_RESULT_KILLED;
}

/*
 * Find a fork bomb and kill all of it, in fbk_killer or, without it, in
 * the task that ran out. Allocates nothing; linear in records and in the
 * processes of the scope (fbk_walk_processes()). Holds fbk_history_rwsem
 * for reading, and rcu_read_lock() while it looks at a process: other CPUs
 * keep forking and exiting meanwhile.
 */
static enum fbk_result __fbk_scan_and_kill(const struct fbk_scope *scope,
					   u64 *spent_ns)
{
	struct fbk_report report = {};
	struct fbk_policy policy;
	struct fbk_choice choice;
	enum fbk_result result;
	u64 start;

	start = ktime_get_ns();
	/*
	 * Not down_read() first: its might_sleep() is a preemption point
	 * (PREEMPT_VOLUNTARY), where the task that ran out of memory (without
	 * the killer thread), whose time slice is spent, would wait for a
	 * round of the bomb's runnable processes (seconds) before the scan
	 * begins.
	 */
	if (!down_read_trylock(&fbk_history_rwsem))
		down_read(&fbk_history_rwsem);
	fbk_tree.may_yield = fbk_in_killer();
	result = fbk_scan(scope, &policy, &choice);
	if (result == FBK_RESULT_KILLED && choice.shape == FBK_SHAPE_SPAWNER &&
	    scope->confirm_spawner && !fbk_spawner_confirmed(scope, choice.top))
		result = FBK_RESULT_NONE;
	report.scan_ns = ktime_get_ns() - start;
	trace_forkbomb_scan(fbk_trigger_name(scope), fbk_result_name(result),
			    fbk_shape_name(choice.shape), &choice, &policy,
			    report.scan_ns);
	if (result == FBK_RESULT_KILLED) {
		fbk_doom_mark = fbk_doom_mark % U8_MAX + 1;
		WRITE_ONCE(fbk_killing_scope, scope);
		/* Pairs with smp_load_acquire() in __forkbomb_post_fork(). */
		smp_store_release(&fbk_killing_mark, fbk_doom_mark);
		fbk_doom(&fbk_tree, &choice, &policy, fbk_doom_mark);
		fbk_kill_doomed(scope, &choice, fbk_doom_mark, &report);
		WRITE_ONCE(fbk_killing_mark, 0);
		fbk_undoom(&fbk_tree, &choice, &policy);
		/* No child being forked still reads the scope after this. */
		synchronize_rcu();
		WRITE_ONCE(fbk_killing_scope, NULL);
		fbk_victims_moved_at = jiffies;
		report.kill_ns = ktime_get_ns() - start - report.scan_ns;
	}
	fbk_tree.may_yield = false;
	up_read(&fbk_history_rwsem);
	*spent_ns = report.scan_ns + report.kill_ns;

	if (result != FBK_RESULT_KILLED)
		return result;
	if (!report.tasks)
		return FBK_RESULT_NONE;
	atomic_long_inc(&fbk_kills);
	atomic_long_add(report.tasks + report.tasks_at_birth, &fbk_tasks_killed);
	fbk_report(scope, &report, &choice);
	return FBK_RESULT_KILLED;
}

/*
 * fbk_killer: the kernel thread that scans and kills on behalf of the task
 * that holds oom_lock. One request at a time: oom_lock serialises them.
 */
static const struct fbk_scope *fbk_killer_scope;
static enum fbk_result fbk_killer_result;
static u64 fbk_killer_spent_ns;
static DECLARE_WAIT_QUEUE_HEAD(fbk_killer_wait);
static DECLARE_COMPLETION(fbk_killer_done);

static bool fbk_killer_has_work(void)
{
	/* The scope is filled in: pairs with fbk_scan_and_kill()'s release. */
	return smp_load_acquire(&fbk_killer_scope);
}

static int fbk_killer_fn(void *unused)
{
	sched_set_fifo_low(current);
	for (;;) {
		wait_event_idle(fbk_killer_wait, fbk_killer_has_work());
		fbk_killer_result = __fbk_scan_and_kill(fbk_killer_scope,
							&fbk_killer_spent_ns);
		WRITE_ONCE(fbk_killer_scope, NULL);
		complete(&fbk_killer_done);
	}
	return 0;
}

static int __init fbk_killer_init(void)
{
	struct task_struct *t = kthread_run(fbk_killer_fn, NULL, "fbk_killer");

	if (IS_ERR(t)) {
		pr_warn("no killer thread (%ld): scans run in the task that ran out\n",
			PTR_ERR(t));
		return 0;
	}
	fbk_killer = t;
	return 0;
}
subsys_initcall(fbk_killer_init);

/**
 * fbk_scan_and_kill - find a fork bomb and kill all of it
 * @scope: the trigger and the processes it concerns; stays valid until
 *	the call returns (the scan runs in fbk_killer meanwhile)
 * @spent_ns: set to how long the scan and its kill took where they ran,
 *	not counting the waits for a CPU before and after them
 *
 * Context: process context, oom_lock held. Sleeps until fbk_killer is
 * done (uninterruptibly: the caller is often in the bomb, and is killed
 * by the scan it waits for).
 * Return: FBK_RESULT_KILLED when a fork bomb was killed, FBK_RESULT_WAIT
 * when the victims of an earlier kill are still exiting, else
 * FBK_RESULT_NONE.
 */
enum fbk_result fbk_scan_and_kill(const struct fbk_scope *scope,
				  u64 *spent_ns)
{
	lockdep_assert_held(&oom_lock);
	*spent_ns = 0;
	if (!fbk_tracking())
		return FBK_RESULT_NONE;
	if (!fbk_killer)
		return __fbk_scan_and_kill(scope, spent_ns);
	reinit_completion(&fbk_killer_done);
	/* After the caller filled in @scope: see fbk_killer_has_work(). */
	smp_store_release(&fbk_killer_scope, scope);
	wake_up(&fbk_killer_wait);
	wait_for_completion(&fbk_killer_done);
	*spent_ns = fbk_killer_spent_ns;
	return fbk_killer_result;
}

/**
 * __forkbomb_oom_kill - the out_of_memory() hook
 * @oc: the OOM being handled
 *
 * Only unconstrained and memcg OOMs are handled; a memcg OOM only scores
 * and kills processes in that memcg.
 *
 * Context: oom_lock held, in the process whose allocation failed (which
 * may sleep: out_of_memory() is only called where reclaim may).
 * Return: true when a fork bomb was killed, or the victims of an earlier
 * kill are still exiting: the OOM is handled.
 */
bool __forkbomb_oom_kill(struct oom_control *oc)
{
	struct fbk_scope scope = {
		.oom = true,
		.sysrq = oc->order == -1,
		.memcg = oc->memcg,
		.totalpages = oc->totalpages,
	};
	u64 spent_ns;

	if (!(READ_ONCE(fbk_triggers) & FBK_TRIGGER_OOM))
		return false;
	if (oc->constraint != CONSTRAINT_NONE &&
	    oc->constraint != CONSTRAINT_MEMCG)
		return false;
	return fbk_scan_and_kill(&scope, &spent_ns) != FBK_RESULT_NONE;
}

#ifdef CONFIG_DEBUG_FS
/*
 * /sys/kernel/debug/forkbomb/dry_run: what would an OOM kill now? Runs the
 * same scan as the OOM path, kills nothing, and says what it measured and
 * how long it took.
 */
static int fbk_dry_run_show(struct seq_file *m, void *v)
{
	struct fbk_scope scope = {
		.oom = true,
		.totalpages = totalram_pages() + total_swap_pages,
	};
	const struct fbk_profile *prof;
	struct fbk_policy policy;
	struct fbk_choice choice;
	enum fbk_result result;
	unsigned long records;
	unsigned int age_ms = 0;
	u64 start, ns;

	if (!fbk_tracking()) {
		seq_puts(m, "tracking disabled\n");
		return 0;
	}
	start = ktime_get_ns();
	mutex_lock(&oom_lock);
	down_read(&fbk_history_rwsem);
	result = fbk_scan(&scope, &policy, &choice);
	records = fbk_tree.nr_records;
	if (choice.top)
		age_ms = jiffies_to_msecs(policy.now - choice.top->born_at);
	up_read(&fbk_history_rwsem);
	mutex_unlock(&oom_lock);
	ns = ktime_get_ns() - start;

	seq_printf(m, "records %lu\ntasks %lu\nscan_ns %llu\ncalm_ms_ago %u\n",
		   records, policy.total_tasks, ns,
		   jiffies_to_msecs(jiffies - READ_ONCE(fbk_calm_at)));
	seq_printf(m, "verdict %s\nshape %s\n",
		   result == FBK_RESULT_KILLED ? "fork_bomb" :
		   result == FBK_RESULT_WAIT ? "wait" : "none",
		   fbk_shape_name(choice.shape));
	if (!choice.top)
		return 0;
	prof = &choice.profile;
	seq_printf(m, "top_age_ms %u\ntop_spared %d\n", age_ms, choice.spared);
	seq_printf(m, "tasks_in_bomb %u\nyoung %u\nkb %lu\nrecords_young %u\n",
		   prof->tasks, prof->young, prof->mass << (PAGE_SHIFT - 10),
		   prof->records);
	seq_printf(m, "branching %u\ndepth %u\ngenerations %u\ndead_leaves %u\nmultiplying %u\n",
		   prof->branching, prof->depth, prof->generations,
		   prof->dead_leaves, prof->multipliers);
	seq_printf(m, "youth_ms %u\nvictim_kb %lu\n",
		   jiffies_to_msecs(policy.now - policy.young_since),
		   policy.victim_mass << (PAGE_SHIFT - 10));
	seq_printf(m, "spawner_children %u\nspawner_live_children %u\n",
		   prof->children, prof->live_children);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fbk_dry_run);

static int __init fbk_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("forkbomb", NULL);

	debugfs_create_file("dry_run", 0400, dir, NULL, &fbk_dry_run_fops);
	return 0;
}
late_initcall(fbk_debugfs_init);
#endif /* CONFIG_DEBUG_FS */
