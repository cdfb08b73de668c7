// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bombs in a container: a cgroup whose pids.max (300) they fill,
 * in a guest with plenty of memory and threads. The bomb is removed from
 * its cgroup alone, within seconds: three children of its first process
 * that left for another cgroup before it multiplied (its family, out of
 * its scope) live, and so does everything outside. Two runaway spawners
 * in two containers at once are both removed. Destructive: runs only
 * with FORKBOMB_DESTRUCTIVE=1.
 */
#include <signal.h>
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define CONTAINER_PIDS	"300"

FIXTURE(container) {
	struct bomb_run run;
	struct test_cgroup outside, second;
	pid_t spawners[2];
};

FIXTURE_SETUP(container)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "fork_fail"));
	ASSERT_EQ(0, make_room(&self->run.saved));
	ASSERT_EQ(0, cg_write(&self->run.cg, "pids.max", CONTAINER_PIDS));
	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.max", "max"));
	ASSERT_EQ(0, cg_create(&self->outside, "outside"));
}

FIXTURE_TEARDOWN(container)
{
	stop_child(self->spawners[0]);
	stop_child(self->spawners[1]);
	cg_destroy(&self->second);
	cg_destroy(&self->outside);
	bomb_cleanup(&self->run);
}

/*
 * fbk_bomb MODE KIB in the container, with three of its family outside;
 * the bomb must be gone and its family outside alive.
 */
static void contained_bomb(struct __test_metadata *_metadata,
			   struct _test_data_container *self, const char *mode)
{
	const char *const argv[] = { bomb_path(), "family", self->outside.path,
				     mode, "64", NULL };
	long outside;

	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	outside = cg_procs(&self->outside);
	EXPECT_EQ(3, outside) TH_LOG("%ld of the bomb's family outside left", outside);
}

TEST_F_TIMEOUT(container, pids_max_bomb, 900)
{
	contained_bomb(_metadata, self, "c");
}

TEST_F_TIMEOUT(container, pids_max_command_bomb, 900)
{
	contained_bomb(_metadata, self, "command");
}

/*
 * A runaway spawner, older than its bomb, fills the container: only its
 * children stay, the spawner loops on failing forks.
 */
TEST_F_TIMEOUT(container, pids_max_spawner, 900)
{
	const char *const argv[] = { bomb_path(), "spawner", "0", NULL };

	self->spawners[0] = spawn(argv, cg_enter, &self->run.cg);
	ASSERT_GT(self->spawners[0], 0);
	sleep_ms(OLD_MS);
	bomb_note_counters(&self->run);
	self->run.started = now_s();
	ASSERT_EQ(0, kill(self->spawners[0], SIGUSR1));
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/*
 * Two runaway spawners in two containers fail at once: both are removed,
 * each from its own container, in one kill each.
 */
TEST_F_TIMEOUT(container, two_spawners, 900)
{
	const char *const argv[] = { bomb_path(), "spawner", "0", NULL };
	long kills;
	double gone;

	ASSERT_EQ(0, cg_create(&self->second, "second"));
	ASSERT_EQ(0, cg_write(&self->second, "pids.max", CONTAINER_PIDS));
	self->spawners[0] = spawn(argv, cg_enter, &self->run.cg);
	self->spawners[1] = spawn(argv, cg_enter, &self->second);
	ASSERT_GT(self->spawners[0], 0);
	ASSERT_GT(self->spawners[1], 0);
	sleep_ms(OLD_MS);
	bomb_note_counters(&self->run);
	kills = self->run.kills;
	self->run.started = now_s();
	ASSERT_EQ(0, kill(self->spawners[0], SIGUSR1));
	ASSERT_EQ(0, kill(self->spawners[1], SIGUSR1));
	gone = wait_empty(&self->second, self->run.started, 150, 1000);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_GE(gone, 0) TH_LOG("the second spawner is still there");
	EXPECT_LE(gone, scaled(GONE_WITHIN_S))
		TH_LOG("the second went after %.1f s", gone);
	EXPECT_EQ(2, knob_long("forkbomb_kills") - kills);
}

TEST_HARNESS_MAIN
