// SPDX-License-Identifier: GPL-2.0
/*
 * Real fork bombs, one shape per test; each is best run in a guest of its
 * own (see the README of the repository). Every bomb process must be gone
 * in bounded time, a bystander started before the bomb must live, and the
 * fork bomb killer must say so. Destructive: runs only with
 * FORKBOMB_DESTRUCTIVE=1, each bomb contained in its own cgroup.
 */
#include <signal.h>
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define TRACE_EVENT_DIR "/sys/kernel/tracing/events/forkbomb/forkbomb_kill/"

FIXTURE(bomb) {
	struct bomb_run run;
	bool traced;
	pid_t shell;
	int shell_in;
};

FIXTURE_SETUP(bomb)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	/*
	 * The OOM path: the fork failure trigger has its own tests. Room for
	 * more threads than the bomb's pids.max, so that memory runs out first.
	 */
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "oom"));
	ASSERT_EQ(0, make_room(&self->run.saved));
	self->shell_in = -1;
}

FIXTURE_TEARDOWN(bomb)
{
	if (self->traced)
		write_text(TRACE_EVENT_DIR "enable", "0");
	if (self->shell_in >= 0)
		close(self->shell_in);
	bomb_cleanup(&self->run);
}

static void run_bomb(struct __test_metadata *_metadata, struct bomb_run *run,
		     const char *mode, const char *arg)
{
	ASSERT_GT(bomb_start(run, mode, arg), 0);
	bomb_wait(run, 150);
	expect_bomb_killed(_metadata, run);
}

TEST_F_TIMEOUT(bomb, c_bomb, 900)
{
	char trace[8192];

	/* The tracepoint must exist: the config asks for event tracing. */
	ASSERT_EQ(0, write_text(TRACE_EVENT_DIR "enable", "1"));
	self->traced = true;
	ASSERT_EQ(0, write_text("/sys/kernel/tracing/trace", ""));
	run_bomb(_metadata, &self->run, "c", "64");
	ASSERT_GT(read_text("/sys/kernel/tracing/trace", trace, sizeof(trace)), 0);
	EXPECT_NE(NULL, strstr(trace, "forkbomb_kill: trigger=oom shape=tree"))
		TH_LOG("no forkbomb:forkbomb_kill event in the trace");
}

TEST_F_TIMEOUT(bomb, shell_bomb, 900)
{
	/* Andrey's bomb: every parent exits, the children go to the reaper. */
	const char *const argv[] = { "/bin/sh", "-c", "f(){ f|f & }; f", NULL };

	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

TEST_F_TIMEOUT(bomb, mem_bomb, 900)
{
	run_bomb(_metadata, &self->run, "c", "768");
}

TEST_F_TIMEOUT(bomb, exec_bomb, 900)
{
	run_bomb(_metadata, &self->run, "exec", "64");
}

TEST_F_TIMEOUT(bomb, setsid_bomb, 900)
{
	run_bomb(_metadata, &self->run, "setsid", "64");
}

/*
 * One process forks one child and waits: each link costs only what a
 * process costs the kernel (about 200 KiB here), so the chain grows as
 * deep as memory allows (about 900 links in 256 MiB) and every link must
 * die, not the tail end only.
 */
TEST_F_TIMEOUT(bomb, chain_bomb, 900)
{
	run_bomb(_metadata, &self->run, "chain", "0");
	EXPECT_GE(self->run.new_tasks_killed, 100);
	TH_LOG("the chain was %ld deep", self->run.new_tasks_killed);
}

/* Children spread over both CPUs, so the kill races forks on the other. */
TEST_F_TIMEOUT(bomb, two_cpu_bomb, 900)
{
	run_bomb(_metadata, &self->run, "spread", "64");
}

/*
 * A runaway spawner: a process older than the last calm moment starts to
 * fork idle children in a loop (while :; do cmd & done). It is the bomb's
 * root and dies with its children.
 */
TEST_F_TIMEOUT(bomb, spawner, 900)
{
	pid_t spawner;

	spawner = bomb_start(&self->run, "spawner", "256");
	ASSERT_GT(spawner, 0);
	/* Older than the window in which the killer sees bombs grow. */
	sleep_ms(OLD_MS);
	self->run.started = now_s();
	ASSERT_EQ(0, kill(spawner, SIGUSR1));
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/*
 * Grows in bursts, with pauses longer than two reset intervals: the
 * reaper may see the system calm between them, and the bomb's first
 * processes are older than that. All of it must die.
 */
TEST_F_TIMEOUT(bomb, burst_bomb, 900)
{
	ASSERT_EQ(0, change_knob(&self->run.saved,
				 "mm_tracking_reset_interval_msecs", "200"));
	const char *const argv[] = { bomb_path(), "burst", "700", "128", NULL };

	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/*
 * f(){ f|f & }; f typed at the prompt of a shell started before the last
 * calm moment: the shell's own two children are the halves of the bomb.
 * Both halves die, the shell lives and runs the next command.
 */
TEST_F_TIMEOUT(bomb, typed_shell_bomb, 900)
{
	const char *done = "/tmp/forkbomb-shell-ok";
	long left;

	self->shell = start_shell(&self->run.cg, &self->shell_in);
	ASSERT_GT(self->shell, 0);
	unlink(done);
	/* A login shell that has been up for a while. */
	sleep_ms(OLD_MS);

	self->run.started = now_s();
	ASSERT_EQ(0, shell_type(self->shell_in, "f(){ f|f & }; f"));
	/* The bomb is gone when only the shell is left in the cgroup. */
	while (now_s() - self->run.started < scaled(150)) {
		reap_children();
		if (knob_long("forkbomb_kills") > self->run.kills &&
		    cg_procs(&self->run.cg) == 1)
			break;
		sleep_ms(50);
	}
	self->run.recovered = now_s() - self->run.started;
	sleep_ms(2000);
	reap_children();
	left = cg_procs(&self->run.cg);
	EXPECT_EQ(1, left) TH_LOG("%ld processes left in the shell's cgroup", left);
	EXPECT_TRUE(child_alive(self->shell)) TH_LOG("the shell was killed");
	EXPECT_TRUE(child_alive(self->run.bystander));
	EXPECT_GE(knob_long("forkbomb_kills") - self->run.kills, 1);
	/* And it still works. */
	ASSERT_EQ(0, shell_type(self->shell_in, "touch /tmp/forkbomb-shell-ok"));
	sleep_ms(scaled(1) * 1000);
	EXPECT_EQ(0, access(done, F_OK)) TH_LOG("the shell ran no new command");
	unlink(done);
	TH_LOG("recovered after %.1f s", self->run.recovered);
}

TEST_HARNESS_MAIN
