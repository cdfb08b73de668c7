// SPDX-License-Identifier: GPL-2.0
/*
 * Innocent parallel work during an OOM caused by one memory hog: the fork
 * bomb killer must leave it alone, and the ordinary OOM killer must take
 * the hog. Each test starts a workload, then the hog, and checks that the
 * hog, and only the hog, was killed.
 */
#include "../kselftest_harness.h"
#include "bomb_common.h"

FIXTURE(innocent) {
	pid_t bystander, work, hog;
	long kills;
	int oom_kills;
};

FIXTURE_VARIANT(innocent) {
	const char *mode;
	const char *arg1;
	const char *arg2;
	int processes;		/* the workload's processes that must live */
	bool young;		/* started right before the OOM, not before calm */
	int warmup_ms;
};

FIXTURE_VARIANT_ADD(innocent, make_j4) {
	.mode = "make", .arg1 = "4", .arg2 = "2048", .processes = 1,
	.young = true, .warmup_ms = 500,
};

FIXTURE_VARIANT_ADD(innocent, make_j8) {
	.mode = "make", .arg1 = "8", .arg2 = "2048", .processes = 1,
	.young = true, .warmup_ms = 500,
};

FIXTURE_VARIANT_ADD(innocent, prefork_server) {
	.mode = "prefork", .arg1 = "30", .processes = 31, .warmup_ms = 500,
};

FIXTURE_VARIANT_ADD(innocent, prefork_server_young) {
	.mode = "prefork", .arg1 = "30", .processes = 31, .young = true,
	.warmup_ms = 300,
};

FIXTURE_VARIANT_ADD(innocent, shell_loop) {
	/* Thousands of short commands, one after another. */
	.mode = "loop", .processes = 1, .young = true, .warmup_ms = 4000,
};

FIXTURE_VARIANT_ADD(innocent, adj_min_service) {
	.mode = "adjmin", .arg1 = "40", .processes = 41, .young = true,
	.warmup_ms = 500,
};

FIXTURE_SETUP(innocent)
{
	const char *const argv[] = { bomb_path(), variant->mode, variant->arg1,
			       variant->arg2, NULL };

	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	ASSERT_EQ(0, write_text("/proc/sys/kernel/threads-max", "100000"));
	ASSERT_EQ(0, knob_set("forkbomb_triggers", "oom fork_fail"));
	self->bystander = spawn_bystander();
	ASSERT_GT(self->bystander, 0);
	if (!variant->young) {
		self->work = spawn_marked("work", argv, NULL, NULL);
		ASSERT_GT(self->work, 0);
	}
	ASSERT_EQ(0, wait_calm(200, 60));
	if (variant->young) {
		self->work = spawn_marked("work", argv, NULL, NULL);
		ASSERT_GT(self->work, 0);
	}
	sleep_ms(variant->warmup_ms);
	self->kills = knob_long("forkbomb_kills");
	self->oom_kills = kmsg_count("Out of memory: Killed process");
}

FIXTURE_TEARDOWN(innocent)
{
	kill_marked("work");
	kill_marked("hog");
	stop_child(self->work);
	stop_child(self->hog);
	stop_child(self->bystander);
	reap_children();
}

TEST_F_TIMEOUT(innocent, hog_oom, 200)
{
	const char *const argv[] = { bomb_path(), "hog", NULL };
	double start = now_s();
	int status, left;

	self->hog = spawn_marked("hog", argv, NULL, NULL);
	ASSERT_GT(self->hog, 0);
	ASSERT_EQ(self->hog, waitpid(self->hog, &status, 0));
	TH_LOG("hog killed after %.1f s", now_s() - start);
	self->hog = 0;
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	sleep_ms(500);

	EXPECT_EQ(self->kills, knob_long("forkbomb_kills"))
		TH_LOG("the fork bomb killer acted on an innocent workload");
	EXPECT_GE(kmsg_count("Out of memory: Killed process") - self->oom_kills, 1);
	EXPECT_TRUE(child_alive(self->work));
	EXPECT_TRUE(child_alive(self->bystander));
	left = count_marked("work");
	EXPECT_GE(left, variant->processes) TH_LOG("%d of the workload left", left);
}

TEST_HARNESS_MAIN
