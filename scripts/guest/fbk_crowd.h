/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crowds of idle processes for the bench's guest programs (fbk_scoped,
 * fbk_abuse, fbk_busy): what a busy machine holds beside the processes
 * a bench measures.
 */
#ifndef __FBK_CROWD_H
#define __FBK_CROWD_H

#include "bomb_common.h"	/* tools/testing/selftests/forkbomb/ */

static inline void idle_forever(void)
{
	for (;;)
		pause();
}

/*
 * @n more idle processes in @cg, @per_parent to a parent (which starts
 * @per_parent - 1); wait until @cg holds @total.
 */
static inline int start_idle(struct test_cgroup *cg, long n, long per_parent,
			     long total)
{
	long started = 0, i;
	double t0 = now_s();

	while (started < n) {
		long kids = n - started < per_parent ? n - started - 1 : per_parent - 1;
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0) {
			if (cg_enter(cg))
				_exit(1);
			signal(SIGCHLD, SIG_IGN);
			for (i = 0; i < kids; i++)
				if (fork() == 0)
					idle_forever();
			idle_forever();
		}
		started += kids + 1;
	}
	while (cg_long(cg, "pids.current") < total) {
		if (now_s() - t0 > 900)
			return -1;
		sleep_ms(100);
	}
	return 0;
}

#endif /* __FBK_CROWD_H */
