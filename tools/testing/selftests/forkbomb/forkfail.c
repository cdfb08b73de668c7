// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bombs that never reach OOM: with plenty of memory, forks fail on
 * kernel.threads-max (root) or RLIMIT_NPROC (a user) first. Run in a
 * guest with 2 GiB, where stock Linux holds such a bomb forever. The
 * killer must act within a second of the first failed fork for a bomb
 * that multiplies, and within two for a runaway spawner (which it only
 * takes once it keeps failing): expect_bomb_killed() allows KILL_WITHIN_S.
 * Destructive: runs only with FORKBOMB_DESTRUCTIVE=1; threads-max is put
 * back afterwards.
 */
#include <signal.h>
#include <sys/resource.h>
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define USER_UID	1000

/*
 * Threads-max this far above what runs: 3,000 threads, fewer on a slower
 * kernel (a debug kernel forks tens of times slower with thousands of
 * processes), so that a bomb fills the room in about the same time.
 */
static int threads_room(void)
{
	return 3000 / time_factor();
}

FIXTURE(forkfail) {
	struct bomb_run run;
	pid_t user_bystander;
	pid_t shell;
	int shell_in;
};

FIXTURE_SETUP(forkfail)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	/*
	 * Only the fork failure trigger: this is not about memory, nor is the
	 * bomb's cgroup limited in it.
	 */
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "fork_fail"));
	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.max", "max"));
	self->shell_in = -1;
}

FIXTURE_TEARDOWN(forkfail)
{
	if (self->shell_in >= 0)
		close(self->shell_in);
	stop_child(self->user_bystander);
	bomb_cleanup(&self->run);
}

TEST_F_TIMEOUT(forkfail, threads_max_root, 900)
{
	ASSERT_EQ(0, limit_threads(&self->run.saved, threads_room()));
	bomb_note_counters(&self->run);
	ASSERT_GT(bomb_start(&self->run, "c", "64"), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/* The user, an ordinary process outside the bomb's cgroup. */
static int as_user(void *arg)
{
	if (set_oom_score_adj(0) || setgid(USER_UID) || setuid(USER_UID))
		return -1;
	return 0;
}

/* The user with RLIMIT_NPROC 200, in the bomb's cgroup. */
static int become_user(void *arg)
{
	struct rlimit rl = { 200, 200 };
	struct bomb_run *run = arg;

	if (cg_enter(&run->cg) || setrlimit(RLIMIT_NPROC, &rl) ||
	    setgid(USER_UID) || setuid(USER_UID))
		return -1;
	return 0;
}

TEST_F_TIMEOUT(forkfail, rlimit_nproc_user, 900)
{
	const char *const idle[] = { "/bin/sleep", "1000", NULL };
	const char *const bomb[] = { bomb_path(), "c", "64", NULL };

	/* The same user's other process, started before: in scope, innocent. */
	self->user_bystander = spawn(idle, as_user, NULL);
	ASSERT_GT(self->user_bystander, 0);
	ASSERT_EQ(0, wait_calm(&self->run.saved, 200, 60));
	bomb_note_counters(&self->run);
	self->run.started = now_s();
	ASSERT_GT(spawn(bomb, become_user, &self->run), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_TRUE(child_alive(self->user_bystander))
		TH_LOG("the user's other process was killed");
}

/* A runaway spawner, older than its bomb, runs into threads-max. */
TEST_F_TIMEOUT(forkfail, threads_max_spawner, 900)
{
	pid_t spawner;

	spawner = bomb_start(&self->run, "spawner", "0");
	ASSERT_GT(spawner, 0);
	sleep_ms(OLD_MS);
	ASSERT_EQ(0, limit_threads(&self->run.saved, threads_room()));
	bomb_note_counters(&self->run);
	self->run.started = now_s();
	ASSERT_EQ(0, kill(spawner, SIGUSR1));
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/*
 * @cmd typed into an older @shell runs into threads-max: the bomb goes,
 * the shell lives.
 */
static void typed_bomb(struct __test_metadata *_metadata,
		       struct _test_data_forkfail *self, const char *shell,
		       const char *cmd)
{
	self->shell = start_shell(&self->run.cg, &self->shell_in, shell);
	ASSERT_GT(self->shell, 0);
	sleep_ms(OLD_MS);
	ASSERT_EQ(0, limit_threads(&self->run.saved, threads_room()));
	bomb_note_counters(&self->run);
	self->run.survivors = 1;
	self->run.started = now_s();
	ASSERT_EQ(0, shell_type(self->shell_in, cmd));
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_TRUE(child_alive(self->shell)) TH_LOG("the shell was killed");
}

/* f(){ f|f & }; f typed into an older shell runs into threads-max. */
TEST_F_TIMEOUT(forkfail, threads_max_typed_shell_bomb, 900)
{
	typed_bomb(_metadata, self, "/bin/sh", "f(){ f|f & }; f");
}

/* The bomb people write, typed into bash: a command in every generation. */
TEST_F_TIMEOUT(forkfail, threads_max_bash_command_bomb, 900)
{
	typed_bomb(_metadata, self, "/bin/bash",
		   "f(){ date >/dev/null; f & f & }; f");
}

/*
 * The same run by busybox sh: about 1,100 processes within 4 s, then a
 * churn at the limit, its processes exiting as their forks fail.
 */
TEST_F_TIMEOUT(forkfail, threads_max_command_bomb, 900)
{
	const char *const argv[] = { "/bin/sh", "-c",
				     "f(){ date >/dev/null; f & f & }; f", NULL };

	ASSERT_EQ(0, limit_threads(&self->run.saved, threads_room()));
	bomb_note_counters(&self->run);
	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/*
 * Processes that share one address space (clone(CLONE_VM), not threads):
 * one record for thousands of processes.
 */
TEST_F_TIMEOUT(forkfail, threads_max_clonevm_bomb, 900)
{
	ASSERT_EQ(0, limit_threads(&self->run.saved, threads_room()));
	bomb_note_counters(&self->run);
	ASSERT_GT(bomb_start(&self->run, "clonevm", "16"), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/* The C command bomb as the user, under RLIMIT_NPROC 200. */
TEST_F_TIMEOUT(forkfail, rlimit_nproc_command_bomb, 900)
{
	const char *const bomb[] = { bomb_path(), "command", "64", NULL };

	self->run.started = now_s();
	ASSERT_GT(spawn(bomb, become_user, &self->run), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

TEST_HARNESS_MAIN
