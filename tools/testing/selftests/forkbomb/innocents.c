// SPDX-License-Identifier: GPL-2.0
/*
 * Busy programs that are not fork bombs, run into an OOM: the fork bomb
 * killer must leave them to the ordinary OOM killer, which takes one
 * process and honours oom_score_adj. Some start many processes and then
 * exhaust memory themselves (a browser, a build whose compile jobs grow,
 * a worker pool); others only run beside a memory hog that causes the OOM
 * (parallel builds, pre-forking servers old and freshly restarted, a
 * pool that recycles its workers, a shell loop, a service protected with
 * oom_score_adj -1000).
 *
 * And programs with the shapes of fork bombs, at the boundaries of the
 * rule: a build three levels deep whose compile jobs have not finished, a
 * pre-forking server still ramping up, a browser restoring a session, a
 * CI runner starting 20 jobs at once.
 *
 * Each case: no fork bomb kill, the ordinary OOM killer acted, the
 * program's parent lives (and, beside a hog, the hog is what died).
 * Destructive: runs only with FORKBOMB_DESTRUCTIVE=1, every program in a
 * cgroup of its own.
 */
#include "../kselftest_harness.h"
#include "bomb_common.h"

FIXTURE(innocent) {
	struct saved_settings saved;
	struct test_cgroup work_cg, hog_cg;
	pid_t bystander, work, hog;
	long kills;
	long oom_kills;		/* /proc/vmstat oom_kill at the start */
};

FIXTURE_VARIANT(innocent) {
	const char *mode;
	const char *arg1;
	const char *arg2;
	const char *shell;	/* run this with sh -c instead of fbk_bomb */
	int (*prepare)(void);	/* makes the files the program needs */
	int processes;		/* the program's processes that must live */
	bool old;		/* started before the last calm moment */
	bool hog;		/* a hog causes the OOM; else the program itself */
	int warmup_ms;
};

/* A browser opening 20 tabs of 12 MiB over 5 s, then idle. */
FIXTURE_VARIANT_ADD(innocent, browser) {
	.mode = "browser", .arg1 = "20", .arg2 = "12", .processes = 1,
};

/* make -j16 whose compile jobs (fork and exec) grow to 24 MiB each. */
FIXTURE_VARIANT_ADD(innocent, build_growing_jobs) {
	.mode = "build", .arg1 = "16", .arg2 = "24", .processes = 1,
};

/* A pool of 12 workers forked at once, each growing 1 MiB every 100 ms. */
FIXTURE_VARIANT_ADD(innocent, worker_pool) {
	.mode = "workers", .arg1 = "12", .processes = 1,
};

FIXTURE_VARIANT_ADD(innocent, make_j4_and_hog) {
	.mode = "make", .arg1 = "4", .arg2 = "2048", .processes = 1,
	.hog = true, .warmup_ms = 500,
};

FIXTURE_VARIANT_ADD(innocent, make_j8_and_hog) {
	.mode = "make", .arg1 = "8", .arg2 = "2048", .processes = 1,
	.hog = true, .warmup_ms = 500,
};

/* 30 workers sharing the server's 32 MiB copy-on-write. */
FIXTURE_VARIANT_ADD(innocent, prefork_server_and_hog) {
	.mode = "prefork", .arg1 = "30", .arg2 = "32", .processes = 31,
	.old = true, .hog = true, .warmup_ms = 500,
};

/* The same server restarted just before the OOM. */
FIXTURE_VARIANT_ADD(innocent, restarted_prefork_server_and_hog) {
	.mode = "prefork", .arg1 = "30", .arg2 = "32", .processes = 31,
	.hog = true, .warmup_ms = 1000,
};

/*
 * 160 workers holding most of the memory, started 25 s before the OOM,
 * one replaced every 800 ms ever since: the pool still forks, more than
 * forkbomb_min_descendants every 10 s, but at a tenth of the pace of its
 * start.
 */
FIXTURE_VARIANT_ADD(innocent, recycling_pool_and_hog) {
	.mode = "recycle", .arg1 = "160", .arg2 = "800", .processes = 160,
	.hog = true, .warmup_ms = 25000,
};

/* Thousands of short commands, one after another. */
FIXTURE_VARIANT_ADD(innocent, shell_loop_and_hog) {
	.mode = "loop", .processes = 1, .hog = true, .warmup_ms = 4000,
};

/*
 * Programs at the rule's boundaries, with the shapes of bombs: many
 * processes, several levels deep, still forking or just done when memory
 * runs out.
 */

#define BUILD_DIR	"/tmp/fbk-build"

static int write_makefile(const char *dir, const char *text)
{
	char path[256];
	FILE *f;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/Makefile", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/*
 * A build three levels deep: the top make runs three sub-makes, each two
 * more, each four compile jobs (fbk_bomb compile: 1 MiB every 60 ms, to
 * 64 MiB), 24 of them at once with -j40. Memory runs out before any of
 * them has finished.
 */
static int prepare_deep_build(void)
{
	static const char *const subs[] = { "a", "b", "c" };
	static const char *const subsubs[] = { "x", "y" };
	char dir[256], text[512];
	unsigned int i, j;

	snprintf(text, sizeof(text),
		 "all: a b c\na b c:\n\t@$(MAKE) -s -C $@\n.PHONY: all a b c\n");
	if (write_makefile(BUILD_DIR, text))
		return -1;
	for (i = 0; i < 3; i++) {
		snprintf(dir, sizeof(dir), BUILD_DIR "/%s", subs[i]);
		if (write_makefile(dir, "all: x y\nx y:\n\t@$(MAKE) -s -C $@\n"
				   ".PHONY: all x y\n"))
			return -1;
		for (j = 0; j < 2; j++) {
			snprintf(dir, sizeof(dir), BUILD_DIR "/%s/%s", subs[i],
				 subsubs[j]);
			snprintf(text, sizeof(text),
				 "all: 1.o 2.o 3.o 4.o\n%%.o:\n"
				 "\t@echo CC $@ >/dev/null; %s compile 64 60\n"
				 ".PHONY: all\n", bomb_path());
			if (write_makefile(dir, text))
				return -1;
		}
	}
	return 0;
}

FIXTURE_VARIANT_ADD(innocent, deep_build) {
	.shell = "/usr/bin/make -s -j40 -C " BUILD_DIR "; sleep 1000",
	.prepare = prepare_deep_build, .processes = 1,
};

/*
 * A pre-forking server just restarted, forking 30 workers a second toward
 * 256 (Apache ramps up at most 32 a second), each holding 1 MiB, when
 * memory runs out.
 */
FIXTURE_VARIANT_ADD(innocent, ramping_prefork_server) {
	.mode = "ramp", .arg1 = "256", .arg2 = "1024", .processes = 1,
};

/* A browser restoring a session: its zygote forks 60 renderers in 2 s. */
FIXTURE_VARIANT_ADD(innocent, browser_session_restore) {
	.mode = "session", .arg1 = "60", .arg2 = "12", .processes = 1,
};

/*
 * A CI runner starting 20 jobs at once, each a shell that runs a command,
 * then a pipeline whose first stage grows.
 */
#define CI_JOB	"sh -c 'date >/dev/null; /kselftest/forkbomb/fbk_bomb compile 64 40 | cat | wc -c'"
#define CI_JOBS	"for i in $(seq 20); do " CI_JOB " >/dev/null & done; wait; sleep 1000"

FIXTURE_VARIANT_ADD(innocent, ci_runner) {
	.shell = CI_JOBS,
	.processes = 1,
};

FIXTURE_VARIANT_ADD(innocent, adj_min_service_and_hog) {
	.mode = "adjmin", .arg1 = "40", .processes = 41, .hog = true,
	.warmup_ms = 500,
};

FIXTURE_SETUP(innocent)
{
	const char *const fbk_argv[] = { bomb_path(), variant->mode, variant->arg1,
					 variant->arg2, NULL };
	const char *const sh_argv[] = { "/bin/sh", "-c", variant->shell, NULL };
	const char *const *argv = variant->shell ? sh_argv : fbk_argv;

	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	ASSERT_EQ(0, protect_self());
	ASSERT_EQ(0, cgroups_setup(&self->saved));
	ASSERT_EQ(0, cg_create(&self->work_cg, "work"));
	ASSERT_EQ(0, cg_create(&self->hog_cg, "hog"));
	ASSERT_EQ(0, change_knob(&self->saved, "forkbomb_triggers", "oom fork_fail"));
	ASSERT_EQ(0, change_knob(&self->saved, "forkbomb_min_descendants", "10"));
	self->bystander = spawn_bystander();
	ASSERT_GT(self->bystander, 0);
	if (variant->prepare)
		ASSERT_EQ(0, variant->prepare());
	if (variant->old) {
		self->work = spawn(argv, cg_enter, &self->work_cg);
		ASSERT_GT(self->work, 0);
		sleep_ms(OLD_MS);
	}
	ASSERT_EQ(0, wait_calm(&self->saved, 200, 60));
	self->kills = knob_long("forkbomb_kills");
	self->oom_kills = file_value("/proc/vmstat", "oom_kill");
	if (!variant->old) {
		self->work = spawn(argv, cg_enter, &self->work_cg);
		ASSERT_GT(self->work, 0);
	}
	sleep_ms(variant->warmup_ms);
}

FIXTURE_TEARDOWN(innocent)
{
	cg_destroy(&self->work_cg);
	cg_destroy(&self->hog_cg);
	stop_child(self->work);
	stop_child(self->hog);
	stop_child(self->bystander);
	reap_children();
	restore_settings(&self->saved);
	cgroups_teardown(&self->saved);
}

TEST_F_TIMEOUT(innocent, oom, 900)
{
	const char *const argv[] = { bomb_path(), "hog", NULL };
	double start = now_s();
	int status, left;

	if (variant->hog) {
		self->hog = spawn(argv, cg_enter, &self->hog_cg);
		ASSERT_GT(self->hog, 0);
		ASSERT_EQ(self->hog, waitpid(self->hog, &status, 0));
		TH_LOG("hog killed after %.1f s", now_s() - start);
		self->hog = 0;
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	} else {
		/* The program runs the machine out of memory by itself. */
		while (file_value("/proc/vmstat", "oom_kill") == self->oom_kills &&
		       now_s() - start < scaled(120))
			sleep_ms(100);
		TH_LOG("first OOM kill after %.1f s", now_s() - start);
	}
	sleep_ms(scaled(2) * 1000);
	reap_children();

	EXPECT_EQ(self->kills, knob_long("forkbomb_kills"))
		TH_LOG("the fork bomb killer acted on an innocent program");
	/* /proc/vmstat's oom_kill counts the fork bomb killer's victims too. */
	EXPECT_GE(file_value("/proc/vmstat", "oom_kill") - self->oom_kills, 1)
		TH_LOG("the ordinary OOM killer did not act");
	EXPECT_TRUE(child_alive(self->work)) TH_LOG("the program's parent died");
	EXPECT_TRUE(bystander_responsive(self->bystander, scaled(BEAT_WITHIN_S)))
		TH_LOG("the bystander was killed or stopped beating");
	left = cg_procs(&self->work_cg);
	EXPECT_GE(left, variant->processes) TH_LOG("%d of the program left", left);
}

TEST_HARNESS_MAIN
