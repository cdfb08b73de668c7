/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM forkbomb

#if !defined(_TRACE_FORKBOMB_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FORKBOMB_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

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
