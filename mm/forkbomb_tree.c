// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: the history tree.
 *
 * A forest of struct fbk_node, one per address space, linked parent to
 * child as processes fork and exec. All walks are iterative and use the
 * parent and sibling links only: no recursion and no allocation, whatever
 * the shape (a chain bomb makes the tree as deep as it has processes).
 *
 * Concurrency contract (the callers in forkbomb.c provide the locks):
 *  - fbk_link(), fbk_node_put(), fbk_prune() and fbk_detach_all() are
 *    serialized against each other by the caller;
 *  - the lockless walkers (fbk_first_child(), fbk_post_next(), ...) may
 *    run concurrently with fbk_link(), which publishes a fully initialized
 *    record at the head of a list, but never with fbk_prune() or
 *    fbk_detach_all(), which unlink records.
 */

#include <linux/compiler.h>
#include <linux/rculist.h>
#include "forkbomb_internal.h"

/**
 * fbk_tree_init - initialize an empty history forest
 * @tree: the forest
 */
void fbk_tree_init(struct fbk_tree *tree)
{
	INIT_HLIST_HEAD(&tree->roots);
	tree->nr_records = 0;
	tree->may_yield = false;
}

struct fbk_node *fbk_first_child(const struct fbk_node *node)
{
	return hlist_entry_safe(READ_ONCE(node->children.first),
				struct fbk_node, sibling);
}

struct fbk_node *fbk_next_sibling(const struct fbk_node *node)
{
	return hlist_entry_safe(READ_ONCE(node->sibling.next),
				struct fbk_node, sibling);
}

struct fbk_node *fbk_first_root(const struct fbk_tree *tree)
{
	return hlist_entry_safe(READ_ONCE(tree->roots.first),
				struct fbk_node, sibling);
}

/**
 * fbk_post_first - first record of a post-order walk
 * @node: top of the walk (a subtree root, or the first root of a forest)
 *
 * Return: the leftmost leaf below @node.
 */
struct fbk_node *fbk_post_first(struct fbk_node *node)
{
	struct fbk_node *child;

	while ((child = fbk_first_child(node)))
		node = child;
	return node;
}

/**
 * fbk_post_next - next record of a post-order walk
 * @node: the record just visited
 * @top: the subtree root the walk covers, or NULL for the whole forest
 *
 * Children come before their parent, so a record can be freed once the
 * walk has moved past it.
 *
 * Return: the next record, or NULL when @node was the last one.
 */
struct fbk_node *fbk_post_next(struct fbk_node *node, const struct fbk_node *top)
{
	struct fbk_node *next;

	if (node == top)
		return NULL;
	next = fbk_next_sibling(node);
	if (next)
		return fbk_post_first(next);
	return node->parent;
}

/**
 * fbk_pre_skip - next record of a pre-order walk, past @node's subtree
 * @node: the record just visited, whose descendants are not to be
 * @top: the subtree root the walk covers, or NULL for the whole forest
 *
 * Return: the next record that is not a descendant of @node, or NULL
 * when there is none under @top.
 */
struct fbk_node *fbk_pre_skip(struct fbk_node *node, const struct fbk_node *top)
{
	struct fbk_node *next;

	while (node && node != top) {
		next = fbk_next_sibling(node);
		if (next)
			return next;
		node = node->parent;
	}
	return NULL;
}

/**
 * fbk_pre_next - next record of a pre-order walk
 * @node: the record just visited
 * @top: the subtree root the walk covers, or NULL for the whole forest
 *
 * A record comes before its children, and its children are read only
 * after the caller is done with the record.
 *
 * Return: the next record, or NULL when @node was the last one.
 */
struct fbk_node *fbk_pre_next(struct fbk_node *node, const struct fbk_node *top)
{
	struct fbk_node *next = fbk_first_child(node);

	return next ? next : fbk_pre_skip(node, top);
}

/**
 * fbk_link - add a new record to the forest
 * @tree: the forest
 * @node: the new record, zeroed
 * @parent: its parent, or NULL to make it a root
 * @born_at: its birth time, in jiffies
 *
 * A record linked below a doomed parent is doomed too, with the same
 * mark: the ordering against fbk_doom() guarantees that a child linked
 * while its parent is being doomed is either found by fbk_doom() or sees
 * the parent doomed here, so a fork bomb cannot escape a kill by forking
 * during it.
 */
void fbk_link(struct fbk_tree *tree, struct fbk_node *node,
	      struct fbk_node *parent, unsigned long born_at)
{
	node->parent = parent;
	node->born_at = born_at;
	node->nr_mm = 1;
	INIT_HLIST_HEAD(&node->children);
	/* Publishes the initialized record to lockless walkers. */
	hlist_add_head_rcu(&node->sibling,
			   parent ? &parent->children : &tree->roots);
	tree->nr_records++;
	if (parent) {
		/* Pairs with smp_mb() in fbk_doom(). */
		smp_mb();
		WRITE_ONCE(node->doomed, READ_ONCE(parent->doomed));
	}
}

/**
 * fbk_node_put - an address space stops using a record
 * @tree: the forest
 * @node: the record
 * @now: the time, in jiffies
 * @exited: the process that let it go ended by exit(), not by a signal
 *
 * When the last one goes, the record dies; it stays in the forest until
 * the reaper finds it old.
 */
void fbk_node_put(struct fbk_tree *tree, struct fbk_node *node,
		  unsigned long now, bool exited)
{
	if (WARN_ON_ONCE(!node->nr_mm) || --node->nr_mm)
		return;
	node->died_at = (u32)now;
	if (exited)
		WRITE_ONCE(node->history, node->history | FBK_EXITED);
}

static void fbk_unlink(struct fbk_tree *tree, struct fbk_node *node,
		       struct hlist_head *freed)
{
	hlist_del(&node->sibling);
	tree->nr_records--;
	hlist_add_head(&node->sibling, freed);
}

/*
 * One step of a walk of the whole forest in post-order, that can stop
 * after any step and go on later: either down one level, toward the first
 * record to visit (NULL is returned), or to the record to visit now, its
 * descendants all visited. A chain bomb makes the forest 100,000 deep: no
 * step may walk down all of it.
 */
static struct fbk_node *fbk_walk_step(struct fbk_tree *tree,
				      struct fbk_walk *walk)
{
	struct fbk_node *child;

	if (!walk->started) {
		walk->started = true;
		walk->next = fbk_first_root(tree);
		walk->descend = true;
	}
	if (!walk->next || !walk->descend)
		return walk->next;
	child = fbk_first_child(walk->next);
	if (!child) {
		walk->descend = false;
		return walk->next;
	}
	walk->next = child;
	return NULL;
}

/* The walk visited @node: on to its next sibling's subtree, or its parent. */
static void fbk_walk_past(struct fbk_walk *walk, struct fbk_node *node)
{
	struct fbk_node *next = fbk_next_sibling(node);

	walk->descend = next;
	walk->next = next ? next : node->parent;
}

/**
 * fbk_prune - forget history older than a time, a few records at a time
 * @tree: the forest
 * @walk: where to go on; zeroed to begin, done when fbk_walk_done()
 * @cutoff: records that died before this time, in jiffies, are old
 * @reroot: also forget old records that still have children, making those
 *          children roots; otherwise only old leaves go (and parents that
 *          become old leaves on the way)
 * @budget: how many steps to take before returning: a step goes down one
 *          record, visits one, or makes one child of a forgotten record a
 *          root
 * @freed: the removed records are added here, for the caller to free
 *
 * Live records and records that died recently always stay. Between two
 * calls, records may be linked (they are not visited) but none removed
 * but by this walk.
 *
 * Return: the number of records removed.
 */
unsigned long fbk_prune(struct fbk_tree *tree, struct fbk_walk *walk,
			unsigned long cutoff, bool reroot, unsigned int budget,
			struct hlist_head *freed)
{
	struct fbk_node *node, *child;
	unsigned long removed = 0;

	for (; budget && !fbk_walk_done(walk); budget--) {
		node = fbk_walk_step(tree, walk);
		if (!node)
			continue;
		if (!fbk_dead(node) || !fbk_died_before(node, cutoff) ||
		    (!reroot && !hlist_empty(&node->children))) {
			fbk_walk_past(walk, node);
			continue;
		}
		/* Children are already visited and stay: they become roots. */
		child = fbk_first_child(node);
		if (child) {
			hlist_del(&child->sibling);
			child->parent = NULL;
			hlist_add_head(&child->sibling, &tree->roots);
			continue;	/* the next step looks at @node again */
		}
		fbk_walk_past(walk, node);
		fbk_unlink(tree, node, freed);
		removed++;
	}
	return removed;
}

/**
 * fbk_detach - empty the forest, a few records at a time
 * @tree: the forest, which nobody else changes meanwhile
 * @walk: where to go on; zeroed to begin, done when fbk_walk_done()
 * @budget: how many steps to take before returning (see fbk_prune())
 * @freed: the records taken are added here, for the caller to free
 *
 * Return: the number of records removed.
 */
unsigned long fbk_detach(struct fbk_tree *tree, struct fbk_walk *walk,
			 unsigned int budget, struct hlist_head *freed)
{
	unsigned long removed = 0;
	struct fbk_node *node;

	for (; budget && !fbk_walk_done(walk); budget--) {
		node = fbk_walk_step(tree, walk);
		if (!node)
			continue;
		fbk_walk_past(walk, node);
		fbk_unlink(tree, node, freed);
		removed++;
	}
	return removed;
}
