/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM forkbomb

#if !defined(_TRACE_FORKBOMB_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FORKBOMB_H

#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

struct fbk_choice;
struct fbk_policy;

/*
 * A scan of the fork bomb killer, and its verdict: "kill", "none", or
 * "wait" (victims of the last kill are exiting). What it measured of the
 * subtree it chose, if any (see Documentation/mm/forkbomb.rst): its young
 * and live processes, young records, branching depth and records, fork
 * generations, multiplying records and finished jobs, its weight against
 * the OOM victim's (when memory ran out) or the threads in scope (when
 * fork failed), how far back youth reached, in ms, and how many processes
 * the scan walked (those of the scope's cgroup, or all).
 */
TRACE_EVENT(forkbomb_scan,
	    TP_PROTO(const char *trigger, const char *verdict,
		     const char *shape, const struct fbk_choice *choice,
		     const struct fbk_policy *policy, u64 scan_ns),
	    TP_ARGS(trigger, verdict, shape, choice, policy, scan_ns),
	    TP_STRUCT__entry(__string(trigger, trigger)
			     __string(verdict, verdict)
			     __string(shape, shape)
			     __field(unsigned int, young)
			     __field(unsigned int, tasks)
			     __field(unsigned int, records)
			     __field(unsigned int, depth)
			     __field(unsigned int, branching)
			     __field(unsigned int, generations)
			     __field(unsigned int, multiplying)
			     __field(unsigned int, finished_jobs)
			     __field(unsigned long, mass)
			     __field(unsigned long, against)
			     __field(unsigned int, youth_ms)
			     __field(unsigned long, walked)
			     __field(u64, scan_ns)),
	    TP_fast_assign(__assign_str(trigger);
			   __assign_str(verdict);
			   __assign_str(shape);
			   __entry->young = choice->profile.young;
			   __entry->tasks = choice->profile.tasks;
			   __entry->records = choice->profile.records;
			   __entry->depth = choice->profile.depth;
			   __entry->branching = choice->profile.branching;
			   __entry->generations = choice->profile.generations;
			   __entry->multiplying = choice->profile.multipliers;
			   __entry->finished_jobs = choice->profile.dead_leaves;
			   __entry->mass = choice->profile.mass;
			   __entry->against = policy->trigger == FBK_TRIGGER_OOM ?
					      policy->victim_mass : policy->total_mass;
			   __entry->youth_ms = jiffies_to_msecs(policy->now -
								policy->young_since);
			   __entry->walked = policy->walked_tasks;
			   __entry->scan_ns = scan_ns;),
	    TP_printk("trigger=%s verdict=%s shape=%s young=%u tasks=%u records=%u depth=%u branching=%u generations=%u multiplying=%u finished_jobs=%u mass=%lu against=%lu youth=%ums walked=%lu scan=%lluns",
		      __get_str(trigger), __get_str(verdict), __get_str(shape),
		      __entry->young, __entry->tasks, __entry->records,
		      __entry->depth, __entry->branching, __entry->generations,
		      __entry->multiplying, __entry->finished_jobs,
		      __entry->mass, __entry->against, __entry->youth_ms,
		      __entry->walked, __entry->scan_ns)
);

/*
 * The fork bomb killer killed a fork bomb: the same facts as its kernel
 * log report. @shape is "tree", "chain" or "spawner"; @pid and @comm are
 * those of the bomb's top process among those killed, @tasks the
 * processes killed, @memory_kb the memory only they held.
 */
TRACE_EVENT(forkbomb_kill,
	    TP_PROTO(const char *trigger, const char *shape, pid_t pid,
		     const char *comm, uid_t uid, unsigned int tasks,
		     unsigned long memory_kb),
	    TP_ARGS(trigger, shape, pid, comm, uid, tasks, memory_kb),
	    TP_STRUCT__entry(__string(trigger, trigger)
			     __string(shape, shape)
			     __field(pid_t, pid)
			     __array(char, comm, TASK_COMM_LEN)
			     __field(uid_t, uid)
			     __field(unsigned int, tasks)
			     __field(unsigned long, memory_kb)),
	    TP_fast_assign(__assign_str(trigger);
			   __assign_str(shape);
			   __entry->pid = pid;
			   memcpy(__entry->comm, comm, TASK_COMM_LEN);
			   __entry->uid = uid;
			   __entry->tasks = tasks;
			   __entry->memory_kb = memory_kb;),
	    TP_printk("trigger=%s shape=%s pid=%d comm=%s uid=%u tasks=%u memory=%lukB",
		      __get_str(trigger), __get_str(shape), __entry->pid,
		      __entry->comm, __entry->uid, __entry->tasks,
		      __entry->memory_kb)
);

#endif /* _TRACE_FORKBOMB_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
