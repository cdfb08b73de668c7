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
 * the bomb forks while it is being killed is found by the kill loop. That
 * loop holds tasklist_lock for reading, so no fork can finish during it,
 * and a fork that finishes after it sees its parent's SIGKILL and fails
 * ("Let kill terminate clone/fork in the middle"). Processes of the bomb's
 * records that were not killed (out of scope, protected) are undoomed
 * afterwards, so that their later children are not taken for the bomb.
 */

#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/forkbomb.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/swap.h>
#include <linux/sysfs.h>
#include "internal.h"
#include "forkbomb_internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/forkbomb.h>

/* How long victims of a kill that were not OOM victims are waited for. */
#define FBK_VICTIM_WAIT		(5 * HZ)

unsigned int fbk_triggers = FBK_TRIGGERS_ALL;
static unsigned int fbk_min_descendants = 10;
static atomic_long_t fbk_kills = ATOMIC_LONG_INIT(0);
static atomic_long_t fbk_tasks_killed = ATOMIC_LONG_INIT(0);
/* The last kill: its mark and time (fbk_scan_lock). */
static u8 fbk_doom_mark;
static unsigned long fbk_last_kill_at = INITIAL_JIFFIES;

/* What the kill loop saw, for the report. */
struct fbk_report {
	unsigned int tasks;
	unsigned long pages;		/* only theirs */
	unsigned long top_birth;	/* birth of the record of @pid */
	pid_t pid;			/* the bomb's top process among them */
	uid_t uid;
	char comm[TASK_COMM_LEN];
	pid_t spared_pid;		/* the spared top, if any and alive */
	char spared_comm[TASK_COMM_LEN];
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

static bool fbk_dying(struct task_struct *p)
{
	return fatal_signal_pending(p) || (p->flags & PF_EXITING);
}

/*
 * @p is a thread group leader, @t a thread of it that has the mm, locked.
 * Context: rcu_read_lock() or tasklist_lock held.
 */
static enum fbk_class fbk_task_class(struct task_struct *p,
				     struct task_struct *t,
				     const struct fbk_scope *scope)
{
	struct fbk_task_info info = {
		.kthread = p->flags & PF_KTHREAD,
		.init = is_global_init(p),
		.adj_min = p->signal->oom_score_adj == OOM_SCORE_ADJ_MIN,
		.vfork = in_vfork(t),
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
 * is gone, but no longer than FBK_VICTIM_WAIT after that kill.
 * Context: rcu_read_lock() held, @t locked.
 */
static bool fbk_victim_pending(struct task_struct *p, struct task_struct *t,
			       struct fbk_node *node,
			       const struct fbk_scope *scope)
{
	if (!fbk_in_scope(p, scope))
		return false;
	if (scope->oom && !scope->sysrq && tsk_is_oom_victim(p))
		return !test_bit(MMF_OOM_SKIP, &p->signal->oom_mm->flags);
	return node && READ_ONCE(node->doomed) && fbk_dying(p) &&
	       time_before(jiffies, fbk_last_kill_at + FBK_VICTIM_WAIT);
}

/*
 * The weight of a process: for an OOM, as the OOM killer's oom_badness()
 * counts it but with each page counted once (fbk_mm_own_pages()); when
 * fork failed, its threads.
 */
static unsigned long fbk_task_weight(struct task_struct *p, struct mm_struct *mm,
				     const struct fbk_scope *scope)
{
	long points;

	if (!scope->oom)
		return get_nr_threads(p);
	points = fbk_mm_own_pages(mm) +
		 (long)p->signal->oom_score_adj * (long)(scope->totalpages / 1000);
	return points > 0 ? points : 1;
}

/*
 * Report every live process to the scan.
 * Return: false when a victim of an earlier kill is still exiting.
 */
static bool fbk_scan_tasks(const struct fbk_scope *scope,
			   struct fbk_policy *policy)
{
	struct task_struct *p, *t;
	bool pending = false;

	rcu_read_lock();
	for_each_process(p) {
		struct fbk_node *node;
		enum fbk_class class;
		unsigned long weight = 0;
		bool oom_group = false;

		if (p->flags & PF_KTHREAD)
			continue;
		t = find_lock_task_mm(p);
		if (!t)
			continue;
		__acquire(&t->alloc_lock);	/* for sparse: t is locked */
		node = fbk_mm_node(t->mm);
		pending = fbk_victim_pending(p, t, node, scope);
		class = fbk_task_class(p, t, scope);
		if (class == FBK_COUNT) {
			weight = fbk_task_weight(p, t->mm, scope);
			oom_group = scope->oom && fbk_in_oom_group(p, scope->memcg);
		}
		task_unlock(t);
		if (pending)
			break;

		if (class == FBK_COUNT) {
			policy->total_tasks++;
			policy->total_mass += weight;
			policy->max_mass = max(policy->max_mass, weight);
		}
		if (!node)
			continue;
		fbk_account(node, class, weight, fbk_young(node, policy));
		if (oom_group)
			fbk_account_oom_group(node);
	}
	rcu_read_unlock();
	return !pending;
}

/* Can the OOM reaper take @mm when @p dies, harming no other process? */
static bool fbk_mm_private(struct task_struct *p, struct mm_struct *mm)
{
	return !test_bit(MMF_MULTIPROCESS, &mm->flags) &&
	       atomic_read(&mm->mm_users) <= get_nr_threads(p);
}

/* SIGKILL every eligible process whose record bears the doom @mark. */
static void fbk_kill_doomed(const struct fbk_scope *scope,
			    const struct fbk_choice *choice, u8 mark,
			    struct fbk_report *report)
{
	struct task_struct *p, *t;

	read_lock(&tasklist_lock);
	rcu_read_lock();		/* for the memcg and the creds */
	for_each_process(p) {
		struct fbk_node *node;
		struct mm_struct *mm;
		bool reap = false;

		if (p->flags & PF_KTHREAD)
			continue;
		t = find_lock_task_mm(p);
		if (!t)
			continue;
		__acquire(&t->alloc_lock);	/* for sparse: t is locked */
		mm = t->mm;
		node = fbk_mm_node(mm);
		if (node && node == choice->top && choice->spared) {
			report->spared_pid = task_tgid_nr(p);
			strscpy(report->spared_comm, p->comm,
				sizeof(report->spared_comm));
		}
		if (!node || READ_ONCE(node->doomed) != mark ||
		    fbk_task_class(p, t, scope) != FBK_COUNT) {
			task_unlock(t);
			continue;
		}
		node->flags |= FBK_KILLED;

		if (!report->tasks || time_before(node->birth, report->top_birth)) {
			report->top_birth = node->birth;
			report->pid = task_tgid_nr(p);
			report->uid = from_kuid(&init_user_ns, task_uid(p));
			strscpy(report->comm, p->comm, sizeof(report->comm));
		}
		report->tasks++;
		report->pages += fbk_mm_own_pages(mm);

		if (scope->oom) {
			count_vm_event(OOM_KILL);
			memcg_memory_event_mm(mm, MEMCG_OOM_KILL);
		}
		do_send_sig_info(SIGKILL, SEND_SIG_PRIV, p, PIDTYPE_TGID);
		/*
		 * Memory reserves to exit, and the OOM reaper behind, as for
		 * an OOM victim; not where another process shares the mm.
		 */
		if (scope->oom && fbk_mm_private(p, mm)) {
			mark_oom_victim(t);
			reap = true;
		}
		task_unlock(t);
		if (reap)
			queue_oom_reaper(t);
	}
	rcu_read_unlock();
	read_unlock(&tasklist_lock);
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
	char why[96];

	fbk_describe_scope(scope, why, sizeof(why));
	pr_err("forkbomb: %s: killed fork bomb (%s): top pid %d (%s), uid %u, %u tasks killed, %lu kB of their own memory\n",
	       why, shape, report->pid, report->comm, report->uid,
	       report->tasks, kb);
	if (report->spared_pid)
		pr_info("forkbomb: its parent pid %d (%s) was not part of it and lives\n",
			report->spared_pid, report->spared_comm);
	pr_info("forkbomb: evidence: %u young of %u processes, branching %u deep (%u records), %u generations, %u dead leaves, spawner children %u of %u live\n",
		prof->young, prof->tasks, prof->depth, prof->branching,
		prof->generations, prof->dead_leaves, prof->live_children,
		prof->children);
	trace_forkbomb_kill(fbk_trigger_name(scope), shape, report->pid,
			    report->comm, report->uid, report->tasks, kb);
}

/**
 * fbk_scan - score the history tree and find a fork bomb
 * @scope: the trigger and the processes it concerns
 * @policy: filled in with what the scan saw
 * @choice: the verdict
 *
 * Context: fbk_scan_lock held.
 * Return: FBK_RESULT_WAIT while victims of an earlier kill are exiting,
 * else FBK_RESULT_KILLED when @choice is a fork bomb (not killed yet),
 * else FBK_RESULT_NONE.
 */
static enum fbk_result fbk_scan(const struct fbk_scope *scope,
				struct fbk_policy *policy,
				struct fbk_choice *choice)
{
	lockdep_assert_held(&fbk_scan_lock);
	memset(policy, 0, sizeof(*policy));
	memset(choice, 0, sizeof(*choice));
	policy->trigger = scope->oom ? FBK_TRIGGER_OOM : FBK_TRIGGER_FORK_FAIL;
	policy->min_descendants = READ_ONCE(fbk_min_descendants);
	policy->now = jiffies;
	policy->exhausted_at = scope->oom ? policy->now : scope->exhausted_at;
	policy->young_since = policy->exhausted_at - FBK_YOUNG_JIFFIES;

	fbk_scan_reset(&fbk_tree);
	if (!fbk_scan_tasks(scope, policy))
		return FBK_RESULT_WAIT;
	fbk_aggregate(&fbk_tree);
	if (!fbk_choose(&fbk_tree, policy, choice))
		return FBK_RESULT_NONE;
	return FBK_RESULT_KILLED;
}

/**
 * fbk_scan_and_kill - find a fork bomb and kill all of it
 * @scope: the trigger and the processes it concerns
 *
 * Neither allocates nor sleeps; linear in records and processes. Other
 * CPUs keep forking and exiting while the forest is scored.
 *
 * Context: oom_lock held.
 * Return: FBK_RESULT_KILLED when a fork bomb was killed, FBK_RESULT_WAIT
 * when the victims of an earlier kill are still exiting, else
 * FBK_RESULT_NONE.
 */
enum fbk_result fbk_scan_and_kill(const struct fbk_scope *scope)
{
	struct fbk_report report = {};
	struct fbk_policy policy;
	struct fbk_choice choice;
	enum fbk_result result;

	lockdep_assert_held(&oom_lock);
	if (!fbk_tracking())
		return FBK_RESULT_NONE;

	spin_lock(&fbk_scan_lock);
	result = fbk_scan(scope, &policy, &choice);
	if (result == FBK_RESULT_KILLED && choice.shape == FBK_SHAPE_SPAWNER &&
	    scope->confirm_spawner && !fbk_spawner_confirmed(choice.top))
		result = FBK_RESULT_NONE;
	if (result == FBK_RESULT_KILLED) {
		fbk_doom_mark = fbk_doom_mark % U8_MAX + 1;
		fbk_doom(&choice, fbk_doom_mark);
		fbk_kill_doomed(scope, &choice, fbk_doom_mark, &report);
		fbk_undoom(&choice);
		fbk_last_kill_at = jiffies;
	}
	spin_unlock(&fbk_scan_lock);

	if (result != FBK_RESULT_KILLED)
		return result;
	if (!report.tasks)
		return FBK_RESULT_NONE;
	atomic_long_inc(&fbk_kills);
	atomic_long_add(report.tasks, &fbk_tasks_killed);
	fbk_report(scope, &report, &choice);
	return FBK_RESULT_KILLED;
}

/**
 * __forkbomb_oom_kill - the out_of_memory() hook
 * @oc: the OOM being handled
 *
 * Only unconstrained and memcg OOMs are handled; a memcg OOM only scores
 * and kills processes in that memcg.
 *
 * Context: oom_lock held.
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

	if (!(READ_ONCE(fbk_triggers) & FBK_TRIGGER_OOM))
		return false;
	if (oc->constraint != CONSTRAINT_NONE &&
	    oc->constraint != CONSTRAINT_MEMCG)
		return false;
	return fbk_scan_and_kill(&scope) != FBK_RESULT_NONE;
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

static struct kobj_attribute fbk_min_descendants_attr =
	__ATTR_RW(forkbomb_min_descendants);
static struct kobj_attribute fbk_kills_attr = __ATTR_RO(forkbomb_kills);
static struct kobj_attribute fbk_tasks_killed_attr =
	__ATTR_RO(forkbomb_tasks_killed);

static struct attribute *fbk_kill_attrs[] = {
	&fbk_min_descendants_attr.attr,
	&fbk_kills_attr.attr,
	&fbk_tasks_killed_attr.attr,
	NULL,
};

static const struct attribute_group fbk_kill_attr_group = {
	.attrs = fbk_kill_attrs,
};

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
	spin_lock(&fbk_scan_lock);
	result = fbk_scan(&scope, &policy, &choice);
	records = fbk_tree.nr_records;
	if (choice.top)
		age_ms = jiffies_to_msecs(policy.now - choice.top->birth);
	spin_unlock(&fbk_scan_lock);
	ns = ktime_get_ns() - start;

	seq_printf(m, "records %lu\ntasks %lu\nscan_ns %llu\ncalm_ms_ago %u\n",
		   records, policy.total_tasks, ns,
		   jiffies_to_msecs(jiffies - READ_ONCE(fbk_calm)));
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
	seq_printf(m, "branching %u\ndepth %u\ngenerations %u\ndead_leaves %u\n",
		   prof->branching, prof->depth, prof->generations,
		   prof->dead_leaves);
	seq_printf(m, "spawner_children %u\nspawner_live_children %u\n",
		   prof->children, prof->live_children);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fbk_dry_run);

static void __init fbk_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("forkbomb", NULL);

	debugfs_create_file("dry_run", 0400, dir, NULL, &fbk_dry_run_fops);
}
#else
static inline void fbk_debugfs_init(void) { }
#endif

static int __init fbk_kill_init(void)
{
	fbk_debugfs_init();
	return fbk_sysfs_add_group(&fbk_kill_attr_group);
}
late_initcall(fbk_kill_init);
