// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: finding the fork bomb in the history and killing it.
 *
 * out_of_memory() calls forkbomb_oom_kill() before it picks its ordinary
 * victim. A scan scores the history tree with the live processes (see
 * forkbomb_score.c for the rule); when it finds a fork bomb, every live
 * process of the bomb's subtree is killed and the OOM counts as handled.
 * When it finds none, the ordinary OOM killer runs exactly as before.
 *
 * The kill is complete: the subtree's records are doomed first, and a
 * record linked below a doomed one is doomed at birth (fbk_link()), so
 * whatever the bomb forks while it is being killed is found by the kill
 * loop. That loop holds tasklist_lock for reading, so no fork can finish
 * during it, and a fork that finishes after it sees its parent's SIGKILL
 * and fails ("Let kill terminate clone/fork in the middle").
 */

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
#include <linux/sysfs.h>
#include "internal.h"
#include "forkbomb_internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/forkbomb.h>

unsigned int fbk_triggers = FBK_TRIGGERS_ALL;
static unsigned int fbk_min_descendants = 10;
static atomic_long_t fbk_kills = ATOMIC_LONG_INIT(0);
static atomic_long_t fbk_tasks_killed = ATOMIC_LONG_INIT(0);

/* What the kill loop saw, for the report. */
struct fbk_report {
	unsigned int tasks;
	unsigned long rss;		/* pages */
	unsigned long top_birth;	/* birth of the record of @pid */
	pid_t pid;			/* the oldest live process of the bomb */
	uid_t uid;
	char comm[TASK_COMM_LEN];
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
		.dying = fatal_signal_pending(p) || (p->flags & PF_EXITING) ||
			 tsk_is_oom_victim(p) ||
			 test_bit(MMF_OOM_SKIP, &t->mm->flags),
		.in_scope = true,
	};

	if (scope->memcg)
		info.in_scope = fbk_in_memcg(p, scope->memcg);
	else if (scope->by_uid)
		info.in_scope = uid_eq(task_uid(p), scope->uid);
	return fbk_classify(&info);
}

/* The pages a process holds, as the OOM killer counts them. */
static unsigned long fbk_mm_mass(struct mm_struct *mm)
{
	return get_mm_rss(mm) + get_mm_counter(mm, MM_SWAPENTS) +
	       mm_pgtables_bytes(mm) / PAGE_SIZE;
}

/* Report every live process to the scan. */
static void fbk_scan_tasks(const struct fbk_scope *scope,
			   struct fbk_policy *policy)
{
	struct task_struct *p, *t;

	rcu_read_lock();
	for_each_process(p) {
		struct fbk_node *node;
		enum fbk_class class;
		unsigned long mass = 0;

		if (p->flags & PF_KTHREAD)
			continue;
		t = find_lock_task_mm(p);
		if (!t)
			continue;
		__acquire(&t->alloc_lock);	/* for sparse: t is locked */
		node = fbk_mm_node(t->mm);
		class = fbk_task_class(p, t, scope);
		if (class == FBK_COUNT)
			mass = fbk_mm_mass(t->mm);
		task_unlock(t);

		if (class == FBK_COUNT) {
			policy->total_tasks++;
			policy->max_mass = max(policy->max_mass, mass);
		}
		if (node)
			fbk_account(node, class, mass);
	}
	rcu_read_unlock();
}

/* SIGKILL every eligible process whose record is doomed. */
static void fbk_kill_doomed(const struct fbk_scope *scope,
			    struct fbk_report *report)
{
	struct task_struct *p, *t;

	read_lock(&tasklist_lock);
	rcu_read_lock();		/* for the memcg and the creds */
	for_each_process(p) {
		struct fbk_node *node;
		struct mm_struct *mm;
		bool reap;

		if (p->flags & PF_KTHREAD)
			continue;
		t = find_lock_task_mm(p);
		if (!t)
			continue;
		__acquire(&t->alloc_lock);	/* for sparse: t is locked */
		mm = t->mm;
		node = fbk_mm_node(mm);
		if (!node || !READ_ONCE(node->doomed) ||
		    fbk_task_class(p, t, scope) != FBK_COUNT) {
			task_unlock(t);
			continue;
		}

		if (!report->tasks || time_before(node->birth, report->top_birth)) {
			report->top_birth = node->birth;
			report->pid = task_tgid_nr(p);
			report->uid = from_kuid(&init_user_ns, task_uid(p));
			strscpy(report->comm, p->comm, sizeof(report->comm));
		}
		report->tasks++;
		report->rss += get_mm_rss(mm) + get_mm_counter(mm, MM_SWAPENTS);

		if (scope->oom) {
			count_vm_event(OOM_KILL);
			memcg_memory_event_mm(mm, MEMCG_OOM_KILL);
		}
		do_send_sig_info(SIGKILL, SEND_SIG_PRIV, p, PIDTYPE_TGID);
		reap = false;
		if (scope->oom) {
			/* Memory reserves to exit, and the OOM reaper behind. */
			mark_oom_victim(t);
			reap = !test_bit(MMF_MULTIPROCESS, &mm->flags);
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

static void fbk_report(const struct fbk_scope *scope,
		       const struct fbk_report *report,
		       const struct fbk_choice *choice)
{
	static const char * const why[] = {
		[0] = "fork failed",
		[1] = "out of memory",
		[2] = "memory cgroup out of memory",
	};
	unsigned long rss_kb = report->rss << (PAGE_SHIFT - 10);

	pr_err("forkbomb: %s: killed fork bomb of %u descendants: top pid %d (%s), uid %u, %u tasks killed, %lu kB rss\n",
	       why[scope->oom + !!scope->memcg], choice->descendants,
	       report->pid, report->comm, report->uid, report->tasks, rss_kb);
	trace_forkbomb_kill(fbk_trigger_name(scope), report->pid, report->comm,
			    report->uid, report->tasks, rss_kb);
}

/**
 * fbk_scan - score the history tree and find a fork bomb
 * @scope: the trigger and the processes it concerns
 * @policy: filled in with what the scan saw
 * @choice: the verdict
 *
 * Context: fbk_scan_lock held.
 * Return: true when @choice->root is a fork bomb.
 */
static bool fbk_scan(const struct fbk_scope *scope, struct fbk_policy *policy,
		     struct fbk_choice *choice)
{
	lockdep_assert_held(&fbk_scan_lock);
	memset(policy, 0, sizeof(*policy));
	policy->trigger = scope->oom ? FBK_TRIGGER_OOM : FBK_TRIGGER_FORK_FAIL;
	policy->min_descendants = READ_ONCE(fbk_min_descendants);

	fbk_scan_reset(&fbk_tree);
	fbk_scan_tasks(scope, policy);
	fbk_aggregate(&fbk_tree);
	policy->now = jiffies;
	policy->calm = READ_ONCE(fbk_calm);
	return fbk_choose(&fbk_tree, policy, choice);
}

/**
 * fbk_scan_and_kill - find a fork bomb and kill all of it
 * @scope: the trigger and the processes it concerns
 *
 * Neither allocates nor sleeps; linear in records and processes. Other
 * CPUs keep forking and exiting while the forest is scored.
 *
 * Context: oom_lock held.
 * Return: true when a fork bomb was found and processes were killed.
 */
bool fbk_scan_and_kill(const struct fbk_scope *scope)
{
	struct fbk_report report = {};
	struct fbk_policy policy;
	struct fbk_choice choice;
	bool found;

	lockdep_assert_held(&oom_lock);
	if (!fbk_tracking())
		return false;

	spin_lock(&fbk_scan_lock);
	found = fbk_scan(scope, &policy, &choice);
	if (found) {
		fbk_doom(choice.root);
		fbk_kill_doomed(scope, &report);
	}
	spin_unlock(&fbk_scan_lock);

	if (!report.tasks)
		return false;
	atomic_long_inc(&fbk_kills);
	atomic_long_add(report.tasks, &fbk_tasks_killed);
	fbk_report(scope, &report, &choice);
	return true;
}

/**
 * __forkbomb_oom_kill - the out_of_memory() hook
 * @oc: the OOM being handled
 *
 * Only unconstrained and memcg OOMs are handled; a memcg OOM only scores
 * and kills processes in that memcg.
 *
 * Context: oom_lock held.
 * Return: true when a fork bomb was killed and the OOM is handled.
 */
bool __forkbomb_oom_kill(struct oom_control *oc)
{
	struct fbk_scope scope = { .oom = true, .memcg = oc->memcg };

	if (!(READ_ONCE(fbk_triggers) & FBK_TRIGGER_OOM))
		return false;
	if (oc->constraint != CONSTRAINT_NONE &&
	    oc->constraint != CONSTRAINT_MEMCG)
		return false;
	return fbk_scan_and_kill(&scope);
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
 * same scan as the OOM path, kills nothing, and says how long it took.
 */
static int fbk_dry_run_show(struct seq_file *m, void *v)
{
	struct fbk_scope scope = { .oom = true };
	struct fbk_policy policy;
	struct fbk_choice choice;
	unsigned long records;
	unsigned int age_ms = 0;
	bool found;
	u64 start, ns;

	if (!fbk_tracking()) {
		seq_puts(m, "tracking disabled\n");
		return 0;
	}
	start = ktime_get_ns();
	spin_lock(&fbk_scan_lock);
	found = fbk_scan(&scope, &policy, &choice);
	records = fbk_tree.nr_records;
	if (choice.root)
		age_ms = jiffies_to_msecs(policy.now - choice.root->birth);
	spin_unlock(&fbk_scan_lock);
	ns = ktime_get_ns() - start;

	seq_printf(m, "records %lu\ntasks %lu\nscan_ns %llu\ncalm_ms_ago %u\n",
		   records, policy.total_tasks, ns,
		   jiffies_to_msecs(jiffies - READ_ONCE(fbk_calm)));
	seq_printf(m, "verdict %s\n", found ? "fork_bomb" : "none");
	if (choice.root)
		seq_printf(m, "candidate_descendants %u\ncandidate_kb %lu\ncandidate_age_ms %u\n",
			   choice.descendants, choice.mass << (PAGE_SHIFT - 10),
			   age_ms);
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
