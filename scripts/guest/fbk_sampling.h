/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling under a fork bomb, for the demos' samplers (fbk_monitor in the
 * test guest, fbk_sampler in the Debian guest): a sample goes out as it
 * is taken, one line in one write() on stdout (the guest's results port),
 * so that the host has every sample up to the moment a swamped guest
 * stopped answering.
 *
 * A sampler must keep sampling under a bomb the kernel does not stop. It
 * runs with oom_score_adj -1000, its memory locked (mlockall), and at
 * SCHED_FIFO 1 once the bomb runs: above every ordinary process (the
 * bomb), at the lowest real-time priority, which is the fork bomb
 * killer's own thread's (fbk_killer), so it never preempts that thread;
 * it sleeps between samples, so the kernel's ordinary threads (kswapd,
 * the OOM reaper, workqueues) keep their CPU. Once the bomb runs it does
 * not fork (a bomb may hold every pid) and rereads the files it opened
 * before (reading /proc/vmstat still allocates a small buffer in the
 * kernel each time). What it starts runs as an ordinary process again
 * (SCHED_RESET_ON_FORK), unlocked.
 */
#ifndef __FBK_SAMPLING_H
#define __FBK_SAMPLING_H

#include <sched.h>
#include <stdarg.h>
#include <sys/mman.h>
#include "forkbomb_util.h"	/* tools/testing/selftests/forkbomb/ */

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK	0x40000000
#endif

#define TICK_MS		250

/* One line on stdout, in one write(): no stdio buffer to fill or lose. */
static inline void emit(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (len >= (int)sizeof(line))
		len = sizeof(line) - 1;
	if (len > 0 && write(1, line, len) < 0)
		return;
}

/* Reread an open file from its start; returns its length or -1. */
static inline int reread(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static inline long fd_long(int fd)
{
	char buf[64];

	return reread(fd, buf, sizeof(buf)) > 0 ? strtol(buf, NULL, 10) : -1;
}

/* A value from an open file of "key value" lines; -1 if missing. */
static inline long fd_value(int fd, const char *key)
{
	static char buf[16384];
	size_t len = strlen(key);
	char *p;

	if (reread(fd, buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

/* From now on: never paged out, never behind the bomb for the CPU. */
static inline void protect_sampler(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		emit("DEMO-WARNING mlockall: %s\n", strerror(errno));
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp))
		emit("DEMO-WARNING SCHED_FIFO: %s\n", strerror(errno));
}

/* Sleep until the next tick after *@next, which it advances. */
static inline void next_tick(struct timespec *next)
{
	next->tv_nsec += TICK_MS * 1000000L;
	if (next->tv_nsec >= 1000000000L) {
		next->tv_sec++;
		next->tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

#endif /* __FBK_SAMPLING_H */
