/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fork bomb killer: the history tree and the pure logic around it.
 *
 * Everything declared here works on a struct fbk_tree and its records only:
 * no tasks, no mms, no global state. The glue in forkbomb.c, forkbomb_kill.c
 * and friends feeds it from the kernel; the KUnit tests feed it synthetic
 * trees through the very same functions.
 */
#ifndef _MM_FORKBOMB_INTERNAL_H
#define _MM_FORKBOMB_INTERNAL_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>
#include <linux/uidgid_types.h>

/**
 * struct fbk_node - history record of one address space (mm)
 * @parent: record of the mm this one was forked from or exec'd from;
 *          NULL for a root
 * @children: the records whose @parent this is
 * @sibling: entry in the parent's @children, or in the tree's roots
 * @birth: when the mm was created, in jiffies
 * @nr_mm: address spaces using the record; 0 once the record is dead
 * @death: reaper epoch in which the record died (valid when @nr_mm is 0)
 * @tasks: scan scratch: eligible live processes in the subtree
 * @doomed: the record is in a subtree being killed; children inherit it
 * @flags: scan scratch: FBK_PROTECTED
 * @mass: scan scratch: pages held by the eligible processes of the subtree
 *
 * Records stay in the tree after their mm is gone, so that the family of a
 * fork bomb stays visible after its parents exited and the children were
 * reparented. Threads, and processes that share an mm, share its record.
 * A process whose own record could not be allocated is folded into its
 * parent's record (@nr_mm counts it), so it is still found and killed with
 * its family.
 *
 * @tasks, @mass and @flags are written by the scan only, which is
 * serialized by the caller; new records start with them zeroed.
 */
struct fbk_node {
	struct fbk_node *parent;
	struct hlist_head children;
	struct hlist_node sibling;
	unsigned long birth;
	unsigned int nr_mm;
	unsigned int death;
	unsigned int tasks;
	u8 doomed;
	u8 flags;
	unsigned long mass;
};

/* An own process of the record must never be killed (init, OOM_SCORE_ADJ_MIN). */
#define FBK_PROTECTED	0x01

/**
 * struct fbk_tree - a history forest
 * @roots: records without a parent
 * @nr_records: records in the forest
 * @epoch: reaper epoch, advanced by every reaper run
 */
struct fbk_tree {
	struct hlist_head roots;
	unsigned long nr_records;
	unsigned int epoch;
};

/* Tree maintenance: forkbomb_tree.c. The caller serializes writers. */
void fbk_tree_init(struct fbk_tree *tree);
void fbk_link(struct fbk_tree *tree, struct fbk_node *node,
	      struct fbk_node *parent, unsigned long birth);
void fbk_node_put(struct fbk_tree *tree, struct fbk_node *node);
unsigned long fbk_prune(struct fbk_tree *tree, unsigned int cutoff,
			bool reroot, struct hlist_head *freed);
unsigned long fbk_detach_all(struct fbk_tree *tree, struct hlist_head *freed);

static inline bool fbk_dead(const struct fbk_node *node)
{
	return !node->nr_mm;
}

/* Lockless walks: safe against concurrent fbk_link(), not against removal. */
struct fbk_node *fbk_first_child(const struct fbk_node *node);
struct fbk_node *fbk_next_sibling(const struct fbk_node *node);
struct fbk_node *fbk_first_root(const struct fbk_tree *tree);
struct fbk_node *fbk_post_first(struct fbk_node *node);
struct fbk_node *fbk_post_next(struct fbk_node *node, const struct fbk_node *top);
struct fbk_node *fbk_pre_next(struct fbk_node *node, const struct fbk_node *top);

/* Scoring: forkbomb_score.c. */

enum fbk_trigger {
	FBK_TRIGGER_OOM		= 0x1,	/* out_of_memory(), global or memcg */
	FBK_TRIGGER_FORK_FAIL	= 0x2,	/* fork failed: threads-max, pid_max, RLIMIT_NPROC */
};

#define FBK_TRIGGERS_ALL	(FBK_TRIGGER_OOM | FBK_TRIGGER_FORK_FAIL)

int fbk_parse_triggers(const char *buf, unsigned int *mask);
int fbk_format_triggers(unsigned int mask, char *buf, size_t size);

/**
 * enum fbk_class - what a process means to the scan
 * @FBK_IGNORE: not counted, not killed (out of scope, exiting, no record)
 * @FBK_COUNT: counted in its record's weight and killed with its subtree
 * @FBK_PROTECT: never killed; its record is never taken as a bomb root
 */
enum fbk_class {
	FBK_IGNORE,
	FBK_COUNT,
	FBK_PROTECT,
};

/**
 * struct fbk_task_info - the facts about a process that decide its class
 * @kthread: a kernel thread
 * @init: the global init
 * @adj_min: oom_score_adj is OOM_SCORE_ADJ_MIN
 * @dying: already killed or exiting (fatal signal, OOM victim, reaped mm)
 * @in_scope: inside the memcg of a memcg OOM, or owned by the user whose
 *            RLIMIT_NPROC is exhausted; always true for a global trigger
 */
struct fbk_task_info {
	bool kthread;
	bool init;
	bool adj_min;
	bool dying;
	bool in_scope;
};

enum fbk_class fbk_classify(const struct fbk_task_info *info);
void fbk_scan_reset(struct fbk_tree *tree);
void fbk_account(struct fbk_node *node, enum fbk_class class, unsigned long mass);
void fbk_aggregate(struct fbk_tree *tree);

/**
 * struct fbk_policy - the inputs of fbk_choose() besides the tree
 * @trigger: FBK_TRIGGER_OOM weighs subtrees by memory, FBK_TRIGGER_FORK_FAIL
 *           by processes
 * @now: the current time, in jiffies
 * @calm: when the reaper last found the system calm; records born before
 *        it are old history and never part of a bomb
 * @min_descendants: fewest live descendants a bomb has
 * @max_mass: OOM: mass of the largest single process in scope
 * @total_tasks: FORK_FAIL: eligible processes in scope
 */
struct fbk_policy {
	enum fbk_trigger trigger;
	unsigned long now;
	unsigned long calm;
	unsigned int min_descendants;
	unsigned long max_mass;
	unsigned long total_tasks;
};

/**
 * struct fbk_choice - the verdict of fbk_choose()
 * @root: the bomb root, or NULL when there is no fork bomb
 * @descendants: live eligible processes below @root
 * @tasks: live eligible processes in @root's subtree, @root included
 * @mass: pages they hold
 */
struct fbk_choice {
	struct fbk_node *root;
	unsigned int descendants;
	unsigned int tasks;
	unsigned long mass;
};

bool fbk_choose(const struct fbk_tree *tree, const struct fbk_policy *policy,
		struct fbk_choice *choice);
void fbk_doom(struct fbk_node *root);

/*
 * The kernel glue (forkbomb.c and the files after it), not used by the
 * pure logic above.
 */
struct mem_cgroup;
struct mm_struct;
struct mutex;

extern spinlock_t fbk_lock;
extern spinlock_t fbk_scan_lock;
extern struct mutex fbk_mutex;
extern struct fbk_tree fbk_tree;
extern unsigned long fbk_calm;
extern unsigned long fbk_max_records;
extern atomic_long_t fbk_records_dropped;
extern atomic_long_t fbk_fork_failures;

#define FBK_MIN_RECORDS		1024UL
#define FBK_MAX_RECORDS		(16UL << 20)

struct fbk_node *fbk_mm_node(struct mm_struct *mm);
void fbk_free_list(struct hlist_head *freed);
bool fbk_tracking(void);
void fbk_set_tracking(bool enable);

/* forkbomb_reaper.c */
#define FBK_INTERVAL_MIN_MS	100U
#define FBK_INTERVAL_MAX_MS	86400000U
extern unsigned int fbk_interval_ms;
void fbk_reaper_sync(void);

/* forkbomb_sysfs.c */
struct attribute_group;
int fbk_sysfs_add_group(const struct attribute_group *group);
int fbk_parse_uint(const char *buf, unsigned int min, unsigned int max,
		   unsigned int *val);

/* forkbomb_kill.c */

/**
 * struct fbk_scope - what a scan is for, and which processes it concerns
 * @oom: an OOM (weigh by memory, mark victims); else fork failed (weigh by
 *       processes)
 * @memcg: a memcg OOM: only processes in this memcg count and die
 * @by_uid: fork failed on RLIMIT_NPROC: only processes of @uid count and die
 * @uid: see @by_uid
 */
struct fbk_scope {
	bool oom;
	struct mem_cgroup *memcg;
	bool by_uid;
	kuid_t uid;
};

extern unsigned int fbk_triggers;
bool fbk_scan_and_kill(const struct fbk_scope *scope);

#endif /* _MM_FORKBOMB_INTERNAL_H */
