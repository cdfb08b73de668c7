// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bombs one after another in one boot: a second bomb right after the
 * first, then twenty in a row, taken in turn by the OOM trigger and by the
 * fork failure trigger (threads-max), after which the history must shrink
 * back to its idle size (nothing leaks).
 */
#include "../kselftest_harness.h"
#include "bomb_common.h"

FIXTURE(stress) {
	struct bomb_run run;
};

FIXTURE_SETUP(stress)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "oom fork_fail"));
}

FIXTURE_TEARDOWN(stress)
{
	bomb_cleanup(&self->run);
}

/* Threads in the system now: the total of /proc/loadavg's "running/total". */
static long nr_threads(void)
{
	char buf[128], *slash;

	if (read_text("/proc/loadavg", buf, sizeof(buf)) <= 0)
		return -1;
	slash = strchr(buf, '/');
	return slash ? strtol(slash + 1, NULL, 10) : -1;
}

static int one_bomb(struct bomb_run *run, const char *mode, const char *kib)
{
	long kills = knob_long("forkbomb_kills");

	if (bomb_start(run, mode, kib, NULL, NULL) < 0)
		return -1;
	if (wait_gone(run->mark, run->started, 120, 1000) < 0)
		return -1;
	return knob_long("forkbomb_kills") > kills ? 0 : -1;
}

TEST_F_TIMEOUT(stress, second_bomb_right_after, 300)
{
	ASSERT_EQ(0, one_bomb(&self->run, "spread", "64"));
	/* No calm moment in between: the second bomb is just as young. */
	ASSERT_EQ(0, one_bomb(&self->run, "c", "256"));
	EXPECT_TRUE(child_alive(self->run.bystander));
	EXPECT_EQ(0, count_marked(self->run.mark));
}

TEST_F_TIMEOUT(stress, twenty_bombs, 900)
{
	static const char *const modes[] = { "c", "spread", "setsid", "exec" };
	long idle, after;
	double start;
	int i;

	ASSERT_EQ(0, wait_calm(200, 60));
	idle = knob_long("mm_tracking_records");
	for (i = 0; i < 20; i++) {
		const char *limit = "100000";
		char room[32];

		/* Every other bomb runs out of threads long before memory. */
		if (i % 2) {
			snprintf(room, sizeof(room), "%ld", nr_threads() + 150);
			limit = room;
		}
		ASSERT_EQ(0, write_text("/proc/sys/kernel/threads-max", limit));
		ASSERT_EQ(0, one_bomb(&self->run, modes[i % 4], "1024"))
			TH_LOG("bomb %d (%s, threads-max %s) was not killed",
			       i + 1, modes[i % 4], limit);
		reap_children();
	}
	ASSERT_EQ(0, write_text("/proc/sys/kernel/threads-max", "100000"));
	EXPECT_TRUE(child_alive(self->run.bystander));
	EXPECT_GE(knob_long("forkbomb_kills") - self->run.kills, 20);

	/* Once calm, the history of all twenty is forgotten. */
	ASSERT_EQ(0, knob_set("mm_tracking_reset_interval_msecs", "200"));
	start = now_s();
	do {
		sleep_ms(500);
		after = knob_long("mm_tracking_records");
	} while (after > idle + 10 && now_s() - start < 60);
	EXPECT_LE(after, idle + 10) TH_LOG("records: idle %ld, after %ld", idle, after);
	TH_LOG("records: idle %ld, after twenty bombs and %.1f s: %ld",
	       idle, now_s() - start, after);
}

TEST_HARNESS_MAIN
