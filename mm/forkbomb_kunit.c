// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the fork bomb killer, on synthetic trees built and
 * scored through the very functions the kernel uses:
 *
 *  forkbomb_tree   the history tree: links, walks, death, pruning, doom
 *  forkbomb_score  the choice of the bomb: real bomb shapes, which must be
 *                  found, and busy programs, which must not (one case per
 *                  shape, parameterised); every threshold of the rule,
 *                  with literal numbers on either side of it
 *  forkbomb_scale  a scan at a million records (very slow: make bench)
 *  forkbomb_parse  the knobs' parsers and the classes of processes
 *
 * Run with: tools/testing/kunit/kunit.py run --kunitconfig=mm/forkbomb_kunit.kunitconfig
 */

#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "forkbomb_internal.h"

/* Synthetic time: jiffies of second @s, starting well past 0. */
#define SEC(s)		((unsigned long)(100000 + (s)) * HZ)
#define SECS(s)		((unsigned long)(s) * HZ)
#define MS(ms)		msecs_to_jiffies(ms)
/* When the scans of the score suite run. */
#define NOW		SEC(1000)

/* --- helpers --- */

static struct fbk_node *add_node(struct kunit *test, struct fbk_tree *tree,
				 struct fbk_node *parent, unsigned long born_at,
				 bool exec)
{
	struct fbk_node *node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, node);
	node->history = exec ? FBK_EXEC : 0;
	fbk_link(tree, node, parent, born_at);
	return node;
}

static struct fbk_node *add(struct kunit *test, struct fbk_tree *tree,
			    struct fbk_node *parent, unsigned long born_at)
{
	return add_node(test, tree, parent, born_at, false);
}

static unsigned int count_children(const struct fbk_node *node)
{
	const struct fbk_node *child;
	unsigned int n = 0;

	for (child = fbk_first_child(node); child; child = fbk_next_sibling(child))
		n++;
	return n;
}

static bool is_root(const struct fbk_tree *tree, const struct fbk_node *node)
{
	const struct fbk_node *root;

	for (root = fbk_first_root(tree); root; root = fbk_next_sibling(root))
		if (root == node)
			return true;
	return false;
}

static bool in_list(struct hlist_head *list, const struct fbk_node *node)
{
	const struct fbk_node *pos;

	hlist_for_each_entry(pos, list, sibling)
		if (pos == node)
			return true;
	return false;
}

/* A whole prune, two records at a time: steps resume where they stopped. */
static unsigned long prune(struct fbk_tree *tree, unsigned long cutoff,
			   bool reroot, struct hlist_head *freed)
{
	struct fbk_walk walk = {};
	unsigned long removed = 0;

	while (!fbk_walk_done(&walk))
		removed += fbk_prune(tree, &walk, cutoff, reroot, 2, freed);
	return removed;
}

/* ===================== forkbomb_tree ===================== */

static void forkbomb_tree_link_and_walk(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *a, *b, *c, *d;

	fbk_tree_init(&tree);
	a = add(test, &tree, NULL, SEC(1));
	b = add(test, &tree, a, SEC(2));
	c = add(test, &tree, a, SEC(3));
	d = add_node(test, &tree, b, SEC(4), true);

	KUNIT_EXPECT_EQ(test, tree.nr_records, 4UL);
	KUNIT_EXPECT_TRUE(test, is_root(&tree, a));
	KUNIT_EXPECT_FALSE(test, is_root(&tree, b));
	KUNIT_EXPECT_PTR_EQ(test, b->parent, a);
	KUNIT_EXPECT_PTR_EQ(test, d->parent, b);
	KUNIT_EXPECT_EQ(test, count_children(a), 2U);
	KUNIT_EXPECT_EQ(test, count_children(b), 1U);
	KUNIT_EXPECT_EQ(test, count_children(c), 0U);
	KUNIT_EXPECT_EQ(test, a->nr_mm, 1U);
	KUNIT_EXPECT_EQ(test, d->born_at, SEC(4));
	KUNIT_EXPECT_EQ(test, d->history, FBK_EXEC);

	/* Post-order visits children first and ends at the top. */
	KUNIT_EXPECT_PTR_EQ(test, fbk_post_first(a), c);
	KUNIT_EXPECT_PTR_EQ(test, fbk_post_next(c, a), d);
	KUNIT_EXPECT_PTR_EQ(test, fbk_post_next(d, a), b);
	KUNIT_EXPECT_PTR_EQ(test, fbk_post_next(b, a), a);
	KUNIT_EXPECT_NULL(test, fbk_post_next(a, a));
	/* Pre-order visits parents first and stays inside the subtree. */
	KUNIT_EXPECT_PTR_EQ(test, fbk_pre_next(d, NULL), NULL);
	KUNIT_EXPECT_PTR_EQ(test, fbk_pre_next(a, a), c);
	KUNIT_EXPECT_PTR_EQ(test, fbk_pre_next(c, a), b);
	KUNIT_EXPECT_PTR_EQ(test, fbk_pre_next(b, a), d);
	KUNIT_EXPECT_NULL(test, fbk_pre_next(d, a));
	KUNIT_EXPECT_NULL(test, fbk_pre_next(d, b));
}

static void forkbomb_tree_death_keeps_family(struct kunit *test)
{
	struct fbk_policy policy = { .young_since = SEC(8) };
	struct fbk_node *shell, *f1, *f2, *f3;
	struct fbk_tree tree;

	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	f1 = add(test, &tree, shell, SEC(5));
	f2 = add(test, &tree, f1, SEC(10));	/* young */
	f3 = add(test, &tree, f1, SEC(6));	/* old */

	/* Two address spaces share f1 (a folded child), then both go. */
	f1->nr_mm++;
	fbk_node_put(&tree, f1, SEC(11), false);
	KUNIT_EXPECT_FALSE(test, fbk_dead(f1));
	fbk_node_put(&tree, f1, SEC(12), true);
	KUNIT_EXPECT_TRUE(test, fbk_dead(f1));
	KUNIT_EXPECT_EQ(test, f1->died_at, (u32)SEC(12));
	KUNIT_EXPECT_EQ(test, f1->history, FBK_EXITED);
	KUNIT_EXPECT_TRUE(test, fbk_died_before(f1, SEC(13)));
	KUNIT_EXPECT_FALSE(test, fbk_died_before(f1, SEC(12)));

	/* The dead parent keeps its live children in its subtree. */
	fbk_scan_reset(&tree, NULL);
	fbk_account(f2, FBK_COUNT, 5, NULL);
	fbk_account(f3, FBK_COUNT, 7, NULL);
	fbk_aggregate(&tree, &policy);
	KUNIT_EXPECT_EQ(test, f1->tasks, 2U);
	KUNIT_EXPECT_EQ(test, f1->young, 1U);
	KUNIT_EXPECT_EQ(test, f1->mass, 12U);
	KUNIT_EXPECT_EQ(test, shell->tasks, 2U);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 4UL);
	/* Only one child of f1 holds a young process: f1 does not branch. */
	KUNIT_EXPECT_FALSE(test, f1->flags & FBK_BRANCHING);
	/* f1 forked a young child, the shell none (f1 is old). */
	KUNIT_EXPECT_TRUE(test, f1->flags & FBK_FORKED);
	KUNIT_EXPECT_FALSE(test, shell->flags & FBK_FORKED);
	KUNIT_EXPECT_FALSE(test, f1->flags & FBK_MULTIPLIED);
}

/*
 * A process multiplied when two or more of its young forked children
 * forked in turn, through an exec or not; a command it ran does not
 * count, nor does a child that only exec'd.
 */
static void forkbomb_tree_aggregate_multiplied(struct kunit *test)
{
	struct fbk_policy policy = { .young_since = SEC(8) };
	struct fbk_node *p, *a, *a_exec, *b, *cmd, *q, *c, *c_exec;
	struct fbk_tree tree;

	fbk_tree_init(&tree);
	p = add(test, &tree, NULL, SEC(9));
	cmd = add(test, &tree, p, SEC(9));
	add_node(test, &tree, cmd, SEC(9), true);
	a = add(test, &tree, p, SEC(9));
	a_exec = add_node(test, &tree, a, SEC(9), true);
	add(test, &tree, a_exec, SEC(10));
	b = add(test, &tree, p, SEC(9));
	add(test, &tree, b, SEC(10));
	q = add(test, &tree, NULL, SEC(9));
	c = add(test, &tree, q, SEC(9));
	c_exec = add_node(test, &tree, c, SEC(9), true);
	add(test, &tree, q, SEC(9));
	add(test, &tree, c_exec, SEC(10));
	fbk_scan_reset(&tree, NULL);
	fbk_aggregate(&tree, &policy);
	KUNIT_EXPECT_TRUE(test, a->flags & FBK_FORKED);
	KUNIT_EXPECT_FALSE(test, cmd->flags & FBK_FORKED);
	KUNIT_EXPECT_TRUE(test, p->flags & FBK_MULTIPLIED);
	KUNIT_EXPECT_TRUE(test, q->flags & FBK_FORKED);
	KUNIT_EXPECT_FALSE(test, q->flags & FBK_MULTIPLIED);
	KUNIT_EXPECT_FALSE(test, a->flags & FBK_MULTIPLIED);
}

static void forkbomb_tree_aggregate_saturates(struct kunit *test)
{
	struct fbk_policy policy = { .young_since = SEC(1) };
	struct fbk_node *top, *a, *b;
	struct fbk_tree tree;

	fbk_tree_init(&tree);
	top = add(test, &tree, NULL, SEC(0));
	a = add(test, &tree, top, SEC(1));
	b = add(test, &tree, top, SEC(1));
	fbk_scan_reset(&tree, NULL);
	fbk_account(a, FBK_COUNT, U32_MAX - 1, NULL);
	fbk_account(b, FBK_COUNT, 10, NULL);
	fbk_account(top, FBK_PROTECT, 0, NULL);
	fbk_aggregate(&tree, &policy);
	KUNIT_EXPECT_EQ(test, top->mass, U32_MAX);
	KUNIT_EXPECT_EQ(test, top->tasks, 2U);
	KUNIT_EXPECT_TRUE(test, top->flags & FBK_BRANCHING);
	KUNIT_EXPECT_TRUE(test, top->flags & FBK_PROTECTED);

	/* A new scan starts from zero, and keeps how records were made. */
	top->history |= FBK_EXEC;
	fbk_scan_reset(&tree, NULL);
	KUNIT_EXPECT_EQ(test, top->mass, 0U);
	KUNIT_EXPECT_EQ(test, top->flags, 0);
	KUNIT_EXPECT_EQ(test, top->history, FBK_EXEC);
}

/*
 * After a scan of one cgroup's processes, a live record none of whose
 * processes the walk found is outside it, and protected; one whose
 * processes are all exiting is inside, and a dead one is not protected
 * either, nor is any record after a scan of every process.
 */
static void forkbomb_tree_aggregate_cgroup_only(struct kunit *test)
{
	struct fbk_policy policy = { .young_since = SEC(1), .cgroup_only = true };
	struct fbk_node *outside, *inside, *exiting, *dead;
	struct fbk_tree tree;

	fbk_tree_init(&tree);
	outside = add(test, &tree, NULL, SEC(1));
	exiting = add(test, &tree, outside, SEC(2));
	inside = add(test, &tree, exiting, SEC(2));
	dead = add(test, &tree, outside, SEC(2));
	fbk_node_put(&tree, dead, SEC(3), true);
	fbk_scan_reset(&tree, NULL);
	fbk_account(inside, FBK_COUNT, 1, NULL);
	fbk_account(exiting, FBK_IGNORE, 0, NULL);
	fbk_aggregate(&tree, &policy);
	KUNIT_EXPECT_TRUE(test, outside->flags & FBK_PROTECTED);
	KUNIT_EXPECT_FALSE(test, exiting->flags & FBK_PROTECTED);
	KUNIT_EXPECT_FALSE(test, inside->flags & FBK_PROTECTED);
	KUNIT_EXPECT_FALSE(test, dead->flags & FBK_PROTECTED);
	KUNIT_EXPECT_EQ(test, outside->gens, 0);

	policy.cgroup_only = false;
	fbk_scan_reset(&tree, NULL);
	fbk_account(inside, FBK_COUNT, 1, NULL);
	fbk_aggregate(&tree, &policy);
	KUNIT_EXPECT_FALSE(test, outside->flags & FBK_PROTECTED);
}

static void forkbomb_tree_prune_calm(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *init, *old_dead, *orphan, *old_leaf, *young_dead, *live;
	HLIST_HEAD(freed);

	fbk_tree_init(&tree);
	init = add(test, &tree, NULL, SEC(0));
	old_dead = add(test, &tree, init, SEC(1));
	orphan = add(test, &tree, old_dead, SEC(2));	/* lives on */
	old_leaf = add(test, &tree, init, SEC(3));
	young_dead = add(test, &tree, init, SEC(4));
	live = add(test, &tree, young_dead, SEC(5));

	fbk_node_put(&tree, old_dead, SEC(10), true);
	fbk_node_put(&tree, old_leaf, SEC(10), false);
	/* A reaper run at SEC(15), then: */
	fbk_node_put(&tree, young_dead, SEC(20), true);

	/* The reaper at SEC(30) forgets what died before its last run. */
	KUNIT_EXPECT_EQ(test, prune(&tree, SEC(15), true, &freed), 2UL);
	KUNIT_EXPECT_TRUE(test, in_list(&freed, old_dead));
	KUNIT_EXPECT_TRUE(test, in_list(&freed, old_leaf));
	KUNIT_EXPECT_EQ(test, tree.nr_records, 4UL);
	/* The live child of forgotten history is now a root. */
	KUNIT_EXPECT_TRUE(test, is_root(&tree, orphan));
	KUNIT_EXPECT_NULL(test, orphan->parent);
	/* Recent history stays whole. */
	KUNIT_EXPECT_PTR_EQ(test, live->parent, young_dead);
	KUNIT_EXPECT_PTR_EQ(test, young_dead->parent, init);
	KUNIT_EXPECT_EQ(test, count_children(init), 1U);

	/* One more calm run forgets the rest of the dead. */
	INIT_HLIST_HEAD(&freed);
	KUNIT_EXPECT_EQ(test, prune(&tree, SEC(30), true, &freed), 1UL);
	KUNIT_EXPECT_TRUE(test, in_list(&freed, young_dead));
	KUNIT_EXPECT_TRUE(test, is_root(&tree, live));
	KUNIT_EXPECT_EQ(test, tree.nr_records, 3UL);
}

static void forkbomb_tree_prune_stress(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *f1, *f2, *leaf1, *leaf2, *live;
	HLIST_HEAD(freed);

	/* Under stress the reaper only drops old leaves, and only near the cap. */
	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	f1 = add(test, &tree, shell, SEC(1));
	f2 = add(test, &tree, f1, SEC(1));
	leaf1 = add(test, &tree, f2, SEC(1));
	leaf2 = add(test, &tree, f1, SEC(1));
	live = add(test, &tree, f2, SEC(1));
	fbk_node_put(&tree, f1, SEC(2), true);
	fbk_node_put(&tree, f2, SEC(2), true);
	fbk_node_put(&tree, leaf1, SEC(2), true);
	fbk_node_put(&tree, leaf2, SEC(2), true);

	KUNIT_EXPECT_EQ(test, prune(&tree, SEC(5), false, &freed), 2UL);
	KUNIT_EXPECT_TRUE(test, in_list(&freed, leaf1));
	KUNIT_EXPECT_TRUE(test, in_list(&freed, leaf2));
	/* The dead ancestry of a live process is kept: it is the bomb's. */
	KUNIT_EXPECT_PTR_EQ(test, live->parent, f2);
	KUNIT_EXPECT_PTR_EQ(test, f2->parent, f1);
	KUNIT_EXPECT_PTR_EQ(test, f1->parent, shell);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 4UL);

	/* Once the live process is gone, the whole dead chain goes. */
	fbk_node_put(&tree, live, SEC(5), true);
	INIT_HLIST_HEAD(&freed);
	KUNIT_EXPECT_EQ(test, prune(&tree, SEC(6), false, &freed), 3UL);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 1UL);
	KUNIT_EXPECT_EQ(test, count_children(shell), 0U);
}

/*
 * A prune takes at most its budget of steps under fbk_lock, whatever the
 * shape: it walks down a deep chain and makes the children of a forgotten
 * record roots a step at a time, and goes on where it stopped.
 */
static void forkbomb_tree_prune_bounded(struct kunit *test)
{
	struct fbk_walk walk = {};
	struct fbk_node *top, *node;
	HLIST_HEAD(freed);
	struct fbk_tree tree;
	unsigned long removed;
	int i;

	fbk_tree_init(&tree);
	top = add(test, &tree, NULL, SEC(0));
	for (i = 0; i < 50; i++)
		add(test, &tree, top, SEC(0));
	/* Linked last, the chain is the top's first child. */
	for (node = top, i = 0; i < 100; i++)
		node = add(test, &tree, node, SEC(0));
	fbk_node_put(&tree, top, SEC(1), true);
	/* Sixteen steps go down sixteen records of the chain, no further. */
	KUNIT_EXPECT_EQ(test, fbk_prune(&tree, &walk, SEC(2), true, 16, &freed), 0UL);
	for (node = top, i = 0; i < 16; i++)
		node = fbk_first_child(node);
	KUNIT_EXPECT_PTR_EQ(test, walk.next, node);
	/* On to the dead top: ten steps move ten of its 51 children. */
	while (walk.next != top)
		fbk_prune(&tree, &walk, SEC(2), true, 1, &freed);
	KUNIT_EXPECT_EQ(test, fbk_prune(&tree, &walk, SEC(2), true, 10, &freed), 0UL);
	KUNIT_EXPECT_EQ(test, count_children(top), 41U);
	removed = fbk_prune(&tree, &walk, SEC(2), true, 100, &freed);
	KUNIT_EXPECT_EQ(test, removed, 1UL);
	KUNIT_EXPECT_TRUE(test, in_list(&freed, top));
	KUNIT_EXPECT_EQ(test, tree.nr_records, 150UL);
}

static void forkbomb_tree_detach_all(struct kunit *test)
{
	struct fbk_walk walk = {};
	struct fbk_tree tree;
	struct fbk_node *a;
	HLIST_HEAD(freed);

	fbk_tree_init(&tree);
	a = add(test, &tree, NULL, SEC(0));
	add(test, &tree, add(test, &tree, a, SEC(1)), SEC(2));
	add(test, &tree, NULL, SEC(3));
	KUNIT_EXPECT_EQ(test, fbk_detach(&tree, &walk, UINT_MAX, &freed), 4UL);
	KUNIT_EXPECT_TRUE(test, fbk_walk_done(&walk));
	KUNIT_EXPECT_EQ(test, tree.nr_records, 0UL);
	KUNIT_EXPECT_NULL(test, fbk_first_root(&tree));
}

static void forkbomb_tree_doom_and_undoom(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *bomb, *child, *spared, *late, *other;
	struct fbk_policy policy = { .young_since = SEC(0) };
	struct fbk_choice choice = {};

	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	bomb = add(test, &tree, shell, SEC(1));
	child = add(test, &tree, bomb, SEC(1));
	spared = add(test, &tree, bomb, SEC(1));
	other = add(test, &tree, shell, SEC(1));
	choice.top = bomb;
	fbk_doom(&tree, &choice, &policy, 7);
	KUNIT_EXPECT_EQ(test, bomb->doomed, 7);
	KUNIT_EXPECT_EQ(test, child->doomed, 7);
	KUNIT_EXPECT_EQ(test, shell->doomed, 0);
	KUNIT_EXPECT_EQ(test, other->doomed, 0);
	/* Forked while it is being killed: doomed at birth, with its mark. */
	late = add(test, &tree, child, SEC(2));
	KUNIT_EXPECT_EQ(test, late->doomed, 7);
	KUNIT_EXPECT_EQ(test, add(test, &tree, other, SEC(2))->doomed, 0);

	/*
	 * After the kill, a record whose process was spared (out of scope,
	 * protected) passes no doom on to the children it forks later.
	 */
	bomb->flags |= FBK_KILLED;
	child->flags |= FBK_KILLED;
	fbk_undoom(&tree, &choice, &policy);
	KUNIT_EXPECT_EQ(test, bomb->doomed, 7);
	KUNIT_EXPECT_EQ(test, child->doomed, 7);
	KUNIT_EXPECT_EQ(test, spared->doomed, 0);
	KUNIT_EXPECT_EQ(test, late->doomed, 0);
	KUNIT_EXPECT_EQ(test, add(test, &tree, spared, SEC(3))->doomed, 0);
}

static void forkbomb_tree_doom_spared_top(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *half1, *half2, *job, *g;
	struct fbk_policy policy = { .young_since = SEC(0) };
	struct fbk_choice choice = {};

	/* A spared top: only its children flagged as the bomb are doomed. */
	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	job = add(test, &tree, shell, SEC(5));
	half1 = add(test, &tree, shell, SEC(9));
	half2 = add(test, &tree, shell, SEC(9));
	g = add(test, &tree, half2, SEC(9));
	half1->flags |= FBK_BOMB;
	half2->flags |= FBK_BOMB;
	choice.top = shell;
	choice.spared = true;
	fbk_doom(&tree, &choice, &policy, 1);
	KUNIT_EXPECT_EQ(test, shell->doomed, 0);
	KUNIT_EXPECT_EQ(test, job->doomed, 0);
	KUNIT_EXPECT_EQ(test, half1->doomed, 1);
	KUNIT_EXPECT_EQ(test, g->doomed, 1);
	fbk_undoom(&tree, &choice, &policy);
	KUNIT_EXPECT_EQ(test, g->doomed, 0);
}

/*
 * A kill takes the top, the young and what holds young processes below;
 * not the old records beside them that hold none (a spawner's children
 * from before it ran away), nor what those fork during the kill.
 */
static void forkbomb_tree_doom_takes_the_young(struct kunit *test)
{
	struct fbk_policy policy = { .young_since = SEC(100) };
	struct fbk_node *spawner, *old_idle, *old_grandchild, *burst, *young;
	struct fbk_choice choice = {};
	struct fbk_tree tree;

	fbk_tree_init(&tree);
	spawner = add(test, &tree, NULL, SEC(0));
	old_idle = add(test, &tree, spawner, SEC(1));
	old_grandchild = add(test, &tree, old_idle, SEC(2));
	burst = add(test, &tree, spawner, SEC(50));
	young = add(test, &tree, burst, SEC(101));
	fbk_scan_reset(&tree, NULL);
	fbk_account(old_idle, FBK_COUNT, 1, NULL);
	fbk_account(old_grandchild, FBK_COUNT, 1, NULL);
	fbk_account(burst, FBK_COUNT, 1, NULL);
	fbk_account(young, FBK_COUNT, 1, NULL);
	fbk_aggregate(&tree, &policy);
	choice.top = spawner;
	fbk_doom(&tree, &choice, &policy, 3);
	KUNIT_EXPECT_EQ(test, spawner->doomed, 3);
	KUNIT_EXPECT_EQ(test, burst->doomed, 3);
	KUNIT_EXPECT_EQ(test, young->doomed, 3);
	KUNIT_EXPECT_EQ(test, old_idle->doomed, 0);
	KUNIT_EXPECT_EQ(test, old_grandchild->doomed, 0);
	KUNIT_EXPECT_EQ(test, add(test, &tree, old_idle, SEC(102))->doomed, 0);
	KUNIT_EXPECT_EQ(test, add(test, &tree, young, SEC(102))->doomed, 3);
}

/*
 * A tree or a chain under a dead top: a bomb process stalled since its
 * first seconds, old by now and with nothing young below it, goes with
 * the rest (left alive, it would start the bomb again). A spawner's old
 * children stay, as above.
 */
static void forkbomb_tree_doom_dead_top_takes_all(struct kunit *test)
{
	struct fbk_policy policy = { .young_since = SEC(100) };
	struct fbk_node *top, *stalled, *young;
	struct fbk_choice choice = {};
	struct fbk_tree tree;

	fbk_tree_init(&tree);
	top = add(test, &tree, NULL, SEC(90));
	stalled = add(test, &tree, top, SEC(91));
	young = add(test, &tree, top, SEC(101));
	fbk_node_put(&tree, top, SEC(92), true);
	fbk_scan_reset(&tree, NULL);
	fbk_account(stalled, FBK_COUNT, 1, NULL);
	fbk_account(young, FBK_COUNT, 1, NULL);
	fbk_aggregate(&tree, &policy);
	choice.top = top;
	choice.shape = FBK_SHAPE_TREE;
	fbk_doom(&tree, &choice, &policy, 5);
	KUNIT_EXPECT_EQ(test, stalled->doomed, 5);
	KUNIT_EXPECT_EQ(test, young->doomed, 5);
	choice.shape = FBK_SHAPE_SPAWNER;
	fbk_doom(&tree, &choice, &policy, 6);
	KUNIT_EXPECT_EQ(test, stalled->doomed, 5);
	KUNIT_EXPECT_EQ(test, young->doomed, 6);
}

static void forkbomb_tree_deep_chain(struct kunit *test)
{
	const unsigned int n = 100000;
	struct fbk_policy policy = { .young_since = SEC(0) };
	struct fbk_choice choice = {};
	struct fbk_node *nodes;
	struct fbk_tree tree;
	HLIST_HEAD(freed);
	unsigned int i;

	/* No recursion anywhere: a 16 KiB stack would not survive this. */
	nodes = vcalloc(n, sizeof(*nodes));
	KUNIT_ASSERT_NOT_NULL(test, nodes);
	fbk_tree_init(&tree);
	fbk_link(&tree, &nodes[0], NULL, SEC(0));
	for (i = 1; i < n; i++)
		fbk_link(&tree, &nodes[i], &nodes[i - 1], NOW - n + i);
	KUNIT_EXPECT_EQ(test, tree.nr_records, (unsigned long)n);

	fbk_scan_reset(&tree, NULL);
	for (i = 1; i < n; i++)
		fbk_account(&nodes[i], FBK_COUNT, 1, NULL);
	fbk_aggregate(&tree, &policy);
	KUNIT_EXPECT_EQ(test, nodes[0].tasks, n - 1);
	KUNIT_EXPECT_EQ(test, nodes[1].mass, n - 1);

	choice.top = &nodes[1];
	fbk_doom(&tree, &choice, &policy, 1);
	KUNIT_EXPECT_EQ(test, nodes[n - 1].doomed, 1);
	KUNIT_EXPECT_EQ(test, nodes[0].doomed, 0);

	for (i = 0; i < n; i++)
		fbk_node_put(&tree, &nodes[i], NOW, true);
	KUNIT_EXPECT_EQ(test, prune(&tree, NOW + 1, true, &freed),
			(unsigned long)n);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 0UL);
	vfree(nodes);
}

static struct kunit_case forkbomb_tree_cases[] = {
	KUNIT_CASE(forkbomb_tree_link_and_walk),
	KUNIT_CASE(forkbomb_tree_death_keeps_family),
	KUNIT_CASE(forkbomb_tree_aggregate_multiplied),
	KUNIT_CASE(forkbomb_tree_aggregate_saturates),
	KUNIT_CASE(forkbomb_tree_aggregate_cgroup_only),
	KUNIT_CASE(forkbomb_tree_prune_calm),
	KUNIT_CASE(forkbomb_tree_prune_stress),
	KUNIT_CASE(forkbomb_tree_prune_bounded),
	KUNIT_CASE(forkbomb_tree_detach_all),
	KUNIT_CASE(forkbomb_tree_doom_and_undoom),
	KUNIT_CASE(forkbomb_tree_doom_spared_top),
	KUNIT_CASE(forkbomb_tree_doom_takes_the_young),
	KUNIT_CASE(forkbomb_tree_doom_dead_top_takes_all),
	KUNIT_CASE_SLOW(forkbomb_tree_deep_chain),
	{}
};

static struct kunit_suite forkbomb_tree_suite = {
	.name = "forkbomb_tree",
	.test_cases = forkbomb_tree_cases,
};

/* ===================== forkbomb_score ===================== */

/*
 * A simulated system at time NOW: a tree whose records are marked with the
 * processes they hold as they are created, and reported to the scan by
 * sim_scan(), with what a shape's builder expects the choice to be.
 */
struct sim {
	struct kunit *test;
	struct fbk_tree tree;
	struct fbk_policy policy;
	struct fbk_choice choice;
	struct fbk_births births;
	struct fbk_node *init, *tester, *bystander;
	bool scoped;		/* total_tasks counts the bomb's user only */
	/* Expected; a NULL top is not checked. */
	struct fbk_node *top;
	bool spared;
	struct fbk_node *survivors[4];
	/* A record with this many more live processes (clone(CLONE_VM)). */
	struct fbk_node *crowded;
	unsigned int crowd;
};

/* Until sim_scan(), a record's scratch fields say what it holds. */
#define SIM_LIVE	0x1
#define SIM_PROTECTED	0x2
#define SIM_OOM_GROUP	0x4
/* Live outside the cgroup whose processes a cgroup_only scan walks. */
#define SIM_OUTSIDE	0x8

static struct fbk_node *sim_add(struct sim *s, struct fbk_node *parent,
				unsigned long born_at, bool exec)
{
	return add_node(s->test, &s->tree, parent, born_at, exec);
}

/* A live process of @node, holding @mass pages of its own. */
static void sim_live(struct sim *s, struct fbk_node *node, unsigned long mass)
{
	node->gens |= SIM_LIVE;
	node->mass = mass;
}

static void sim_protected(struct sim *s, struct fbk_node *node)
{
	node->gens |= SIM_PROTECTED;
}

/* The record's last process ended by exit(), soon after its birth. */
static void sim_dead(struct sim *s, struct fbk_node *node)
{
	fbk_node_put(&s->tree, node, node->born_at + MS(10), true);
}

/* The record's last process was killed by a signal at @when. */
static void sim_killed(struct sim *s, struct fbk_node *node, unsigned long when)
{
	fbk_node_put(&s->tree, node, when, false);
}

/* Report the live processes to a scan, then aggregate, as the kernel does. */
static void sim_scan(struct sim *s)
{
	unsigned long n = s->tree.nr_records, i = 0;
	struct fbk_node **nodes = kunit_kcalloc(s->test, n, sizeof(*nodes),
						GFP_KERNEL);
	unsigned long *mass = kunit_kcalloc(s->test, n, sizeof(*mass), GFP_KERNEL);
	u8 *what = kunit_kcalloc(s->test, n, sizeof(*what), GFP_KERNEL);
	struct fbk_node *node;

	KUNIT_ASSERT_NOT_NULL(s->test, nodes);
	KUNIT_ASSERT_NOT_NULL(s->test, mass);
	KUNIT_ASSERT_NOT_NULL(s->test, what);
	for (node = fbk_first_root(&s->tree); node; node = fbk_pre_next(node, NULL)) {
		nodes[i] = node;
		mass[i] = node->mass;
		what[i++] = node->gens;
	}
	s->births.now = s->policy.exhausted_at;
	fbk_scan_reset(&s->tree, &s->births);
	for (i = 0; i < n; i++) {
		if (fbk_dead(nodes[i]))
			continue;
		if (what[i] & SIM_OUTSIDE)
			continue;
		if (what[i] & SIM_PROTECTED)
			fbk_account(nodes[i], FBK_PROTECT, 0, &s->births);
		/* A live record without SIM_LIVE: its processes are exiting. */
		if (!(what[i] & SIM_LIVE)) {
			fbk_account(nodes[i], FBK_IGNORE, 0, &s->births);
			continue;
		}
		/* When fork failed, a process weighs its threads: one here. */
		if (s->policy.trigger == FBK_TRIGGER_FORK_FAIL)
			mass[i] = 1;
		fbk_account(nodes[i], FBK_COUNT, mass[i], &s->births);
		if (what[i] & SIM_OOM_GROUP)
			fbk_account_oom_group(nodes[i]);
		if (mass[i] > s->policy.victim_mass) {
			s->policy.victim = nodes[i];
			s->policy.victim_mass = mass[i];
		}
		if (!s->scoped || (nodes[i] != s->tester && nodes[i] != s->bystander)) {
			s->policy.total_tasks++;
			s->policy.total_mass += mass[i];
		}
	}
	for (i = 0; s->crowded && i < s->crowd; i++) {
		fbk_account(s->crowded, FBK_COUNT, 1, &s->births);
		s->policy.total_tasks++;
		s->policy.total_mass++;
	}
	fbk_set_youth(&s->policy, &s->births);
	fbk_aggregate(&s->tree, &s->policy);
}

static struct fbk_node **sim_nodes(struct sim *s, unsigned int n)
{
	struct fbk_node **nodes = kunit_kcalloc(s->test, n, sizeof(*nodes),
						GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(s->test, nodes);
	return nodes;
}

/* fork and exec at @born_at: a dead fork record and a live exec record. */
static struct fbk_node *sim_spawn(struct sim *s, struct fbk_node *parent,
				  unsigned long born_at, unsigned long mass)
{
	struct fbk_node *fork = sim_add(s, parent, born_at, false);
	struct fbk_node *exec = sim_add(s, fork, born_at + MS(2), true);

	sim_dead(s, fork);
	sim_live(s, exec, mass);
	return exec;
}

/*
 * @parent runs a short command at @t: a fork that execs it when @exec (a
 * shell), else a fork that does the work itself; it exits soon after.
 */
static void sim_run_command(struct sim *s, struct fbk_node *parent,
			    unsigned long t, bool exec)
{
	struct fbk_node *fork = sim_add(s, parent, t, false);

	if (!exec) {
		sim_dead(s, fork);
		return;
	}
	fbk_node_put(&s->tree, fork, t + MS(1), false);
	sim_dead(s, sim_add(s, fork, t + MS(1), true));
}

/*
 * The machine: init, and a tester process that has been running for long
 * with a bystander child, both old. Shapes start below the tester.
 */
static void sim_init(struct sim *s, struct kunit *test, enum fbk_trigger trigger)
{
	memset(s, 0, sizeof(*s));
	s->test = test;
	fbk_tree_init(&s->tree);
	fbk_scan_reset(&s->tree, NULL);
	s->policy.trigger = trigger;
	s->policy.now = NOW;
	s->policy.exhausted_at = NOW;
	s->policy.min_descendants = 10;
	s->init = sim_add(s, NULL, SEC(0), true);
	sim_protected(s, s->init);
	s->tester = sim_add(s, s->init, SEC(100), true);
	sim_live(s, s->tester, 300);
	s->bystander = sim_add(s, s->tester, SEC(101), false);
	sim_live(s, s->bystander, 64);
}

/*
 * The classic C bomb below @root: from @start on, every @tau each process
 * forks one child, until there are @n processes, each holding @mass.
 */
static void sim_c_bomb(struct sim *s, struct fbk_node *root, unsigned long start,
		       unsigned long tau, unsigned int n, unsigned long mass)
{
	struct fbk_node **nodes = sim_nodes(s, n);
	unsigned int count = 1, have, i;
	unsigned long t;

	nodes[0] = root;
	for (t = start + tau; count < n; t += tau)
		for (have = count, i = 0; i < have && count < n; i++)
			nodes[count++] = sim_add(s, nodes[i], t, false);
	for (i = 1; i < n; i++)
		sim_live(s, nodes[i], mass);
}

/* Below the tester: fork, exec the bomb program; returns the fork record. */
static struct fbk_node *sim_start(struct sim *s, unsigned long start,
				  struct fbk_node **exec)
{
	struct fbk_node *fork = sim_add(s, s->tester, start, false);

	*exec = sim_add(s, fork, start + MS(3), true);
	sim_dead(s, fork);
	sim_live(s, *exec, 100);
	return fork;
}

static void shape_c_bomb(struct sim *s)
{
	struct fbk_node *bomb;

	s->top = sim_start(s, NOW - MS(1500), &bomb);
	sim_c_bomb(s, bomb, NOW - MS(1500), MS(100), 1400, 16);
	s->survivors[0] = s->tester;
	s->survivors[1] = s->bystander;
}

/*
 * The C bomb in a container at its pids.max, started by a runtime outside
 * it 5 ms after the runtime's own start: the scan walks the container's
 * processes only. The runtime, young and quick to fork the bomb, is not
 * climbed to: it is outside, live, and the kill could not take it.
 */
static void shape_container_bomb_young_launcher(struct sim *s)
{
	struct fbk_node *runtime, *bomb;

	runtime = sim_add(s, s->tester, NOW - MS(1505), true);
	sim_live(s, runtime, 100);
	s->top = sim_add(s, runtime, NOW - MS(1500), false);
	bomb = sim_add(s, s->top, NOW - MS(1497), true);
	sim_dead(s, s->top);
	sim_live(s, bomb, 100);
	sim_c_bomb(s, bomb, NOW - MS(1500), MS(100), 300, 16);
	runtime->gens |= SIM_OUTSIDE;
	s->tester->gens |= SIM_OUTSIDE;
	s->bystander->gens |= SIM_OUTSIDE;
	s->policy.cgroup_only = true;
	s->survivors[0] = runtime;
	s->survivors[1] = s->tester;
	s->survivors[2] = s->bystander;
}

/*
 * The same bomb, a hundred of whose processes the OOM killer had killed
 * one by one before the scan: killed, not finished, they are no jobs.
 */
static void shape_c_bomb_oom_victims(struct sim *s)
{
	struct fbk_node *bomb;
	int i;

	s->top = sim_start(s, NOW - MS(1500), &bomb);
	sim_c_bomb(s, bomb, NOW - MS(1500), MS(100), 1400, 16);
	for (i = 0; i < 100; i++)
		sim_killed(s, sim_add(s, bomb, NOW - MS(400) + i, false),
			   NOW - MS(100));
}

/*
 * Forks fail: a bomb whose processes exit once their fork failed (as a
 * shell's subshell does): they ended after the limit was reached, and are
 * no finished jobs either.
 */
static void shape_bomb_exits_on_failed_fork(struct sim *s)
{
	struct fbk_node *bomb, *leaf;
	int i;

	s->policy.exhausted_at = NOW - MS(500);
	s->top = sim_start(s, NOW - MS(1500), &bomb);
	sim_c_bomb(s, bomb, NOW - MS(1500), MS(100), 500, 16);
	for (i = 0; i < 300; i++) {
		leaf = sim_add(s, bomb, NOW - MS(600) + i, false);
		fbk_node_put(&s->tree, leaf, NOW - MS(400), true);
	}
}

/*
 * A bomb whose first process's first child outgrew the rest by far (it
 * had the head start): the first process and its later children are the
 * bomb too, and die with it.
 */
static void shape_lopsided_c_bomb(struct sim *s)
{
	struct fbk_node *bomb, *child;
	int i;

	s->top = sim_start(s, NOW - MS(1500), &bomb);
	child = sim_add(s, bomb, NOW - MS(1490), false);
	sim_live(s, child, 16);
	sim_c_bomb(s, child, NOW - MS(1490), MS(100), 1400, 16);
	for (i = 0; i < 5; i++) {
		child = sim_add(s, bomb, NOW - MS(900) + MS(100 * i), false);
		sim_live(s, child, 16);
		sim_c_bomb(s, child, NOW - MS(900) + MS(100 * i), MS(100), 8, 16);
	}
}

/*
 * The same bomb, whose last fork was a minute before the OOM: the machine
 * stalled in reclaim meanwhile. Its youth counts back from that fork.
 */
static void shape_stalled_c_bomb(struct sim *s)
{
	struct fbk_node *bomb;

	s->top = sim_start(s, NOW - SECS(61), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(61), MS(100), 1400, 16);
}

/*
 * The same bomb, but the machine thrashed for a minute before the OOM: a
 * few of its processes got to fork since, the last one 16 s ago.
 */
static void shape_thrashed_c_bomb(struct sim *s)
{
	struct fbk_node *bomb, *first;

	s->top = sim_start(s, NOW - SECS(63), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(63), MS(100), 1400, 16);
	first = fbk_first_child(bomb);
	sim_live(s, sim_add(s, first, NOW - SECS(40), false), 16);
	sim_live(s, sim_add(s, first, NOW - SECS(16), false), 16);
}

/*
 * The same bomb, stalled 15 s before the OOM, while a service that the OOM
 * killer may not touch (OOM_SCORE_ADJ_MIN) kept starting helpers, which
 * still run: they are no candidates, and the bomb's youth still counts
 * back from its own last fork.
 */
static void shape_stalled_bomb_busy_service(struct sim *s)
{
	struct fbk_node *bomb, *service;
	int i;

	s->top = sim_start(s, NOW - SECS(17), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(17), MS(100), 1400, 16);
	service = sim_add(s, s->init, SEC(50), true);
	sim_protected(s, service);
	for (i = 0; i < 24; i++)
		sim_protected(s, sim_add(s, service, NOW - SECS(12) + MS(500 * i), false));
}

/*
 * The same bomb, stalled 30 s before the OOM, a few of whose forks still
 * succeeded since, one a second: a trickle, which is no multiplying.
 */
static void shape_trickling_c_bomb(struct sim *s)
{
	struct fbk_node *bomb, *first;
	int i;

	s->top = sim_start(s, NOW - SECS(32), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(32), MS(100), 1400, 16);
	first = fbk_first_child(bomb);
	for (i = 0; i < 15; i++)
		sim_live(s, sim_add(s, first, NOW - MS(500) - SECS(i), false), 16);
}

/* Under a debug kernel: the same bomb, forking ten times slower. */
static void shape_slow_c_bomb(struct sim *s)
{
	struct fbk_node *bomb;

	s->top = sim_start(s, NOW - SECS(9), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(9), MS(700), 1000, 16);
}

/* Forks fail on RLIMIT_NPROC 64: the bomb has only a few dozen processes. */
static void shape_nproc_c_bomb(struct sim *s)
{
	struct fbk_node *bomb;

	s->scoped = true;	/* the user's processes only */
	s->top = sim_start(s, NOW - MS(300), &bomb);
	sim_c_bomb(s, bomb, NOW - MS(300), MS(30), 64, 16);
}

/* f(){ f|f & }; f run by sh -c: each f forks two and exits. */
static void sim_shell_bomb(struct sim *s, struct fbk_node *root,
			   unsigned long start, unsigned int leaves)
{
	struct fbk_node **level = sim_nodes(s, leaves), **next = sim_nodes(s, leaves);
	unsigned int n = 1, i;
	unsigned long t = start;

	level[0] = root;
	while (2 * n <= leaves) {
		t += MS(40);
		for (i = 0; i < n; i++) {
			next[2 * i] = sim_add(s, level[i], t, false);
			next[2 * i + 1] = sim_add(s, level[i], t + 1, false);
			sim_dead(s, level[i]);
		}
		n *= 2;
		swap(level, next);
	}
	for (i = 0; i < n; i++)
		sim_live(s, level[i], 40);
}

/*
 * The same, growing slowly (on one CPU, or under a debug kernel): its two
 * halves, forked by the shell's bash, are older than the window by now.
 * The shell still lives.
 */
static void shape_slow_typed_shell_bomb(struct sim *s)
{
	struct fbk_node *shell = sim_add(s, s->tester, SEC(600), true);
	struct fbk_node *half;
	int i;

	sim_live(s, shell, 300);
	for (i = 0; i < 2; i++) {
		half = sim_add(s, shell, NOW - SECS(28) + i, false);
		sim_live(s, half, 16);
		sim_c_bomb(s, half, NOW - SECS(28), SECS(3), 512, 16);
	}
	s->top = shell;
	s->spared = true;
	s->survivors[0] = shell;
	s->survivors[1] = s->tester;
}

static void shape_shell_bomb(struct sim *s)
{
	struct fbk_node *fork = sim_add(s, s->tester, NOW - SECS(1), false);
	struct fbk_node *sh = sim_add(s, fork, NOW - SECS(1) + MS(4), true);

	sim_dead(s, fork);
	s->top = fork;
	sim_shell_bomb(s, sh, NOW - SECS(1) + MS(4), 1024);
}

/*
 * The same, one of whose halves got the CPU first and holds nearly all of
 * it: the other half is the bomb too, and so is the shell that forked
 * both and exited.
 */
static void shape_lopsided_shell_bomb(struct sim *s)
{
	struct fbk_node *fork = sim_add(s, s->tester, NOW - SECS(1), false);
	struct fbk_node *sh = sim_add(s, fork, NOW - SECS(1) + MS(4), true);
	struct fbk_node *big = sim_add(s, sh, NOW - SECS(1) + MS(5), false);
	struct fbk_node *small = sim_add(s, sh, NOW - SECS(1) + MS(5), false);

	sim_dead(s, fork);
	sim_dead(s, sh);
	sim_shell_bomb(s, big, NOW - SECS(1) + MS(5), 1024);
	sim_shell_bomb(s, small, NOW - SECS(1) + MS(500), 64);
	s->top = fork;
	s->survivors[0] = s->tester;
	s->survivors[1] = s->bystander;
}

/*
 * The same typed at the prompt of a login shell that has been running for
 * minutes, with a background job: the shell's own two children are the
 * two halves of the bomb. Both halves die, the shell and the job live.
 */
static void shape_typed_shell_bomb(struct sim *s)
{
	struct fbk_node *sshd = sim_add(s, s->init, SEC(10), true);
	struct fbk_node *shell = sim_add(s, sshd, SEC(600), true);
	struct fbk_node *job = sim_spawn(s, shell, SEC(700), 5000);
	struct fbk_node *half;
	int i;

	sim_live(s, sshd, 200);
	sim_live(s, shell, 300);
	for (i = 0; i < 2; i++) {
		half = sim_add(s, shell, NOW - SECS(1) + i, false);
		sim_shell_bomb(s, half, NOW - SECS(1), 512);
	}
	s->top = shell;
	s->spared = true;
	s->survivors[0] = shell;
	s->survivors[1] = job;
	s->survivors[2] = sshd;
}

/* Every bomb process forks, the child execs the bomb program again. */
static void shape_exec_bomb(struct sim *s)
{
	const unsigned int n = 600;
	struct fbk_node **nodes = sim_nodes(s, n);
	unsigned int count = 1, have, i;
	unsigned long t;

	s->top = sim_start(s, NOW - SECS(2), &nodes[0]);
	for (t = NOW - SECS(2) + MS(150); count < n; t += MS(150))
		for (have = count, i = 0; i < have && count < n; i++)
			nodes[count++] = sim_spawn(s, nodes[i], t, 16);
}

/*
 * The same bomb at threads-max 150 on two CPUs: its first process filled
 * the table with children before they were through exec, so they fail to
 * fork from the start; a few got one fork in. When fork failed, it is a
 * spawner (the failure path waits for it to keep failing).
 */
static void shape_wide_exec_bomb(struct sim *s)
{
	struct fbk_node *bomb, *child;
	int i;

	s->policy.exhausted_at = NOW - MS(300);
	sim_start(s, NOW - MS(400), &bomb);
	for (i = 0; i < 140; i++) {
		child = sim_spawn(s, bomb, NOW - MS(400) + MS(2 * i), 1);
		if (i < 10)
			sim_spawn(s, child, NOW - MS(300), 1);
	}
	s->top = bomb;
}

/* Every bomb process forks a child that setsid()s, forks the next and exits. */
static void shape_setsid_bomb(struct sim *s)
{
	const unsigned int n = 600;
	struct fbk_node **nodes = sim_nodes(s, n), *mid;
	unsigned int count = 1, have, i;
	unsigned long t;

	s->top = sim_start(s, NOW - SECS(2), &nodes[0]);
	for (t = NOW - SECS(2) + MS(150); count < n; t += MS(150)) {
		for (have = count, i = 0; i < have && count < n; i++) {
			mid = sim_add(s, nodes[i], t, false);
			nodes[count] = sim_add(s, mid, t + MS(1), false);
			sim_dead(s, mid);
			sim_live(s, nodes[count++], 16);
		}
	}
}

/* Each process forks one child and waits for it. */
static void shape_chain_bomb(struct sim *s)
{
	struct fbk_node *node;
	int i;

	s->top = sim_start(s, NOW - SECS(3), &node);
	for (i = 0; i < 900; i++) {
		node = sim_add(s, node, NOW - SECS(3) + MS(3 * (i + 1)), false);
		sim_live(s, node, 8);
	}
}

/*
 * A chain whose last forks stalled in reclaim (seen on a loaded debug
 * kernel): 200 links 20 ms apart, then 30 links 300 ms apart. Every link
 * belongs to it, the slow ones too; the tester and the bystander live.
 */
static void shape_stalled_chain_bomb(struct sim *s)
{
	unsigned long t = NOW - SECS(13);
	struct fbk_node *node;
	int i;

	s->top = sim_start(s, t, &node);
	for (i = 0; i < 230; i++) {
		t += i < 200 ? MS(20) : MS(300);
		node = sim_add(s, node, t, false);
		sim_live(s, node, 8);
	}
	s->survivors[0] = s->tester;
	s->survivors[1] = s->bystander;
}

/*
 * Grows in bursts: every 3 s each process forks three children, which
 * wait for the next burst to fork in turn. The first bursts are older than
 * the window, and the first process waited before its first burst: it is
 * part of the bomb all the same.
 */
static void shape_burst_bomb(struct sim *s)
{
	const unsigned int n = 1024;
	struct fbk_node **nodes = sim_nodes(s, n);
	unsigned int count = 1, have, i, k;
	unsigned long t;

	s->top = sim_start(s, NOW - SECS(18), &nodes[0]);
	for (t = NOW - SECS(15); count < n; t += SECS(3))
		for (have = count, i = 0; i < have; i++)
			for (k = 0; k < 3 && count < n; k++) {
				nodes[count] = sim_add(s, nodes[i], t + k, false);
				sim_live(s, nodes[count++], 16);
			}
}

/*
 * An older process that forks idle children in a loop (while :; do
 * sleep 1000 & done): 1400 of them in the last 1.4 s, and still coming.
 */
static void shape_spawner(struct sim *s)
{
	struct fbk_node *spawner;
	int i;

	sim_start(s, SEC(500), &spawner);
	for (i = 0; i < 1400; i++)
		sim_spawn(s, spawner, NOW - MS(1400) + MS(i), 3);
	s->top = spawner;
	s->survivors[0] = s->tester;
}

/* The same, forking without exec: the children are bare fork records. */
static void shape_spawner_no_exec(struct sim *s)
{
	struct fbk_node *spawner;
	int i;

	sim_start(s, SEC(500), &spawner);
	for (i = 0; i < 1400; i++)
		sim_live(s, sim_add(s, spawner, NOW - MS(1400) + MS(i), false), 3);
	s->top = spawner;
}

/*
 * Two bombs started by the same tester, six seconds apart: the tester is
 * spared, the first bomb goes, the second is left for the next scan.
 */
static void shape_two_bombs(struct sim *s)
{
	struct fbk_node *big, *small, *small_fork;

	s->top = s->tester;
	s->spared = true;
	sim_start(s, NOW - SECS(8), &big);
	sim_c_bomb(s, big, NOW - SECS(8), MS(200), 1000, 16);
	small_fork = sim_start(s, NOW - SECS(2), &small);
	sim_c_bomb(s, small, NOW - SECS(2), MS(200), 300, 16);
	s->survivors[0] = small_fork;
	s->survivors[1] = small;
}

/* A bomb the same size as a hog that caused the OOM: the hog goes. */
static void shape_bomb_lighter_than_hog(struct sim *s)
{
	struct fbk_node *bomb;

	sim_spawn(s, s->tester, NOW - SECS(5), 200000);
	sim_start(s, NOW - MS(500), &bomb);
	sim_c_bomb(s, bomb, NOW - MS(500), MS(50), 500, 16);
}

/* A bomb inside a cgroup with memory.oom.group: the OOM killer's to take. */
static void shape_bomb_in_oom_group(struct sim *s)
{
	struct fbk_node *bomb;

	sim_start(s, NOW - SECS(1), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(1), MS(100), 1000, 16);
	bomb->gens |= SIM_OOM_GROUP;
}

/* A bomb whose processes all have oom_score_adj -1000 is never killed. */
static void shape_protected_bomb(struct sim *s)
{
	struct fbk_node *service = sim_add(s, s->init, NOW - SECS(1), true);
	int i;

	sim_protected(s, service);
	for (i = 0; i < 500; i++)
		sim_protected(s, sim_add(s, service, NOW - MS(900) + MS(i), false));
}

/*
 * The bombs people write: each process runs a command, then starts two
 * copies of itself and exits (f(){ date; f & f & }; f, or a C program
 * doing the same). Below @root, a generation every @gen from @start on,
 * @levels of them; @exec: the command is exec'd (a shell), else it is a
 * bare fork that exits (C). Of the newest generation, which lives,
 * @ran_eighths eighths ran their command already. Every generation leaves
 * finished children behind, as a build does.
 */
static void sim_command_bomb(struct sim *s, struct fbk_node *root,
			     unsigned long start, unsigned long gen,
			     unsigned int levels, bool exec,
			     unsigned int ran_eighths)
{
	struct fbk_node **level = sim_nodes(s, 1U << levels);
	struct fbk_node **next = sim_nodes(s, 1U << levels);
	unsigned int n = 1, i, l;
	unsigned long t = start;

	level[0] = root;
	for (l = 0; l < levels; l++, t += gen) {
		for (i = 0; i < n; i++) {
			sim_run_command(s, level[i], t + MS(1) + i % 7, exec);
			next[2 * i] = sim_add(s, level[i], t + gen - 1, false);
			next[2 * i + 1] = sim_add(s, level[i], t + gen, false);
			fbk_node_put(&s->tree, level[i], t + gen + 1, true);
		}
		n *= 2;
		swap(level, next);
	}
	for (i = 0; i < n; i++) {
		sim_live(s, level[i], 40);
		if (i * 8 < n * ran_eighths)
			sim_run_command(s, level[i], t + MS(1) + i % 7, exec);
	}
}

/* The C version, run from a test: memory runs out. */
static void shape_command_c_bomb(struct sim *s)
{
	struct fbk_node *bomb;

	s->top = sim_start(s, NOW - MS(600), &bomb);
	sim_command_bomb(s, bomb, NOW - MS(600), MS(50), 10, false, 4);
	s->survivors[0] = s->tester;
	s->survivors[1] = s->bystander;
}

/* The shell version, run by sh -c, at threads-max: forks fail. */
static void shape_command_shell_bomb(struct sim *s)
{
	struct fbk_node *sh;

	s->policy.exhausted_at = NOW - MS(400);
	s->top = sim_start(s, NOW - MS(1300), &sh);
	sim_command_bomb(s, sh, NOW - MS(1300), MS(80), 10, true, 8);
	s->survivors[0] = s->tester;
	s->survivors[1] = s->bystander;
}

/*
 * The same typed at the prompt of a login shell that has been up for
 * minutes: the shell runs the first command and forks the two halves.
 * Both halves die; the shell, its job and sshd live.
 */
static void shape_typed_command_bomb(struct sim *s)
{
	struct fbk_node *sshd = sim_add(s, s->init, SEC(10), true);
	struct fbk_node *shell = sim_add(s, sshd, SEC(600), true);
	struct fbk_node *job = sim_spawn(s, shell, SEC(700), 5000);
	struct fbk_node *half;
	int i;

	sim_live(s, sshd, 200);
	sim_live(s, shell, 300);
	sim_run_command(s, shell, NOW - SECS(1) - MS(5), true);
	for (i = 0; i < 2; i++) {
		half = sim_add(s, shell, NOW - SECS(1) + i, false);
		sim_command_bomb(s, half, NOW - SECS(1), MS(60), 9, true, 4);
	}
	s->top = shell;
	s->spared = true;
	s->survivors[0] = shell;
	s->survivors[1] = job;
	s->survivors[2] = sshd;
}

/*
 * The same, at threads-max, where one half outgrew the other (9
 * generations against 5): the walk of step 2 ends in the big half, whose
 * climb stops at the shell. Its small half, born with it, dies too; left
 * alive, it would grow again.
 */
static void shape_typed_command_bomb_uneven(struct sim *s)
{
	struct fbk_node *sshd = sim_add(s, s->init, SEC(10), true);
	struct fbk_node *shell = sim_add(s, sshd, SEC(600), true);
	struct fbk_node *job = sim_spawn(s, shell, SEC(700), 5000);
	struct fbk_node *half;
	int i;

	sim_live(s, sshd, 200);
	sim_live(s, shell, 300);
	sim_run_command(s, shell, NOW - SECS(1) - MS(5), true);
	for (i = 0; i < 2; i++) {
		half = sim_add(s, shell, NOW - SECS(1) + i, false);
		sim_command_bomb(s, half, NOW - SECS(1), MS(60), i ? 5 : 9,
				 true, 4);
	}
	s->top = shell;
	s->spared = true;
	s->survivors[0] = shell;
	s->survivors[1] = job;
	s->survivors[2] = sshd;
}

/*
 * A script that runs a command and starts $0 twice: every bomb process
 * is a fork and an exec of the script.
 */
static void shape_script_bomb(struct sim *s)
{
	const unsigned int levels = 9;
	struct fbk_node **level = sim_nodes(s, 1U << levels);
	struct fbk_node **next = sim_nodes(s, 1U << levels);
	unsigned long t = NOW - SECS(2);
	unsigned int n = 1, i, l;

	s->top = sim_start(s, t, &level[0]);
	for (l = 0; l < levels; l++, t += MS(150)) {
		for (i = 0; i < n; i++) {
			sim_run_command(s, level[i], t + MS(20), true);
			next[2 * i] = sim_spawn(s, level[i], t + MS(140), 40);
			next[2 * i + 1] = sim_spawn(s, level[i], t + MS(141), 40);
			fbk_node_put(&s->tree, level[i], t + MS(145), true);
		}
		n *= 2;
		swap(level, next);
	}
}

/*
 * A Makefile whose recipe runs date, then $(MAKE) through a shell and
 * once more directly: every make waits for its two children.
 */
static void shape_make_bomb(struct sim *s)
{
	const unsigned int levels = 9;
	struct fbk_node **level = sim_nodes(s, 1U << levels);
	struct fbk_node **next = sim_nodes(s, 1U << levels);
	unsigned long t = NOW - SECS(3);
	unsigned int n = 1, i, l;
	struct fbk_node *sh;

	s->top = sim_start(s, t, &level[0]);
	for (l = 0; l < levels; l++, t += MS(200)) {
		for (i = 0; i < n; i++) {
			sim_run_command(s, level[i], t + MS(30), true);
			sh = sim_spawn(s, level[i], t + MS(100), 60);
			next[2 * i] = sim_spawn(s, sh, t + MS(110), 200);
			next[2 * i + 1] = sim_spawn(s, level[i], t + MS(120), 200);
		}
		n *= 2;
		swap(level, next);
	}
}

/*
 * Processes that share one address space, each clone(CLONE_VM | SIGCHLD)
 * of the one before, at threads-max: 2,960 processes, one record.
 */
static void shape_clone_vm_bomb(struct sim *s)
{
	struct fbk_node *bomb;

	s->policy.exhausted_at = NOW - MS(300);
	sim_start(s, NOW - SECS(3), &bomb);
	s->crowded = bomb;
	s->crowd = 2960;
	s->top = bomb;
	s->survivors[0] = s->tester;
}

/*
 * Two bombs of about the same size, three seconds apart, at threads-max,
 * beside 200 older processes: neither holds half the threads, but each
 * holds half of those that are not the other one's. The bigger goes
 * first.
 */
static void shape_two_equal_bombs(struct sim *s)
{
	struct fbk_node *first, *second, *second_fork, *service;
	int i;

	service = sim_spawn(s, s->init, SEC(20), 100);
	for (i = 0; i < 200; i++)
		sim_live(s, sim_add(s, service, SEC(30) + i, false), 100);
	s->top = s->tester;
	s->spared = true;
	sim_start(s, NOW - SECS(5), &first);
	sim_c_bomb(s, first, NOW - SECS(5), MS(200), 750, 16);
	second_fork = sim_start(s, NOW - SECS(2), &second);
	sim_c_bomb(s, second, NOW - SECS(2), MS(100), 650, 16);
	s->survivors[0] = second_fork;
	s->survivors[1] = service;
}

/* --- busy programs that are not fork bombs --- */

/* make -j16: jobs of a few hundred ms, 16 running, hundreds finished. */
static void shape_make_flat(struct sim *s)
{
	struct fbk_node *make;
	int i;

	sim_start(s, NOW - SECS(8), &make);
	for (i = 0; i < 400; i++)
		sim_dead(s, sim_add(s, make, NOW - SECS(8) + MS(20 * i), false));
	for (i = 0; i < 16; i++)
		sim_live(s, sim_add(s, make, NOW - MS(300) + MS(i), false), 8000);
}

/* make -j16 of real compiles: make, sh, gcc and cc1 for each job. */
static void sim_compile(struct sim *s, struct fbk_node *make, unsigned long t,
			bool running)
{
	struct fbk_node *sh = sim_spawn(s, make, t, 100);
	struct fbk_node *gcc = sim_spawn(s, sh, t + MS(5), 200);
	struct fbk_node *cc1 = sim_spawn(s, gcc, t + MS(10), 20000);

	if (running)
		return;
	sim_dead(s, cc1);
	sim_dead(s, sim_add(s, gcc, t + MS(900), true));	/* as */
	sim_dead(s, gcc);
	sim_dead(s, sh);
}

static void shape_make_compiles(struct sim *s)
{
	struct fbk_node *make;
	int i;

	sim_start(s, NOW - SECS(8), &make);
	for (i = 0; i < 60; i++)
		sim_compile(s, make, NOW - SECS(8) + MS(120 * i), false);
	for (i = 0; i < 16; i++)
		sim_compile(s, make, NOW - SECS(1) + MS(50 * i), true);
}

/*
 * A recursive build: four levels of sub-makes descending into
 * directories in parallel, each leaf directory compiling; many compiles
 * already finished.
 */
static void shape_recursive_make(struct sim *s)
{
	struct fbk_node *top, *l1, *l2, *l3;
	unsigned long t = NOW - SECS(6);
	int a, b, c, j;

	sim_start(s, t, &top);
	for (a = 0; a < 3; a++) {
		l1 = sim_spawn(s, top, t + MS(10 * a), 3000);
		for (b = 0; b < 3; b++) {
			l2 = sim_spawn(s, l1, t + MS(300) + MS(10 * b), 3000);
			for (c = 0; c < 2; c++) {
				l3 = sim_spawn(s, l2, t + MS(600) + MS(10 * c), 3000);
				for (j = 0; j < 12; j++)
					sim_compile(s, l3, t + SECS(1) + MS(300 * j), j >= 10);
			}
		}
	}
}

/* A browser: opened 20 tab processes over 5 s, each some MiB, now idle. */
static void shape_browser(struct sim *s)
{
	struct fbk_node *browser;
	int i;

	sim_start(s, NOW - SECS(6), &browser);
	for (i = 0; i < 20; i++)
		sim_live(s, sim_add(s, browser, NOW - SECS(5) + MS(250 * i), false),
			 4000);
}

/* A worker pool: 12 workers forked at once, each growing. */
static void shape_worker_pool(struct sim *s)
{
	struct fbk_node *pool;
	int i;

	sim_start(s, NOW - SECS(3), &pool);
	for (i = 0; i < 12; i++)
		sim_live(s, sim_add(s, pool, NOW - SECS(3) + MS(1 * i), false), 9000);
}

/*
 * A pre-forking server restarted two seconds ago, 30 workers sharing most
 * of their memory copy-on-write, next to the hog that caused the OOM.
 */
static void shape_prefork_and_hog(struct sim *s)
{
	struct fbk_node *server;
	int i;

	sim_start(s, NOW - SECS(2), &server);
	for (i = 0; i < 30; i++)
		sim_live(s, sim_add(s, server, NOW - SECS(2) + MS(2 * i), false), 300);
	sim_spawn(s, s->tester, NOW - SECS(1), 40000);
}

/* A big pre-forking server, 200 workers forked 3 s before the OOM. */
static void shape_big_prefork(struct sim *s)
{
	struct fbk_node *server;
	int i;

	sim_start(s, NOW - SECS(4), &server);
	for (i = 0; i < 200; i++)
		sim_live(s, sim_add(s, server, NOW - SECS(4) + MS(5 * i), false), 500);
}

/*
 * A pool that recycles its workers (php-fpm's pm.max_requests), next to the
 * hog that caused the OOM: 160 workers forked 25 s ago, holding most of
 * the memory; one retired and replaced every 800 ms since. It still forks
 * more than min_descendants every 10 s, a trickle next to its start.
 */
static void shape_recycling_pool_and_hog(struct sim *s)
{
	struct fbk_node *pool, *worker;
	unsigned long start = NOW - SECS(25), replaced_at;
	int i;

	sim_start(s, start - SECS(1), &pool);
	for (i = 0; i < 160; i++) {
		worker = sim_add(s, pool, start + MS(5 * i), false);
		replaced_at = start + MS(800 * (i + 1));
		if (time_after(replaced_at, NOW)) {
			sim_live(s, worker, 900);
			continue;
		}
		sim_killed(s, worker, replaced_at);
		sim_live(s, sim_add(s, pool, replaced_at, false), 900);
	}
	sim_spawn(s, s->tester, NOW - SECS(1), 40000);
}

/* A CGI server: a child per request, hundreds a second, a few at a time. */
static void shape_cgi_server(struct sim *s)
{
	struct fbk_node *server, *child;
	int i;

	sim_start(s, SEC(200), &server);
	for (i = 0; i < 2000; i++) {
		child = sim_spawn(s, server, NOW - SECS(8) + MS(4 * i), 500);
		if (i < 1940)
			sim_dead(s, child);
	}
}

/* make -j64 of long compiles: 64 running, as many finished meanwhile. */
static void shape_make_j64(struct sim *s)
{
	struct fbk_node *make, *job;
	int i;

	sim_start(s, SEC(900), &make);
	for (i = 0; i < 128; i++) {
		job = sim_spawn(s, make, NOW - SECS(9) + MS(70 * i), 30000);
		if (i < 64)
			sim_dead(s, job);
	}
}

/*
 * stress-ng --fork 16 --fork-max 64 --vm 1: 16 workers fork children
 * that exit at once, a vm worker holds half the memory.
 */
static void shape_stress_ng_fork(struct sim *s)
{
	struct fbk_node *main, *worker;
	int i, j;

	sim_start(s, NOW - SECS(5), &main);
	sim_live(s, sim_add(s, main, NOW - SECS(5) + MS(1), false), 30000);
	for (i = 0; i < 16; i++) {
		worker = sim_add(s, main, NOW - SECS(5) + MS(2) + i, false);
		sim_live(s, worker, 100);
		for (j = 0; j < 64; j++)
			sim_dead(s, sim_add(s, worker, NOW - SECS(4) + MS(40 * j), false));
		for (j = 0; j < 4; j++)
			sim_live(s, sim_add(s, worker, NOW - MS(5) + j, false), 10);
	}
}

/* Fork failed on RLIMIT_NPROC 40: a job of 60 `sleep 3 &`, 40 started. */
static void shape_bounded_job(struct sim *s)
{
	struct fbk_node *sh;
	int i;

	s->scoped = true;
	sim_start(s, NOW - MS(500), &sh);
	for (i = 0; i < 39; i++)
		sim_spawn(s, sh, NOW - MS(80) + MS(2 * i), 2);
	s->top = sh;
}

/* A service manager restarting a unit in a loop. */
static void shape_restart_storm(struct sim *s)
{
	struct fbk_node *unit, *helper;
	int i;

	for (i = 0; i < 300; i++) {
		unit = sim_spawn(s, s->init, NOW - SECS(9) + MS(30 * i), 500);
		helper = sim_spawn(s, unit, NOW - SECS(9) + MS(30 * i) + MS(5), 100);
		if (i < 299) {
			sim_dead(s, helper);
			sim_dead(s, unit);
		}
	}
}

/* 300 workers forked fast, but a minute ago: old history. */
static void shape_old_workers(struct sim *s)
{
	struct fbk_node *server;
	int i;

	sim_start(s, NOW - SECS(61), &server);
	for (i = 0; i < 300; i++)
		sim_live(s, sim_add(s, server, NOW - SECS(60) + i, false), 100);
}

/* The same workers, then a memory hog that ran the machine out of memory. */
static void shape_old_workers_and_hog(struct sim *s)
{
	shape_old_workers(s);
	sim_spawn(s, s->tester, NOW - SECS(5), 40000);
}

/*
 * A build three levels deep: make starts three sub-makes, each two more,
 * each four compile jobs through sh, gcc -pipe running cc1 and as, all
 * within its first second; then its big compiles run on, unfinished,
 * until memory runs out eight seconds later.
 */
static void shape_deep_build_running(struct sim *s)
{
	unsigned long t = NOW - SECS(8);
	struct fbk_node *top, *l1, *l2, *sh, *gcc;
	int a, b, j;

	sim_start(s, t, &top);
	for (a = 0; a < 3; a++) {
		sim_run_command(s, top, t + MS(20 + a), true);
		l1 = sim_spawn(s, top, t + MS(60 + 5 * a), 3000);
		for (b = 0; b < 2; b++) {
			l2 = sim_spawn(s, l1, t + MS(150 + 5 * b), 3000);
			sim_run_command(s, l2, t + MS(200 + b), true);
			for (j = 0; j < 4; j++) {
				sh = sim_spawn(s, l2, t + MS(300 + 10 * j), 100);
				gcc = sim_spawn(s, sh, t + MS(305 + 10 * j), 200);
				sim_spawn(s, gcc, t + MS(310 + 10 * j), 40000);
				sim_spawn(s, gcc, t + MS(311 + 10 * j), 500);
			}
		}
	}
}

/*
 * A kernel-like build: recursion five levels deep, sh, gcc, cc1 and as
 * for each compile, hundreds of compiles finished, a few running.
 */
static void shape_kbuild(struct sim *s)
{
	unsigned long t = NOW - SECS(9);
	struct fbk_node *level[6], *sh, *gcc;
	int d, j, k;

	sim_start(s, t, &level[0]);
	for (k = 0; k < 2; k++) {
		for (d = 1; d < 6; d++)
			level[d] = sim_spawn(s, level[d - 1],
					     t + MS(100 * d + 7 * k), 2000);
		for (d = 1; d < 6; d++) {
			for (j = 0; j < 24; j++) {
				sh = sim_spawn(s, level[d],
					       t + SECS(1) + MS(300 * j + 11 * d), 100);
				gcc = sim_spawn(s, sh, sh->born_at + MS(2), 200);
				sim_run_command(s, gcc, gcc->born_at + MS(3), true);
				sim_run_command(s, gcc, gcc->born_at + MS(200), true);
				sim_run_command(s, sh, sh->born_at + MS(250), true);
				if (j < 23) {
					sim_dead(s, gcc);
					sim_dead(s, sh);
				}
			}
		}
	}
}

/*
 * A pre-forking server, restarted six seconds ago, still forking 30 idle
 * workers a second toward 256 (Apache ramps at most 32 a second) when
 * memory runs out.
 */
static void shape_prefork_ramping(struct sim *s)
{
	struct fbk_node *server;
	int i;

	sim_start(s, NOW - SECS(6), &server);
	for (i = 0; i < 165; i++)
		sim_live(s, sim_add(s, server, NOW - MS(5500) + MS(33 * i), false),
			 800);
}

/*
 * A browser restoring a session: its zygote forks 60 renderers within
 * two seconds, each growing to tens of MiB.
 */
static void shape_browser_restore(struct sim *s)
{
	struct fbk_node *browser, *zygote;
	int i;

	sim_start(s, NOW - SECS(4), &browser);
	zygote = sim_add(s, browser, NOW - SECS(4) + MS(50), false);
	sim_live(s, zygote, 3000);
	for (i = 0; i < 60; i++)
		sim_live(s, sim_add(s, zygote, NOW - SECS(3) + MS(33 * i), false),
			 9000);
}

/*
 * A CI runner that started 20 jobs at once, each a shell that ran three
 * commands and now runs a pipeline of three.
 */
static void shape_ci_runner(struct sim *s)
{
	unsigned long t = NOW - SECS(3);
	struct fbk_node *runner, *sh;
	int i, j;

	sim_start(s, SEC(800), &runner);
	for (i = 0; i < 20; i++) {
		sh = sim_spawn(s, runner, t + MS(2 * i), 200);
		for (j = 0; j < 3; j++)
			sim_run_command(s, sh, t + MS(100 + 300 * j), true);
		for (j = 0; j < 3; j++)
			sim_spawn(s, sh, t + SECS(1) + MS(j), 12000);
	}
}

/*
 * A shell test suite: a runner with eight scripts at a time, each running
 * commands one after another, some of them $(a | b) in a subshell.
 */
static void shape_test_suite(struct sim *s)
{
	unsigned long t = NOW - SECS(9);
	struct fbk_node *runner, *script, *sub;
	int i, j;

	sim_start(s, t, &runner);
	for (i = 0; i < 64; i++) {
		script = sim_spawn(s, runner, t + MS(130 * i), 300);
		for (j = 0; j < 6; j++) {
			sim_run_command(s, script, script->born_at + MS(10 * j + 1), true);
			sub = sim_add(s, script, script->born_at + MS(10 * j + 5), false);
			sim_run_command(s, sub, sub->born_at + MS(1), true);
			sim_run_command(s, sub, sub->born_at + MS(2), true);
			sim_dead(s, sub);
		}
		if (i < 56)
			sim_dead(s, script);
	}
}

/* --- on either side of each threshold of the rule --- */

/*
 * Each threshold of the rule (the FBK_* constants of forkbomb_score.c and
 * forkbomb_internal.h) has two cases here, just on either side of it,
 * whose numbers are literals: moving the threshold either way (the
 * mutants in scripts/mutants/ halve and double each one) flips one of
 * the two verdicts. Documentation/mm/forkbomb.rst, "The constants of the
 * rule", lists which case pins which constant.
 */

/*
 * A bomb below @root: each record of generation l forks @fan[l] children
 * @gap after its own birth, then exits; the newest generation lives, each
 * process holding @mass. The newest generation goes to @leaves when not
 * NULL. Returns its size.
 */
static unsigned int sim_fan_bomb(struct sim *s, struct fbk_node *root,
				 unsigned long gap, const unsigned int *fan,
				 unsigned int levels, unsigned long mass,
				 struct fbk_node ***leaves)
{
	unsigned int n = 1, total = 1, m, i, j, l;
	struct fbk_node **level, **next;

	for (l = 0; l < levels; l++)
		total *= fan[l];
	level = sim_nodes(s, total);
	next = sim_nodes(s, total);
	level[0] = root;
	for (l = 0; l < levels; l++) {
		for (m = 0, i = 0; i < n; i++) {
			for (j = 0; j < fan[l]; j++)
				next[m++] = sim_add(s, level[i],
						    level[i]->born_at + gap, false);
			fbk_node_put(&s->tree, level[i],
				     level[i]->born_at + gap + 1, true);
		}
		n = m;
		swap(level, next);
	}
	for (i = 0; i < n; i++)
		sim_live(s, level[i], mass);
	if (leaves)
		*leaves = level;
	return n;
}

/* A bomb's first process, forked by the tester at @t, that exits. */
static struct fbk_node *sim_bomb_root(struct sim *s, unsigned long t)
{
	struct fbk_node *root = sim_add(s, s->tester, t, false);

	s->top = root;
	s->survivors[0] = s->tester;
	s->survivors[1] = s->bystander;
	return root;
}

/*
 * FBK_TREE_DEPTH (3): 64 processes under three generations of records
 * that branch (4 x 4 x 4) are a tree; under two (8 x 8), no shape.
 */
static void bound_tree_depth_3(struct sim *s)
{
	static const unsigned int fan[] = { 4, 4, 4 };

	sim_fan_bomb(s, sim_bomb_root(s, NOW - SECS(2)), MS(100), fan,
		     ARRAY_SIZE(fan), 16, NULL);
}

static void bound_tree_depth_2(struct sim *s)
{
	static const unsigned int fan[] = { 8, 8 };

	sim_fan_bomb(s, sim_bomb_root(s, NOW - SECS(2)), MS(100), fan,
		     ARRAY_SIZE(fan), 16, NULL);
}

/*
 * FBK_TREE_SHARE (16): 2 x 2 x 28 processes have 7 records that branch
 * (the root, 2, 4), one per 16 of their 112 live records: a tree. One
 * more live child of the root makes 113, one more than 7 x 16: no shape.
 */
static void sim_share_bomb(struct sim *s, bool one_more)
{
	static const unsigned int fan[] = { 2, 2, 28 };
	struct fbk_node *root = sim_bomb_root(s, NOW - SECS(2));

	sim_fan_bomb(s, root, MS(100), fan, ARRAY_SIZE(fan), 16, NULL);
	if (one_more)
		sim_live(s, sim_add(s, root, root->born_at + MS(100), false), 16);
}

static void bound_tree_share_112(struct sim *s)
{
	sim_share_bomb(s, false);
}

static void bound_tree_share_113(struct sim *s)
{
	sim_share_bomb(s, true);
}

/*
 * A tree whose @fan[0] x @fan[1] records of its third generation (the
 * drivers) live, and each fork @fan[2] - 1 processes that live, and
 * between them @jobs commands that exit: finished jobs, since the drivers
 * neither multiplied (their children do not fork) nor left (a bomb's
 * process that forked copies of itself and exited, FBK_LEFT_COPIES). Only
 * the root and its @fan[0] children multiplied. Young processes:
 * @fan[0] x @fan[1] x @fan[2].
 */
static void sim_jobs_bomb(struct sim *s, const unsigned int *fan,
			  unsigned int jobs, unsigned long mass)
{
	struct fbk_node **drivers, *driver;
	unsigned int n, i, j;

	n = sim_fan_bomb(s, sim_bomb_root(s, NOW - SECS(2)), MS(100), fan, 2,
			 mass, &drivers);
	for (i = 0; i < n; i++)
		for (j = 0; j + 1 < fan[2]; j++)
			sim_live(s, sim_add(s, drivers[i],
					    drivers[i]->born_at + MS(100), false),
				 mass);
	for (i = 0; i < jobs; i++) {
		driver = drivers[i % n];
		sim_run_command(s, driver, driver->born_at + MS(100), false);
	}
}

/*
 * FBK_DEAD_LEAF_SHARE (4): 256 young processes (2 x 8 x 16), 3 records
 * that multiplied: 64 finished jobs are a quarter of them, few; 65 are
 * more than a quarter, and more than 4 per multiplying record (12), or
 * 8 (24): the tree is vetoed.
 */
static void bound_dead_leaves_64(struct sim *s)
{
	static const unsigned int fan[] = { 2, 8, 16 };

	sim_jobs_bomb(s, fan, 64, 16);
}

static void bound_dead_leaves_65(struct sim *s)
{
	static const unsigned int fan[] = { 2, 8, 16 };

	sim_jobs_bomb(s, fan, 65, 16);
}

/*
 * FBK_LEAVES_PER_MULTIPLIER (4): 40 young processes (2 x 2 x 10), 3
 * records that multiplied: 12 finished jobs (more than a quarter of 40)
 * are 4 per multiplying record, few; 13 are more: vetoed.
 */
static void bound_jobs_per_multiplier_12(struct sim *s)
{
	static const unsigned int fan[] = { 2, 2, 10 };

	sim_jobs_bomb(s, fan, 12, 32);
}

static void bound_jobs_per_multiplier_13(struct sim *s)
{
	static const unsigned int fan[] = { 2, 2, 10 };

	sim_jobs_bomb(s, fan, 13, 32);
}

/*
 * The rule for finished jobs (fbk_forker_multiplied()): a bomb eight
 * generations deep whose every process runs three commands before it
 * starts two copies of itself. The commands of the processes that
 * multiplied are no finished jobs, nor are those of the newest parents,
 * whose children have not forked yet: they left copies of themselves
 * (FBK_LEFT_COPIES). Counting every command (765) would veto it.
 */
static void sim_commands_bomb(struct sim *s, unsigned int commands)
{
	const unsigned int levels = 8;
	struct fbk_node **level = sim_nodes(s, 1U << levels);
	struct fbk_node **next = sim_nodes(s, 1U << levels);
	unsigned long t = NOW - SECS(2);
	unsigned int n = 1, i, j, l;

	s->top = sim_start(s, t, &level[0]);
	for (l = 0; l < levels; l++, t += MS(100)) {
		for (i = 0; i < n; i++) {
			for (j = 0; j < commands; j++)
				sim_run_command(s, level[i], t + MS(5 * j + 1), false);
			next[2 * i] = sim_add(s, level[i], t + MS(90), false);
			next[2 * i + 1] = sim_add(s, level[i], t + MS(91), false);
			fbk_node_put(&s->tree, level[i], t + MS(92), true);
		}
		n *= 2;
		swap(level, next);
	}
	for (i = 0; i < n; i++)
		sim_live(s, level[i], 16);
	s->survivors[0] = s->tester;
}

static void bound_three_commands_bomb(struct sim *s)
{
	sim_commands_bomb(s, 3);
}

/*
 * The same with nine commands a process: the newest parents' 1,152 would
 * be more than four per record that multiplied (127) and veto it, were
 * they counted; they left copies of themselves (FBK_LEFT_COPIES).
 */
static void bound_nine_commands_bomb(struct sim *s)
{
	sim_commands_bomb(s, 9);
}

/*
 * FBK_CHAIN_GENERATIONS (32): each process forks one child and waits for
 * it. 31 links below the bomb's first fork are 32 young fork generations,
 * a chain; 30 links are 31 generations, no shape.
 */
static void sim_chain(struct sim *s, unsigned int links)
{
	struct fbk_node *node;
	unsigned int i;

	s->top = sim_start(s, NOW - SECS(1), &node);
	for (i = 0; i < links; i++) {
		node = sim_add(s, node, NOW - SECS(1) + MS(3 * (i + 1)), false);
		sim_live(s, node, 32);
	}
	s->survivors[0] = s->tester;
}

static void bound_chain_32(struct sim *s)
{
	sim_chain(s, 31);
}

static void bound_chain_31(struct sim *s)
{
	sim_chain(s, 30);
}

/*
 * A spawner: an old process whose @n young children live, born @every_ms
 * apart (0: a jiffy apart), the last at @last; @killed more, born before
 * them, were killed by a signal (no finished jobs).
 */
static void sim_spawner(struct sim *s, unsigned int n, unsigned int every_ms,
			unsigned long last, unsigned int killed)
{
	struct fbk_node *spawner;
	unsigned long born;
	unsigned int i;

	sim_start(s, SEC(500), &spawner);
	for (i = 0; i < killed; i++)
		sim_killed(s, sim_add(s, spawner, last - SECS(3) + i, false),
			   last - SECS(2));
	for (i = 0; i < n; i++) {
		born = every_ms ? last - MS(every_ms * (n - 1 - i)) :
				  last - (n - 1 - i);
		sim_live(s, sim_add(s, spawner, born, false), 16);
	}
	s->top = spawner;
	s->survivors[0] = s->tester;
	s->survivors[1] = s->bystander;
}

/*
 * FBK_SPAWNER_MIN (64), for an OOM: 64 live children within 630 ms, the
 * last 10 ms ago, are a spawner; 63 are not.
 */
static void bound_spawner_64(struct sim *s)
{
	sim_spawner(s, 64, 10, NOW - MS(10), 0);
}

static void bound_spawner_63(struct sim *s)
{
	sim_spawner(s, 63, 10, NOW - MS(10), 0);
}

/*
 * FBK_SPAWNER_PACE_JIFFIES (1 s): 64 children 15 ms apart (945 ms) come
 * at 64 a second, a spawner; 100 children 20 ms apart come at 51 a
 * second, at 100 in two seconds: not a spawner.
 */
static void bound_spawner_pace_15ms(struct sim *s)
{
	sim_spawner(s, 64, 15, NOW - MS(10), 0);
}

static void bound_spawner_pace_20ms(struct sim *s)
{
	sim_spawner(s, 100, 20, NOW - MS(10), 0);
}

/*
 * FBK_SPAWNER_ALIVE_NUM/FBK_SPAWNER_ALIVE_DEN (3/4), when fork failed:
 * 96 live children of 128 are three quarters, a spawner; 95 of 128 are
 * not.
 */
static void bound_spawner_alive_96(struct sim *s)
{
	sim_spawner(s, 96, 2, NOW - MS(10), 32);
}

static void bound_spawner_alive_95(struct sim *s)
{
	sim_spawner(s, 95, 2, NOW - MS(10), 33);
}

/*
 * FBK_SPAWNER_PAUSE_SHARE (4), for an OOM: 97 children a jiffy apart took
 * 96 jiffies; the last one born 24 jiffies (a quarter of that) before the
 * scan, the spawner still forks; 25 jiffies, it stopped.
 */
static void bound_spawner_pause_24(struct sim *s)
{
	sim_spawner(s, 97, 0, NOW - 24, 0);
}

static void bound_spawner_pause_25(struct sim *s)
{
	sim_spawner(s, 97, 0, NOW - 25, 0);
}

/*
 * FBK_VICTIM_FACTOR (2), for an OOM: a bomb of 64 processes weighing
 * 1,108 pages (its first 100, the others 16 each) beside an old process
 * of 554 pages, the OOM killer's victim: the bomb frees twice as much,
 * and goes; beside one of 555 pages, the OOM killer's victim goes.
 */
static void sim_bomb_beside(struct sim *s, unsigned long other)
{
	struct fbk_node *bomb;

	s->survivors[0] = sim_spawn(s, s->tester, SEC(500), other);
	s->top = sim_start(s, NOW - SECS(1), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(1), MS(100), 64, 16);
}

static void bound_victim_outside_554(struct sim *s)
{
	sim_bomb_beside(s, 554);
}

static void bound_victim_outside_555(struct sim *s)
{
	sim_bomb_beside(s, 555);
}

/*
 * FBK_VICTIM_SHARE (32), for an OOM: a bomb of 32 processes of 100 pages,
 * the heaviest in scope (the tester is made lighter): the bomb weighs
 * 32 times its heaviest process, and goes; one of its processes holding
 * 99 pages makes 3,199, and the OOM killer takes one of them.
 */
static void bound_victim_inside(struct sim *s, unsigned long lightest)
{
	struct fbk_node *bomb;

	sim_live(s, s->tester, 50);
	s->top = sim_start(s, NOW - SECS(1), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(1), MS(100), 32, 100);
	sim_live(s, fbk_first_child(bomb), lightest);
}

static void bound_victim_inside_3200(struct sim *s)
{
	bound_victim_inside(s, 100);
}

static void bound_victim_inside_3199(struct sim *s)
{
	bound_victim_inside(s, 99);
}

/*
 * FBK_SPLIT_NUM/FBK_SPLIT_DEN (7/8): 128 young processes below the
 * tester, a C bomb of 112 and a pool of 16 forked 4 s earlier: the bomb
 * holds 7/8 of them, and step 2 goes down into it; with 111 of 128 it
 * stops at the tester, an outsider, spared while the bomb goes.
 */
static void sim_bomb_and_pool(struct sim *s, unsigned int bomb_size,
			      unsigned int pool_size)
{
	struct fbk_node *bomb, *pool;
	unsigned int i;

	s->top = sim_start(s, NOW - SECS(1), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(1), MS(100), bomb_size, 16);
	pool = sim_add(s, s->tester, NOW - SECS(5), false);
	sim_live(s, pool, 16);
	for (i = 1; i < pool_size; i++)
		sim_live(s, sim_add(s, pool, NOW - SECS(5) + MS(i), false), 16);
	s->survivors[0] = pool;
}

static void bound_split_112_of_128(struct sim *s)
{
	sim_bomb_and_pool(s, 112, 16);
}

static void bound_split_111_of_128(struct sim *s)
{
	sim_bomb_and_pool(s, 111, 17);
	s->top = s->tester;
	s->spared = true;
}

/*
 * FBK_GAP_FACTOR (8): a young process forked the bomb's first process
 * 512 jiffies after its own birth, a binary bomb six generations deep
 * whose generation time is exactly 64 jiffies: eight generation times,
 * the bomb's own; 513 jiffies, more: an outsider that lives. In jiffies,
 * the unit of the rule, at any HZ from 100 to 1000.
 */
static void sim_late_bomb(struct sim *s, unsigned long late)
{
	static const unsigned int fan[] = { 2, 2, 2, 2, 2, 2 };
	struct fbk_node *starter, *root;

	starter = sim_add(s, s->tester, NOW - 950, false);
	sim_live(s, starter, 16);
	root = sim_add(s, starter, starter->born_at + late, false);
	sim_fan_bomb(s, root, 64, fan, ARRAY_SIZE(fan), 16, NULL);
	s->top = late > 512 ? root : starter;
	s->survivors[0] = s->tester;
	if (late > 512)
		s->survivors[1] = starter;
}

static void bound_gap_512(struct sim *s)
{
	sim_late_bomb(s, 512);
}

static void bound_gap_513(struct sim *s)
{
	sim_late_bomb(s, 513);
}

/*
 * FBK_GAP_MIN_JIFFIES (20 ms): a young process forked the two halves of a
 * bomb whose generations take a jiffy each, so its generation time is
 * the floor, 20 ms. Forked 160 ms (eight floors) after its birth, the
 * halves are its own; 170 ms, it is an outsider, spared.
 */
static void sim_halves_late(struct sim *s, unsigned long late)
{
	static const unsigned int fan[] = { 2, 2, 2, 2, 2 };
	struct fbk_node *starter, *half;
	int i;

	starter = sim_add(s, s->tester, NOW - SECS(2), false);
	sim_live(s, starter, 16);
	for (i = 0; i < 2; i++) {
		half = sim_add(s, starter, starter->born_at + late + i, false);
		sim_fan_bomb(s, half, 1, fan, ARRAY_SIZE(fan), 16, NULL);
	}
	s->top = starter;
	s->survivors[0] = s->tester;
}

static void bound_gap_min_160ms(struct sim *s)
{
	sim_halves_late(s, MS(160));
}

static void bound_gap_min_170ms(struct sim *s)
{
	sim_halves_late(s, MS(170));
	s->spared = true;
}

/*
 * FBK_STALL_JIFFIES (120 s), for an OOM: a bomb that multiplied until
 * 125 s before the OOM (the machine thrashed since) is young; one that
 * stopped 135 s before is not (its last 10 s began over 130 s ago).
 */
static void sim_stalled_bomb(struct sim *s, unsigned long start)
{
	struct fbk_node *bomb;

	s->top = sim_start(s, start, &bomb);
	sim_c_bomb(s, bomb, start, MS(100), 128, 16);
}

static void bound_stall_125s(struct sim *s)
{
	sim_stalled_bomb(s, NOW - SECS(126));
}

static void bound_stall_135s(struct sim *s)
{
	sim_stalled_bomb(s, NOW - SECS(136));
}

struct shape_case {
	const char *name;
	void (*build)(struct sim *s);
	enum fbk_trigger trigger;
	bool kill;
	enum fbk_shape shape;
};

static const struct shape_case shape_cases[] = {
	{ "c_bomb", shape_c_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "c_bomb_fork_fail", shape_c_bomb, FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_TREE },
	{ "container_bomb_young_launcher", shape_container_bomb_young_launcher,
	  FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_TREE },
	{ "c_bomb_oom_victims", shape_c_bomb_oom_victims, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "bomb_exits_on_failed_fork", shape_bomb_exits_on_failed_fork,
	  FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_TREE },
	{ "lopsided_c_bomb", shape_lopsided_c_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "stalled_c_bomb", shape_stalled_c_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "thrashed_c_bomb", shape_thrashed_c_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "stalled_bomb_busy_service", shape_stalled_bomb_busy_service, FBK_TRIGGER_OOM,
	  true, FBK_SHAPE_TREE },
	{ "trickling_c_bomb", shape_trickling_c_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "slow_c_bomb", shape_slow_c_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "nproc_c_bomb", shape_nproc_c_bomb, FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_TREE },
	{ "shell_bomb", shape_shell_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "lopsided_shell_bomb", shape_lopsided_shell_bomb, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "slow_typed_shell_bomb", shape_slow_typed_shell_bomb, FBK_TRIGGER_FORK_FAIL,
	  true, FBK_SHAPE_TREE },
	{ "typed_shell_bomb", shape_typed_shell_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "exec_bomb", shape_exec_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "wide_exec_bomb_fork_fail", shape_wide_exec_bomb, FBK_TRIGGER_FORK_FAIL,
	  true, FBK_SHAPE_SPAWNER },
	{ "setsid_bomb", shape_setsid_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "chain_bomb", shape_chain_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_CHAIN },
	{ "stalled_chain_bomb", shape_stalled_chain_bomb, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_CHAIN },
	{ "burst_bomb", shape_burst_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "spawner", shape_spawner, FBK_TRIGGER_OOM, true, FBK_SHAPE_SPAWNER },
	{ "spawner_no_exec", shape_spawner_no_exec, FBK_TRIGGER_OOM, true, FBK_SHAPE_SPAWNER },
	{ "spawner_fork_fail", shape_spawner, FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_SPAWNER },
	{ "two_bombs", shape_two_bombs, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "bomb_lighter_than_hog", shape_bomb_lighter_than_hog,
	  FBK_TRIGGER_OOM, false, FBK_SHAPE_TREE },
	{ "bomb_in_oom_group", shape_bomb_in_oom_group, FBK_TRIGGER_OOM, false, FBK_SHAPE_TREE },
	{ "protected_bomb", shape_protected_bomb, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "command_c_bomb", shape_command_c_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "command_c_bomb_fork_fail", shape_command_c_bomb, FBK_TRIGGER_FORK_FAIL,
	  true, FBK_SHAPE_TREE },
	{ "command_shell_bomb", shape_command_shell_bomb, FBK_TRIGGER_FORK_FAIL,
	  true, FBK_SHAPE_TREE },
	{ "command_shell_bomb_oom", shape_command_shell_bomb, FBK_TRIGGER_OOM,
	  true, FBK_SHAPE_TREE },
	{ "typed_command_bomb", shape_typed_command_bomb, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "typed_command_bomb_fork_fail", shape_typed_command_bomb,
	  FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_TREE },
	{ "typed_command_bomb_uneven", shape_typed_command_bomb_uneven,
	  FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_TREE },
	{ "script_bomb", shape_script_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "make_bomb", shape_make_bomb, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "make_bomb_fork_fail", shape_make_bomb, FBK_TRIGGER_FORK_FAIL, true,
	  FBK_SHAPE_TREE },
	{ "clone_vm_bomb", shape_clone_vm_bomb, FBK_TRIGGER_FORK_FAIL, true,
	  FBK_SHAPE_SPAWNER },
	{ "two_equal_bombs", shape_two_equal_bombs, FBK_TRIGGER_FORK_FAIL, true,
	  FBK_SHAPE_TREE },
	{ "make_flat", shape_make_flat, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "make_compiles", shape_make_compiles, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "recursive_make", shape_recursive_make, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "recursive_make_fork_fail", shape_recursive_make,
	  FBK_TRIGGER_FORK_FAIL, false, FBK_SHAPE_NONE },
	{ "browser", shape_browser, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "worker_pool", shape_worker_pool, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "prefork_and_hog", shape_prefork_and_hog, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "big_prefork", shape_big_prefork, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "recycling_pool_and_hog", shape_recycling_pool_and_hog, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_NONE },
	{ "cgi_server", shape_cgi_server, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "make_j64", shape_make_j64, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "stress_ng_fork", shape_stress_ng_fork, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "stress_ng_fork_fork_fail", shape_stress_ng_fork,
	  FBK_TRIGGER_FORK_FAIL, false, FBK_SHAPE_NONE },
	/* A spawner to the pure rule: the fork failure path waits for it to fail again. */
	{ "bounded_job", shape_bounded_job, FBK_TRIGGER_FORK_FAIL, true, FBK_SHAPE_SPAWNER },
	{ "bounded_job_oom", shape_bounded_job, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "restart_storm", shape_restart_storm, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "old_workers", shape_old_workers, FBK_TRIGGER_FORK_FAIL, false, FBK_SHAPE_NONE },
	{ "old_workers_and_hog", shape_old_workers_and_hog, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_NONE },
	{ "deep_build_running", shape_deep_build_running, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_TREE },
	{ "kbuild", shape_kbuild, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "kbuild_fork_fail", shape_kbuild, FBK_TRIGGER_FORK_FAIL, false,
	  FBK_SHAPE_NONE },
	{ "prefork_ramping", shape_prefork_ramping, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_NONE },
	{ "browser_restore", shape_browser_restore, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_NONE },
	{ "ci_runner", shape_ci_runner, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "test_suite", shape_test_suite, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "test_suite_fork_fail", shape_test_suite, FBK_TRIGGER_FORK_FAIL, false,
	  FBK_SHAPE_NONE },
};

static void shape_case_desc(const struct shape_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(shape, shape_cases, shape_case_desc);

/* Build @c's tree, scan it, and check the verdict and what a kill would take. */
static void check_shape(struct kunit *test, const struct shape_case *c)
{
	const struct fbk_profile *p;
	struct sim *s;
	bool kill;
	int i;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	sim_init(s, test, c->trigger);
	c->build(s);
	sim_scan(s);
	kill = fbk_choose(&s->tree, &s->policy, &s->choice);
	p = &s->choice.profile;
	kunit_info(test, "%s: %s%s, young %u, depth %u, branching %u, generations %u, multiplying %u, finished jobs %u, children %u/%u, tasks %u, mass %lu (victim %lu)\n",
		   c->name, kill ? "kill " : "", fbk_shape_name(s->choice.shape),
		   p->young, p->depth, p->branching, p->generations,
		   p->multipliers, p->dead_leaves, p->live_children, p->children,
		   p->tasks, p->mass, s->policy.victim_mass);

	KUNIT_EXPECT_EQ_MSG(test, kill, c->kill,
			    "shape %s young %u depth %u branching %u generations %u dead_leaves %u children %u/%u tasks %u mass %lu/%lu",
			    fbk_shape_name(s->choice.shape), p->young, p->depth,
			    p->branching, p->generations, p->dead_leaves,
			    p->live_children, p->children, p->tasks, p->mass,
			    s->policy.victim_mass);
	KUNIT_EXPECT_EQ_MSG(test, s->choice.shape, c->shape, "shape %s",
			    fbk_shape_name(s->choice.shape));
	if (!kill || !s->top)
		return;
	KUNIT_EXPECT_PTR_EQ(test, s->choice.top, s->top);
	KUNIT_EXPECT_EQ(test, s->choice.spared, s->spared);

	/* What the kill would take: never the survivors. */
	fbk_doom(&s->tree, &s->choice, &s->policy, 1);
	for (i = 0; i < ARRAY_SIZE(s->survivors); i++)
		if (s->survivors[i])
			KUNIT_EXPECT_EQ_MSG(test, s->survivors[i]->doomed, 0,
					    "survivor %d doomed", i);
	KUNIT_EXPECT_EQ(test, s->choice.top->doomed, s->spared ? 0 : 1);
}

static void forkbomb_score_shape(struct kunit *test)
{
	check_shape(test, test->param_value);
}

/*
 * Two cases for each threshold of the rule, just on either side of it
 * (see "on either side of each threshold" above).
 */
static const struct shape_case boundary_cases[] = {
	{ "tree_depth_3", bound_tree_depth_3, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "tree_depth_2", bound_tree_depth_2, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "tree_share_112", bound_tree_share_112, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "tree_share_113", bound_tree_share_113, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "dead_leaves_64", bound_dead_leaves_64, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "dead_leaves_65", bound_dead_leaves_65, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "jobs_per_multiplier_12", bound_jobs_per_multiplier_12, FBK_TRIGGER_OOM,
	  true, FBK_SHAPE_TREE },
	{ "jobs_per_multiplier_13", bound_jobs_per_multiplier_13, FBK_TRIGGER_OOM,
	  false, FBK_SHAPE_NONE },
	{ "three_commands_bomb", bound_three_commands_bomb, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "nine_commands_bomb", bound_nine_commands_bomb, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "chain_32", bound_chain_32, FBK_TRIGGER_OOM, true, FBK_SHAPE_CHAIN },
	{ "chain_31", bound_chain_31, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "spawner_64", bound_spawner_64, FBK_TRIGGER_OOM, true, FBK_SHAPE_SPAWNER },
	{ "spawner_63", bound_spawner_63, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
	{ "spawner_pace_15ms", bound_spawner_pace_15ms, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_SPAWNER },
	{ "spawner_pace_20ms", bound_spawner_pace_20ms, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_NONE },
	{ "spawner_alive_96", bound_spawner_alive_96, FBK_TRIGGER_FORK_FAIL, true,
	  FBK_SHAPE_SPAWNER },
	{ "spawner_alive_95", bound_spawner_alive_95, FBK_TRIGGER_FORK_FAIL, false,
	  FBK_SHAPE_NONE },
	{ "spawner_pause_24", bound_spawner_pause_24, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_SPAWNER },
	{ "spawner_pause_25", bound_spawner_pause_25, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_NONE },
	{ "victim_outside_554", bound_victim_outside_554, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "victim_outside_555", bound_victim_outside_555, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_TREE },
	{ "victim_inside_3200", bound_victim_inside_3200, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "victim_inside_3199", bound_victim_inside_3199, FBK_TRIGGER_OOM, false,
	  FBK_SHAPE_TREE },
	{ "split_112_of_128", bound_split_112_of_128, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "split_111_of_128", bound_split_111_of_128, FBK_TRIGGER_OOM, true,
	  FBK_SHAPE_TREE },
	{ "gap_512", bound_gap_512, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "gap_513", bound_gap_513, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "gap_min_160ms", bound_gap_min_160ms, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "gap_min_170ms", bound_gap_min_170ms, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "stall_125s", bound_stall_125s, FBK_TRIGGER_OOM, true, FBK_SHAPE_TREE },
	{ "stall_135s", bound_stall_135s, FBK_TRIGGER_OOM, false, FBK_SHAPE_NONE },
};

KUNIT_ARRAY_PARAM(boundary, boundary_cases, shape_case_desc);

static void forkbomb_score_boundary(struct kunit *test)
{
	check_shape(test, test->param_value);
}

/* The threshold: a bomb of min_descendants young processes, not fewer. */
static void forkbomb_score_threshold(struct kunit *test)
{
	unsigned int min;
	struct sim *s;
	struct fbk_node *bomb;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (min = 60; min <= 70; min += 10) {
		sim_init(s, test, FBK_TRIGGER_FORK_FAIL);
		s->policy.min_descendants = min;
		sim_start(s, NOW - SECS(1), &bomb);
		sim_c_bomb(s, bomb, NOW - SECS(1), MS(100), 64, 16);
		sim_scan(s);
		KUNIT_EXPECT_EQ_MSG(test, fbk_choose(&s->tree, &s->policy, &s->choice),
				    min <= 64, "min_descendants %u", min);
	}
}

/* When fork failed, the bomb must hold at least half the threads in scope. */
static void forkbomb_score_fork_fail_share(struct kunit *test)
{
	struct fbk_node *bomb;
	struct sim *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	sim_init(s, test, FBK_TRIGGER_FORK_FAIL);
	sim_start(s, NOW - SECS(1), &bomb);
	sim_c_bomb(s, bomb, NOW - SECS(1), MS(100), 200, 16);
	sim_scan(s);
	s->policy.total_mass = 400;
	KUNIT_EXPECT_TRUE(test, fbk_choose(&s->tree, &s->policy, &s->choice));
	s->policy.total_mass = 401;
	KUNIT_EXPECT_FALSE(test, fbk_choose(&s->tree, &s->policy, &s->choice));
}

/* A spawner must still be forking: one that stopped is a server's pool. */
static void forkbomb_score_spawner_stopped(struct kunit *test)
{
	struct fbk_node *spawner;
	struct sim *s;
	int i;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	sim_init(s, test, FBK_TRIGGER_OOM);
	sim_start(s, SEC(500), &spawner);
	for (i = 0; i < 1000; i++)
		sim_live(s, sim_add(s, spawner, NOW - SECS(3) + MS(1 * i), false), 3);
	sim_scan(s);
	KUNIT_EXPECT_FALSE(test, fbk_choose(&s->tree, &s->policy, &s->choice));
	/* And had it gone on until just now, it would be one. */
	s->policy.now = NOW - SECS(2);
	KUNIT_EXPECT_TRUE(test, fbk_choose(&s->tree, &s->policy, &s->choice));
	KUNIT_EXPECT_EQ(test, s->choice.shape, FBK_SHAPE_SPAWNER);
}

static unsigned long youth(struct fbk_policy *policy,
			   const struct fbk_births *births)
{
	fbk_set_youth(policy, births);
	return policy->young_since;
}

/*
 * Youth counts back from the resource's exhaustion; for an OOM, from the
 * end of the newest 10 s in which the machine multiplied (min_descendants
 * births), over FBK_STALL_JIFFIES at most. The machine last multiplied at
 * the exhaustion, or in the newest second of that window with a birth.
 */
static void forkbomb_score_young_since(struct kunit *test)
{
	struct fbk_policy oom = {
		.trigger = FBK_TRIGGER_OOM, .exhausted_at = NOW, .min_descendants = 10,
	};
	struct fbk_policy fork_fail = {
		.trigger = FBK_TRIGGER_FORK_FAIL, .exhausted_at = NOW, .min_descendants = 10,
	};
	const unsigned long window = NOW - FBK_YOUNG_JIFFIES;
	struct fbk_births *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->now = NOW;
	/* Nothing born at all: no multiplying to anchor on. */
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window);
	KUNIT_EXPECT_EQ(test, youth(&oom, NULL), window);
	/* Multiplying now: 10 births over the last 10 s. */
	b->count[0] = 1;
	b->count[9] = 9;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window);
	/*
	 * Nine are not enough; the window ending a second earlier has ten,
	 * and so do the windows before it that hold the same ten.
	 */
	b->count[0] = 0;
	b->count[10] = 1;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window - SECS(9));
	/* A burst 60 s ago, a trickle since: youth ends with the burst. */
	memset(b->count, 0, sizeof(b->count));
	b->count[60] = 500;
	b->count[16] = 1;
	b->count[3] = 1;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window - SECS(60));
	KUNIT_EXPECT_EQ(test, oom.multiplied_at, NOW - SECS(60));
	/* A bomb of a thousand stalled 30 s ago; a dozen forks since are a trickle. */
	memset(b->count, 0, sizeof(b->count));
	b->count[30] = 1000;
	b->count[5] = 12;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window - SECS(30));
	/* Multiplying now, if more slowly than a minute ago. */
	b->count[5] = 130;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window - SECS(5));
	KUNIT_EXPECT_EQ(test, oom.multiplied_at, NOW);
	/*
	 * A slow bomb (a debug kernel, an overloaded machine): 20 births a
	 * second for 40 s. Young all of its life, whichever the trigger.
	 */
	memset(b->count, 0, sizeof(b->count));
	for (i = 0; i < 40; i++)
		b->count[i] = 20;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window - SECS(38));
	KUNIT_EXPECT_EQ(test, youth(&fork_fail, b), window - SECS(38));
	/*
	 * The newest busy window not further back than FBK_STALL_JIFFIES;
	 * the run of busy windows before it up to FBK_HISTORY_JIFFIES.
	 */
	memset(b->count, 0, sizeof(b->count));
	b->count[(FBK_STALL_JIFFIES + FBK_YOUNG_JIFFIES) / HZ - 1] = 500;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window - FBK_STALL_JIFFIES - SECS(9));
	memset(b->count, 0, sizeof(b->count));
	b->count[(FBK_STALL_JIFFIES + FBK_YOUNG_JIFFIES) / HZ] = 500;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), window);
	for (i = 0; i < FBK_BIRTH_SECONDS; i++)
		b->count[i] = 20;
	KUNIT_EXPECT_EQ(test, youth(&oom, b),
			NOW - FBK_HISTORY_JIFFIES);
	/*
	 * A failed fork is its own anchor: a burst a minute before it does
	 * not make youth reach back there.
	 */
	memset(b->count, 0, sizeof(b->count));
	b->count[60] = 500;
	KUNIT_EXPECT_EQ(test, youth(&fork_fail, b), window);
	KUNIT_EXPECT_EQ(test, fork_fail.multiplied_at, NOW);
}

/* A failed fork of @node in the scope @key of @table (two entries). */
static struct fbk_exhaustion *failed(struct fbk_exhaustion *table, u64 key,
				     const struct fbk_node *node, unsigned long t)
{
	return fbk_exhaustion_failed(table, 2, key, node, t);
}

/*
 * When fork failed, a spawner is killed once its own forks have kept
 * failing for 250 ms since a scan found it, without a pause over 500 ms,
 * whichever task runs the scans; the failures of other records (its
 * children's) do not count. Two spawners of one scope are watched side
 * by side.
 */
static void forkbomb_score_spawner_watch(struct kunit *test)
{
	struct fbk_node *nodes = kunit_kcalloc(test, 3, sizeof(*nodes), GFP_KERNEL);
	struct fbk_exhaustion *table = kunit_kcalloc(test, 2, sizeof(*table),
						     GFP_KERNEL);
	struct fbk_node *spawner, *child, *second;
	unsigned long t = NOW, start;
	struct fbk_exhaustion *ex;

	KUNIT_ASSERT_NOT_NULL(test, nodes);
	KUNIT_ASSERT_NOT_NULL(test, table);
	spawner = &nodes[0];
	child = &nodes[1];
	second = &nodes[2];
	ex = failed(table, 0, NULL, t);
	/* Found: watched from now on. */
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, spawner, t));
	/* Only its children fail, for a second: not confirmed. */
	for (; t < NOW + SECS(1); t += MS(10)) {
		failed(table, 0, child, t);
		failed(table, 0, NULL, t);
	}
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, spawner, t));
	/* It fails itself every 10 ms: not yet after 200 ms, after 300 ms. */
	for (start = t; t < start + MS(200); t += MS(10))
		failed(table, 0, spawner, t);
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, spawner, t));
	for (; t < start + MS(300); t += MS(10))
		failed(table, 0, spawner, t);
	KUNIT_EXPECT_TRUE(test, fbk_exhaustion_confirm(ex, spawner, t));
	/* It stopped: no longer 600 ms later; failing again, it starts over. */
	t += MS(600);
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, spawner, t));
	failed(table, 0, spawner, t);
	t += MS(10);
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, spawner, t));
	/* A shell that retries after 1, 2 and 4 s: never confirmed. */
	for (start = t; t < start + SECS(7); t++) {
		if (t == start || t == start + SECS(1) || t == start + SECS(3))
			failed(table, 0, spawner, t);
		KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, spawner, t));
	}
	/*
	 * Two spawners of the scope fail at once, found by turns: neither
	 * resets the other's watch, both are confirmed.
	 */
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, second, t));
	for (start = t; t < start + MS(300); t += MS(10)) {
		failed(table, 0, spawner, t);
		failed(table, 0, second, t);
		fbk_exhaustion_confirm(ex, (t / MS(10)) % 2 ? spawner : second, t);
	}
	KUNIT_EXPECT_TRUE(test, fbk_exhaustion_confirm(ex, spawner, t));
	KUNIT_EXPECT_TRUE(test, fbk_exhaustion_confirm(ex, second, t));
	/* A third one found: the one found longest ago makes room. */
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, child, t + MS(10)));
	KUNIT_EXPECT_TRUE(test, fbk_exhaustion_confirm(ex, second, t + MS(10)));
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, spawner, t + MS(10)));
}

/*
 * Each scope keeps its own exhaustion: a user retrying a fork at its
 * RLIMIT_NPROC every half second neither moves the system's nor takes its
 * entry; a scope that failed longest ago makes room for a new one; forks
 * that fail again after a pause of over a second begin a new exhaustion.
 */
static void forkbomb_score_exhaustion_per_scope(struct kunit *test)
{
	struct fbk_exhaustion *table = kunit_kcalloc(test, 2, sizeof(*table),
						     GFP_KERNEL);
	const u64 user = BIT_ULL(63) | 1000, container = BIT_ULL(62) | 42;
	struct fbk_exhaustion *ex;
	unsigned long t;

	KUNIT_ASSERT_NOT_NULL(test, table);
	for (t = NOW - SECS(30); t < NOW; t += MS(500))
		KUNIT_EXPECT_EQ(test, failed(table, user, NULL, t)->exhausted_at,
				NOW - SECS(30));
	for (t = NOW - MS(300); t < NOW; t += MS(10))
		ex = failed(table, 0, NULL, t);
	KUNIT_EXPECT_EQ(test, ex->exhausted_at, NOW - MS(300));
	KUNIT_EXPECT_EQ(test, failed(table, user, NULL, NOW)->exhausted_at,
			NOW - SECS(30));
	/* A third scope: the user's entry failed last, the system's goes. */
	ex = failed(table, container, NULL, NOW + MS(5));
	KUNIT_EXPECT_EQ(test, ex->exhausted_at, NOW + MS(5));
	KUNIT_EXPECT_EQ(test, failed(table, user, NULL, NOW + MS(10))->exhausted_at,
			NOW - SECS(30));
	KUNIT_EXPECT_EQ(test, failed(table, 0, NULL, NOW + MS(20))->exhausted_at,
			NOW + MS(20));
	/* The user pauses for two seconds: a new exhaustion. */
	ex = failed(table, user, NULL, NOW + SECS(2) + MS(20));
	KUNIT_EXPECT_EQ(test, ex->exhausted_at, NOW + SECS(2) + MS(20));
}

/*
 * FBK_YOUNG_JIFFIES (10 s) and FBK_TRICKLE_SHARE (8), with literal times.
 * Ten births over the last ten seconds are multiplying: youth is the last
 * ten seconds. Beside a busiest window of 1,000 births (30 s ago), 125
 * births (5 s ago) are an eighth of it, still multiplying: youth begins
 * 15 s ago; 124 are a trickle: youth ends with the busiest window, 40 s
 * ago.
 */
static void forkbomb_score_youth_bounds(struct kunit *test)
{
	struct fbk_policy oom = {
		.trigger = FBK_TRIGGER_OOM, .exhausted_at = NOW, .min_descendants = 10,
	};
	struct fbk_births *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->now = NOW;
	b->count[0] = 1;
	b->count[9] = 9;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), NOW - SECS(10));
	memset(b->count, 0, sizeof(b->count));
	b->count[30] = 1000;
	b->count[5] = 125;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), NOW - SECS(15));
	KUNIT_EXPECT_EQ(test, oom.multiplied_at, NOW);
	b->count[5] = 124;
	KUNIT_EXPECT_EQ(test, youth(&oom, b), NOW - SECS(40));
	KUNIT_EXPECT_EQ(test, oom.multiplied_at, NOW - SECS(30));
}

/*
 * FBK_HISTORY_JIFFIES (10 minutes): a machine where a process was born
 * every second for 610 s (a bomb crawling on a debug kernel) multiplied
 * in every 10 s window: youth reaches back through all of them, but no
 * further than 600 s. A record born 595 s ago is young, one born 605 s
 * ago is not.
 */
static void forkbomb_score_history_bounds(struct kunit *test)
{
	struct fbk_node *at_595 = NULL, *at_605 = NULL, *node;
	struct sim *s;
	int i;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	sim_init(s, test, FBK_TRIGGER_OOM);
	for (i = 0; i < 610; i++) {
		node = sim_add(s, s->tester, NOW - SECS(i) - MS(500), false);
		sim_live(s, node, 1);
		if (i == 595)
			at_595 = node;
		if (i == 605)
			at_605 = node;
	}
	sim_scan(s);
	KUNIT_EXPECT_EQ(test, s->policy.young_since, NOW - SECS(600));
	KUNIT_EXPECT_TRUE(test, fbk_young(at_595, &s->policy));
	KUNIT_EXPECT_FALSE(test, fbk_young(at_605, &s->policy));
}

/*
 * FBK_EXHAUSTION_PAUSE_JIFFIES (1 s): forks of a scope that fail again a
 * second after the last failure go on with the same exhaustion; a jiffy
 * later than that, they begin a new one.
 */
static void forkbomb_score_exhaustion_pause(struct kunit *test)
{
	struct fbk_exhaustion *table = kunit_kcalloc(test, 2, sizeof(*table),
						     GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, table);
	failed(table, 0, NULL, NOW);
	KUNIT_EXPECT_EQ(test, failed(table, 0, NULL, NOW + MS(1000))->exhausted_at,
			NOW);
	KUNIT_EXPECT_EQ(test, failed(table, 0, NULL, NOW + MS(2000) + 1)->exhausted_at,
			NOW + MS(2000) + 1);
}

/*
 * FBK_SPAWNER_CONFIRM_JIFFIES (250 ms) and FBK_SPAWNER_GAP_JIFFIES
 * (500 ms): a spawner whose forks fail every 10 ms is not confirmed
 * 240 ms after its first failure, and is after 250 ms. Failures 500 ms
 * apart keep it failing, and it stays confirmed for 500 ms after the
 * last one; a failure 500 ms and a jiffy after the last one starts over.
 */
static void forkbomb_score_spawner_watch_bounds(struct kunit *test)
{
	struct fbk_node *nodes = kunit_kcalloc(test, 2, sizeof(*nodes), GFP_KERNEL);
	struct fbk_exhaustion *table = kunit_kcalloc(test, 2, sizeof(*table),
						     GFP_KERNEL);
	struct fbk_exhaustion *ex;
	unsigned long t0 = NOW;
	unsigned int ms;

	KUNIT_ASSERT_NOT_NULL(test, nodes);
	KUNIT_ASSERT_NOT_NULL(test, table);
	ex = failed(table, 0, NULL, t0 - MS(10));
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, &nodes[0], t0 - MS(10)));
	for (ms = 0; ms <= 240; ms += 10)
		failed(table, 0, &nodes[0], t0 + MS(ms));
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, &nodes[0], t0 + MS(240)));
	failed(table, 0, &nodes[0], t0 + MS(250));
	KUNIT_EXPECT_TRUE(test, fbk_exhaustion_confirm(ex, &nodes[0], t0 + MS(250)));

	t0 = NOW + SECS(10);
	ex = failed(table, 0, NULL, t0);
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, &nodes[1], t0));
	failed(table, 0, &nodes[1], t0 + MS(10));
	failed(table, 0, &nodes[1], t0 + MS(510));
	KUNIT_EXPECT_TRUE(test, fbk_exhaustion_confirm(ex, &nodes[1], t0 + MS(510)));
	KUNIT_EXPECT_TRUE(test, fbk_exhaustion_confirm(ex, &nodes[1], t0 + MS(1010)));
	failed(table, 0, &nodes[1], t0 + MS(1010) + 1);
	KUNIT_EXPECT_FALSE(test, fbk_exhaustion_confirm(ex, &nodes[1], t0 + MS(1010) + 1));
}

/*
 * FBK_RETRY_SOON_JIFFIES (HZ / 20), FBK_RETRY_IDLE_JIFFIES (1 s),
 * FBK_SCAN_DUTY_FACTOR (20) and FBK_SCAN_DUTY_MAX_JIFFIES (60 s), with
 * literal times. The system's scans come again 50 ms after a kill or
 * while a spawner is watched, else after 1 s, however long they took. A
 * user's (or a pids cgroup's) scans take at most a twentieth of the
 * time: a scan of 1 ms comes again as the system's do, one of 100 ms
 * after 2 s even while a spawner is watched, one of 1 s after 20 s, one
 * of 10 s after a minute.
 */
static void forkbomb_score_scan_duty(struct kunit *test)
{
	struct fbk_exhaustion *table = kunit_kcalloc(test, 2, sizeof(*table),
						     GFP_KERNEL);
	const u64 user = BIT_ULL(63) | 1000;
	struct fbk_exhaustion *system, *ex;

	KUNIT_ASSERT_NOT_NULL(test, table);
	system = failed(table, 0, NULL, NOW);
	fbk_exhaustion_scanned(system, true, NSEC_PER_SEC, NOW);
	KUNIT_EXPECT_EQ(test, system->next_scan_at, NOW + HZ / 20);
	fbk_exhaustion_scanned(system, false, NSEC_PER_SEC, NOW);
	KUNIT_EXPECT_EQ(test, system->next_scan_at, NOW + SECS(1));
	system->spawner_watched = true;
	fbk_exhaustion_scanned(system, false, NSEC_PER_SEC, NOW);
	KUNIT_EXPECT_EQ(test, system->next_scan_at, NOW + HZ / 20);

	ex = failed(table, user, NULL, NOW);
	fbk_exhaustion_scanned(ex, false, NSEC_PER_MSEC, NOW);
	KUNIT_EXPECT_EQ(test, ex->next_scan_at, NOW + SECS(1));
	fbk_exhaustion_scanned(ex, true, NSEC_PER_MSEC, NOW);
	KUNIT_EXPECT_EQ(test, ex->next_scan_at, NOW + HZ / 20);
	ex->spawner_watched = true;
	fbk_exhaustion_scanned(ex, false, 100 * NSEC_PER_MSEC, NOW);
	KUNIT_EXPECT_EQ(test, ex->next_scan_at, NOW + SECS(2));
	fbk_exhaustion_scanned(ex, true, NSEC_PER_SEC, NOW);
	KUNIT_EXPECT_EQ(test, ex->next_scan_at, NOW + SECS(20));
	fbk_exhaustion_scanned(ex, true, 10 * NSEC_PER_SEC, NOW);
	KUNIT_EXPECT_EQ(test, ex->next_scan_at, NOW + SECS(60));
	KUNIT_EXPECT_EQ(test, fbk_scan_duty_jiffies(2 * NSEC_PER_SEC), SECS(40));
}

static struct kunit_case forkbomb_score_cases[] = {
	KUNIT_CASE_PARAM(forkbomb_score_shape, shape_gen_params),
	KUNIT_CASE_PARAM(forkbomb_score_boundary, boundary_gen_params),
	KUNIT_CASE(forkbomb_score_threshold),
	KUNIT_CASE(forkbomb_score_fork_fail_share),
	KUNIT_CASE(forkbomb_score_spawner_stopped),
	KUNIT_CASE(forkbomb_score_spawner_watch),
	KUNIT_CASE(forkbomb_score_exhaustion_per_scope),
	KUNIT_CASE(forkbomb_score_young_since),
	KUNIT_CASE(forkbomb_score_youth_bounds),
	KUNIT_CASE(forkbomb_score_history_bounds),
	KUNIT_CASE(forkbomb_score_exhaustion_pause),
	KUNIT_CASE(forkbomb_score_spawner_watch_bounds),
	KUNIT_CASE(forkbomb_score_scan_duty),
	{}
};

static struct kunit_suite forkbomb_score_suite = {
	.name = "forkbomb_score",
	.test_cases = forkbomb_score_cases,
};

/* ===================== forkbomb_scale ===================== */

/*
 * How long a scan takes at a million records: a bomb of a million
 * processes, scored and chosen as the kernel does it. Very slow (seconds
 * under emulation): make check leaves it out, make bench runs it.
 */
static void forkbomb_scale_million(struct kunit *test)
{
	const unsigned int n = 1000000;
	struct fbk_node *nodes, **order;
	unsigned int count = 1, have, i;
	struct fbk_policy policy = {
		.trigger = FBK_TRIGGER_OOM, .now = NOW, .exhausted_at = NOW,
		.young_since = NOW - FBK_YOUNG_JIFFIES, .min_descendants = 10,
	};
	struct fbk_choice choice;
	struct fbk_tree tree;
	u64 t0, t1, t2, t3;
	unsigned long t;
	bool kill;

	nodes = vcalloc(n, sizeof(*nodes));
	order = vcalloc(n, sizeof(*order));
	KUNIT_ASSERT_NOT_NULL(test, nodes);
	KUNIT_ASSERT_NOT_NULL(test, order);
	fbk_tree_init(&tree);
	fbk_link(&tree, &nodes[0], NULL, NOW - SECS(3));
	order[0] = &nodes[0];
	/* Every 100 ms each process forks one: 20 doublings. */
	for (t = NOW - SECS(3) + MS(100); count < n; t += MS(100))
		for (have = count, i = 0; i < have && count < n; i++, count++) {
			fbk_link(&tree, &nodes[count], order[i], t);
			order[count] = &nodes[count];
		}

	t0 = ktime_get_ns();
	fbk_scan_reset(&tree, NULL);
	for (i = 0; i < n; i++)
		fbk_account(&nodes[i], FBK_COUNT, 16, NULL);
	t1 = ktime_get_ns();
	fbk_aggregate(&tree, &policy);
	t2 = ktime_get_ns();
	kill = fbk_choose(&tree, &policy, &choice);
	t3 = ktime_get_ns();

	KUNIT_EXPECT_TRUE(test, kill);
	KUNIT_EXPECT_EQ(test, choice.shape, FBK_SHAPE_TREE);
	kunit_info(test, "%u records of %zu bytes (%lu MiB): reset and account %llu ms, aggregate %llu ms, choose %llu ms, in all %llu ms\n",
		   n, sizeof(*nodes), (unsigned long)(n * sizeof(*nodes)) >> 20,
		   div_u64(t1 - t0, NSEC_PER_MSEC), div_u64(t2 - t1, NSEC_PER_MSEC),
		   div_u64(t3 - t2, NSEC_PER_MSEC), div_u64(t3 - t0, NSEC_PER_MSEC));
	vfree(order);
	vfree(nodes);
}

static struct kunit_case forkbomb_scale_cases[] = {
	KUNIT_CASE_ATTR(forkbomb_scale_million,
			{ .speed = KUNIT_SPEED_VERY_SLOW }),
	{}
};

static struct kunit_suite forkbomb_scale_suite = {
	.name = "forkbomb_scale",
	.test_cases = forkbomb_scale_cases,
};

/* ===================== forkbomb_parse ===================== */

struct triggers_case {
	const char *text;
	int err;
	unsigned int mask;
};

static const struct triggers_case triggers_cases[] = {
	{ "oom fork_fail\n", 0, FBK_TRIGGERS_ALL },
	{ "fork_fail oom", 0, FBK_TRIGGERS_ALL },
	{ "fork_fail", 0, FBK_TRIGGER_FORK_FAIL },
	{ "  oom\t", 0, FBK_TRIGGER_OOM },
	{ "none\n", 0, 0 },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "oomx", -EINVAL },
	{ "oom oom", -EINVAL },
	{ "none oom", -EINVAL },
	{ "oom,fork_fail", -EINVAL },
	{ "OOM", -EINVAL },
};

/* The text, quoted, with its blanks made visible. */
static void describe_text(const char *text, char *desc)
{
	unsigned int len = 0;

	desc[len++] = '"';
	for (; *text && len < KUNIT_PARAM_DESC_SIZE - 4; text++) {
		if (*text == '\n' || *text == '\t') {
			desc[len++] = '\\';
			desc[len++] = *text == '\n' ? 'n' : 't';
		} else {
			desc[len++] = *text;
		}
	}
	desc[len++] = '"';
	desc[len] = '\0';
}

static void triggers_case_desc(const struct triggers_case *c, char *desc)
{
	describe_text(c->text, desc);
}

KUNIT_ARRAY_PARAM(triggers, triggers_cases, triggers_case_desc);

static void forkbomb_parse_triggers(struct kunit *test)
{
	const struct triggers_case *c = test->param_value;
	unsigned int mask = 0xdead;
	char buf[32];

	KUNIT_EXPECT_EQ(test, fbk_parse_triggers(c->text, &mask), c->err);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, mask, 0xdeadU);
		return;
	}
	KUNIT_EXPECT_EQ(test, mask, c->mask);
	/* What is printed parses back to the same set. */
	fbk_format_triggers(mask, buf, sizeof(buf));
	mask = 0xdead;
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers(buf, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, c->mask);
}

static void forkbomb_parse_triggers_format(struct kunit *test)
{
	char buf[32];

	fbk_format_triggers(FBK_TRIGGERS_ALL, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "oom fork_fail\n");
	fbk_format_triggers(0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "none\n");
}

struct uint_case {
	const char *text;
	unsigned int min, max;
	int err;
	unsigned int val;
};

static const struct uint_case uint_cases[] = {
	{ "100\n", 100, 1000, 0, 100 },
	{ "1000", 100, 1000, 0, 1000 },
	{ "99", 100, 1000, -EINVAL },
	{ "1001", 100, 1000, -EINVAL },
	{ "", 0, 1000, -EINVAL },
	{ "-1", 0, 1000, -EINVAL },
	{ "12abc", 0, 1000, -EINVAL },
	{ " 5", 0, 1000, -EINVAL },
	{ "99999999999999999999", 0, UINT_MAX, -EINVAL },
};

static void uint_case_desc(const struct uint_case *c, char *desc)
{
	char text[KUNIT_PARAM_DESC_SIZE];

	describe_text(c->text, text);
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s in %u..%u", text, c->min,
		 c->max);
}

KUNIT_ARRAY_PARAM(uint, uint_cases, uint_case_desc);

static void forkbomb_parse_uint(struct kunit *test)
{
	const struct uint_case *c = test->param_value;
	unsigned int v = 42;

	KUNIT_EXPECT_EQ(test, fbk_parse_uint(c->text, c->min, c->max, &v), c->err);
	KUNIT_EXPECT_EQ(test, v, c->err ? 42U : c->val);
}

struct class_case {
	const char *name;
	struct fbk_task_info info;
	enum fbk_class class;
};

static const struct class_case class_cases[] = {
	{ "ordinary", { .in_scope = true }, FBK_COUNT },
	{ "dying", { .in_scope = true, .dying = true }, FBK_IGNORE },
	{ "out_of_scope", { .in_scope = false }, FBK_IGNORE },
	{ "vfork_child", { .in_scope = true, .vfork = true }, FBK_IGNORE },
	{ "adj_min", { .in_scope = true, .adj_min = true }, FBK_PROTECT },
	{ "adj_min_out_of_scope", { .adj_min = true }, FBK_PROTECT },
	{ "init", { .in_scope = true, .init = true }, FBK_PROTECT },
	{ "kthread", { .kthread = true }, FBK_PROTECT },
};

static void class_case_desc(const struct class_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(class, class_cases, class_case_desc);

static void forkbomb_parse_classify(struct kunit *test)
{
	const struct class_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, fbk_classify(&c->info), c->class);
}

static struct kunit_case forkbomb_parse_cases[] = {
	KUNIT_CASE_PARAM(forkbomb_parse_triggers, triggers_gen_params),
	KUNIT_CASE(forkbomb_parse_triggers_format),
	KUNIT_CASE_PARAM(forkbomb_parse_uint, uint_gen_params),
	KUNIT_CASE_PARAM(forkbomb_parse_classify, class_gen_params),
	{}
};

static struct kunit_suite forkbomb_parse_suite = {
	.name = "forkbomb_parse",
	.test_cases = forkbomb_parse_cases,
};

kunit_test_suites(&forkbomb_tree_suite, &forkbomb_score_suite,
		  &forkbomb_scale_suite, &forkbomb_parse_suite);

MODULE_DESCRIPTION("KUnit tests for the fork bomb killer");
MODULE_LICENSE("GPL");
