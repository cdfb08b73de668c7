/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fork bomb killer: the hooks the core kernel calls.
 *
 * See Documentation/mm/forkbomb.rst. With CONFIG_FORKBOMB_KILLER=n every
 * hook is an empty inline; with tracking disabled at run time each one is
 * a patched-out static branch, except forkbomb_mm_init(), a single store.
 */
#ifndef _LINUX_FORKBOMB_H
#define _LINUX_FORKBOMB_H

#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/mm_types.h>

struct oom_control;
struct task_struct;

#ifdef CONFIG_FORKBOMB_KILLER

DECLARE_STATIC_KEY_FALSE(forkbomb_tracking_key);

void __forkbomb_mm_fork(struct mm_struct *oldmm, struct mm_struct *mm);
void __forkbomb_post_fork(struct task_struct *p);
void __forkbomb_mm_exec(struct mm_struct *oldmm, struct mm_struct *mm);
void __forkbomb_mm_release(struct mm_struct *mm);
void __forkbomb_fork_failed(void);
bool __forkbomb_oom_kill(struct oom_control *oc);

/**
 * forkbomb_mm_init - a new mm_struct has no history record yet
 * @mm: the mm being initialized; dup_mm() copied its parent's link
 */
static inline void forkbomb_mm_init(struct mm_struct *mm)
{
	mm->fbk_node = NULL;
	mm->fbk_forking = false;
	mm->fbk_inherited_pages = 0;
}

/**
 * forkbomb_mm_fork - fork copied an address space
 * @oldmm: the parent's
 * @mm: the child's copy, fully set up
 *
 * Allocates its record; forkbomb_post_fork() links it, or the mm's
 * release frees it when the fork fails.
 */
static inline void forkbomb_mm_fork(struct mm_struct *oldmm,
				    struct mm_struct *mm)
{
	if (static_branch_unlikely(&forkbomb_tracking_key))
		__forkbomb_mm_fork(oldmm, mm);
}

/**
 * forkbomb_post_fork - a child was forked and is visible
 * @p: the new task
 *
 * The record forkbomb_mm_fork() made for its address space joins the
 * history now that the fork can no longer fail; while a fork bomb is
 * being killed, a child of the bomb dies at birth.
 */
static inline void forkbomb_post_fork(struct task_struct *p)
{
	if (static_branch_unlikely(&forkbomb_tracking_key))
		__forkbomb_post_fork(p);
}

/**
 * forkbomb_mm_exec - exec is replacing the current address space
 * @oldmm: the current one, NULL for a kernel thread
 * @mm: the new one
 */
static inline void forkbomb_mm_exec(struct mm_struct *oldmm,
				    struct mm_struct *mm)
{
	if (static_branch_unlikely(&forkbomb_tracking_key))
		__forkbomb_mm_exec(oldmm, mm);
}

/**
 * forkbomb_mm_release - the last user of an address space left
 * @mm: the address space
 */
static inline void forkbomb_mm_release(struct mm_struct *mm)
{
	/* A record made for a fork that failed goes even with tracking off. */
	if (unlikely(mm->fbk_forking) ||
	    (static_branch_unlikely(&forkbomb_tracking_key) && mm->fbk_node))
		__forkbomb_mm_release(mm);
}

/**
 * forkbomb_fork_failed - copy_process() failed
 * @err: its error; -EAGAIN is a process or thread limit
 */
static inline void forkbomb_fork_failed(int err)
{
	if (static_branch_unlikely(&forkbomb_tracking_key) && err == -EAGAIN)
		__forkbomb_fork_failed();
}

/**
 * forkbomb_oom_kill - kill a fork bomb instead of a single OOM victim
 * @oc: the OOM being handled
 *
 * Return: true when a fork bomb was found and killed.
 */
static inline bool forkbomb_oom_kill(struct oom_control *oc)
{
	if (static_branch_unlikely(&forkbomb_tracking_key))
		return __forkbomb_oom_kill(oc);
	return false;
}

#else /* !CONFIG_FORKBOMB_KILLER */

static inline void forkbomb_mm_init(struct mm_struct *mm) { }
static inline void forkbomb_mm_fork(struct mm_struct *oldmm,
				    struct mm_struct *mm) { }
static inline void forkbomb_post_fork(struct task_struct *p) { }
static inline void forkbomb_mm_exec(struct mm_struct *oldmm,
				    struct mm_struct *mm) { }
static inline void forkbomb_mm_release(struct mm_struct *mm) { }
static inline void forkbomb_fork_failed(int err) { }
static inline bool forkbomb_oom_kill(struct oom_control *oc)
{
	return false;
}

#endif /* CONFIG_FORKBOMB_KILLER */

#endif /* _LINUX_FORKBOMB_H */
