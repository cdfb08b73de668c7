// SPDX-License-Identifier: GPL-2.0
/*
 * Real programs that fork a lot and hit a limit, none of them a fork
 * bomb: stress-ng's fork, vm and bigheap stressors in a memory cgroup
 * (also one with memory.oom.group), stress-ng and a bounded shell job of
 * background commands as a user under RLIMIT_NPROC, in busybox sh and in
 * bash, which retries its failed forks. The limit is doing its
 * work: the fork bomb killer must not act, and the program must finish as
 * it does on a kernel without it. Destructive: runs only with
 * FORKBOMB_DESTRUCTIVE=1; needs stress-ng for most cases.
 */
#include <sys/resource.h>
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define STRESS_NG	"/usr/bin/stress-ng"
#define USER_UID	1000

FIXTURE(realprog) {
	struct saved_settings saved;
	struct test_cgroup cg;
	pid_t pid;
	long kills;
	long fork_failures;
};

FIXTURE_VARIANT(realprog) {
	const char *argv[16];
	const char *memory_max;	/* of the program's cgroup, NULL: default */
	bool oom_group;
	int nproc;		/* as USER_UID with this RLIMIT_NPROC; 0: root */
	bool any_exit;		/* its exit status is its own business */
	bool killed_ok;		/* and so is being killed (by the OOM killer) */
};

FIXTURE_VARIANT_ADD(realprog, stress_ng_fork16_vm1_memcg) {
	.argv = { STRESS_NG, "--fork", "16", "--fork-max", "64", "--vm", "1",
		  "--vm-bytes", "50%", "-t", "10s", NULL },
	.memory_max = "128M",
};

FIXTURE_VARIANT_ADD(realprog, stress_ng_fork4_vm2_memcg) {
	.argv = { STRESS_NG, "--fork", "4", "--vm", "2", "--vm-bytes", "50%",
		  "-t", "10s", NULL },
	.memory_max = "128M",
};

/* The administrator asked for the whole group or nothing: the group dies. */
FIXTURE_VARIANT_ADD(realprog, stress_ng_fork16_vm1_oom_group) {
	.argv = { STRESS_NG, "--fork", "16", "--fork-max", "64", "--vm", "1",
		  "--vm-bytes", "50%", "-t", "10s", NULL },
	.memory_max = "128M", .oom_group = true, .any_exit = true,
	.killed_ok = true,
};

FIXTURE_VARIANT_ADD(realprog, stress_ng_bigheap_memcg) {
	.argv = { STRESS_NG, "--bigheap", "2", "--fork", "4", "-t", "10s", NULL },
	.memory_max = "128M",
};

FIXTURE_VARIANT_ADD(realprog, stress_ng_fork_nproc_user) {
	.argv = { STRESS_NG, "--fork", "4", "--fork-max", "64", "-t", "10s",
		  NULL },
	.nproc = 100,
};

/*
 * 60 `sleep 3 &` against RLIMIT_NPROC 40: forks fail, and the job goes on
 * (bash, dash) or stops with an error (busybox sh): its own business.
 */
FIXTURE_VARIANT_ADD(realprog, bounded_shell_job_nproc_user) {
	.argv = { "/bin/sh", "-c",
		  "for i in $(seq 60); do sleep 3 & done 2>/dev/null; wait", NULL },
	.nproc = 40, .any_exit = true,
};

/*
 * The same job in bash, which retries a failed fork after 1, 2, 4 ... s
 * ("fork: retry: Resource temporarily unavailable") until it succeeds.
 */
FIXTURE_VARIANT_ADD(realprog, bash_retrying_job_nproc_user) {
	.argv = { "/bin/bash", "-c",
		  "for i in $(seq 60); do sleep 3 & done 2>/dev/null; wait", NULL },
	.nproc = 40,
};

static int enter_as_user(void *arg)
{
	const struct _fixture_variant_realprog *variant = arg;
	struct rlimit rl = { variant->nproc, variant->nproc };

	if (setrlimit(RLIMIT_NPROC, &rl) || setgid(USER_UID) || setuid(USER_UID))
		return -1;
	return 0;
}

struct enter_args {
	struct test_cgroup *cg;
	const struct _fixture_variant_realprog *variant;
};

static int enter(void *arg)
{
	struct enter_args *args = arg;

	/* stress-ng wants a writable working directory. */
	if (cg_enter(args->cg) || chdir("/tmp"))
		return -1;
	return args->variant->nproc ? enter_as_user((void *)args->variant) : 0;
}

FIXTURE_SETUP(realprog)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	if (access(variant->argv[0], X_OK))
		SKIP(return, "%s is not installed", variant->argv[0]);
	ASSERT_EQ(0, protect_self());
	ASSERT_EQ(0, cgroups_setup(&self->saved));
	ASSERT_EQ(0, cg_create(&self->cg, "program"));
	if (variant->memory_max)
		ASSERT_EQ(0, cg_write(&self->cg, "memory.max", variant->memory_max));
	if (variant->oom_group)
		ASSERT_EQ(0, cg_write(&self->cg, "memory.oom.group", "1"));
	ASSERT_EQ(0, change_knob(&self->saved, "forkbomb_triggers", "oom fork_fail"));
	ASSERT_EQ(0, change_knob(&self->saved, "forkbomb_min_descendants", "10"));
	ASSERT_EQ(0, wait_calm(&self->saved, 200, 60));
	self->kills = knob_long("forkbomb_kills");
	self->fork_failures = knob_long("forkbomb_fork_failures");
}

FIXTURE_TEARDOWN(realprog)
{
	cg_destroy(&self->cg);
	stop_child(self->pid);
	reap_children();
	restore_settings(&self->saved);
	cgroups_teardown(&self->saved);
}

TEST_F_TIMEOUT(realprog, runs_to_its_end, 900)
{
	struct enter_args args = { &self->cg, variant };
	double start = now_s();
	int status = 0;
	pid_t done = 0;

	self->pid = spawn(variant->argv, enter, &args);
	ASSERT_GT(self->pid, 0);
	while (now_s() - start < scaled(120)) {
		done = waitpid(self->pid, &status, WNOHANG);
		if (done)
			break;
		reap_children();
		sleep_ms(100);
	}
	ASSERT_EQ(self->pid, done) TH_LOG("still running after %d s", scaled(120));
	self->pid = 0;
	TH_LOG("%s ended after %.1f s: %s %d", variant->argv[0], now_s() - start,
	       WIFEXITED(status) ? "exit" : "signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	EXPECT_EQ(self->kills, knob_long("forkbomb_kills"))
		TH_LOG("the fork bomb killer acted on %s", variant->argv[0]);
	/* It did meet its limit. */
	if (variant->memory_max) {
		char path[320];

		snprintf(path, sizeof(path), "%s/memory.events", self->cg.path);
		EXPECT_GE(file_value(path, "oom"), 1) TH_LOG("no OOM in its cgroup");
	}
	if (variant->nproc)
		EXPECT_GT(knob_long("forkbomb_fork_failures"), self->fork_failures)
			TH_LOG("no fork failed");
	if (!variant->killed_ok)
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d",
						      WTERMSIG(status));
	if (!variant->any_exit)
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_HARNESS_MAIN
