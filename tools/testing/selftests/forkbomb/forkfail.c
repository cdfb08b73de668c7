// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bombs that never reach OOM: with plenty of memory, forks fail on
 * kernel.threads-max (root) or RLIMIT_NPROC (a user) first. Run in a
 * guest with 2 GiB, where stock Linux holds such a bomb forever.
 */
#include <sys/resource.h>
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define USER_UID	1000

FIXTURE(forkfail) {
	struct bomb_run run;
	char threads_max[32];
	pid_t user_bystander;
};

FIXTURE_SETUP(forkfail)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	ASSERT_GT(read_text("/proc/sys/kernel/threads-max", self->threads_max,
			    sizeof(self->threads_max)), 0);
	/* Only the fork failure trigger: this is not about memory. */
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "fork_fail"));
}

FIXTURE_TEARDOWN(forkfail)
{
	bomb_cleanup(&self->run);
	stop_child(self->user_bystander);
	write_text("/proc/sys/kernel/threads-max", self->threads_max);
	knob_set("forkbomb_triggers", "oom fork_fail");
}

TEST_F_TIMEOUT(forkfail, threads_max_root, 200)
{
	ASSERT_EQ(0, write_text("/proc/sys/kernel/threads-max", "3000"));
	ASSERT_GT(bomb_start(&self->run, "c", "64", NULL, NULL), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

static int become_user(void *arg)
{
	struct rlimit rl = { 200, 200 };

	if (arg && setrlimit(RLIMIT_NPROC, &rl))
		return -1;
	if (setgid(USER_UID) || setuid(USER_UID))
		return -1;
	return 0;
}

TEST_F_TIMEOUT(forkfail, rlimit_nproc_user, 200)
{
	const char *const idle[] = { "/bin/sleep", "1000", NULL };

	/* The same user's other process, started before: in scope, innocent. */
	self->user_bystander = spawn_marked("user-bystander", idle, become_user, NULL);
	ASSERT_GT(self->user_bystander, 0);
	ASSERT_EQ(0, wait_calm(200, 60));
	ASSERT_GT(bomb_start(&self->run, "c", "64", become_user, (void *)1), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_TRUE(child_alive(self->user_bystander));
}

TEST_HARNESS_MAIN
