// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's instrument, run inside the guest: starts a bystander that
 * times its own fork+exit+wait every 250 ms, starts a fork bomb, and
 * samples the bomb's size and the bystander's latency until the window
 * ends (or the system has recovered for a few seconds).
 *
 *   fbk_monitor SCENARIO WINDOW_S      SCENARIO: c, shell or threads
 *
 * Prints "DEMO-SAMPLE t=... bombs=... latency_ms=..." lines and one
 * "DEMO-RESULT ..." line. The monitor itself runs with oom_score_adj
 * -1000 so that it survives to report on either kernel; the bystander
 * and the bomb run with 0. It never forks once the bomb runs.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include "forkbomb_util.h"	/* tools/testing/selftests/forkbomb/ */

#define BOMB		"/kselftest/forkbomb/fbk_bomb"
#define CGROUP		"/sys/fs/cgroup/demo-bomb/"

/*
 * The bomb runs in a cgroup of its own, so that counting it is one read
 * of pids.current (zombies count until we reap them, which we do before
 * each count).
 */
static int use_cgroup;

static void setup_cgroup(void)
{
	mkdir(CGROUP, 0755);
	write_text("/sys/fs/cgroup/cgroup.subtree_control", "+pids");
	use_cgroup = access(CGROUP "pids.current", R_OK) == 0;
}

static int count_bombs(void)
{
	char buf[32];

	if (!use_cgroup)
		return -1;
	return read_text(CGROUP "pids.current", buf, sizeof(buf)) > 0 ?
	       atoi(buf) : -1;
}

/*
 * What the bystander shares with the monitor: when its fork in flight
 * started (0 when none is), and how long the last one took (-1: failed).
 * A fork that hangs counts for as long as it has been hanging.
 */
struct probe {
	volatile double started;
	volatile double last_ms;
};

/* The bystander: times fork+exit+wait every 250 ms. */
static void bystander(struct probe *probe)
{
	write_text("/proc/self/oom_score_adj", "0");
	for (;;) {
		double t0 = now_s(), ms;
		pid_t pid;

		probe->started = t0;
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		ms = pid > 0 ? (now_s() - t0) * 1000 : -1;
		probe->last_ms = ms;
		probe->started = 0;
		if (ms >= 0 && ms < 250)
			sleep_ms(250 - (long)ms);
		else
			sleep_ms(10);
	}
}

/* The bystander's latency as of now: its last fork, or the one hanging. */
static double latency_now(const struct probe *probe)
{
	double started = probe->started, ms = probe->last_ms;

	if (started > 0 && (now_s() - started) * 1000 > ms && ms >= 0)
		ms = (now_s() - started) * 1000;
	return ms;
}

static pid_t start_bomb(const char *scenario)
{
	char *envp[] = { "PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL };
	char *shell[] = { "/bin/sh", "-c", "f(){ f|f & }; f", NULL };
	char *c[] = { BOMB, "c", "64", NULL };
	pid_t pid = fork();

	if (pid)
		return pid;
	write_text("/proc/self/oom_score_adj", "0");
	if (use_cgroup)
		write_text(CGROUP "cgroup.procs", "0");
	execve(strcmp(scenario, "shell") ? c[0] : shell[0],
	       strcmp(scenario, "shell") ? c : shell, envp);
	_exit(127);
}

int main(int argc, char **argv)
{
	const char *scenario = argc > 1 ? argv[1] : "c";
	double window = argc > 2 ? atof(argv[2]) : 45;
	long oom0, kills0, tasks0;
	double start, recovered = -1, t, latency_ms = -1;
	int bombs = -1, killed = 0;
	struct probe *probe;
	struct saved_settings saved = { 0 };
	pid_t by, w;

	setvbuf(stdout, NULL, _IOLBF, 0);
	write_text("/proc/self/oom_score_adj", "-1000");
	/* The bomb's orphans come to us, and we reap them as they die. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	probe = mmap(NULL, sizeof(*probe), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (probe == MAP_FAILED)
		return 1;
	probe->started = 0;
	probe->last_ms = -1;
	by = fork();
	if (by == 0)
		bystander(probe);

	setup_cgroup();
	/* Let the reaper see the system calm, as it would be before a real bomb. */
	if (wait_calm(&saved, 200, 30))
		knob_set("mm_tracking_reset_interval_msecs", "30000");
	if (!strcmp(scenario, "threads"))
		write_text("/proc/sys/kernel/threads-max", "3000");
	else
		write_text("/proc/sys/kernel/threads-max", "100000");
	oom0 = file_value("/proc/vmstat", "oom_kill");
	kills0 = knob_long("forkbomb_kills");
	tasks0 = knob_long("forkbomb_tasks_killed");

	start = now_s();
	start_bomb(scenario);
	for (t = 0; t < window; t = now_s() - start) {
		sleep_ms(250);
		while ((w = waitpid(-1, NULL, WNOHANG)) > 0)
			if (w == by)
				killed = 1;
		latency_ms = killed ? -1 : latency_now(probe);
		bombs = count_bombs();
		t = now_s() - start;
		printf("DEMO-SAMPLE t=%.2f bombs=%d latency_ms=%.1f bystander_killed=%d oom_kills=%ld fbk_kills=%ld\n",
		       t, bombs, latency_ms, killed,
		       file_value("/proc/vmstat", "oom_kill") - oom0,
		       kills0 < 0 ? -1 : knob_long("forkbomb_kills") - kills0);
		if (bombs == 0 && !killed && latency_ms >= 0 && latency_ms < 50) {
			if (recovered < 0)
				recovered = t;
			if (t - recovered >= 3)
				break;
		} else {
			recovered = -1;
		}
	}
	while ((w = waitpid(-1, NULL, WNOHANG)) > 0)
		if (w == by)
			killed = 1;
	printf("DEMO-RESULT scenario=%s recovered=%.1f left=%d bystander_killed=%d oom_kills=%ld fbk_kills=%ld fbk_tasks=%ld window=%.0f\n",
	       scenario, recovered, bombs, killed,
	       file_value("/proc/vmstat", "oom_kill") - oom0,
	       kills0 < 0 ? -1 : knob_long("forkbomb_kills") - kills0,
	       tasks0 < 0 ? -1 : knob_long("forkbomb_tasks_killed") - tasks0,
	       window);
	/* Whatever is left of the bomb goes, so that the guest can power off. */
	if (use_cgroup)
		write_text(CGROUP "cgroup.kill", "1");
	return 0;
}
