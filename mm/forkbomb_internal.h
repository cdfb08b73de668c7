/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fork bomb killer: the history tree and the pure logic around it.
 *
 * Everything declared here works on a struct fbk_tree and its records only:
 * no tasks, no mms, no global state. The glue in forkbomb.c, forkbomb_kill.c
 * and friends feeds it from the kernel; the KUnit tests feed it synthetic
 * trees through the very same functions.
 *
 * Names: forkbomb_* is what the rest of the kernel sees (the hooks of
 * <linux/forkbomb.h>, the tracepoint, the killer's knobs, the KUnit
 * suites); fbk_* stays inside mm/forkbomb*.c; the history's knobs keep
 * their mm_tracking_* ABI names. A point in time is named *_at (or
 * @now, @young_since), in jiffies; a duration carries its unit (_ms,
 * _ns, _JIFFIES); a weight is in pages for an OOM and in threads when
 * fork failed.
 */
#ifndef _MM_FORKBOMB_INTERNAL_H
#define _MM_FORKBOMB_INTERNAL_H

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>
#include <linux/uidgid_types.h>

/**
 * struct fbk_node - history record of one address space (mm)
 * @parent: record of the mm this one was forked from or exec'd from;
 *          NULL for a root
 * @children: the records whose @parent this is
 * @sibling: entry in the parent's @children, or in the tree's roots
 * @born_at: when the mm was created, in jiffies
 * @nr_mm: address spaces using the record; 0 once the record is dead
 * @died_at: when the record died, the low 32 bits of jiffies (valid when
 *         @nr_mm is 0; compared only with times near it)
 * @tasks: scan scratch: eligible live processes in the subtree
 * @young: scan scratch: those of them whose record is young
 * @mass: scan scratch: their weight in pages (see fbk_account()),
 *        saturating at U32_MAX
 * @doomed: the mark of the kill whose subtree holds the record (0: none);
 *          children inherit it
 * @history: how the record began and ended: FBK_EXEC, FBK_EXITED
 * @flags: the scan's scratch flags
 * @gens: scan scratch: FBK_SEEN once fbk_account() was told of a process
 *        of the record, until fbk_aggregate(); then the young fork
 *        generations down to this record (fbk_profile())
 *
 * Records stay in the tree after their mm is gone, so that the family of a
 * fork bomb stays visible after its parents exited and the children were
 * reparented. Threads, and processes that share an mm, share its record.
 * A process whose own record could not be allocated is folded into its
 * parent's record (@nr_mm counts it), so it is still found and killed with
 * its family.
 *
 * The scratch fields are written by the scan only, which is serialized by
 * the caller; new records start with them zeroed.
 */
struct fbk_node {
	struct fbk_node *parent;
	struct hlist_head children;
	struct hlist_node sibling;
	unsigned long born_at;
	unsigned int nr_mm;
	u32 died_at;
	unsigned int tasks;
	unsigned int young;
	u32 mass;
	u8 doomed;
	u8 history;
	u8 flags;
	u8 gens;
};

/* History: the record was made by exec, not by fork. */
#define FBK_EXEC		0x01
/* History: its last process ended by exit(), not killed by a signal. */
#define FBK_EXITED		0x02

/* Scan scratch, in @gens before fbk_aggregate(): the walk found a process. */
#define FBK_SEEN		1

/* Scan scratch: an own process must never be killed (init, OOM_SCORE_ADJ_MIN). */
#define FBK_PROTECTED		0x01
/*
 * Scan scratch: its process forked a young child (itself, or after an exec,
 * the record it exec'd into).
 */
#define FBK_FORKED		0x02
/* Scan scratch: two or more children's subtrees hold young live processes. */
#define FBK_BRANCHING		0x04
/* Scan scratch: the subtree holds a process whose memory.oom.group applies. */
#define FBK_OOM_GROUP		0x08
/* Choice: a child of a spared top that belongs to the bomb. */
#define FBK_BOMB		0x10
/* Kill: a process of the record was killed. */
#define FBK_KILLED		0x20
/*
 * Scan scratch: its processes are gone, and the subtrees of two or more of
 * its young forked children live on: it forked copies and left, as a
 * script that starts itself twice does (a build's driver waits for its
 * jobs).
 */
#define FBK_LEFT_COPIES		0x40
/* Scan scratch: two or more of its young forked children forked in turn. */
#define FBK_MULTIPLIED		0x80

/**
 * struct fbk_tree - a history forest
 * @roots: records without a parent
 * @nr_records: records in the forest
 * @may_yield: a scan's walks may offer the CPU (set by the scan, in the
 *             fbk_killer thread)
 */
struct fbk_tree {
	struct hlist_head roots;
	unsigned long nr_records;
	bool may_yield;
};

/* Tree maintenance: forkbomb_tree.c. The caller serializes writers. */
void fbk_tree_init(struct fbk_tree *tree);
void fbk_link(struct fbk_tree *tree, struct fbk_node *node,
	      struct fbk_node *parent, unsigned long born_at);
void fbk_node_put(struct fbk_tree *tree, struct fbk_node *node,
		  unsigned long now, bool exited);

/**
 * struct fbk_walk - a walk of the whole forest that goes on where it stopped
 * @next: the record to visit next, or to walk down from when @descend
 * @started: the walk has begun (and is over when @next is NULL)
 * @descend: @next's descendants are still to be visited before it
 */
struct fbk_walk {
	struct fbk_node *next;
	bool started;
	bool descend;
};

static inline bool fbk_walk_done(const struct fbk_walk *walk)
{
	return walk->started && !walk->next;
}

unsigned long fbk_prune(struct fbk_tree *tree, struct fbk_walk *walk,
			unsigned long cutoff, bool reroot, unsigned int budget,
			struct hlist_head *freed);
unsigned long fbk_detach(struct fbk_tree *tree, struct fbk_walk *walk,
			 unsigned int budget, struct hlist_head *freed);

static inline bool fbk_dead(const struct fbk_node *node)
{
	return !node->nr_mm;
}

/* Did a dead record die before @time (jiffies, near its death)? */
static inline bool fbk_died_before(const struct fbk_node *node,
				   unsigned long time)
{
	return (s32)((u32)time - node->died_at) > 0;
}

/* Lockless walks: safe against concurrent fbk_link(), not against removal. */
struct fbk_node *fbk_first_child(const struct fbk_node *node);
struct fbk_node *fbk_next_sibling(const struct fbk_node *node);
struct fbk_node *fbk_first_root(const struct fbk_tree *tree);
struct fbk_node *fbk_post_first(struct fbk_node *node);
struct fbk_node *fbk_post_next(struct fbk_node *node, const struct fbk_node *top);
struct fbk_node *fbk_pre_next(struct fbk_node *node, const struct fbk_node *top);
struct fbk_node *fbk_pre_skip(struct fbk_node *node, const struct fbk_node *top);

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
 * @FBK_PROTECT: never killed; its record is never part of a bomb
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
 * @vfork: a vfork child, which borrows its parent's mm until it execs
 * @dying: already killed or exiting (fatal signal, OOM victim, reaped mm)
 * @in_scope: inside the memcg of a memcg OOM, or owned by the user whose
 *            RLIMIT_NPROC is exhausted; always true for a global trigger
 */
struct fbk_task_info {
	bool kthread;
	bool init;
	bool adj_min;
	bool vfork;
	bool dying;
	bool in_scope;
};

enum fbk_class fbk_classify(const struct fbk_task_info *info);

/*
 * A record born less than this before the scan is young: the time over
 * which a fork bomb must be seen multiplying.
 */
#define FBK_YOUNG_JIFFIES	(10 * HZ)
/* The longest stall in reclaim before an OOM that fbk_set_youth() allows for. */
#define FBK_STALL_JIFFIES	(120 * HZ)
/*
 * How far back fbk_set_youth() counts births: the longest a bomb may take
 * to run the machine out of memory or pids and still be young all its
 * life (on a debug kernel, a C bomb takes minutes to reach threads-max).
 */
#define FBK_HISTORY_JIFFIES	(600 * HZ)
#define FBK_BIRTH_SECONDS	(FBK_HISTORY_JIFFIES / HZ)

/**
 * struct fbk_births - when the records of eligible processes were born
 * @now: the time the counts look back from, in jiffies (set by the caller)
 * @count: @count[i] of those records were born between i and i + 1 seconds
 *         before @now (saturating; the newest second also holds later ones);
 *         filled by fbk_account(), read by fbk_set_youth()
 */
struct fbk_births {
	unsigned long now;
	u16 count[FBK_BIRTH_SECONDS];
};

/**
 * struct fbk_policy - the inputs of the scan besides the tree
 * @trigger: FBK_TRIGGER_OOM weighs subtrees by memory, FBK_TRIGGER_FORK_FAIL
 *           by processes
 * @now: the current time, in jiffies
 * @young_since: records born at or after this time are young (fbk_set_youth())
 * @multiplied_at: when the processes in scope last multiplied before the
 *                 resource ran out: @exhausted_at, or for an OOM after a
 *                 stall in reclaim, the end of their last busy second
 *                 (fbk_set_youth())
 * @exhausted_at: when the resource ran out (now for an OOM, the first of
 *                the failed forks otherwise): a young record that ended by
 *                exit() before it is a finished job
 * @min_descendants: fewest young live processes a bomb has
 * @victim: OOM: the record of the process the OOM killer would take (the
 *          highest badness, oom_score_adj applied), or NULL
 * @victim_mass: OOM: its weight: what killing it would free
 * @total_tasks: eligible processes in scope
 * @total_mass: FORK_FAIL: their weight (their threads, each of which took a
 *              pid and counted against the limit)
 * @walked_tasks: processes the scan's walk visited, in scope or not: what
 *                the walk cost
 * @cgroup_only: the scan saw the processes of one cgroup only (a memcg OOM,
 *               a pids.max failure): a live record none of whose processes
 *               it saw is outside the scope, and protected (fbk_aggregate())
 */
struct fbk_policy {
	enum fbk_trigger trigger;
	unsigned long now;
	unsigned long young_since;
	unsigned long multiplied_at;
	unsigned long exhausted_at;
	unsigned int min_descendants;
	const struct fbk_node *victim;
	unsigned long victim_mass;
	unsigned long total_tasks;
	unsigned long total_mass;
	unsigned long walked_tasks;
	bool cgroup_only;
};

static inline bool fbk_young(const struct fbk_node *node,
			     const struct fbk_policy *policy)
{
	return !time_before(node->born_at, policy->young_since);
}

void fbk_scan_reset(struct fbk_tree *tree, struct fbk_births *births);
void fbk_set_youth(struct fbk_policy *policy, const struct fbk_births *births);
void fbk_account(struct fbk_node *node, enum fbk_class class,
		 unsigned long mass, struct fbk_births *births);
void fbk_account_oom_group(struct fbk_node *node);
void fbk_aggregate(struct fbk_tree *tree, const struct fbk_policy *policy);

/**
 * enum fbk_shape - what kind of fork bomb fbk_choose() found
 * @FBK_SHAPE_NONE: none
 * @FBK_SHAPE_TREE: processes that fork processes that fork, generation
 *                  after generation, most of them into several children
 * @FBK_SHAPE_CHAIN: each process forks one child, which does the same
 * @FBK_SHAPE_SPAWNER: one process forks children that stay, at a rate and
 *                     in numbers no ordinary program reaches
 */
enum fbk_shape {
	FBK_SHAPE_NONE,
	FBK_SHAPE_TREE,
	FBK_SHAPE_CHAIN,
	FBK_SHAPE_SPAWNER,
};

/**
 * struct fbk_profile - how a subtree multiplied, as fbk_choose() measured it
 * @tasks: live eligible processes
 * @young: those of them born young
 * @mass: their weight, in pages
 * @records: young records, live or dead
 * @live_records: those of them still in use
 * @branching: records whose young live processes sit below two or more of
 *             their children
 * @dead_leaves: young records that ended by exit() without a child before
 *               the resource ran out, forked by a process that did not
 *               multiply (FBK_MULTIPLIED): finished jobs
 * @multipliers: young records two or more of whose young children forked
 *               in turn (FBK_MULTIPLIED)
 * @forked: young records made by fork, not exec (births of processes)
 * @newest_at: birth of the youngest of them, in jiffies
 * @oldest_at: birth of the oldest of them
 * @depth: most branching records on one path from the top down
 * @generations: most young fork generations on one path from the top down
 * @children: spawner: its young children (records)
 * @live_children: spawner: those of them with a young live process
 * @oom_group: OOM: a process of it is in a cgroup with memory.oom.group
 */
struct fbk_profile {
	unsigned int tasks;
	unsigned int young;
	unsigned long mass;
	unsigned int records;
	unsigned int live_records;
	unsigned int branching;
	unsigned int dead_leaves;
	unsigned int multipliers;
	unsigned int forked;
	unsigned long newest_at;
	unsigned long oldest_at;
	unsigned int depth;
	unsigned int generations;
	unsigned int children;
	unsigned int live_children;
	bool oom_group;
};

/**
 * struct fbk_choice - the verdict of fbk_choose()
 * @shape: the kind of bomb, FBK_SHAPE_NONE when none was found
 * @top: where the bomb begins: the record the bomb grew from, or NULL
 * @spared: @top is an outsider that started the bomb (a login shell):
 *          only its children flagged FBK_BOMB are the bomb, @top lives
 * @profile: the measurements that decided
 */
struct fbk_choice {
	enum fbk_shape shape;
	struct fbk_node *top;
	bool spared;
	struct fbk_profile profile;
};

bool fbk_choose(const struct fbk_tree *tree, const struct fbk_policy *policy,
		struct fbk_choice *choice);
const char *fbk_shape_name(enum fbk_shape shape);
void fbk_doom(struct fbk_tree *tree, const struct fbk_choice *choice,
	      const struct fbk_policy *policy, u8 mark);
void fbk_undoom(struct fbk_tree *tree, const struct fbk_choice *choice,
		const struct fbk_policy *policy);

/**
 * struct fbk_spawner_watch - is a spawner found when fork failed still failing?
 * @top: the spawner's record, as a scan found it; only compared, never
 *       dereferenced
 * @found_at: when a scan found it last, in jiffies
 * @failing: a fork of a process of @top failed since it was found
 * @failing_since: when its forks began to fail without a pause
 * @failed_at: when one failed last
 */
struct fbk_spawner_watch {
	const struct fbk_node *top;
	unsigned long found_at;
	bool failing;
	unsigned long failing_since;
	unsigned long failed_at;
};

/* Spawners watched in one scope at once: two bombs fail side by side. */
#define FBK_WATCHED_SPAWNERS	2

/**
 * struct fbk_exhaustion - a scope whose forks fail: the whole system
 *                         (threads-max, pid_max), a user (RLIMIT_NPROC) or
 *                         a pids cgroup (pids.max)
 * @used: the entry holds a scope
 * @key: which scope: 0 for the system, else see fbk_scope_key()
 * @exhausted_at: since when its forks keep failing (without a pause of
 *                over FBK_EXHAUSTION_PAUSE_JIFFIES), in jiffies
 * @failed_at: when one failed last
 * @next_scan_at: when a failed fork may scan it next
 * @spawner_watched: its last scan found a spawner to watch
 * @spawners: the spawners its scans found, and whether they keep failing
 *
 * Kept per scope, so that one scope at its limit (a user retrying a fork
 * at RLIMIT_NPROC every half second) neither moves another's exhaustion
 * nor spends its scans.
 */
struct fbk_exhaustion {
	bool used;
	u64 key;
	unsigned long exhausted_at;
	unsigned long failed_at;
	unsigned long next_scan_at;
	bool spawner_watched;
	struct fbk_spawner_watch spawners[FBK_WATCHED_SPAWNERS];
};

/* Forks of a scope that fail again after this pause begin a new exhaustion. */
#define FBK_EXHAUSTION_PAUSE_JIFFIES	HZ
/* Scans after a kill or while a spawner is watched come soon, else less so. */
#define FBK_RETRY_SOON_JIFFIES		(HZ / 20)
#define FBK_RETRY_IDLE_JIFFIES		HZ
/*
 * The scans of users and pids cgroups, which an unprivileged user can
 * cause at will, take at most 1/FBK_SCAN_DUTY_FACTOR of the time (see
 * fbk_scan_duty_jiffies()): a user's scans walk every process of the
 * machine (a user has no list of its processes), a cgroup's walk the
 * history of every process. A scan that took very long (a kill of a
 * hundred thousand processes, a virtual machine paused meanwhile) holds
 * the next one back for FBK_SCAN_DUTY_MAX_JIFFIES at most.
 */
#define FBK_SCAN_DUTY_FACTOR		20
#define FBK_SCAN_DUTY_MAX_JIFFIES	(60 * HZ)

struct fbk_exhaustion *fbk_exhaustion_failed(struct fbk_exhaustion *table,
					     unsigned int size, u64 key,
					     const struct fbk_node *node,
					     unsigned long now);
bool fbk_exhaustion_confirm(struct fbk_exhaustion *exhaustion,
			    const struct fbk_node *top, unsigned long now);
unsigned long fbk_scan_duty_jiffies(u64 spent_ns);
void fbk_exhaustion_scanned(struct fbk_exhaustion *ex, bool found,
			    u64 spent_ns, unsigned long now);

/*
 * The kernel glue (forkbomb.c and the files after it), not used by the
 * pure logic above.
 */
struct cgroup;
struct mem_cgroup;
struct mm_struct;
struct mutex;

struct rw_semaphore;

/*
 * Work done in one go before a lock is dropped or the CPU offered:
 * FBK_BATCH records, FBK_TASK_BATCH processes.
 */
#define FBK_BATCH		1024
#define FBK_TASK_BATCH		256

/*
 * Every FBK_BATCH records, a walk of a scan offers the CPU when @tree
 * allows it: in the killer thread, which only real-time tasks preempt
 * (see fbk_walk_processes()). The walks of the children of one record in
 * fbk_choose() do not: all of them together visit each record once.
 */
static inline void fbk_walk_pause(const struct fbk_tree *tree,
				  unsigned int *visited)
{
	if (tree->may_yield && !(++*visited % FBK_BATCH))
		cond_resched();
}

extern spinlock_t fbk_lock;
extern struct rw_semaphore fbk_history_rwsem;
extern struct mutex fbk_mutex;
extern struct fbk_tree fbk_tree;
extern unsigned long fbk_calm_at;
extern unsigned long fbk_max_records;
extern atomic_long_t fbk_records_dropped;
extern atomic_long_t fbk_fork_failures;

#define FBK_MIN_RECORDS		1024UL
#define FBK_MAX_RECORDS		(16UL << 20)

struct fbk_node *fbk_mm_node(struct mm_struct *mm);
unsigned long fbk_mm_own_pages(struct mm_struct *mm);
void fbk_free_list(struct hlist_head *freed);
bool fbk_tracking(void);
void fbk_set_tracking(bool enable);

/* forkbomb_reaper.c */
#define FBK_INTERVAL_MIN_MS	100U
#define FBK_INTERVAL_MAX_MS	86400000U
extern unsigned int fbk_interval_ms;
void fbk_reaper_sync(void);

/* forkbomb_sysfs.c */
int fbk_parse_uint(const char *buf, unsigned int min, unsigned int max,
		   unsigned int *val);

/* forkbomb_kill.c */

/**
 * struct fbk_scope - what a scan is for, and which processes it concerns
 * @oom: an OOM (weigh by memory, mark victims); else fork failed (weigh by
 *       processes)
 * @sysrq: an OOM forced with SysRq: do not wait for earlier victims
 * @memcg: a memcg OOM: only processes in this memcg count and die
 * @totalpages: OOM: the memory of the scope, to scale oom_score_adj by
 * @by_uid: fork failed on RLIMIT_NPROC: only processes of @uid count and die
 * @uid: see @by_uid
 * @pids_cgroup: fork failed on this cgroup's pids.max: only processes in
 *               its subtree count and die
 * @exhausted_at: fork failed: since when the forks of the scope keep
 *                failing, in jiffies; a bomb stuck at its limit stops
 *                being born then, so records are young when born within
 *                FBK_YOUNG_JIFFIES before it
 * @confirm_spawner: fork failed: a spawner is killed only once
 *                   fbk_spawner_confirmed() says so
 * @key: fork failed: the scope's key, fbk_scope_key()
 */
struct fbk_scope {
	bool oom;
	bool sysrq;
	struct mem_cgroup *memcg;
	unsigned long totalpages;
	bool by_uid;
	kuid_t uid;
	struct cgroup *pids_cgroup;
	unsigned long exhausted_at;
	bool confirm_spawner;
	u64 key;
};

/**
 * enum fbk_result - what a scan did
 * @FBK_RESULT_NONE: found no fork bomb (or was not sure yet)
 * @FBK_RESULT_WAIT: victims of an earlier kill are still exiting
 * @FBK_RESULT_KILLED: killed a fork bomb
 */
enum fbk_result {
	FBK_RESULT_NONE,
	FBK_RESULT_WAIT,
	FBK_RESULT_KILLED,
};

extern unsigned int fbk_triggers;
extern unsigned int fbk_min_descendants;
extern atomic_long_t fbk_kills;
extern atomic_long_t fbk_tasks_killed;
extern atomic_long_t fbk_victims_gone;
extern u8 fbk_killing_mark;
enum fbk_result fbk_scan_and_kill(const struct fbk_scope *scope,
				  u64 *spent_ns);
void fbk_kill_at_birth(struct task_struct *p);

/* forkbomb_forkfail.c */
bool fbk_spawner_confirmed(const struct fbk_scope *scope,
			   const struct fbk_node *top);

#endif /* _MM_FORKBOMB_INTERNAL_H */
