// SPDX-License-Identifier: GPL-2.0
/*
 * A fork bomb in a memory cgroup with memory.max: the memcg OOM kills the
 * bomb, and only processes of that cgroup, never one outside it. With
 * memory.oom.group set, the administrator asked for the whole cgroup or
 * nothing: the OOM killer's group kill takes the bomb, not this feature.
 * A memcg OOM's scan walks the processes of its cgroup, not the machine's.
 * Destructive: runs only with FORKBOMB_DESTRUCTIVE=1.
 */
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define MEMCG_REPORT	"memory cgroup out of memory: killed fork bomb"
#define OUTSIDERS	300

FIXTURE(memcg) {
	struct bomb_run run;
	struct test_cgroup other;
	pid_t outsider;
};

FIXTURE_SETUP(memcg)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "oom"));
	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.max", "64M"));
	ASSERT_EQ(0, cg_create(&self->other, "other"));
}

FIXTURE_TEARDOWN(memcg)
{
	cg_destroy(&self->other);
	stop_child(self->outsider);
	bomb_cleanup(&self->run);
}

static void start_outsider(struct __test_metadata *_metadata,
			   struct _test_data_memcg *self)
{
	const char *const idle[] = { "/bin/sleep", "1000", NULL };

	/* A process in another cgroup, as young as the bomb. */
	self->outsider = spawn(idle, cg_enter, &self->other);
	ASSERT_GT(self->outsider, 0);
}

/*
 * The bomb's first process starts three children that leave for another
 * memcg before it multiplies: of its family, out of the OOM's scope. They
 * live, as does the outsider; the kill is a memcg OOM's, and there is no
 * global OOM.
 */
TEST_F_TIMEOUT(memcg, bomb_in_memcg, 900)
{
	const char *const argv[] = { bomb_path(), "family", self->other.path,
				     "c", "64", NULL };
	int kmsg = kmsg_follow(), kmsg_global = kmsg_follow();
	long family;

	start_outsider(_metadata, self);
	self->run.started = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->run.cg), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_TRUE(child_alive(self->outsider));
	family = cg_procs(&self->other) - 1;
	EXPECT_EQ(3, family) TH_LOG("%ld of the bomb's family outside left", family);
	EXPECT_GE(kmsg_new(kmsg, MEMCG_REPORT, NULL, 0), 1);
	/* No global OOM: the bomb was contained. */
	EXPECT_EQ(0, kmsg_new(kmsg_global, REPORT "out of memory:", NULL, 0));
	close(kmsg);
	close(kmsg_global);
}

TEST_F_TIMEOUT(memcg, bomb_in_oom_group, 900)
{
	char path[320];

	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.oom.group", "1"));
	start_outsider(_metadata, self);
	ASSERT_GT(bomb_start(&self->run, "c", "64"), 0);
	EXPECT_LE(0, wait_empty(&self->run.cg, self->run.started, 150, 2000));
	EXPECT_EQ(self->run.kills, knob_long("forkbomb_kills"))
		TH_LOG("the fork bomb killer overrode memory.oom.group");
	snprintf(path, sizeof(path), "%s/memory.events", self->run.cg.path);
	EXPECT_GE(file_value(path, "oom_group_kill"), 1);
	EXPECT_TRUE(child_alive(self->outsider));
	EXPECT_TRUE(child_alive(self->run.bystander));
}

/*
 * A memory hog, no bomb, in the cgroup, and OUTSIDERS idle processes in
 * another: the memcg OOM's scan walks the hog's cgroup only (as the OOM
 * killer does), finds no bomb, and the OOM killer kills the hog.
 */
TEST_F_TIMEOUT(memcg, scan_walks_its_cgroup, 300)
{
	const char *const argv[] = { bomb_path(), "hog", NULL };
	long walked, outsiders, ooms;
	int i, status, scans;
	pid_t hog;

	self->outsider = fork();
	ASSERT_LE(0, self->outsider);
	if (self->outsider == 0) {
		if (cg_enter(&self->other))
			_exit(1);
		for (i = 1; i < OUTSIDERS; i++)
			if (fork() == 0)
				break;
		for (;;)
			pause();
	}
	for (i = 0; i < scaled(60) * 10; i++) {
		outsiders = cg_procs(&self->other);
		if (outsiders >= OUTSIDERS)
			break;
		sleep_ms(100);
	}
	ASSERT_EQ(OUTSIDERS, outsiders);
	/* Well below what the guest has left, even on a debug kernel. */
	ASSERT_EQ(0, cg_write(&self->run.cg, "memory.max", "16M"));
	ASSERT_EQ(0, trace_scans_restart()) TH_LOG("cannot trace the scans");
	scans = trace_scans("memcg_oom", &walked);
	ASSERT_LE(0, scans) TH_LOG("cannot read " TRACE);
	ooms = cg_value(&self->run.cg, "memory.events", "oom_kill");
	hog = spawn(argv, cg_enter, &self->run.cg);
	ASSERT_GT(hog, 0);
	ASSERT_EQ(hog, waitpid(hog, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	EXPECT_EQ(self->run.kills, knob_long("forkbomb_kills"));
	EXPECT_LT(ooms, cg_value(&self->run.cg, "memory.events", "oom_kill"))
		TH_LOG("the hog was not killed by its memcg's OOM");
	ASSERT_LT(scans, trace_scans("memcg_oom", &walked))
		TH_LOG("no memcg OOM scan in " TRACE " for the hog");
	/* The hog, and none of the outsiders. */
	EXPECT_GE(2, walked) TH_LOG("the scan walked %ld processes, %ld outside", walked,
				    outsiders);
	/* The outsiders' cgroup: each started one, then stayed. */
	EXPECT_EQ(OUTSIDERS, cg_procs(&self->other));
}

TEST_HARNESS_MAIN
