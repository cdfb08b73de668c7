// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bombs one after another in one boot: a second bomb right after the
 * first; no second kill while the victims of the first are still exiting;
 * a kill scoped to one user leaves another user's processes in the same
 * family alone, also in the next, global kill; then twenty bombs in a row,
 * taken in turn by the OOM trigger and by the fork failure trigger
 * (threads-max), after which the history must shrink back to its idle
 * size (nothing leaks). Destructive: runs only with FORKBOMB_DESTRUCTIVE=1.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include "../kselftest_harness.h"
#include "bomb_common.h"

#define USER_UID	1000

FIXTURE(stress) {
	struct bomb_run run;
	struct test_cgroup other;
};

FIXTURE_SETUP(stress)
{
	if (getuid())
		SKIP(return, "must run as root");
	if (!have_forkbomb_killer())
		SKIP(return, "no fork bomb killer (CONFIG_FORKBOMB_KILLER)");
	if (!destructive_allowed())
		SKIP(return, DESTRUCTIVE_SKIP);
	ASSERT_EQ(0, bomb_prepare(&self->run, _metadata->name, "oom fork_fail"));
}

FIXTURE_TEARDOWN(stress)
{
	cg_destroy(&self->other);
	bomb_cleanup(&self->run);
}

/* Run one bomb to its end; 0 when it was killed and nothing is left. */
static int one_bomb(struct bomb_run *run, const char *mode, const char *kib)
{
	long kills = knob_long("forkbomb_kills");

	if (bomb_start(run, mode, kib) < 0)
		return -1;
	if (wait_empty(&run->cg, run->started, 120, 1000) < 0)
		return -1;
	return knob_long("forkbomb_kills") > kills ? 0 : -1;
}

TEST_F_TIMEOUT(stress, second_bomb_right_after, 900)
{
	ASSERT_EQ(0, one_bomb(&self->run, "spread", "64"));
	/* No calm moment in between: the second bomb is just as young. */
	ASSERT_EQ(0, one_bomb(&self->run, "c", "256"));
	EXPECT_TRUE(child_alive(self->run.bystander));
	EXPECT_FALSE(cg_populated(&self->run.cg));
}

/*
 * While the victims of a kill are still exiting, an OOM is not another
 * kill: the killer waits for them as the OOM killer waits for its victim,
 * and neither it nor the OOM killer takes anything else meanwhile.
 */
TEST_F_TIMEOUT(stress, no_kill_while_victims_exit, 900)
{
	long oom_kills = file_value("/proc/vmstat", "oom_kill");
	long tasks = knob_long("forkbomb_tasks_killed");
	char verdict[32] = "";
	double start;
	long kills;

	kills = knob_long("forkbomb_kills");
	ASSERT_GT(bomb_start(&self->run, "c", "64"), 0);
	start = now_s();
	/*
	 * Watch for the kill without competing with it: the test runs at
	 * SCHED_FIFO 1 (protect_self()), the killer thread too
	 * (sched_set_fifo_low()), and a spin would hold a CPU that the
	 * killer and its victims' exits need. Sleeping 1 ms between reads,
	 * it still wakes ahead of every bomb process and sees the kill
	 * within a millisecond or two, while the victims exit.
	 */
	while (knob_long("forkbomb_kills") == kills && now_s() - start < scaled(60))
		sleep_ms(1);
	ASSERT_GT(knob_long("forkbomb_kills"), kills);
	/* What would an OOM do now, with the victims on their way out? */
	if (cg_populated(&self->run.cg)) {
		char buf[512], *v;

		ASSERT_GT(read_text(DRY_RUN, buf, sizeof(buf)), 0);
		v = strstr(buf, "verdict ");
		ASSERT_NE(NULL, v);
		v += strlen("verdict ");
		snprintf(verdict, sizeof(verdict), "%.*s", (int)strcspn(v, "\n"), v);
		/*
		 * "none" is right only if no victim had its memory any more:
		 * one that has it now had it during the whole dry run (the
		 * last victims can be between exit_mm() and cgroup_exit()).
		 */
		if (strcmp(verdict, "wait"))
			EXPECT_EQ(0, cg_procs_with_mm(&self->run.cg))
				TH_LOG("dry run said %s with victims exiting", verdict);
	}
	ASSERT_LE(0, wait_empty(&self->run.cg, start, 120, 1000));
	EXPECT_EQ(kills + 1, knob_long("forkbomb_kills"));
	/* /proc/vmstat's oom_kill counts the fork bomb killer's victims too. */
	EXPECT_EQ(file_value("/proc/vmstat", "oom_kill") - oom_kills,
		  knob_long("forkbomb_tasks_killed") - tasks)
		TH_LOG("the OOM killer killed while the victims were exiting");
	TH_LOG("dry run while the victims exited: %s", verdict[0] ? verdict : "(all gone)");
}

/*
 * A user's bomb that hits RLIMIT_NPROC is killed in that user's scope: a
 * root process in its family is spared, and must not pass the bomb's doom
 * on to a child it forks later, which the next, global kill would take.
 */
TEST_F_TIMEOUT(stress, scoped_kill_then_global, 900)
{
	const char *const argv[] = { bomb_path(), "c", "64", NULL };
	char uid[16], path[320], procs[64];
	pid_t survivor;
	double start;
	long left;

	snprintf(uid, sizeof(uid), "%d", USER_UID);
	ASSERT_GT(bomb_start(&self->run, "userbomb", uid), 0);
	/* The user's part dies; the root child of its first process stays. */
	while (cg_procs(&self->run.cg) != 1 &&
	       now_s() - self->run.started < scaled(120)) {
		reap_children();
		sleep_ms(50);
	}
	sleep_ms(1000);
	reap_children();
	ASSERT_EQ(1, cg_procs(&self->run.cg));
	EXPECT_GE(knob_long("forkbomb_kills") - self->run.kills, 1);

	/* It forks a child now. */
	snprintf(path, sizeof(path), "%s/cgroup.procs", self->run.cg.path);
	ASSERT_GT(read_text(path, procs, sizeof(procs)), 0);
	survivor = atoi(procs);
	ASSERT_GT(survivor, 0);
	ASSERT_EQ(0, kill(survivor, SIGUSR1));
	sleep_ms(500);
	ASSERT_EQ(2, cg_procs(&self->run.cg));

	/* A global bomb elsewhere: killed; the survivor and its child live. */
	ASSERT_EQ(0, cg_create(&self->other, "other"));
	start = now_s();
	ASSERT_GT(spawn(argv, cg_enter, &self->other), 0);
	EXPECT_LE(0, wait_empty(&self->other, start, 150, 1000));
	left = cg_procs(&self->run.cg);
	EXPECT_EQ(2, left) TH_LOG("%ld of the survivor and its child left", left);
}

TEST_F_TIMEOUT(stress, twenty_bombs, 900)
{
	static const char *const modes[] = { "c", "spread", "setsid", "exec" };
	char threads_max[32];
	long idle, after;
	double start;
	int i;

	ASSERT_GT(read_text(THREADS_MAX, threads_max, sizeof(threads_max)), 0);
	idle = knob_long("mm_tracking_records");
	for (i = 0; i < 20; i++) {
		/* Every other bomb runs out of threads long before memory. */
		ASSERT_EQ(0, i % 2 ? limit_threads(&self->run.saved, 150) :
				     write_text(THREADS_MAX, threads_max));
		ASSERT_EQ(0, one_bomb(&self->run, modes[i % 4], "1024"))
			TH_LOG("bomb %d (%s%s) was not killed", i + 1, modes[i % 4],
			       i % 2 ? ", threads-max" : "");
		reap_children();
	}
	EXPECT_TRUE(child_alive(self->run.bystander));
	EXPECT_GE(knob_long("forkbomb_kills") - self->run.kills, 20);

	/* Once calm, the history of all twenty is forgotten. */
	ASSERT_EQ(0, change_knob(&self->run.saved,
				 "mm_tracking_reset_interval_msecs", "200"));
	start = now_s();
	do {
		sleep_ms(500);
		after = knob_long("mm_tracking_records");
	} while (after > idle + 10 && now_s() - start < scaled(60));
	EXPECT_LE(after, idle + 10) TH_LOG("records: idle %ld, after %ld", idle, after);
	TH_LOG("records: idle %ld, after twenty bombs and %.1f s: %ld",
	       idle, now_s() - start, after);
}

/* The user at RLIMIT_NPROC @arg: its fork loop fails for as long as it runs. */
/*
 * Setup callback of spawn(): join the cgroup @arg (whose cgroup.kill
 * removes the loop's idle children with it: they would hold the runner's
 * output open), then become USER_UID with RLIMIT_NPROC 5.
 */
static int enter_limited_user(void *arg)
{
	struct rlimit rl = { 5, 5 };

	if (cg_enter(arg) || setrlimit(RLIMIT_NPROC, &rl) ||
	    setgid(USER_UID) || setuid(USER_UID))
		return -1;
	return 0;
}

struct latency {
	double fork_ms[256];
	int forks;
	double rt_late_ms;
};

/* A real-time probe: how late a 1 ms sleep at SCHED_FIFO 2 wakes, at worst. */
static void *rt_probe(void *arg)
{
	struct sched_param sp = { .sched_priority = 2 };
	struct latency *lat = arg;
	double until = now_s() + scaled(5), t, late;

	sched_setscheduler(0, SCHED_FIFO, &sp);
	while ((t = now_s()) < until) {
		sleep_ms(1);
		late = (now_s() - t) * 1000 - 1;
		if (late > lat->rt_late_ms)
			lat->rt_late_ms = late;
	}
	return NULL;
}

/*
 * For 5 s: an ordinary process's fork+exit+wait every 20 ms, and the
 * real-time probe's lateness beside it.
 */
static void measure(struct latency *lat)
{
	double until = now_s() + scaled(5);
	pthread_t probe;
	pid_t pid;

	memset(lat, 0, sizeof(*lat));
	pthread_create(&probe, NULL, rt_probe, lat);
	pid = fork();
	if (pid == 0) {
		struct sched_param sp = { .sched_priority = 0 };

		sched_setscheduler(0, SCHED_OTHER, &sp);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	while (now_s() < until && lat->forks < 256) {
		lat->fork_ms[lat->forks++] = fork_exit_wait_ms();
		sleep_ms(20);
	}
	pthread_join(probe, NULL);
	qsort(lat->fork_ms, lat->forks, sizeof(double), cmp_double);
}

/*
 * An unprivileged user whose fork loop runs at its RLIMIT_NPROC (5)
 * cannot make the kernel work for the whole machine: with fewer threads
 * than a bomb's young processes (forkbomb_min_descendants, 10), its failed
 * forks scan nothing. Fork latency and a real-time task's lateness,
 * tracking on and off in turn, three times each: no difference beyond
 * noise, and nothing killed.
 */
TEST_F_TIMEOUT(stress, unprivileged_fork_loop, 900)
{
	const char *const argv[] = { bomb_path(), "spawner", "0", NULL };
	double on = 0, off = 0, rt_on = 0, rt_off = 0;
	struct latency lat;
	long failures, walked;
	int scans;
	pid_t loop;
	int round;

	loop = spawn(argv, enter_limited_user, &self->run.cg);
	ASSERT_GT(loop, 0);
	/* Until it waits for the signal, SIGUSR1 would kill it. */
	sleep_ms(scaled(1) * 1000);
	ASSERT_EQ(0, kill(loop, SIGUSR1));
	sleep_ms(500);
	ASSERT_EQ(0, trace_scans_restart()) TH_LOG("cannot trace the scans");
	failures = knob_long("forkbomb_fork_failures");
	for (round = 0; round < 6; round++) {
		ASSERT_EQ(0, change_knob(&self->run.saved, "mm_tracking_enabled",
					 round % 2 ? "disabled" : "enabled"));
		measure(&lat);
		ASSERT_GT(lat.forks, 10);
		if (round % 2) {
			off += lat.fork_ms[lat.forks / 2] / 3;
			rt_off = lat.rt_late_ms > rt_off ? lat.rt_late_ms : rt_off;
		} else {
			on += lat.fork_ms[lat.forks / 2] / 3;
			rt_on = lat.rt_late_ms > rt_on ? lat.rt_late_ms : rt_on;
		}
	}
	ASSERT_EQ(0, change_knob(&self->run.saved, "mm_tracking_enabled", "enabled"));
	TH_LOG("fork+exit+wait median %.2f ms tracking on, %.2f ms off; "
	       "real-time probe late %.2f ms at worst on, %.2f ms off",
	       on, off, rt_on, rt_off);
	EXPECT_GT(knob_long("forkbomb_fork_failures"), failures)
		TH_LOG("the loop's forks did not fail");
	scans = trace_scans("fork_fail", &walked);
	EXPECT_EQ(0, scans) TH_LOG("the loop's failures caused %d scans", scans);
	EXPECT_TRUE(child_alive(loop)) TH_LOG("the loop was killed");
	EXPECT_EQ(self->run.kills, knob_long("forkbomb_kills"));
	EXPECT_LE(on, 1.5 * off + 1) TH_LOG("forks are slower with tracking on");
	EXPECT_LE(rt_on, 2 * rt_off + scaled(10))
		TH_LOG("the real-time probe is later with tracking on");
	stop_child(loop);
}

TEST_HARNESS_MAIN
