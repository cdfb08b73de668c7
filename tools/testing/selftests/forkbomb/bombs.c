// SPDX-License-Identifier: GPL-2.0
/*
 * Real fork bombs in a small (256 MiB) machine, one shape per test; each
 * is best run in a guest of its own (see the README of the repository).
 * Every bomb process must be gone in bounded time, a bystander started
 * before the bomb must live, and the fork bomb killer must say so.
 */
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define TRACE_EVENT_DIR "/sys/kernel/tracing/events/forkbomb/forkbomb_kill/"

FIXTURE(bomb) {
	struct bomb_run run;
	bool traced;
};

FIXTURE_SETUP(bomb)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	self->traced = !write_text(TRACE_EVENT_DIR "enable", "1");
	if (self->traced)
		write_text("/sys/kernel/tracing/trace", "");
	/* The OOM path: the fork failure trigger has its own tests. */
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "oom"));
}

FIXTURE_TEARDOWN(bomb)
{
	bomb_cleanup(&self->run);
	if (self->traced)
		write_text(TRACE_EVENT_DIR "enable", "0");
	knob_set("forkbomb_triggers", "oom fork_fail");
}

static void run_bomb(struct __test_metadata *_metadata, struct bomb_run *run,
		     const char *const argv[])
{
	run->started = now_s();
	ASSERT_GT(spawn_marked(run->mark, argv, NULL, NULL), 0);
	bomb_wait(run, 150);
	expect_bomb_killed(_metadata, run);
}

TEST_F_TIMEOUT(bomb, c_bomb, 200)
{
	const char *const argv[] = { bomb_path(), "c", "64", NULL };
	char trace[8192];

	run_bomb(_metadata, &self->run, argv);
	if (self->traced) {
		ASSERT_GT(read_text("/sys/kernel/tracing/trace", trace, sizeof(trace)), 0);
		EXPECT_NE(NULL, strstr(trace, "forkbomb_kill: trigger=oom"))
			TH_LOG("no forkbomb:forkbomb_kill event in the trace");
	}
}

TEST_F_TIMEOUT(bomb, shell_bomb, 200)
{
	/* Andrey's bomb: every parent exits, the children go to init. */
	const char *const argv[] = { "/bin/sh", "-c", "f(){ f|f & }; f", NULL };

	run_bomb(_metadata, &self->run, argv);
}

TEST_F_TIMEOUT(bomb, mem_bomb, 200)
{
	const char *const argv[] = { bomb_path(), "c", "768", NULL };

	run_bomb(_metadata, &self->run, argv);
}

TEST_F_TIMEOUT(bomb, exec_bomb, 200)
{
	const char *const argv[] = { bomb_path(), "exec", "64", NULL };

	run_bomb(_metadata, &self->run, argv);
}

TEST_F_TIMEOUT(bomb, setsid_bomb, 200)
{
	const char *const argv[] = { bomb_path(), "setsid", "64", NULL };

	run_bomb(_metadata, &self->run, argv);
}

/*
 * One process forks one child and waits: each link costs only what a
 * process costs the kernel (about 200 KiB here), so the chain grows as
 * deep as memory allows (about 900 links in 256 MiB) and every link must
 * die, not the tail end only.
 */
TEST_F_TIMEOUT(bomb, chain_bomb, 200)
{
	const char *const argv[] = { bomb_path(), "chain", "0", NULL };

	run_bomb(_metadata, &self->run, argv);
	EXPECT_GE(self->run.new_tasks_killed, 100);
	TH_LOG("the chain was %ld deep", self->run.new_tasks_killed);
}

/* Children spread over both CPUs, so the kill races forks on the other. */
TEST_F_TIMEOUT(bomb, two_cpu_bomb, 200)
{
	const char *const argv[] = { bomb_path(), "spread", "64", NULL };

	run_bomb(_metadata, &self->run, argv);
}

TEST_HARNESS_MAIN
