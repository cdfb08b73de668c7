// SPDX-License-Identifier: GPL-2.0
/*
 * The fork bomb killer under adverse conditions: record allocations that
 * fail (fault injection; boot with slab_nomerge so that the cache can be
 * targeted alone), a history cap hit by a sustained bomb, and a manual
 * OOM (SysRq-F) while the victims of a kill are still exiting.
 */
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define CACHE_FAIL	"/sys/kernel/slab/fbk_node/failslab"

FIXTURE(hardening) {
	struct bomb_run run;
};

FIXTURE_SETUP(hardening)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "oom fork_fail"));
}

FIXTURE_TEARDOWN(hardening)
{
	bomb_cleanup(&self->run);
}

TEST_F_TIMEOUT(hardening, record_allocation_fails, 900)
{
	long records, dropped;
	int i, failed = 0;

	if (access(CACHE_FAIL, W_OK) || access(FAILSLAB "probability", W_OK))
		SKIP(return, "no failslab (CONFIG_FAILSLAB, debugfs, slab_nomerge)");
	ASSERT_EQ(0, change_setting(&self->run.saved, FAILSLAB "ignore-gfp-wait", "N"));
	ASSERT_EQ(0, change_setting(&self->run.saved, FAILSLAB "cache-filter", "Y"));
	ASSERT_EQ(0, change_setting(&self->run.saved, FAILSLAB "verbose", "0"));
	ASSERT_EQ(0, change_setting(&self->run.saved, FAILSLAB "times", "-1"));
	ASSERT_EQ(0, change_setting(&self->run.saved, FAILSLAB "interval", "1"));
	ASSERT_EQ(0, change_setting(&self->run.saved, CACHE_FAIL, "1"));
	records = knob_long("mm_tracking_records");
	dropped = knob_long("mm_tracking_records_dropped");
	ASSERT_EQ(0, change_setting(&self->run.saved, FAILSLAB "probability", "100"));

	/* Every record allocation fails: every fork must still work. */
	for (i = 0; i < 300; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0)
			failed++;
		else
			waitpid(pid, NULL, 0);
	}
	ASSERT_EQ(0, write_text(FAILSLAB "probability", "0"));
	EXPECT_EQ(0, failed);
	EXPECT_EQ(records, knob_long("mm_tracking_records"));
	EXPECT_GE(knob_long("mm_tracking_records_dropped") - dropped, 300);

	/* A bomb started afterwards is still caught (on threads-max: quicker). */
	ASSERT_EQ(0, limit_threads(&self->run.saved, 1400));
	ASSERT_GT(bomb_start(&self->run, "c", "64"), 0);
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
}

/*
 * SysRq-F asks for a kill now: while the victims of a fork bomb kill are
 * exiting, the ordinary OOM killer must still act (the fork bomb killer
 * used to report such an OOM as handled, killing nothing). A process
 * with oom_score_adj 1000 is its victim of choice.
 */
TEST_F_TIMEOUT(hardening, sysrq_oom_while_victims_exit, 900)
{
	const char *const argv[] = { bomb_path(), "prefork", "0", "1", NULL };
	int kmsg, status = 0;
	pid_t victim;
	double start;

	if (access("/proc/sysrq-trigger", W_OK))
		SKIP(return, "no /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ)");
	ASSERT_EQ(0, change_setting(&self->run.saved, "/proc/sys/kernel/sysrq", "1"));
	victim = spawn(argv, NULL, NULL);
	ASSERT_GT(victim, 0);
	ASSERT_EQ(0, set_oom_score_adj_of(victim, 1000));
	ASSERT_EQ(0, change_knob(&self->run.saved, "forkbomb_triggers", "oom"));
	ASSERT_GT(bomb_start(&self->run, "c", "64"), 0);
	start = now_s();
	while (knob_long("forkbomb_kills") == self->run.kills &&
	       now_s() - start < scaled(60))
		sleep_ms(1);
	ASSERT_GT(knob_long("forkbomb_kills"), self->run.kills);
	kmsg = kmsg_follow();
	ASSERT_EQ(0, write_text("/proc/sysrq-trigger", "f"));
	start = now_s();
	while (waitpid(victim, &status, WNOHANG) != victim &&
	       now_s() - start < scaled(10))
		sleep_ms(10);
	EXPECT_TRUE(now_s() - start < scaled(10) && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL)
		TH_LOG("the OOM killer's victim of choice lives");
	stop_child(victim);
	EXPECT_GE(kmsg_new(kmsg, "invoked oom-killer", NULL, 0), 1)
		TH_LOG("SysRq-F was taken as handled: the OOM killer never ran");
	close(kmsg);
	bomb_wait(&self->run, 150);
	EXPECT_FALSE(cg_populated(&self->run.cg));
}

TEST_F_TIMEOUT(hardening, history_cap, 900)
{
	long dropped = knob_long("mm_tracking_records_dropped");
	long kills = knob_long("forkbomb_kills");
	long records, peak = 0;
	double start;

	/*
	 * The bomb keeps the system stressed: only the cap bounds history.
	 * It must outgrow the cap before anything stops it, so the boot has
	 * memory to spare (1 GiB) and threads-max, set well above the cap,
	 * is what it runs into: the fork failure trigger then has to find
	 * it in a history that hit the cap.
	 */
	ASSERT_EQ(0, change_knob(&self->run.saved, "mm_tracking_max_records", "1024"));
	ASSERT_EQ(0, limit_threads(&self->run.saved, 2400));
	ASSERT_EQ(0, change_knob(&self->run.saved,
				 "mm_tracking_reset_interval_msecs", "500"));
	/*
	 * The bombs of the tests before left their records, more than the
	 * cap now allows: the reaper drops them down to three quarters of
	 * it first. A bomb that started before would have no record of its
	 * own: new forks get none while the cap is full.
	 */
	start = now_s();
	while (knob_long("mm_tracking_records") >= 1024 * 3 / 4 &&
	       now_s() - start < scaled(30))
		sleep_ms(100);
	ASSERT_LT(knob_long("mm_tracking_records"), 1024 * 3 / 4);
	ASSERT_GT(bomb_start(&self->run, "c", "64"), 0);
	/* Sample the history until the kill (scanning /proc would be too slow). */
	while (knob_long("forkbomb_kills") == kills &&
	       now_s() - self->run.started < scaled(150)) {
		records = knob_long("mm_tracking_records");
		if (records > peak)
			peak = records;
		sleep_ms(5);
	}
	bomb_wait(&self->run, 150);
	expect_bomb_killed(_metadata, &self->run);
	EXPECT_LE(peak, 1024);
	EXPECT_LE(knob_long("mm_tracking_records"), 1024);
	EXPECT_GE(peak, 1024 * 3 / 4);
	EXPECT_GT(knob_long("mm_tracking_records_dropped") - dropped, 0);
	TH_LOG("records peaked at %ld of 1024; %ld dropped", peak,
	       knob_long("mm_tracking_records_dropped") - dropped);
}

TEST_HARNESS_MAIN
