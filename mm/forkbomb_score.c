// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bomb killer: scoring the history tree and choosing the bomb.
 *
 * A scan runs in three linear passes over the forest: fbk_scan_reset()
 * clears the scratch fields, the caller reports every live process with
 * fbk_account(), and fbk_aggregate() sums each subtree into its root.
 * fbk_choose() then finds the bomb, if there is one:
 *
 * 1. The heavy path. Start at the heaviest root and step to the heaviest
 *    child until there is none. The weight is the memory of the eligible
 *    processes in the subtree for an OOM, their number when fork failed.
 *    Whatever holds most of the weight lies on this path.
 *
 * 2. The bomb root. Subtree sums make every ancestor at least as heavy as
 *    the bomb, so weight alone cannot say where the bomb starts. Time can:
 *    a bomb is young and grew fast. A record on the path is a candidate
 *    when it is not protected (init, OOM_SCORE_ADJ_MIN), was born after
 *    the reaper last saw the system calm, and has at least
 *    min_descendants live descendants. Its spawn rate is its live
 *    processes divided by its age. The root is the highest candidate
 *    whose rate is at least half the best rate on the path: the login
 *    shell, sshd and the service manager above a bomb are older than the
 *    last calm moment, and even when they are not, their rate is far below
 *    the bomb's because they lived long before it; inside the bomb the
 *    rate falls off with depth (a chain bomb keeps it flat), so the top
 *    of the bomb is taken and not a subtree of it.
 *
 * 3. The verdict. For an OOM the subtree must weigh at least twice the
 *    largest single process in scope, otherwise the ordinary OOM killer's
 *    single victim frees as much and is preferred (a memory hog next to a
 *    pre-forking server, a build with a few big compilers). When fork
 *    failed, the subtree must hold at least half the processes in scope.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "forkbomb_internal.h"

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
 * processes, FBK_IGNORE for processes out of scope or already dying,
 * FBK_COUNT otherwise.
 */
enum fbk_class fbk_classify(const struct fbk_task_info *info)
{
	if (info->kthread || info->init || info->adj_min)
		return FBK_PROTECT;
	if (!info->in_scope || info->dying)
		return FBK_IGNORE;
	return FBK_COUNT;
}

/**
 * fbk_scan_reset - clear the scratch fields of every record
 * @tree: the forest
 */
void fbk_scan_reset(struct fbk_tree *tree)
{
	struct fbk_node *node;

	for (node = fbk_first_root(tree); node; node = fbk_pre_next(node, NULL)) {
		node->tasks = 0;
		node->mass = 0;
		node->flags = 0;
	}
}

/**
 * fbk_account - report one live process of a record to the scan
 * @node: the record of its address space
 * @class: what fbk_classify() said about it
 * @mass: the pages it holds
 */
void fbk_account(struct fbk_node *node, enum fbk_class class, unsigned long mass)
{
	switch (class) {
	case FBK_COUNT:
		node->tasks++;
		node->mass += mass;
		break;
	case FBK_PROTECT:
		node->flags |= FBK_PROTECTED;
		break;
	case FBK_IGNORE:
		break;
	}
}

/**
 * fbk_aggregate - sum the scratch counts of every subtree into its root
 * @tree: the forest
 *
 * Records linked during the walk start from zero and may or may not be
 * visited; either way the sums stay consistent.
 */
void fbk_aggregate(struct fbk_tree *tree)
{
	struct fbk_node *node = fbk_first_root(tree);

	if (node)
		node = fbk_post_first(node);
	for (; node; node = fbk_post_next(node, NULL)) {
		if (!node->parent)
			continue;
		node->parent->tasks += node->tasks;
		node->parent->mass += node->mass;
	}
}

static unsigned long fbk_weight(const struct fbk_node *node,
				const struct fbk_policy *policy)
{
	return policy->trigger == FBK_TRIGGER_OOM ? node->mass : node->tasks;
}

/* The heaviest of @first and its following siblings, NULL if all weigh 0. */
static struct fbk_node *fbk_heaviest(struct fbk_node *first,
				     const struct fbk_policy *policy)
{
	struct fbk_node *node, *best = NULL;
	unsigned long weight, best_weight = 0;

	for (node = first; node; node = fbk_next_sibling(node)) {
		weight = fbk_weight(node, policy);
		if (weight > best_weight) {
			best = node;
			best_weight = weight;
		}
	}
	return best;
}

static unsigned int fbk_descendants(const struct fbk_node *node)
{
	struct fbk_node *child;
	unsigned int sum = 0;

	for (child = fbk_first_child(node); child; child = fbk_next_sibling(child))
		sum += child->tasks;
	return sum;
}

static bool fbk_candidate(const struct fbk_node *node,
			  const struct fbk_policy *policy)
{
	return !(node->flags & FBK_PROTECTED) &&
	       !time_before(node->birth, policy->calm) &&
	       fbk_descendants(node) >= policy->min_descendants;
}

/* In jiffies, at least 1: a record may be born after the scan took @now. */
static u64 fbk_age(const struct fbk_node *node, const struct fbk_policy *policy)
{
	if (time_after(node->birth, policy->now))
		return 1;
	return (u64)(policy->now - node->birth) + 1;
}

/* Is @a's spawn rate at least @b's divided by @div? rate = tasks / age. */
static bool fbk_rate_at_least(const struct fbk_node *a, const struct fbk_node *b,
			      unsigned int div, const struct fbk_policy *policy)
{
	return (u64)a->tasks * fbk_age(b, policy) * div >=
	       (u64)b->tasks * fbk_age(a, policy);
}

/**
 * fbk_choose - find the fork bomb in a scored forest
 * @tree: the forest, after fbk_aggregate()
 * @policy: the trigger, the time and the thresholds
 * @choice: the verdict
 *
 * See the comment at the top of this file for the rule. Linear in the
 * number of records, no recursion, no allocation.
 *
 * Return: true when @choice->root is a fork bomb to kill.
 */
bool fbk_choose(const struct fbk_tree *tree, const struct fbk_policy *policy,
		struct fbk_choice *choice)
{
	struct fbk_node *top, *node, *fastest = NULL;

	memset(choice, 0, sizeof(*choice));
	top = fbk_heaviest(fbk_first_root(tree), policy);

	/* The fastest spawner among the candidates on the heavy path. */
	for (node = top; node; node = fbk_heaviest(fbk_first_child(node), policy))
		if (fbk_candidate(node, policy) &&
		    (!fastest || !fbk_rate_at_least(fastest, node, 1, policy)))
			fastest = node;
	if (!fastest)
		return false;

	/* The highest candidate that spawns at least half as fast. */
	for (node = top; node != fastest;
	     node = fbk_heaviest(fbk_first_child(node), policy))
		if (fbk_candidate(node, policy) &&
		    fbk_rate_at_least(node, fastest, 2, policy))
			break;

	choice->root = node;
	choice->descendants = fbk_descendants(node);
	choice->tasks = node->tasks;
	choice->mass = node->mass;

	if (policy->trigger == FBK_TRIGGER_OOM)
		return (u64)node->mass >= 2 * (u64)policy->max_mass;
	return 2 * (u64)node->tasks >= policy->total_tasks;
}

/**
 * fbk_doom - mark a subtree as being killed
 * @root: its root
 *
 * Walks the subtree concurrently with fbk_link(): see there.
 */
void fbk_doom(struct fbk_node *root)
{
	struct fbk_node *node = root;

	do {
		WRITE_ONCE(node->doomed, 1);
		/* Pairs with smp_mb() in fbk_link(); orders the read of children. */
		smp_mb();
		node = fbk_pre_next(node, root);
	} while (node);
}
