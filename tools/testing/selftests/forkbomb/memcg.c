// SPDX-License-Identifier: GPL-2.0
/*
 * A fork bomb in a memory cgroup with memory.max: the memcg OOM kills the
 * bomb, and only processes of that cgroup, never one outside it.
 */
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define CGROOT		"/sys/fs/cgroup/"
#define CG_BOMB		CGROOT "fbk_bomb/"
#define CG_OTHER	CGROOT "fbk_other/"

static int join_cgroup(void *dir)
{
	char path[256], pid[32];

	snprintf(path, sizeof(path), "%scgroup.procs", (char *)dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_text(path, pid);
}

FIXTURE(memcg) {
	struct bomb_run run;
	pid_t outsider;
};

FIXTURE_SETUP(memcg)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (access(CGROOT "cgroup.subtree_control", W_OK))
		SKIP(return, "no cgroup v2 at " CGROOT);
	ASSERT_EQ(0, write_text(CGROOT "cgroup.subtree_control", "+memory +pids"));
	mkdir(CG_BOMB, 0755);
	mkdir(CG_OTHER, 0755);
	ASSERT_EQ(0, write_text(CG_BOMB "memory.max", "64M"));
	ASSERT_EQ(0, bomb_prepare(&self->run, "memcg_bomb", "oom"));
}

FIXTURE_TEARDOWN(memcg)
{
	bomb_cleanup(&self->run);
	stop_child(self->outsider);
	knob_set("forkbomb_triggers", "oom fork_fail");
	rmdir(CG_BOMB);
	rmdir(CG_OTHER);
}

TEST_F_TIMEOUT(memcg, bomb_in_memcg, 200)
{
	const char *const idle[] = { "/bin/sleep", "1000", NULL };
	int reports = kmsg_count("memory cgroup out of memory: killed fork bomb");

	/* A process in another cgroup, younger than the calm moment. */
	self->outsider = spawn_marked("outsider", idle, join_cgroup, CG_OTHER);
	ASSERT_GT(self->outsider, 0);
	ASSERT_GT(bomb_start(&self->run, "c", "64", join_cgroup, CG_BOMB), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_TRUE(child_alive(self->outsider));
	EXPECT_GE(kmsg_count("memory cgroup out of memory: killed fork bomb") - reports, 1);
	/* No global OOM: the bomb was contained. */
	EXPECT_EQ(0, kmsg_count(REPORT "out of memory:"));
}

TEST_HARNESS_MAIN
