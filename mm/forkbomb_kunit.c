// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the fork bomb killer: history tree, pruning, scoring and
 * the choice of the bomb root, on synthetic trees built and scored through
 * the functions the kernel uses.
 */

#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "forkbomb_internal.h"

/* Synthetic time: jiffies of second @s, starting well past 0. */
#define SEC(s)		((unsigned long)(100000 + (s)) * HZ)
#define MSEC(ms)	(SEC(0) + msecs_to_jiffies(ms))

static struct fbk_node *add(struct kunit *test, struct fbk_tree *tree,
			    struct fbk_node *parent, unsigned long birth)
{
	struct fbk_node *node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, node);
	fbk_link(tree, node, parent, birth);
	return node;
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

/*
 * A fork bomb: @n processes below @root, each parent forking 2 children a
 * few milliseconds after its birth (an exponential bomb), all alive with
 * @mass pages each. The internal processes exit when @parents_exit, as in
 * the shell bomb f(){ f|f & }; f.
 */
static void grow_bomb(struct kunit *test, struct fbk_tree *tree,
		      struct fbk_node *root, unsigned int n, unsigned long mass,
		      bool parents_exit)
{
	struct fbk_node **nodes;
	unsigned int i;

	nodes = kunit_kcalloc(test, n + 1, sizeof(*nodes), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nodes);
	nodes[0] = root;
	for (i = 1; i <= n; i++)
		nodes[i] = add(test, tree, nodes[(i - 1) / 2],
			       nodes[(i - 1) / 2]->birth + msecs_to_jiffies(3));
	for (i = 1; i <= n; i++) {
		if (parents_exit && 2 * i + 1 <= n)
			fbk_node_put(tree, nodes[i]);
		else
			fbk_account(nodes[i], FBK_COUNT, mass);
	}
}

static struct fbk_policy oom_policy(unsigned long now, unsigned long calm)
{
	return (struct fbk_policy) {
		.trigger = FBK_TRIGGER_OOM,
		.now = now,
		.calm = calm,
		.min_descendants = 10,
	};
}

/* --- the history tree --- */

static void fbk_test_link(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *a, *b, *c, *d;

	fbk_tree_init(&tree);
	a = add(test, &tree, NULL, SEC(1));
	b = add(test, &tree, a, SEC(2));
	c = add(test, &tree, a, SEC(3));
	d = add(test, &tree, b, SEC(4));

	KUNIT_EXPECT_EQ(test, tree.nr_records, 4UL);
	KUNIT_EXPECT_TRUE(test, is_root(&tree, a));
	KUNIT_EXPECT_FALSE(test, is_root(&tree, b));
	KUNIT_EXPECT_PTR_EQ(test, b->parent, a);
	KUNIT_EXPECT_PTR_EQ(test, d->parent, b);
	KUNIT_EXPECT_EQ(test, count_children(a), 2U);
	KUNIT_EXPECT_EQ(test, count_children(b), 1U);
	KUNIT_EXPECT_EQ(test, count_children(c), 0U);
	KUNIT_EXPECT_EQ(test, a->nr_mm, 1U);
	KUNIT_EXPECT_EQ(test, d->birth, SEC(4));

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

static void fbk_test_death_keeps_family(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *f1, *f2, *f3;

	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	f1 = add(test, &tree, shell, SEC(10));
	f2 = add(test, &tree, f1, SEC(10));
	f3 = add(test, &tree, f1, SEC(10));

	/* Two address spaces share f1 (a folded child), then both go. */
	f1->nr_mm++;
	fbk_node_put(&tree, f1);
	KUNIT_EXPECT_FALSE(test, fbk_dead(f1));
	tree.epoch = 7;
	fbk_node_put(&tree, f1);
	KUNIT_EXPECT_TRUE(test, fbk_dead(f1));
	KUNIT_EXPECT_EQ(test, f1->death, 7U);

	/* The dead parent keeps its live children in its subtree. */
	fbk_scan_reset(&tree);
	fbk_account(f2, FBK_COUNT, 5);
	fbk_account(f3, FBK_COUNT, 7);
	fbk_aggregate(&tree);
	KUNIT_EXPECT_EQ(test, f1->tasks, 2U);
	KUNIT_EXPECT_EQ(test, f1->mass, 12UL);
	KUNIT_EXPECT_EQ(test, shell->tasks, 2U);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 4UL);
}

static void fbk_test_prune_calm(struct kunit *test)
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

	fbk_node_put(&tree, old_dead);		/* die in epoch 0 */
	fbk_node_put(&tree, old_leaf);
	tree.epoch = 1;				/* a reaper run */
	fbk_node_put(&tree, young_dead);	/* die in epoch 1 */

	/* The reaper at epoch 1 forgets what died before it: epoch 0. */
	KUNIT_EXPECT_EQ(test, fbk_prune(&tree, tree.epoch, true, &freed), 2UL);
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
	tree.epoch = 2;
	INIT_HLIST_HEAD(&freed);
	KUNIT_EXPECT_EQ(test, fbk_prune(&tree, tree.epoch, true, &freed), 1UL);
	KUNIT_EXPECT_TRUE(test, in_list(&freed, young_dead));
	KUNIT_EXPECT_TRUE(test, is_root(&tree, live));
	KUNIT_EXPECT_EQ(test, tree.nr_records, 3UL);
}

static void fbk_test_prune_stress(struct kunit *test)
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
	fbk_node_put(&tree, f1);
	fbk_node_put(&tree, f2);
	fbk_node_put(&tree, leaf1);
	fbk_node_put(&tree, leaf2);
	tree.epoch = 5;

	KUNIT_EXPECT_EQ(test, fbk_prune(&tree, tree.epoch, false, &freed), 2UL);
	KUNIT_EXPECT_TRUE(test, in_list(&freed, leaf1));
	KUNIT_EXPECT_TRUE(test, in_list(&freed, leaf2));
	/* The dead ancestry of a live process is kept: it is the bomb's. */
	KUNIT_EXPECT_PTR_EQ(test, live->parent, f2);
	KUNIT_EXPECT_PTR_EQ(test, f2->parent, f1);
	KUNIT_EXPECT_PTR_EQ(test, f1->parent, shell);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 4UL);

	/* Once the live process is gone, the whole dead chain goes. */
	fbk_node_put(&tree, live);
	tree.epoch = 6;
	INIT_HLIST_HEAD(&freed);
	KUNIT_EXPECT_EQ(test, fbk_prune(&tree, tree.epoch, false, &freed), 3UL);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 1UL);
	KUNIT_EXPECT_EQ(test, count_children(shell), 0U);
}

static void fbk_test_detach_all(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *a;
	HLIST_HEAD(freed);

	fbk_tree_init(&tree);
	a = add(test, &tree, NULL, SEC(0));
	add(test, &tree, add(test, &tree, a, SEC(1)), SEC(2));
	add(test, &tree, NULL, SEC(3));
	KUNIT_EXPECT_EQ(test, fbk_detach_all(&tree, &freed), 4UL);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 0UL);
	KUNIT_EXPECT_NULL(test, fbk_first_root(&tree));
}

static void fbk_test_doom_inherited(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *bomb, *child, *late, *other;

	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	bomb = add(test, &tree, shell, SEC(1));
	child = add(test, &tree, bomb, SEC(1));
	other = add(test, &tree, shell, SEC(1));
	fbk_doom(bomb);
	KUNIT_EXPECT_TRUE(test, bomb->doomed);
	KUNIT_EXPECT_TRUE(test, child->doomed);
	KUNIT_EXPECT_FALSE(test, shell->doomed);
	KUNIT_EXPECT_FALSE(test, other->doomed);
	/* Forked while it is being killed: doomed at birth. */
	late = add(test, &tree, child, SEC(2));
	KUNIT_EXPECT_TRUE(test, late->doomed);
	KUNIT_EXPECT_FALSE(test, add(test, &tree, other, SEC(2))->doomed);
}

/* --- scoring and the choice of the bomb root --- */

static void fbk_test_bomb_under_shell(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *init, *manager, *sshd, *shell, *bystander, *bomb;
	struct fbk_policy policy;
	struct fbk_choice choice;
	int calm;

	for (calm = 0; calm < 2; calm++) {
		fbk_tree_init(&tree);
		init = add(test, &tree, NULL, SEC(0));
		manager = add(test, &tree, init, SEC(1));
		sshd = add(test, &tree, manager, SEC(10));
		shell = add(test, &tree, sshd, SEC(100));
		bystander = add(test, &tree, shell, SEC(500));
		bomb = add(test, &tree, shell, SEC(1000));

		fbk_scan_reset(&tree);
		fbk_account(init, FBK_PROTECT, 0);
		fbk_account(manager, FBK_COUNT, 1000);
		fbk_account(sshd, FBK_COUNT, 500);
		fbk_account(shell, FBK_COUNT, 300);
		fbk_account(bystander, FBK_COUNT, 400);
		fbk_account(bomb, FBK_COUNT, 16);
		grow_bomb(test, &tree, bomb, 200, 16, false);
		fbk_aggregate(&tree);

		/* With a calm moment before the bomb, and with none at all. */
		policy = oom_policy(SEC(1005), calm ? SEC(990) : 0);
		policy.max_mass = 1000;
		KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
		KUNIT_EXPECT_PTR_EQ(test, choice.root, bomb);
		KUNIT_EXPECT_EQ(test, choice.descendants, 200U);
		KUNIT_EXPECT_EQ(test, choice.tasks, 201U);
	}
}

static void fbk_test_shell_bomb_parents_exit(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *f1;
	struct fbk_policy policy;
	struct fbk_choice choice;

	/* f(){ f|f & }; f: every internal process has exited. */
	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	f1 = add(test, &tree, shell, SEC(60));
	fbk_scan_reset(&tree);
	fbk_account(shell, FBK_COUNT, 300);
	grow_bomb(test, &tree, f1, 255, 40, true);
	fbk_node_put(&tree, f1);
	fbk_aggregate(&tree);

	policy = oom_policy(SEC(64), SEC(50));
	policy.max_mass = 300;
	KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, f1);
	KUNIT_EXPECT_EQ(test, choice.descendants, 128U);
}

static void fbk_test_two_sibling_bombs(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *b1, *b2, *n;
	struct fbk_policy policy;
	struct fbk_choice choice;

	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	b1 = add(test, &tree, shell, SEC(100));
	b2 = add(test, &tree, shell, SEC(101));
	fbk_scan_reset(&tree);
	fbk_account(shell, FBK_COUNT, 300);
	grow_bomb(test, &tree, b1, 120, 16, false);
	grow_bomb(test, &tree, b2, 80, 16, false);
	fbk_aggregate(&tree);

	/* The heavier bomb first, never the shell that holds both. */
	policy = oom_policy(SEC(104), SEC(90));
	policy.max_mass = 300;
	KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, b1);

	/* Once it is dying, the other one. */
	fbk_doom(b1);
	fbk_scan_reset(&tree);
	fbk_account(shell, FBK_COUNT, 300);
	for (n = fbk_first_root(&tree); n; n = fbk_pre_next(n, NULL))
		if (n != shell && !n->doomed)
			fbk_account(n, FBK_COUNT, 16);
	fbk_aggregate(&tree);
	KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, b2);
}

static void fbk_test_threshold(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *bomb;
	struct fbk_policy policy;
	struct fbk_choice choice;
	unsigned int n;

	for (n = 9; n <= 10; n++) {
		fbk_tree_init(&tree);
		shell = add(test, &tree, NULL, SEC(0));
		bomb = add(test, &tree, shell, SEC(100));
		fbk_scan_reset(&tree);
		fbk_account(shell, FBK_COUNT, 10);
		fbk_account(bomb, FBK_COUNT, 10);
		grow_bomb(test, &tree, bomb, n, 10, false);
		fbk_aggregate(&tree);

		policy = oom_policy(SEC(101), SEC(50));
		policy.max_mass = 10;
		KUNIT_EXPECT_EQ(test, fbk_choose(&tree, &policy, &choice), n >= 10);
		if (n >= 10)
			KUNIT_EXPECT_PTR_EQ(test, choice.root, bomb);
	}
}

static void fbk_test_chain_bomb(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *tester, *bystander, *top, *node;
	struct fbk_policy policy;
	struct fbk_choice choice;
	unsigned int i;

	/* Each process forks one child and waits: 3000 deep. */
	fbk_tree_init(&tree);
	tester = add(test, &tree, NULL, SEC(0));
	fbk_scan_reset(&tree);
	bystander = add(test, &tree, tester, SEC(1));
	top = add(test, &tree, tester, SEC(2));
	fbk_account(tester, FBK_COUNT, 100);
	fbk_account(bystander, FBK_COUNT, 100);
	fbk_account(top, FBK_COUNT, 30);
	for (node = top, i = 0; i < 3000; i++) {
		node = add(test, &tree, node, node->birth + 1);
		fbk_account(node, FBK_COUNT, 30);
	}
	fbk_aggregate(&tree);

	policy = oom_policy(node->birth + HZ, SEC(1) + 1);
	policy.max_mass = 100;
	KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, top);
	KUNIT_EXPECT_EQ(test, choice.descendants, 3000U);
}

static void fbk_test_deep_chain(struct kunit *test)
{
	const unsigned int n = 100000;
	struct fbk_policy policy;
	struct fbk_choice choice;
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
		fbk_link(&tree, &nodes[i], &nodes[i - 1], SEC(100) + i);
	KUNIT_EXPECT_EQ(test, tree.nr_records, (unsigned long)n);

	fbk_scan_reset(&tree);
	for (i = 1; i < n; i++)
		fbk_account(&nodes[i], FBK_COUNT, 1);
	fbk_aggregate(&tree);
	KUNIT_EXPECT_EQ(test, nodes[0].tasks, n - 1);
	KUNIT_EXPECT_EQ(test, nodes[1].mass, (unsigned long)(n - 1));

	policy = oom_policy(SEC(100) + n + HZ, SEC(50));
	policy.max_mass = 1;
	KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, &nodes[1]);
	fbk_doom(&nodes[1]);
	KUNIT_EXPECT_TRUE(test, nodes[n - 1].doomed);
	KUNIT_EXPECT_FALSE(test, nodes[0].doomed);

	for (i = 0; i < n; i++)
		fbk_node_put(&tree, &nodes[i]);
	tree.epoch++;
	KUNIT_EXPECT_EQ(test, fbk_prune(&tree, tree.epoch, true, &freed),
			(unsigned long)n);
	KUNIT_EXPECT_EQ(test, tree.nr_records, 0UL);
	vfree(nodes);
}

static void fbk_test_innocents(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *init, *shell, *server, *hog, *make, *loop, *n;
	struct fbk_policy policy;
	struct fbk_choice choice;
	unsigned int i;

	fbk_tree_init(&tree);
	init = add(test, &tree, NULL, SEC(0));
	shell = add(test, &tree, init, SEC(10));
	/* A pre-forking server started just now: 30 young idle workers. */
	server = add(test, &tree, shell, SEC(99));
	/* A make -j8: 8 jobs running, 500 finished. */
	make = add(test, &tree, shell, SEC(96));
	/* A shell loop that ran 2000 short commands, one at a time. */
	loop = add(test, &tree, shell, SEC(97));
	/* And the memory hog that caused the OOM. */
	hog = add(test, &tree, shell, SEC(98));

	fbk_scan_reset(&tree);
	fbk_account(init, FBK_PROTECT, 0);
	fbk_account(shell, FBK_COUNT, 300);
	fbk_account(server, FBK_COUNT, 500);
	for (i = 0; i < 30; i++)
		fbk_account(add(test, &tree, server, SEC(99) + i), FBK_COUNT, 200);
	fbk_account(make, FBK_COUNT, 400);
	for (i = 0; i < 508; i++) {
		n = add(test, &tree, make, SEC(96) + i);
		if (i < 500)
			fbk_node_put(&tree, n);
		else
			fbk_account(n, FBK_COUNT, 512);
	}
	fbk_account(loop, FBK_COUNT, 300);
	for (i = 0; i < 2000; i++) {
		n = add(test, &tree, loop, SEC(97) + i);
		if (i < 1999)
			fbk_node_put(&tree, n);
		else
			fbk_account(n, FBK_COUNT, 100);
	}
	fbk_account(hog, FBK_COUNT, 50000);
	fbk_aggregate(&tree);

	/* The OOM is the hog's: no fork bomb, the OOM killer takes the hog. */
	policy = oom_policy(SEC(100), SEC(95));
	policy.max_mass = 50000;
	KUNIT_EXPECT_FALSE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, NULL);

	/* Fork failed: the build and the loop are below the threshold. */
	policy.trigger = FBK_TRIGGER_FORK_FAIL;
	policy.total_tasks = shell->tasks - server->tasks;
	server->tasks = 0;
	shell->tasks = policy.total_tasks;
	KUNIT_EXPECT_FALSE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, NULL);
}

static void fbk_test_server_lighter_than_hog(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *server, *hog;
	struct fbk_policy policy;
	struct fbk_choice choice;
	unsigned int i;

	/* The young server weighs more than the hog, but not twice as much. */
	fbk_tree_init(&tree);
	hog = add(test, &tree, NULL, SEC(50));
	shell = add(test, &tree, NULL, SEC(10));
	server = add(test, &tree, shell, SEC(99));
	fbk_scan_reset(&tree);
	fbk_account(hog, FBK_COUNT, 6000);
	fbk_account(shell, FBK_COUNT, 300);
	fbk_account(server, FBK_COUNT, 500);
	for (i = 0; i < 30; i++)
		fbk_account(add(test, &tree, server, SEC(99) + i), FBK_COUNT, 200);
	fbk_aggregate(&tree);

	policy = oom_policy(SEC(100), SEC(95));
	policy.max_mass = 6000;
	KUNIT_EXPECT_FALSE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, server);
	KUNIT_EXPECT_EQ(test, choice.descendants, 30U);
}

static void fbk_test_old_history_is_innocent(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *server;
	struct fbk_policy policy;
	struct fbk_choice choice;
	unsigned int i;

	/* 300 workers forked fast, but before the system was last calm. */
	fbk_tree_init(&tree);
	server = add(test, &tree, NULL, SEC(0));
	fbk_scan_reset(&tree);
	for (i = 0; i < 300; i++)
		fbk_account(add(test, &tree, server, SEC(0) + i), FBK_COUNT, 100);
	fbk_aggregate(&tree);

	policy = (struct fbk_policy) {
		.trigger = FBK_TRIGGER_FORK_FAIL, .now = SEC(200), .calm = SEC(100),
		.min_descendants = 10, .total_tasks = 300,
	};
	KUNIT_EXPECT_FALSE(test, fbk_choose(&tree, &policy, &choice));
	/* Without that calm moment it would look like a bomb. */
	policy.calm = 0;
	KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, server);
}

static void fbk_test_fork_fail_share(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *shell, *bomb;
	struct fbk_policy policy;
	struct fbk_choice choice;

	fbk_tree_init(&tree);
	shell = add(test, &tree, NULL, SEC(0));
	bomb = add(test, &tree, shell, SEC(100));
	fbk_scan_reset(&tree);
	fbk_account(shell, FBK_COUNT, 0);
	fbk_account(bomb, FBK_COUNT, 0);
	grow_bomb(test, &tree, bomb, 99, 0, false);
	fbk_aggregate(&tree);

	/* 100 processes of 200 in scope: half, a bomb. */
	policy = (struct fbk_policy) {
		.trigger = FBK_TRIGGER_FORK_FAIL, .now = SEC(101), .calm = SEC(50),
		.min_descendants = 10, .total_tasks = 200,
	};
	KUNIT_EXPECT_TRUE(test, fbk_choose(&tree, &policy, &choice));
	KUNIT_EXPECT_PTR_EQ(test, choice.root, bomb);
	/* 100 of 201: not enough of the limit to blame them. */
	policy.total_tasks = 201;
	KUNIT_EXPECT_FALSE(test, fbk_choose(&tree, &policy, &choice));
}

/* --- the pure helpers of the glue --- */

static void fbk_test_classify(struct kunit *test)
{
	struct fbk_task_info info = { .in_scope = true };

	KUNIT_EXPECT_EQ(test, fbk_classify(&info), FBK_COUNT);
	info.dying = true;
	KUNIT_EXPECT_EQ(test, fbk_classify(&info), FBK_IGNORE);
	info.dying = false;
	/* memcg OOM: a process outside the memcg is neither counted nor killed. */
	info.in_scope = false;
	KUNIT_EXPECT_EQ(test, fbk_classify(&info), FBK_IGNORE);
	info.in_scope = true;
	info.adj_min = true;
	KUNIT_EXPECT_EQ(test, fbk_classify(&info), FBK_PROTECT);
	info.adj_min = false;
	info.init = true;
	KUNIT_EXPECT_EQ(test, fbk_classify(&info), FBK_PROTECT);
	info.init = false;
	info.kthread = true;
	info.in_scope = false;
	KUNIT_EXPECT_EQ(test, fbk_classify(&info), FBK_PROTECT);
}

static void fbk_test_protected_never_root(struct kunit *test)
{
	struct fbk_tree tree;
	struct fbk_node *service, *worker;
	struct fbk_policy policy;
	struct fbk_choice choice;
	unsigned int i;

	/* A young service whose many children are OOM_SCORE_ADJ_MIN. */
	fbk_tree_init(&tree);
	service = add(test, &tree, NULL, SEC(100));
	fbk_scan_reset(&tree);
	fbk_account(service, FBK_COUNT, 100);
	for (i = 0; i < 50; i++) {
		worker = add(test, &tree, service, SEC(100) + i);
		fbk_account(worker, FBK_PROTECT, 0);
	}
	fbk_aggregate(&tree);
	policy = oom_policy(SEC(101), SEC(50));
	policy.max_mass = 100;
	KUNIT_EXPECT_FALSE(test, fbk_choose(&tree, &policy, &choice));
}

static void fbk_test_triggers(struct kunit *test)
{
	unsigned int mask = 0xdead;
	char buf[32];

	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("oom fork_fail\n", &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, (unsigned int)FBK_TRIGGERS_ALL);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("fork_fail", &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, (unsigned int)FBK_TRIGGER_FORK_FAIL);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("  oom\t", &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, (unsigned int)FBK_TRIGGER_OOM);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("none\n", &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, 0U);

	mask = 0xdead;
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("", &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("\n", &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("oomx", &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("oom oom", &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("none oom", &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_triggers("oom,fork_fail", &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, mask, 0xdeadU);

	fbk_format_triggers(FBK_TRIGGERS_ALL, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "oom fork_fail\n");
	fbk_format_triggers(0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "none\n");
}

static void fbk_test_parse_uint(struct kunit *test)
{
	unsigned int v = 42;

	KUNIT_EXPECT_EQ(test, fbk_parse_uint("100\n", 100, 1000, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 100U);
	v = 42;
	KUNIT_EXPECT_EQ(test, fbk_parse_uint("99", 100, 1000, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_uint("1001", 100, 1000, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_uint("", 0, 1000, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_uint("-1", 0, 1000, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_uint("12abc", 0, 1000, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, fbk_parse_uint("99999999999999999999", 0, UINT_MAX, &v),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, v, 42U);
}

static struct kunit_case fbk_test_cases[] = {
	KUNIT_CASE(fbk_test_link),
	KUNIT_CASE(fbk_test_death_keeps_family),
	KUNIT_CASE(fbk_test_prune_calm),
	KUNIT_CASE(fbk_test_prune_stress),
	KUNIT_CASE(fbk_test_detach_all),
	KUNIT_CASE(fbk_test_doom_inherited),
	KUNIT_CASE(fbk_test_bomb_under_shell),
	KUNIT_CASE(fbk_test_shell_bomb_parents_exit),
	KUNIT_CASE(fbk_test_two_sibling_bombs),
	KUNIT_CASE(fbk_test_threshold),
	KUNIT_CASE(fbk_test_chain_bomb),
	KUNIT_CASE_SLOW(fbk_test_deep_chain),
	KUNIT_CASE(fbk_test_innocents),
	KUNIT_CASE(fbk_test_server_lighter_than_hog),
	KUNIT_CASE(fbk_test_old_history_is_innocent),
	KUNIT_CASE(fbk_test_fork_fail_share),
	KUNIT_CASE(fbk_test_classify),
	KUNIT_CASE(fbk_test_protected_never_root),
	KUNIT_CASE(fbk_test_triggers),
	KUNIT_CASE(fbk_test_parse_uint),
	{}
};

static struct kunit_suite fbk_test_suite = {
	.name = "forkbomb",
	.test_cases = fbk_test_cases,
};

kunit_test_suite(fbk_test_suite);

MODULE_DESCRIPTION("KUnit tests for the fork bomb killer");
MODULE_LICENSE("GPL");
