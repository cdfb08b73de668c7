/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The course of a fork bomb test: a bystander and the tester itself are
 * old history when the bomb starts; the bomb must end with every one of
 * its processes gone, the bystander alive and the counters moved.
 */
#ifndef __FORKBOMB_BOMB_COMMON_H
#define __FORKBOMB_BOMB_COMMON_H

#include <libgen.h>
#include <limits.h>
#include "forkbomb_util.h"

#define REPORT	"forkbomb: "

/* The fbk_bomb helper, next to the test program. */
static inline const char *bomb_path(void)
{
	static char path[PATH_MAX];
	char self[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return "./fbk_bomb";
	self[n] = '\0';
	snprintf(path, sizeof(path), "%s/fbk_bomb", dirname(self));
	return path;
}

struct bomb_run {
	const char *mark;
	pid_t bystander;
	long kills;
	long tasks_killed;
	int reports;
	double started;
	double recovered;	/* seconds from start to the last bomb process gone */
	long new_kills;
	long new_tasks_killed;
};

/* Save the state, start a bystander, wait until the system is calm. */
static inline int bomb_prepare(struct bomb_run *run, const char *mark,
			       const char *triggers)
{
	memset(run, 0, sizeof(*run));
	run->mark = mark;
	if (write_text("/proc/sys/kernel/threads-max", "100000") ||
	    knob_set("forkbomb_triggers", triggers) ||
	    knob_set("forkbomb_min_descendants", "10"))
		return -1;
	run->bystander = spawn_bystander();
	if (run->bystander < 0 || wait_calm(200, 60))
		return -1;
	run->kills = knob_long("forkbomb_kills");
	run->tasks_killed = knob_long("forkbomb_tasks_killed");
	run->reports = kmsg_count(REPORT);
	return 0;
}

/* Wait until the bomb is gone for good (quiet for 2 s). */
static inline int bomb_wait(struct bomb_run *run, int timeout_s)
{
	run->recovered = wait_gone(run->mark, run->started, timeout_s, 2000);
	run->new_kills = knob_long("forkbomb_kills") - run->kills;
	run->new_tasks_killed = knob_long("forkbomb_tasks_killed") - run->tasks_killed;
	return run->recovered < 0 ? -1 : 0;
}

static inline void bomb_cleanup(struct bomb_run *run)
{
	if (run->mark)
		kill_marked(run->mark);
	stop_child(run->bystander);
	reap_children();
}

/* Start fbk_bomb MODE KIB, marked, as a child of the test. */
static inline pid_t bomb_start(struct bomb_run *run, const char *mode,
			       const char *kib, int (*setup)(void *), void *arg)
{
	const char *const argv[] = { bomb_path(), mode, kib, NULL };

	run->started = now_s();
	return spawn_marked(run->mark, argv, setup, arg);
}

/* The checks every killed bomb must pass. */
static inline void expect_bomb_killed(struct __test_metadata *_metadata,
				      struct bomb_run *run)
{
	EXPECT_GE(run->recovered, 0)
		TH_LOG("%d bomb processes left", count_marked(run->mark));
	EXPECT_EQ(0, count_marked(run->mark));
	EXPECT_TRUE(child_alive(run->bystander))
		TH_LOG("the bystander was killed");
	EXPECT_GE(run->new_kills, 1);
	EXPECT_GE(run->new_tasks_killed, 10);
	EXPECT_GE(kmsg_count(REPORT) - run->reports, 1)
		TH_LOG("no kernel log report");
	TH_LOG("recovered after %.1f s: %ld kills, %ld tasks killed",
	       run->recovered, run->new_kills, run->new_tasks_killed);
}

#endif /* __FORKBOMB_BOMB_COMMON_H */
