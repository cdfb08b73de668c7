// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: telling a fork bomb from a busy program.
 *
 * A fork bomb is a subtree of the history that is multiplying right now:
 * its processes fork, their children fork, births keep coming and the
 * newborn stay. A build, a browser, a worker pool or a server that
 * started its processes and then grows in memory is none of that, however
 * young and however many. The scan measures this on the history tree, in
 * linear passes without recursion or allocation:
 *
 * 1. fbk_scan_reset() clears the scratch fields, the caller reports every
 *    live process with fbk_account(), which counts when the records of
 *    eligible ones were born, fbk_set_youth() says from when a record
 *    is young (born within FBK_YOUNG_JIFFIES of the exhaustion, or of the
 *    machine's last multiplying before it thrashed), and fbk_aggregate()
 *    sums each subtree into its root: live eligible processes, how many
 *    of them are young, and their weight (memory counted once, for an OOM).
 *
 * 2. Where the young processes are: from the root holding most of them,
 *    step to the child holding most, for as long as that child holds
 *    nearly all (7/8) of those below the last record where they split
 *    between two or more children (or the root). The record reached is the
 *    lowest one above (nearly) all of the young population: the bomb's own
 *    first process, a spawner, an outsider that started two or more bombs
 *    at once (the login shell that ran f(){ f|f & }; f, whose two children
 *    are the two halves of the bomb), or a link of a chain an eighth of
 *    the way down.
 *
 * 3. Where the bomb begins. A bomb process forks soon after its birth;
 *    an outsider (a shell, sshd, a service manager, a test) lived long
 *    before it started the bomb. The bomb's generation time is the median
 *    time from a young record's parent's birth to its own in that subtree
 *    (at least FBK_GAP_MIN_JIFFIES). The record found is part of the bomb
 *    when it forked its first young child within FBK_GAP_FACTOR
 *    generation times of its own birth, or when its heaviest child is
 *    old too and at least min_descendants older records below it forked
 *    young ones (a bomb that grows in bursts, older than the window).
 *    Then the top of the bomb is found by climbing through the parents
 *    that belong to it too: dead records, and wrappers with no other live
 *    child that forked it just as quickly. An outsider is spared: only its
 *    children born together with the heaviest one are the bomb. So is the
 *    parent where the climb stops when another of its children, born
 *    together with the top, holds young processes (the other half of a
 *    bomb typed into a shell).
 *
 * 4. Whether it multiplies. A walk of the bomb's subtrees measures how:
 *    FBK_SHAPE_TREE needs min_descendants young live processes, at least
 *    FBK_TREE_DEPTH generations of records that each put young processes
 *    under two or more children, one such record per FBK_TREE_SHARE young
 *    live records, and few young records that ended by exit() without a
 *    child before the resource ran out (a build leaves finished jobs
 *    behind, a bomb does not; a bomb's processes killed by a signal, or
 *    exiting once their forks fail, do not count). FBK_SHAPE_CHAIN needs
 *    FBK_CHAIN_GENERATIONS (or min_descendants) young fork generations in
 *    a row. Otherwise, FBK_SHAPE_SPAWNER is a record whose own young
 *    children are many (FBK_SPAWNER_MIN for an OOM; min_descendants when
 *    fork failed, where the caller waits for the spawner to fail again),
 *    mostly still alive (FBK_SPAWNER_ALIVE_NUM/FBK_SPAWNER_ALIVE_DEN),
 *    few dead leaves below it, and still coming at a bomb's pace: for an
 *    OOM, at least min_descendants of them, and 1/FBK_TRICKLE_SHARE of
 *    them, born in the FBK_YOUNG_JIFFIES before it (a pool that started
 *    its workers at once and replaces a few now and then is not
 *    multiplying), FBK_SPAWNER_MIN within FBK_SPAWNER_PACE_JIFFIES, the
 *    last one recently (FBK_SPAWNER_PAUSE_SHARE).
 *
 * 5. Whether it is what ran out. For an OOM the bomb must weigh at least
 *    FBK_VICTIM_FACTOR (2) times the OOM killer's victim (else that victim
 *    frees as much), FBK_VICTIM_SHARE times when the victim is part of
 *    the bomb, and must not hold a process whose memory.oom.group asks
 *    for the whole cgroup or nothing. When fork failed, it must hold at
 *    least 1/FBK_LIMIT_SHARE (half) of the threads in scope (each took a
 *    pid, and counts against every limit a fork can fail on).
 *
 * Whatever does not pass is left to the ordinary OOM killer.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "forkbomb_internal.h"

/*
 * The thresholds of the rule. Each one is pinned by KUnit cases of the
 * forkbomb_score suite that sit on either side of it (see "The constants
 * of the rule" in Documentation/mm/forkbomb.rst, which says what sets
 * each one), and scripts/mutants/ has a mutant that halves it and one
 * that doubles it.
 *
 * Steps 1 and 4: fewer births in FBK_YOUNG_JIFFIES than this share of the
 * busiest such window (fbk_set_youth()), or of a spawner's live children
 * (fbk_spawner()), are a trickle, not multiplying.
 */
#define FBK_TRICKLE_SHARE	8
/*
 * Step 2: the walk goes down to a child holding FBK_SPLIT_NUM/FBK_SPLIT_DEN
 * of the young processes below the last split: a few young processes
 * beside the bomb (an eighth) do not stop it, two bombs side by side do.
 */
#define FBK_SPLIT_NUM		7
#define FBK_SPLIT_DEN		8
/*
 * Step 3: a young process that forked its first young child more than
 * this many generation times after its own birth is an outsider that
 * started the bomb, not its first process.
 */
#define FBK_GAP_FACTOR		8
/*
 * Step 3: the shortest generation time (20 ms). For a bomb that forks
 * every millisecond, FBK_GAP_FACTOR generation times would be shorter
 * than the start of its own first process (an exec, a shell reading its
 * script), which would then look like an outsider.
 */
#define FBK_GAP_MIN_JIFFIES	(HZ / 50)
/* Step 3: buckets of the generation time's histogram (powers of two). */
#define FBK_GAP_BUCKETS		32
/* Step 4, tree: generations of records that branch, on one path. */
#define FBK_TREE_DEPTH		3
/* Step 4, tree: at least one branching record per this many live records. */
#define FBK_TREE_SHARE		16
/*
 * Step 4: finished jobs veto a tree, or a spawner, when they are more
 * than 1/FBK_DEAD_LEAF_SHARE of its young live processes...
 */
#define FBK_DEAD_LEAF_SHARE	4
/* ...and (a tree) more than this many per record that multiplied. */
#define FBK_LEAVES_PER_MULTIPLIER	4
/* Step 4, chain: young fork generations in a row (or min_descendants). */
#define FBK_CHAIN_GENERATIONS	32
/*
 * Step 4, spawner, for an OOM: live young children, and children born
 * within FBK_SPAWNER_PACE_JIFFIES of each other (Apache's prefork starts
 * at most 32 workers a second).
 */
#define FBK_SPAWNER_MIN		64
#define FBK_SPAWNER_PACE_JIFFIES	HZ
/*
 * Step 4, spawner: at least FBK_SPAWNER_ALIVE_NUM/FBK_SPAWNER_ALIVE_DEN
 * of its young children still live (a server's CGI children, a stress
 * test's, come and go).
 */
#define FBK_SPAWNER_ALIVE_NUM	3
#define FBK_SPAWNER_ALIVE_DEN	4
/*
 * Step 4, spawner, for an OOM: it still forks: its last child was born
 * less than 1/FBK_SPAWNER_PAUSE_SHARE of the time it took to fork them
 * all before the scan.
 */
#define FBK_SPAWNER_PAUSE_SHARE	4
/*
 * Step 5, for an OOM: killing the bomb frees at least FBK_VICTIM_FACTOR
 * times what the OOM killer's victim would, and FBK_VICTIM_SHARE times
 * when that victim is part of the bomb.
 */
#define FBK_VICTIM_FACTOR	2
#define FBK_VICTIM_SHARE	32
/*
 * Step 5, when fork failed: the bomb holds at least 1/FBK_LIMIT_SHARE of
 * the threads in scope (not counting the young of other subtrees).
 */
#define FBK_LIMIT_SHARE		2

static const struct {
	const char *name;
	unsigned int bit;
} fbk_trigger_names[] = {
	{ "oom", FBK_TRIGGER_OOM },
	{ "fork_fail", FBK_TRIGGER_FORK_FAIL },
};

/**
 * fbk_parse_triggers - parse a set of triggers
 * @buf: "none", or trigger names separated by blanks ("oom fork_fail")
 * @mask: the set, on success
 *
 * Return: 0, or -EINVAL for an empty set, an unknown or repeated name, or
 * "none" mixed with names.
 */
int fbk_parse_triggers(const char *buf, unsigned int *mask)
{
	unsigned int result = 0, words = 0;
	bool none = false;
	size_t len, i;

	for (;;) {
		buf = skip_spaces(buf);
		if (!*buf)
			break;
		len = strcspn(buf, " \t\n");
		words++;
		if (len == 4 && !strncmp(buf, "none", 4)) {
			none = true;
		} else {
			for (i = 0; i < ARRAY_SIZE(fbk_trigger_names); i++)
				if (strlen(fbk_trigger_names[i].name) == len &&
				    !strncmp(buf, fbk_trigger_names[i].name, len))
					break;
			if (i == ARRAY_SIZE(fbk_trigger_names) ||
			    (result & fbk_trigger_names[i].bit))
				return -EINVAL;
			result |= fbk_trigger_names[i].bit;
		}
		buf += len;
	}
	if (!words || (none && words > 1))
		return -EINVAL;
	*mask = result;
	return 0;
}

/**
 * fbk_format_triggers - print a set of triggers as fbk_parse_triggers() takes it
 * @mask: the set
 * @buf: output
 * @size: size of @buf
 *
 * Return: the length of the text, newline included.
 */
int fbk_format_triggers(unsigned int mask, char *buf, size_t size)
{
	int len = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fbk_trigger_names); i++)
		if (mask & fbk_trigger_names[i].bit)
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? " " : "", fbk_trigger_names[i].name);
	if (!len)
		len = scnprintf(buf, size, "none");
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}

/**
 * fbk_classify - decide what a process means to the scan
 * @info: the facts about it
 *
 * Return: FBK_PROTECT for kernel threads, init and OOM_SCORE_ADJ_MIN
 * processes; FBK_IGNORE for vfork children (their mm is their parent's),
 * processes out of scope and processes already dying; FBK_COUNT otherwise.
 */
enum fbk_class fbk_classify(const struct fbk_task_info *info)
{
	if (info->kthread || info->init)
		return FBK_PROTECT;
	if (info->vfork)
		return FBK_IGNORE;
	if (info->adj_min)
		return FBK_PROTECT;
	if (!info->in_scope || info->dying)
		return FBK_IGNORE;
	return FBK_COUNT;
}

/**
 * fbk_scan_reset - clear the scratch fields of every record
 * @tree: the forest
 * @births: if not NULL, cleared for fbk_account() to count the births of
 *          the records holding eligible processes, back from @births->now
 */
void fbk_scan_reset(struct fbk_tree *tree, struct fbk_births *births)
{
	unsigned int visited = 0;
	struct fbk_node *node;

	if (births)
		memset(births->count, 0, sizeof(births->count));
	for (node = fbk_first_root(tree); node; node = fbk_pre_next(node, NULL)) {
		fbk_walk_pause(tree, &visited);
		node->tasks = 0;
		node->young = 0;
		node->mass = 0;
		node->gens = 0;
		node->flags = 0;
	}
}

#define FBK_YOUNG_SECONDS	(FBK_YOUNG_JIFFIES / HZ)
/* The newest window of multiplying is at most this far back. */
#define FBK_STALL_SECONDS	((FBK_STALL_JIFFIES + FBK_YOUNG_JIFFIES) / HZ)

/* Births in the FBK_YOUNG_SECONDS up to @oldest seconds before @births->now. */
static unsigned int fbk_births_window(const struct fbk_births *births,
				      unsigned int oldest)
{
	unsigned int i, sum = 0;

	for (i = oldest + 1 - FBK_YOUNG_SECONDS; i <= oldest; i++)
		sum += births->count[i];
	return sum;
}

/**
 * fbk_set_youth - from when records count as young, and when the
 *                 processes in scope last multiplied
 * @policy: the trigger, when the resource ran out, and min_descendants;
 *          its @young_since and @multiplied_at are set
 * @births: when the records holding eligible processes were born
 *          (fbk_account()), back from @policy->exhausted_at
 *
 * The processes in scope are multiplying in a FBK_YOUNG_JIFFIES window
 * in which at least min_descendants of them were born, and at least
 * 1/FBK_TRICKLE_SHARE as many as in the busiest window (the few forks of
 * a stalled bomb of thousands that still succeed are no multiplying, nor
 * the helpers an OOM_SCORE_ADJ_MIN service keeps starting, which are not
 * counted at all). A record is young when it was born within
 * FBK_YOUNG_JIFFIES before a moment at which they were multiplying, in
 * the run of such windows that ends with the newest one, FBK_HISTORY_JIFFIES
 * back at most: a bomb on a slow or overloaded machine, which grows for
 * minutes rather than a second, is young all of its life, and so is the
 * history of a bomb that grows in bursts. The pace of the bomb sets the
 * window, not the clock.
 *
 * The newest window is the one that ends when the resource ran out,
 * whenever the machine is multiplying then. For an OOM it may be further
 * back, FBK_STALL_JIFFIES at most: a machine can thrash in reclaim for
 * long before an OOM, while its processes hardly run, let alone fork. The
 * processes last multiplied in the newest second of that window with a
 * birth. A failed fork needs no such care: the resource ran out at a fork.
 */
void fbk_set_youth(struct fbk_policy *policy, const struct fbk_births *births)
{
	unsigned int i, j, busiest = 0, min;

	policy->young_since = policy->exhausted_at - FBK_YOUNG_JIFFIES;
	policy->multiplied_at = policy->exhausted_at;
	if (!births)
		return;
	for (i = FBK_YOUNG_SECONDS - 1; i < FBK_BIRTH_SECONDS; i++)
		busiest = max(busiest, fbk_births_window(births, i));
	min = max(policy->min_descendants,
		  DIV_ROUND_UP(busiest, FBK_TRICKLE_SHARE));
	for (i = FBK_YOUNG_SECONDS - 1; i < FBK_STALL_SECONDS; i++)
		if (fbk_births_window(births, i) >= min)
			break;
	if (i == FBK_STALL_SECONDS ||
	    (i > FBK_YOUNG_SECONDS - 1 && policy->trigger != FBK_TRIGGER_OOM))
		return;
	if (i > FBK_YOUNG_SECONDS - 1) {
		/* min_descendants is at least 2: the window has a birth. */
		for (j = i + 1 - FBK_YOUNG_SECONDS; !births->count[j]; j++)
			;
		policy->multiplied_at = births->now - j * HZ;
	}
	/* Back through the busy windows before it. */
	while (i + 1 < FBK_BIRTH_SECONDS &&
	       fbk_births_window(births, i + 1) >= min)
		i++;
	policy->young_since = births->now - (i + 1) * HZ;
}

static void fbk_add_mass(struct fbk_node *node, unsigned long mass)
{
	node->mass = min_t(u64, (u64)node->mass + mass, U32_MAX);
}

/**
 * fbk_account - report one live process of a record to the scan
 * @node: the record of its address space
 * @class: what fbk_classify() said about it
 * @mass: its weight: for an OOM, the pages only it holds, adjusted by its
 *        oom_score_adj as the OOM killer does; when fork failed, its threads
 * @births: if not NULL, counts the birth of @node once it holds an eligible
 *          process (for fbk_set_youth())
 *
 * Every process the walk finds is reported, counted or not: a record with
 * none is outside a cgroup-only scan (see fbk_aggregate()).
 */
void fbk_account(struct fbk_node *node, enum fbk_class class,
		 unsigned long mass, struct fbk_births *births)
{
	unsigned long age;

	node->gens = FBK_SEEN;

	switch (class) {
	case FBK_COUNT:
		if (!node->tasks && births) {
			age = time_after(births->now, node->born_at) ?
			      (births->now - node->born_at) / HZ : 0;
			if (age < FBK_BIRTH_SECONDS && births->count[age] < U16_MAX)
				births->count[age]++;
		}
		node->tasks++;
		fbk_add_mass(node, mass);
		break;
	case FBK_PROTECT:
		node->flags |= FBK_PROTECTED;
		break;
	case FBK_IGNORE:
		break;
	}
}

/**
 * fbk_account_oom_group - report a process whose memory.oom.group applies
 * @node: the record of its address space
 *
 * An OOM leaves a subtree holding such a process to the OOM killer, which
 * kills the whole cgroup as the administrator asked.
 */
void fbk_account_oom_group(struct fbk_node *node)
{
	node->flags |= FBK_OOM_GROUP;
}

/**
 * fbk_aggregate - sum the scratch counts of every subtree into its root
 * @tree: the forest, every live process reported (fbk_account())
 * @policy: which records are young (fbk_young())
 *
 * Also notes which records have young live processes below two or more
 * children (FBK_BRANCHING), whose processes forked a young child
 * (FBK_FORKED), two or more of whose young forked children forked in
 * turn (FBK_MULTIPLIED), and which are dead with two or more young forked
 * children whose subtrees live on (FBK_LEFT_COPIES). After a scan of one
 * cgroup's processes, a live record none of whose processes the walk found
 * is protected: they are outside, where the kill cannot take them, and a
 * bomb in the cgroup does not climb past them. Each record, visited after
 * its children, first counts its own processes as young or not, then adds
 * its children's sums.
 * Records linked during the walk start from zero and may or may not be
 * visited; either way the sums stay consistent.
 */
void fbk_aggregate(struct fbk_tree *tree, const struct fbk_policy *policy)
{
	struct fbk_node *node = fbk_first_root(tree), *child;
	unsigned int visited = 0, young_children, forking_children, live_copies;

	if (node)
		node = fbk_post_first(node);
	for (; node; node = fbk_post_next(node, NULL)) {
		fbk_walk_pause(tree, &visited);
		if (policy->cgroup_only && node->gens != FBK_SEEN &&
		    !fbk_dead(node))
			node->flags |= FBK_PROTECTED;
		node->gens = 0;
		node->young = fbk_young(node, policy) ? node->tasks : 0;
		young_children = 0;
		forking_children = 0;
		live_copies = 0;
		for (child = fbk_first_child(node); child;
		     child = fbk_next_sibling(child)) {
			node->tasks += child->tasks;
			node->young += child->young;
			fbk_add_mass(node, child->mass);
			node->flags |= child->flags & FBK_OOM_GROUP;
			if (child->young && ++young_children == 2)
				node->flags |= FBK_BRANCHING;
			if (!fbk_young(child, policy))
				continue;
			/* An exec: the process goes on in the child record. */
			if (child->history & FBK_EXEC) {
				node->flags |= child->flags & FBK_FORKED;
				continue;
			}
			node->flags |= FBK_FORKED;
			if ((child->flags & FBK_FORKED) && ++forking_children == 2)
				node->flags |= FBK_MULTIPLIED;
			if (child->tasks && ++live_copies == 2 && fbk_dead(node))
				node->flags |= FBK_LEFT_COPIES;
		}
	}
}

/* The child holding most young processes. */
static struct fbk_node *fbk_heaviest_child(const struct fbk_node *node)
{
	struct fbk_node *child, *best = NULL;

	for (child = fbk_first_child(node); child; child = fbk_next_sibling(child))
		if (child->young && (!best || child->young > best->young))
			best = child;
	return best;
}

/*
 * Step 2: the lowest record above (nearly) all of the young processes:
 * nearly all of those where they last split (FBK_BRANCHING), or of the
 * root. Not of those of the record stepped from: in a chain, where no
 * record branches and each holds all the young processes below it, the
 * walk would end at the newest link, whose slow birth (a fork that
 * stalled in reclaim) then looks like an outsider's.
 */
static struct fbk_node *fbk_young_top(const struct fbk_tree *tree)
{
	struct fbk_node *node = NULL, *root, *child;
	u64 nearly_all;

	for (root = fbk_first_root(tree); root; root = fbk_next_sibling(root))
		if (root->young && (!node || root->young > node->young))
			node = root;
	if (!node)
		return NULL;
	nearly_all = (u64)node->young * FBK_SPLIT_NUM;
	for (;;) {
		if (node->flags & FBK_BRANCHING)
			nearly_all = (u64)node->young * FBK_SPLIT_NUM;
		child = fbk_heaviest_child(node);
		if (!child || (u64)child->young * FBK_SPLIT_DEN < nearly_all)
			break;
		node = child;
	}
	return node;
}

/*
 * The earliest child of @node that holds young processes; if @young, the
 * earliest that is young itself too.
 */
static struct fbk_node *fbk_first_young_child(const struct fbk_node *node,
					      const struct fbk_policy *policy,
					      bool young)
{
	struct fbk_node *child, *first = NULL;

	for (child = fbk_first_child(node); child; child = fbk_next_sibling(child))
		if (child->young && (!young || fbk_young(child, policy)) &&
		    (!first || time_before(child->born_at, first->born_at)))
			first = child;
	return first;
}

/* Jiffies from @parent's birth to @child's; 0 if @child looks older. */
static unsigned long fbk_gap(const struct fbk_node *parent,
			     const struct fbk_node *child)
{
	return time_after(child->born_at, parent->born_at) ?
	       child->born_at - parent->born_at : 0;
}

/*
 * Step 3: the bomb's generation time: the median time from a young
 * forked record's parent's birth to its own, below @top, at least
 * FBK_GAP_MIN_JIFFIES; kept in buckets of powers of two (the median's
 * bucket gives its lower bound). It is the bomb's own pace, however slow
 * the machine: a bomb that waits for a CPU behind thousands of its own
 * processes takes seconds a generation.
 */
static unsigned long fbk_generation(const struct fbk_tree *tree,
				    struct fbk_node *top,
				    const struct fbk_policy *policy)
{
	unsigned int buckets[FBK_GAP_BUCKETS] = {};
	unsigned int count = 0, seen = 0, visited = 0, b;
	struct fbk_node *node;
	unsigned long gap;

	for (node = fbk_first_child(top); node; node = fbk_pre_next(node, top)) {
		fbk_walk_pause(tree, &visited);
		/* A generation is a fork; an exec only renews the mm. */
		if (!fbk_young(node, policy) || (node->history & FBK_EXEC))
			continue;
		gap = fbk_gap(node->parent, node);
		buckets[min_t(unsigned int, fls_long(gap), FBK_GAP_BUCKETS - 1)]++;
		count++;
	}
	for (b = 0; b < FBK_GAP_BUCKETS - 1; b++) {
		seen += buckets[b];
		if (2 * seen >= count)
			break;
	}
	gap = b ? 1UL << (b - 1) : 0;
	return max_t(unsigned long, gap, FBK_GAP_MIN_JIFFIES);
}

/* How many of @node's children are young records. */
static unsigned int fbk_young_children(const struct fbk_node *node,
				       const struct fbk_policy *policy)
{
	struct fbk_node *child;
	unsigned int n = 0;

	for (child = fbk_first_child(node); child; child = fbk_next_sibling(child))
		n += fbk_young(child, policy);
	return n;
}

/*
 * Step 3: did an outsider start the bomb late in its life? One that is
 * old (born before the young window: a login shell, sshd, a test) and
 * forked only a few of the young (a shell forks the two halves of
 * f(){ f|f & }; f), or one that is young but forked its first young child
 * more than FBK_GAP_FACTOR generation times after its birth. An old
 * process that forks many young children itself runs away: it is a
 * spawner, or the first process of a bomb that grows in bursts.
 */
static bool fbk_outsider(const struct fbk_node *node,
			 const struct fbk_policy *policy,
			 unsigned long generation)
{
	struct fbk_node *first;

	if (!fbk_young(node, policy))
		return fbk_young_children(node, policy) < policy->min_descendants;
	first = fbk_first_young_child(node, policy, false);
	return first && fbk_gap(node, first) > FBK_GAP_FACTOR * generation;
}

/* Does @node have a child other than @child with live eligible processes? */
static bool fbk_other_live_child(const struct fbk_node *node,
				 const struct fbk_node *child)
{
	struct fbk_node *pos;

	for (pos = fbk_first_child(node); pos; pos = fbk_next_sibling(pos))
		if (pos != child && pos->tasks)
			return true;
	return false;
}

/*
 * Step 3: climb from @node through the parents that belong to the bomb:
 * unprotected, and dead, or young and quick to fork it. An old one with
 * another live child is where the bomb's family joins another's, and so
 * is an old live one. A young one that forked it and others is the bomb's
 * first process, or a wrapper that started it: the others are the bomb's
 * later branches, which its first child outgrew (the halves of
 * f(){ f|f & }; f start together, and one of them can soon hold nearly
 * all of it).
 */
static struct fbk_node *fbk_climb(struct fbk_node *node,
				  const struct fbk_policy *policy,
				  unsigned long generation)
{
	struct fbk_node *parent;

	while ((parent = node->parent)) {
		if (parent->flags & FBK_PROTECTED)
			break;
		if (!fbk_dead(parent) &&
		    (!fbk_young(parent, policy) ||
		     fbk_gap(parent, node) > FBK_GAP_FACTOR * generation))
			break;
		if (fbk_dead(parent) && !fbk_young(parent, policy) &&
		    fbk_other_live_child(parent, node))
			break;
		node = parent;
	}
	return node;
}

/*
 * Step 3: were @a and @b, children of one record, born together: within
 * FBK_GAP_FACTOR generation times of each other?
 */
static bool fbk_born_together(const struct fbk_node *a, const struct fbk_node *b,
			      unsigned long generation)
{
	unsigned long window = FBK_GAP_FACTOR * generation;

	return fbk_gap(a, b) <= window && fbk_gap(b, a) <= window;
}

/*
 * Step 3, for an outsider: flag its children born together with the
 * heaviest one @heavy, and holding young processes, as the bomb.
 */
static void fbk_flag_bomb_children(struct fbk_node *top, struct fbk_node *heavy,
				   unsigned long generation)
{
	struct fbk_node *child;

	for (child = fbk_first_child(top); child; child = fbk_next_sibling(child)) {
		child->flags &= ~FBK_BOMB;
		if (child->young && fbk_born_together(child, heavy, generation))
			child->flags |= FBK_BOMB;
	}
}

/*
 * Step 3: has @parent, where the climb from @top stopped, another child
 * born together with @top that holds young processes? The other half of
 * f(){ date; f & f & }; f typed into a shell, which started both halves
 * and went back to its prompt: when one half holds nearly all of the
 * young, the walk of step 2 ends in it.
 */
static bool fbk_other_half(const struct fbk_node *parent,
			   const struct fbk_node *top, unsigned long generation)
{
	const struct fbk_node *child;

	for (child = fbk_first_child(parent); child; child = fbk_next_sibling(child))
		if (child != top && child->young &&
		    fbk_born_together(child, top, generation))
			return true;
	return false;
}

/*
 * Step 4: did the process that forked @node (a dead leaf) multiply, or
 * leave copies of itself behind when it ended? Its record is the parent
 * of @node's first record, before any exec.
 */
static bool fbk_forker_multiplied(const struct fbk_node *node)
{
	while ((node->history & FBK_EXEC) && node->parent)
		node = node->parent;
	return node->parent &&
	       (node->parent->flags & (FBK_MULTIPLIED | FBK_LEFT_COPIES));
}

/*
 * Step 4: is @node a finished job? A young record that ended by exit()
 * without a child before the resource ran out, forked by a process that
 * did not multiply: a compiler under its driver, a test under its runner.
 * A bomb process that runs a command before it forks itself again leaves
 * one behind too, but it multiplied.
 */
static bool fbk_finished_job(const struct fbk_node *node, u8 history,
			     const struct fbk_policy *policy)
{
	return fbk_dead(node) && !fbk_first_child(node) &&
	       (history & FBK_EXITED) &&
	       fbk_died_before(node, policy->exhausted_at) &&
	       !fbk_forker_multiplied(node);
}

/* Step 4: one record of a bomb's subtree, entered on the way down. */
static void fbk_profile_visit(struct fbk_node *node, const struct fbk_node *top,
			      const struct fbk_policy *policy, unsigned int *depth,
			      struct fbk_profile *profile)
{
	u8 history = READ_ONCE(node->history);
	unsigned int gens = 0;

	if (node->flags & FBK_BRANCHING) {
		profile->branching++;
		(*depth)++;
		profile->depth = max(profile->depth, *depth);
	}
	if (fbk_young(node, policy)) {
		profile->records++;
		if (!fbk_dead(node))
			profile->live_records++;
		else if (fbk_finished_job(node, history, policy))
			profile->dead_leaves++;
		if (node->flags & FBK_MULTIPLIED)
			profile->multipliers++;
		gens = node == top ? 0 : node->parent->gens;
		if (!(history & FBK_EXEC)) {
			gens = min(gens + 1, (unsigned int)U8_MAX);
			if (!profile->forked++ ||
			    time_after(node->born_at, profile->newest_at))
				profile->newest_at = node->born_at;
			if (profile->forked == 1 ||
			    time_before(node->born_at, profile->oldest_at))
				profile->oldest_at = node->born_at;
		}
	}
	node->gens = gens;
	profile->generations = max(profile->generations, gens);
}

/*
 * Step 4: walk @top's subtree, iteratively: down to the first child, else
 * on to the next sibling, else back up. @depth follows the path, so it is
 * taken back on the way up.
 */
static void fbk_profile_subtree(const struct fbk_tree *tree,
				struct fbk_node *top,
				const struct fbk_policy *policy,
				struct fbk_profile *profile)
{
	struct fbk_node *node = top, *next;
	unsigned int depth = 0, visited = 0;

	profile->tasks += top->tasks;
	profile->young += top->young;
	profile->mass += top->mass;
	profile->oom_group |= !!(top->flags & FBK_OOM_GROUP);
	fbk_profile_visit(node, top, policy, &depth, profile);
	for (;;) {
		next = fbk_first_child(node);
		while (!next && node != top) {
			if (node->flags & FBK_BRANCHING)
				depth--;
			next = fbk_next_sibling(node);
			if (!next)
				node = node->parent;
		}
		if (!next)
			return;
		node = next;
		fbk_walk_pause(tree, &visited);
		fbk_profile_visit(node, top, policy, &depth, profile);
	}
}

static void fbk_profile(const struct fbk_tree *tree,
			const struct fbk_choice *choice,
			const struct fbk_policy *policy,
			struct fbk_profile *profile)
{
	struct fbk_node *child;

	memset(profile, 0, sizeof(*profile));
	if (!choice->spared) {
		fbk_profile_subtree(tree, choice->top, policy, profile);
		return;
	}
	for (child = fbk_first_child(choice->top); child;
	     child = fbk_next_sibling(child))
		if (child->flags & FBK_BOMB)
			fbk_profile_subtree(tree, child, policy, profile);
}

/*
 * Step 4: few finished jobs: a build leaves many behind, a bomb none (of
 * its own: the commands its processes run count with the processes that
 * multiplied, see fbk_finished_job()). Either share of finished jobs is
 * small enough.
 */
static bool fbk_few_finished_jobs(const struct fbk_profile *profile)
{
	return (u64)profile->dead_leaves * FBK_DEAD_LEAF_SHARE <= profile->young ||
	       profile->dead_leaves <=
	       (u64)profile->multipliers * FBK_LEAVES_PER_MULTIPLIER;
}

static bool fbk_multiplies(const struct fbk_profile *profile,
			   const struct fbk_policy *policy, enum fbk_shape *shape)
{
	if (profile->young < policy->min_descendants ||
	    !fbk_few_finished_jobs(profile))
		return false;
	if (profile->depth >= FBK_TREE_DEPTH &&
	    (u64)profile->branching * FBK_TREE_SHARE >= profile->live_records) {
		*shape = FBK_SHAPE_TREE;
		return true;
	}
	if (profile->generations >= max_t(unsigned int, FBK_CHAIN_GENERATIONS,
					  policy->min_descendants)) {
		*shape = FBK_SHAPE_CHAIN;
		return true;
	}
	return false;
}

/*
 * Step 4, spawner: the most young children of @node born within a second
 * of each other. Children are listed newest first (fbk_link()).
 */
static unsigned int fbk_spawner_pace(const struct fbk_node *node,
				     const struct fbk_policy *policy)
{
	const struct fbk_node *lead, *trail = NULL;
	unsigned int count = 0, best = 0;

	for (lead = fbk_first_child(node); lead; lead = fbk_next_sibling(lead)) {
		if (!lead->young || !fbk_young(lead, policy))
			continue;
		if (!trail)
			trail = lead;
		count++;
		while (time_after(trail->born_at,
				  lead->born_at + FBK_SPAWNER_PACE_JIFFIES)) {
			if (trail->young && fbk_young(trail, policy))
				count--;
			trail = fbk_next_sibling(trail);
		}
		best = max(best, count);
	}
	return best;
}

/*
 * Step 4: does @node fork children that stay, many, and still now at a
 * bomb's pace (for an OOM; when fork failed, the caller sees whether it
 * keeps failing)? Counts its young children into @profile. Processes that
 * share its record (clone(CLONE_VM) without CLONE_THREAD) were forked by
 * its processes too: they count as children born with it.
 */
static bool fbk_spawner(const struct fbk_node *node,
			const struct fbk_policy *policy,
			struct fbk_profile *profile)
{
	unsigned long oldest = 0, newest = 0, spread;
	unsigned long recent_since = policy->exhausted_at - FBK_YOUNG_JIFFIES;
	unsigned int min = policy->min_descendants, recent = 0, own;
	struct fbk_node *child;

	if (node->flags & FBK_PROTECTED)
		return false;
	own = node->tasks;
	for (child = fbk_first_child(node); child; child = fbk_next_sibling(child)) {
		own -= child->tasks;
		if (!fbk_young(child, policy))
			continue;
		if (!profile->children++ || time_before(child->born_at, oldest))
			oldest = child->born_at;
		if (profile->children == 1 || time_after(child->born_at, newest))
			newest = child->born_at;
		if (!child->young)
			continue;
		profile->live_children++;
		recent += !time_before(child->born_at, recent_since);
	}
	if (own > 1 && fbk_young(node, policy)) {
		profile->children += own - 1;
		profile->live_children += own - 1;
	}
	if (policy->trigger == FBK_TRIGGER_OOM)
		min = max_t(unsigned int, min, FBK_SPAWNER_MIN);
	if (profile->live_children < min ||
	    (u64)profile->live_children * FBK_SPAWNER_ALIVE_DEN <
	    (u64)profile->children * FBK_SPAWNER_ALIVE_NUM)
		return false;
	/* When fork failed, births stop: the caller waits for more failures. */
	if (policy->trigger == FBK_TRIGGER_FORK_FAIL)
		return true;
	/*
	 * Still coming, at the pace of a bomb, not of a pool's replacements,
	 * nor of a server's ramp (Apache's prefork starts at most 32 workers
	 * a second).
	 */
	if (recent < policy->min_descendants ||
	    (u64)recent * FBK_TRICKLE_SHARE < profile->live_children ||
	    fbk_spawner_pace(node, policy) < FBK_SPAWNER_MIN)
		return false;
	/* And the last child is recent next to how long it took. */
	spread = max((newest - oldest) / FBK_SPAWNER_PAUSE_SHARE,
		     (unsigned long)FBK_GAP_MIN_JIFFIES);
	return !time_after(policy->now, newest + spread);
}

/*
 * Step 5, when fork failed: the bomb holds at least half of the threads in
 * scope that are not young processes of something else (a second bomb
 * next to it, which the next scan finds).
 */
static bool fbk_fills_limit(const struct fbk_tree *tree,
			    const struct fbk_policy *policy,
			    const struct fbk_profile *profile)
{
	unsigned long young = 0, others;
	struct fbk_node *root;

	for (root = fbk_first_root(tree); root; root = fbk_next_sibling(root))
		young += root->young;
	others = young > profile->young ? young - profile->young : 0;
	return FBK_LIMIT_SHARE * (u64)profile->mass + others >= policy->total_mass;
}

/* Is @node in what @choice would kill (in a flagged child of a spared top)? */
static bool fbk_in_choice(const struct fbk_tree *tree,
			  const struct fbk_node *node,
			  const struct fbk_choice *choice)
{
	unsigned int visited = 0;

	for (; node; node = node->parent) {
		fbk_walk_pause(tree, &visited);
		if (node->parent == choice->top && choice->spared)
			return node->flags & FBK_BOMB;
		if (node == choice->top)
			return !choice->spared;
	}
	return false;
}

/*
 * Step 5, for an OOM: killing the bomb frees at least twice what the
 * ordinary OOM killer's victim would. When that victim is part of the
 * bomb, at least FBK_VICTIM_SHARE times as much: the bomb's memory is
 * held by many small processes, which the OOM killer would take one by
 * one while the bomb forks new ones. Where a few big processes hold it
 * (a build whose compile jobs grew out of memory), the OOM killer frees
 * much with each kill, and the bomb killer leaves them to it.
 */
static bool fbk_outweighs_victim(const struct fbk_tree *tree,
				 const struct fbk_choice *choice,
				 const struct fbk_policy *policy)
{
	unsigned int times = FBK_VICTIM_FACTOR;

	if (policy->victim && fbk_in_choice(tree, policy->victim, choice))
		times = FBK_VICTIM_SHARE;
	return (u64)choice->profile.mass >= times * (u64)policy->victim_mass;
}

/**
 * fbk_choose - find the fork bomb in a scored forest
 * @tree: the forest, after fbk_aggregate()
 * @policy: the trigger, the time and the thresholds
 * @choice: the verdict, and what it saw
 *
 * See the comment at the top of this file for the rule. Linear in the
 * number of records, no recursion, no allocation. Sets FBK_BOMB on the
 * children of a spared top that belong to the bomb.
 *
 * Return: true when @choice is a fork bomb to kill.
 */
bool fbk_choose(const struct fbk_tree *tree, const struct fbk_policy *policy,
		struct fbk_choice *choice)
{
	struct fbk_node *young_top, *heavy, *parent;
	struct fbk_profile spawner = {};
	unsigned long generation;

	memset(choice, 0, sizeof(*choice));
	young_top = fbk_young_top(tree);
	if (!young_top)
		return false;

	generation = fbk_generation(tree, young_top, policy);
	heavy = fbk_heaviest_child(young_top);
	choice->top = young_top;
	if ((young_top->flags & FBK_PROTECTED) ||
	    fbk_outsider(young_top, policy, generation)) {
		choice->spared = true;
		fbk_flag_bomb_children(young_top, heavy, generation);
	} else {
		choice->top = fbk_climb(young_top, policy, generation);
		parent = choice->top->parent;
		if (parent && !(parent->flags & FBK_PROTECTED) &&
		    fbk_other_half(parent, choice->top, generation)) {
			fbk_flag_bomb_children(parent, choice->top, generation);
			choice->top = parent;
			choice->spared = true;
		}
	}
	fbk_profile(tree, choice, policy, &choice->profile);

	if (!fbk_multiplies(&choice->profile, policy, &choice->shape)) {
		if (!fbk_spawner(young_top, policy, &spawner))
			return false;
		choice->shape = FBK_SHAPE_SPAWNER;
		choice->top = young_top;
		choice->spared = false;
		fbk_profile(tree, choice, policy, &choice->profile);
		choice->profile.children = spawner.children;
		choice->profile.live_children = spawner.live_children;
		/* Its children stay; a stress test's or a server's come and go. */
		if ((u64)choice->profile.dead_leaves * FBK_DEAD_LEAF_SHARE >
		    choice->profile.young) {
			choice->shape = FBK_SHAPE_NONE;
			return false;
		}
	}

	if (policy->trigger == FBK_TRIGGER_FORK_FAIL)
		return fbk_fills_limit(tree, policy, &choice->profile);
	return !choice->profile.oom_group &&
	       fbk_outweighs_victim(tree, choice, policy);
}

/**
 * fbk_shape_name - the name of a shape, for reports
 * @shape: the shape
 *
 * Return: "tree", "chain", "spawner" or "none".
 */
const char *fbk_shape_name(enum fbk_shape shape)
{
	static const char * const names[] = {
		[FBK_SHAPE_NONE] = "none",
		[FBK_SHAPE_TREE] = "tree",
		[FBK_SHAPE_CHAIN] = "chain",
		[FBK_SHAPE_SPAWNER] = "spawner",
	};

	return shape < ARRAY_SIZE(names) ? names[shape] : "none";
}

/*
 * What a kill takes of @top's subtree: @top, and every record that is
 * young or holds young processes below it: the population that
 * multiplied, its earlier bursts, and whatever it forks during the kill.
 * Not the old records beside it that hold no young process: a spawner's
 * children from before it ran away, a user's long-running jobs under the
 * spared sshd that a bomb came from. Their processes live, and so do the
 * children they fork later. With @whole (fbk_whole_subtree()), all of it.
 */
static bool fbk_in_bomb(const struct fbk_node *node, const struct fbk_node *top,
			const struct fbk_policy *policy, bool whole)
{
	return whole || node == top || node->young || fbk_young(node, policy);
}

/*
 * Is all of @top's subtree the bomb? When @top is a dead bomb process
 * that multiplied (a tree or a chain, not a spawner, whose children from
 * before it ran away are not its bomb), every process below it descends
 * from the bomb: also one born early that has been stalled since, and is
 * no longer young. Left alive, it would start the bomb again.
 */
static bool fbk_whole_subtree(const struct fbk_node *top,
			      const struct fbk_choice *choice)
{
	return fbk_dead(top) && (choice->shape == FBK_SHAPE_TREE ||
				 choice->shape == FBK_SHAPE_CHAIN);
}

/* Mark the bomb in @top's subtree doomed; see fbk_link() for the ordering. */
static void fbk_doom_subtree(const struct fbk_tree *tree, struct fbk_node *top,
			     const struct fbk_choice *choice,
			     const struct fbk_policy *policy, u8 mark)
{
	bool whole = fbk_whole_subtree(top, choice);
	struct fbk_node *node = top;
	unsigned int visited = 0;

	do {
		fbk_walk_pause(tree, &visited);
		if (!fbk_in_bomb(node, top, policy, whole)) {
			node = fbk_pre_skip(node, top);
			continue;
		}
		WRITE_ONCE(node->doomed, mark);
		/* Pairs with smp_mb() in fbk_link(); orders the read of children. */
		smp_mb();
		node = fbk_pre_next(node, top);
	} while (node);
}

/**
 * fbk_doom - mark the bomb's records as being killed
 * @tree: the forest
 * @choice: the verdict of fbk_choose()
 * @policy: the policy it was chosen with (which records are young)
 * @mark: this kill's mark, not 0; the kill takes the processes whose
 *        record bears it, so a mark left by an earlier kill is ignored
 *
 * Walks the subtrees concurrently with fbk_link(): see there. See
 * fbk_in_bomb() for what is doomed.
 */
void fbk_doom(struct fbk_tree *tree, const struct fbk_choice *choice,
	      const struct fbk_policy *policy, u8 mark)
{
	struct fbk_node *child;

	if (!choice->spared) {
		fbk_doom_subtree(tree, choice->top, choice, policy, mark);
		return;
	}
	for (child = fbk_first_child(choice->top); child;
	     child = fbk_next_sibling(child))
		if (child->flags & FBK_BOMB)
			fbk_doom_subtree(tree, child, choice, policy, mark);
}

static void fbk_undoom_subtree(const struct fbk_tree *tree, struct fbk_node *top,
			       const struct fbk_choice *choice,
			       const struct fbk_policy *policy)
{
	bool whole = fbk_whole_subtree(top, choice);
	unsigned int visited = 0;
	struct fbk_node *node = top;

	while (node) {
		fbk_walk_pause(tree, &visited);
		if (!fbk_in_bomb(node, top, policy, whole)) {
			node = fbk_pre_skip(node, top);
			continue;
		}
		if (!(node->flags & FBK_KILLED))
			WRITE_ONCE(node->doomed, 0);
		node = fbk_pre_next(node, top);
	}
}

/**
 * fbk_undoom - forget the doom of the records whose processes were spared
 * @tree: the forest
 * @choice: the verdict the kill followed
 * @policy: the policy of fbk_doom()
 *
 * A process of a doomed record that was not killed (out of scope,
 * protected) must not pass the doom on to the children it forks later.
 * Records whose processes were killed (FBK_KILLED) stay doomed: their
 * processes are exiting, and a fork they started fails.
 */
void fbk_undoom(struct fbk_tree *tree, const struct fbk_choice *choice,
		const struct fbk_policy *policy)
{
	struct fbk_node *child;

	if (!choice->spared) {
		fbk_undoom_subtree(tree, choice->top, choice, policy);
		return;
	}
	for (child = fbk_first_child(choice->top); child;
	     child = fbk_next_sibling(child))
		if (child->flags & FBK_BOMB)
			fbk_undoom_subtree(tree, child, choice, policy);
}
