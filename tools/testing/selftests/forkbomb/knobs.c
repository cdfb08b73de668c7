// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs of the fork bomb killer under /sys/kernel/mm/oom/: defaults,
 * bad input of every kind, non-root writers, concurrent writers, and the
 * history records they control.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/prctl.h>
#include "../kselftest_harness.h"
#include "forkbomb_util.h"

struct knob {
	const char *name;
	const char *def;	/* default value; NULL: any */
	const char *good;	/* a valid value other than the default */
	const char *bad[24];	/* rejected with EINVAL */
};

static const char *const bad_numbers[] = {
	"", "\n", " ", "garbage", "-1", "-0x10", "12abc", "1 2", " 5", "5 ",
	"0x10", "1e3", "99999999999999999999", "18446744073709551616",
	"4294967296",
};

static const struct knob knobs[] = {
	{ "mm_tracking_enabled", "enabled", "disabled",
	  { "", "\n", "enable", "ENABLED", "1", "0", "yes", "enabled disabled",
	    "enabledx", " enabled" } },
	{ "mm_tracking_reset_interval_msecs", "30000", "1000",
	  { "0", "99", "86400001" } },
	{ "mm_tracking_max_records", NULL, "4096", { "0", "1023", "16777217" } },
	{ "forkbomb_min_descendants", "10", "20", { "0", "1", "4194305" } },
	{ "forkbomb_triggers", "oom fork_fail", "oom",
	  { "", "\n", "oomx", "oom oom", "none oom", "oom,fork_fail", "fork-fail",
	    "OOM", "oom fork_fail none" } },
};

static const char *const read_only[] = {
	"mm_tracking_records", "mm_tracking_records_dropped",
	"forkbomb_kills", "forkbomb_tasks_killed", "forkbomb_fork_failures",
};

static bool numeric(const char *name)
{
	return strcmp(name, "mm_tracking_enabled") && strcmp(name, "forkbomb_triggers");
}

FIXTURE(knobs) {
	char saved[5][64];
	struct saved_settings settings;
};

FIXTURE_SETUP(knobs)
{
	unsigned int i;

	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		ASSERT_GT(knob_text(knobs[i].name, self->saved[i], sizeof(self->saved[i])), 0);
}

FIXTURE_TEARDOWN(knobs)
{
	unsigned int i;

	if (!have_forkbomb_killer())
		return;
	restore_settings(&self->settings);
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		knob_set(knobs[i].name, self->saved[i]);
}

TEST_F(knobs, defaults)
{
	char buf[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		ASSERT_GT(knob_text(knobs[i].name, buf, sizeof(buf)), 0);
		if (knobs[i].def)
			EXPECT_STREQ(knobs[i].def, buf) TH_LOG("%s", knobs[i].name);
	}
	/* The cap is 1/256 of memory in 64-byte records, at least 1024. */
	EXPECT_GE(knob_long("mm_tracking_max_records"), 1024);
	for (i = 0; i < ARRAY_SIZE(read_only); i++) {
		long v = knob_long(read_only[i]);

		EXPECT_GE(v, 0) TH_LOG("knob %u", i);
	}
	/* Everything this test's ancestors forked is on record. */
	EXPECT_GT(knob_long("mm_tracking_records"), 3);
}

TEST_F(knobs, bad_input_rejected)
{
	char before[64], after[64], val[80];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		const struct knob *k = &knobs[i];
		const char *const *bad = k->bad;
		unsigned int nbad = 0;

		while (nbad < ARRAY_SIZE(k->bad) && bad[nbad])
			nbad++;
		ASSERT_GT(knob_text(k->name, before, sizeof(before)), 0);
		for (j = 0; j < nbad + (numeric(k->name) ? ARRAY_SIZE(bad_numbers) : 0); j++) {
			const char *v = j < nbad ? bad[j] : bad_numbers[j - nbad];

			/* A zero-length write() never reaches the knob. */
			EXPECT_EQ(*v ? -EINVAL : 0, knob_set(k->name, v))
				TH_LOG("%s accepted \"%s\"", k->name, v);
			ASSERT_GT(knob_text(k->name, after, sizeof(after)), 0);
			EXPECT_STREQ(before, after)
				TH_LOG("%s changed by \"%s\"", k->name, v);
		}
		/* A good value, with and without a newline, is taken. */
		EXPECT_EQ(0, knob_set(k->name, k->good)) TH_LOG("%s", k->name);
		ASSERT_GT(knob_text(k->name, after, sizeof(after)), 0);
		EXPECT_STREQ(k->good, after);
		snprintf(val, sizeof(val), "%s\n", before);
		EXPECT_EQ(0, knob_set(k->name, val));
		ASSERT_GT(knob_text(k->name, after, sizeof(after)), 0);
		EXPECT_STREQ(before, after);
	}
	/* Bounds are inclusive. */
	EXPECT_EQ(0, knob_set("mm_tracking_reset_interval_msecs", "100"));
	EXPECT_EQ(0, knob_set("mm_tracking_reset_interval_msecs", "86400000"));
	EXPECT_EQ(0, knob_set("forkbomb_min_descendants", "2"));
	EXPECT_EQ(0, knob_set("forkbomb_triggers", "none"));
	EXPECT_EQ(0, knob_set("forkbomb_triggers", "fork_fail oom\n"));
	ASSERT_GT(knob_text("forkbomb_triggers", val, sizeof(val)), 0);
	EXPECT_STREQ("oom fork_fail", val);
}

TEST_F(knobs, read_only_counters)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(read_only); i++) {
		char path[128];

		snprintf(path, sizeof(path), OOM_DIR "%s", read_only[i]);
		EXPECT_EQ(-EACCES, write_text(path, "0")) TH_LOG("%s", read_only[i]);
	}
}

TEST_F(knobs, non_root_cannot_write)
{
	pid_t pid = fork();
	int status;

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		unsigned int i;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		for (i = 0; i < ARRAY_SIZE(knobs); i++) {
			char path[128], buf[64];

			snprintf(path, sizeof(path), OOM_DIR "%s", knobs[i].name);
			if (write_text(path, knobs[i].good) != -EACCES)
				_exit(10 + i);
			/* Reading is fine for everyone. */
			if (read_text(path, buf, sizeof(buf)) <= 0)
				_exit(20 + i);
		}
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Two writers on two CPUs, hammering the knobs that take locks. */
TEST_F(knobs, concurrent_writers)
{
	pid_t pids[2];
	char buf[64];
	int i, status;

	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		ASSERT_GE(pids[i], 0);
		if (pids[i] == 0) {
			cpu_set_t set;
			int n;

			CPU_ZERO(&set);
			CPU_SET(i % sysconf(_SC_NPROCESSORS_ONLN), &set);
			sched_setaffinity(0, sizeof(set), &set);
			for (n = 0; n < 300; n++) {
				knob_set("mm_tracking_enabled",
					 (n + i) % 2 ? "disabled" : "enabled");
				knob_set("mm_tracking_reset_interval_msecs", i ? "100" : "200");
				knob_set("mm_tracking_max_records", i ? "2048" : "4096");
				knob_set("forkbomb_triggers", i ? "oom" : "fork_fail");
				if (fork() == 0)
					_exit(0);
				wait(NULL);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	/* Each knob holds one of the values written, whole. */
	ASSERT_GT(knob_text("mm_tracking_reset_interval_msecs", buf, sizeof(buf)), 0);
	EXPECT_TRUE(!strcmp(buf, "100") || !strcmp(buf, "200")) TH_LOG("%s", buf);
	ASSERT_GT(knob_text("forkbomb_triggers", buf, sizeof(buf)), 0);
	EXPECT_TRUE(!strcmp(buf, "oom") || !strcmp(buf, "fork_fail")) TH_LOG("%s", buf);
	ASSERT_GT(knob_text("mm_tracking_enabled", buf, sizeof(buf)), 0);
	if (!strcmp(buf, "disabled"))
		EXPECT_EQ(0, knob_long("mm_tracking_records"));
	/* And tracking works after all that. */
	ASSERT_EQ(0, knob_set("mm_tracking_enabled", "enabled"));
	if (fork() == 0)
		_exit(0);
	wait(NULL);
	EXPECT_GT(knob_long("mm_tracking_records"), 0);
}

/* Fork a tree of @n processes that all exit, and reap them. */
static void fork_exit_tree(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (fork() == 0)
				_exit(0);
			wait(NULL);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
}

TEST_F_TIMEOUT(knobs, records_rise_and_fall, 600)
{
	long idle, peak, after;
	double start;

	/* Settle: let the reaper forget what booting left behind. */
	ASSERT_EQ(0, wait_calm(&self->settings, 200, 30));
	ASSERT_EQ(0, wait_calm(&self->settings, 200, 30));
	idle = knob_long("mm_tracking_records");
	ASSERT_GT(idle, 0);

	fork_exit_tree(100);	/* 200 processes, all gone */
	peak = knob_long("mm_tracking_records");
	EXPECT_GE(peak, idle + 200) TH_LOG("idle %ld peak %ld", idle, peak);

	/* Dead history older than one interval goes once the system is calm. */
	ASSERT_EQ(0, knob_set("mm_tracking_reset_interval_msecs", "200"));
	start = now_s();
	do {
		sleep_ms(200);
		after = knob_long("mm_tracking_records");
	} while (after > idle + 5 && now_s() - start < scaled(30));
	EXPECT_LE(after, idle + 5) TH_LOG("idle %ld peak %ld after %ld", idle, peak, after);
	TH_LOG("records: idle %ld, after 200 forks %ld, %.1f s later %ld",
	       idle, peak, now_s() - start, after);
}

TEST_F_TIMEOUT(knobs, disable_empties_and_reenable_restarts, 600)
{
	long records;
	double start;

	fork_exit_tree(20);
	ASSERT_GT(knob_long("mm_tracking_records"), 0);
	ASSERT_EQ(0, knob_set("mm_tracking_enabled", "disabled"));
	EXPECT_EQ(0, knob_long("mm_tracking_records"));
	fork_exit_tree(20);
	EXPECT_EQ(0, knob_long("mm_tracking_records"));
	/* The processes that lived through it exit without harm. */

	ASSERT_EQ(0, knob_set("mm_tracking_reset_interval_msecs", "30000"));
	ASSERT_EQ(0, knob_set("mm_tracking_enabled", "enabled"));
	fork_exit_tree(50);
	records = knob_long("mm_tracking_records");
	EXPECT_GE(records, 100);
	/* The reaper runs again after re-enabling, and forgets them. */
	ASSERT_EQ(0, knob_set("mm_tracking_reset_interval_msecs", "200"));
	start = now_s();
	while (knob_long("mm_tracking_records") > 5 && now_s() - start < scaled(30))
		sleep_ms(200);
	EXPECT_LE(knob_long("mm_tracking_records"), 5)
		TH_LOG("records stuck at %ld", knob_long("mm_tracking_records"));
}

TEST_F(knobs, dry_run)
{
	char buf[1024];
	pid_t child;

	if (access(DRY_RUN, R_OK))
		SKIP(return, "no debugfs");
	/* An ordinary process, for the scan to count. */
	child = spawn_bystander();
	ASSERT_GT(child, 0);
	sleep_ms(100);
	EXPECT_GE(dry_run_value("records"), 1);
	EXPECT_GE(dry_run_value("tasks"), 1);
	/* A duration: 0 on a clock too coarse for it. */
	EXPECT_GE(dry_run_value("scan_ns"), 0);
	EXPECT_GE(dry_run_value("calm_ms_ago"), 0);
	/* Nothing here is a fork bomb. */
	ASSERT_GT(read_text(DRY_RUN, buf, sizeof(buf)), 0);
	EXPECT_NE(NULL, strstr(buf, "verdict none\n")) TH_LOG("%s", buf);
	stop_child(child);
}

TEST_HARNESS_MAIN
