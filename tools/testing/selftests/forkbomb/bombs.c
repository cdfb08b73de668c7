// SPDX-License-Identifier: GPL-2.0
/*
 * Real fork bombs, one shape per test; each is best run in a guest of its
 * own (see the README of the repository). Every bomb process must be gone
 * within seconds of the exhaustion, in one kill, a bystander started
 * before the bomb must live and stay responsive, and the fork bomb killer
 * must say so. Destructive: runs only with FORKBOMB_DESTRUCTIVE=1, each
 * bomb contained in its own cgroup.
 */
#include <signal.h>
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define TRACE_EVENT_DIR "/sys/kernel/tracing/events/forkbomb/forkbomb_kill/"

FIXTURE(bomb) {
	struct bomb_run run;
	struct test_cgroup other;
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
	ASSERT_EQ(0, cg_create(&self->other, "other"));
	self->shell_in = -1;
}

FIXTURE_TEARDOWN(bomb)
{
	if (self->traced)
		write_text(TRACE_EVENT_DIR "enable", "0");
	if (self->shell_in >= 0)
		close(self->shell_in);
	cg_destroy(&self->other);
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
	static char trace[1 << 16];

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
 * @cmd typed at the prompt of @shell, started before the last calm moment
 * (a login shell that has been up for a while). The bomb is gone, the
 * shell lives and runs the next command.
 */
static void typed_bomb(struct __test_metadata *_metadata,
		       struct _test_data_bomb *self, const char *shell,
		       const char *cmd)
{
	const char *done = "/tmp/forkbomb-shell-ok";

	self->shell = start_shell(&self->run.cg, &self->shell_in, shell);
	ASSERT_GT(self->shell, 0);
	unlink(done);
	sleep_ms(OLD_MS);
	self->run.survivors = 1;
	self->run.started = now_s();
	ASSERT_EQ(0, shell_type(self->shell_in, cmd));
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_TRUE(child_alive(self->shell)) TH_LOG("the shell was killed");
	ASSERT_EQ(0, shell_type(self->shell_in, "touch /tmp/forkbomb-shell-ok"));
	sleep_ms(scaled(1) * 1000);
	EXPECT_EQ(0, access(done, F_OK)) TH_LOG("the shell ran no new command");
	unlink(done);
}

/* f(){ f|f & }; f typed into busybox sh: its two children are the halves. */
TEST_F_TIMEOUT(bomb, typed_shell_bomb, 900)
{
	typed_bomb(_metadata, self, "/bin/sh", "f(){ f|f & }; f");
}

/*
 * The bombs people write run a command in every generation, and leave
 * finished children behind as a build does: typed into bash, as a
 * script that starts itself twice, in C, in make and in Perl.
 */
TEST_F_TIMEOUT(bomb, bash_command_bomb, 900)
{
	typed_bomb(_metadata, self, "/bin/bash",
		   "f(){ date >/dev/null; f & f & }; f");
}

TEST_F_TIMEOUT(bomb, bash_colon_bomb, 900)
{
	typed_bomb(_metadata, self, "/bin/bash", ":(){ :|:& };:");
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ssize_t len = strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/*
 * The bombs in an interpreter take a minute to fill a 256 MiB guest under
 * emulation: these run in a cgroup of 96 MiB (a memory cgroup OOM).
 */
#define SLOW_BOMB_MEMORY	"96M"

/* A script that runs date, then starts $0 twice in the background. */
TEST_F_TIMEOUT(bomb, script_bomb, 900)
{
	const char *path = "/tmp/fbk-script-bomb.sh";
	const char *const argv[] = { path, NULL };

	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.max", SLOW_BOMB_MEMORY));
	ASSERT_EQ(0, write_file(path, "#!/bin/bash\ndate >/dev/null\n\"$0\" &\n\"$0\" &\n",
				0755));
	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/* In C: each process runs a short-lived child, then forks two and exits. */
TEST_F_TIMEOUT(bomb, c_command_bomb, 900)
{
	run_bomb(_metadata, &self->run, "command", "64");
}

/* A Makefile whose recipe runs date, then $(MAKE) twice. */
TEST_F_TIMEOUT(bomb, make_bomb, 900)
{
	const char *const argv[] = { "/usr/bin/make", "-s", "-C", "/tmp/fbk-make-bomb",
				     NULL };

	if (access(argv[0], X_OK))
		SKIP(return, "no GNU make");
	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.max", SLOW_BOMB_MEMORY));
	mkdir("/tmp/fbk-make-bomb", 0755);
	ASSERT_EQ(0, write_file("/tmp/fbk-make-bomb/Makefile",
				"all:\n\t@date >/dev/null\n"
				"\t@$(MAKE) -s & $(MAKE) -s; wait\n", 0644));
	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/* A Perl script that runs date, then starts two copies of itself. */
TEST_F_TIMEOUT(bomb, perl_bomb, 900)
{
	const char *path = "/tmp/fbk-bomb.pl";
	const char *const argv[] = { "/usr/local/bin/perl", path, NULL };

	if (access(argv[0], X_OK))
		SKIP(return, "no perl");
	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.max", SLOW_BOMB_MEMORY));
	ASSERT_EQ(0, write_file(path, "system(\"date >/dev/null\");\n"
				"for (1 .. 2) {\n\tmy $pid = fork();\n"
				"\texec($^X, $0) if defined $pid && $pid == 0;\n}\n",
				0644));
	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/*
 * Every process's main thread calls pthread_exit() and leaves a thread
 * that forks: the group leaders are exiting, the processes are not.
 */
TEST_F_TIMEOUT(bomb, leaderless_bomb, 900)
{
	run_bomb(_metadata, &self->run, "leaderless", "64");
}

static int enter_adj_997(void *arg)
{
	return cg_enter(arg) || set_oom_score_adj(-997);
}

/*
 * A bomb in a service protected with oom_score_adj -997 (a Kubernetes
 * Guaranteed pod), beside an ordinary process holding 24 MiB: the OOM
 * killer would take that process first, which frees little; the bomb
 * goes, the process lives.
 */
TEST_F_TIMEOUT(bomb, adj_997_bomb, 900)
{
	const char *const holder_argv[] = { bomb_path(), "prefork", "0", "24", NULL };
	const char *const argv[] = { bomb_path(), "c", "64", NULL };
	pid_t holder;

	holder = spawn(holder_argv, cg_enter, &self->other);
	ASSERT_GT(holder, 0);
	sleep_ms(scaled(1) * 1000);
	self->run.started = now_s();
	ASSERT_GT(spawn(argv, enter_adj_997, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_TRUE(child_alive(holder)) TH_LOG("the ordinary process was killed");
	stop_child(holder);
}

TEST_HARNESS_MAIN
