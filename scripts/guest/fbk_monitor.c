// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's instrument, run inside the guest: starts a bystander that
 * times its own fork+exit+wait every 250 ms, starts a fork bomb, and
 * samples the bomb's size, the bystander's latency and the kernel's
 * counters every 250 ms until the window ends (or the system has
 * recovered for 3 s).
 *
 *   fbk_monitor SCENARIO WINDOW_S
 *
 * Scenarios (the bomb runs in the cgroup demo-bomb, counted there):
 *   c          the C fork bomb, each process touching 64 KiB (fbk_bomb c 64)
 *   bash       f(){ date >/dev/null; f & f & }; f typed into a bash that
 *              reads commands from a pipe, as a login shell reads them
 *              from its terminal, started 11 s before (older than the
 *              fork bomb killer's young window); the shell must stay
 *   container  fbk_bomb c 64 in a container: a cgroup with pids.max 300
 *              and memory.max 128M, which it fills
 *
 * Each sample goes out as it is taken, one "DEMO-SAMPLE ..." line on
 * stdout; "DEMO-START ..." comes just before the bomb, "DEMO-RESULT ..."
 * at the end. How the sampler keeps sampling under a bomb the kernel does
 * not stop: fbk_sampling.h.
 */
#define _GNU_SOURCE
#include <sys/prctl.h>
#include "fbk_sampling.h"

#define BOMB		"/kselftest/forkbomb/fbk_bomb"
#define CG_ROOT		"/sys/fs/cgroup/"
#define CGROUP		CG_ROOT "demo-bomb/"
/* A login shell that has been up this long is not part of a new bomb. */
#define SHELL_AGE_S	11

/*
 * What the bystander shares with the monitor: when its fork in flight
 * started (0 when none is), and how long the last one took (-1: failed).
 * A fork that hangs counts for as long as it has been hanging.
 */
struct probe {
	volatile double started;
	volatile double last_ms;
};

/* The files sampled, opened before the bomb; -1 when absent. */
struct sources {
	int vmstat;		/* oom_kill */
	int pids;		/* the bomb's pids.current (zombies too) */
	int pids_events;	/* its pids.events "max": forks it failed */
	int kills;		/* forkbomb_kills (patched kernel only) */
	int tasks;		/* forkbomb_tasks_killed */
};

static void open_sources(struct sources *src)
{
	src->vmstat = open("/proc/vmstat", O_RDONLY);
	src->pids = open(CGROUP "pids.current", O_RDONLY);
	src->pids_events = open(CGROUP "pids.events", O_RDONLY);
	src->kills = open(OOM_DIR "forkbomb_kills", O_RDONLY);
	src->tasks = open(OOM_DIR "forkbomb_tasks_killed", O_RDONLY);
}

/* The cgroup of the bomb: a container has limits, the others none. */
static int setup_cgroup(const char *scenario)
{
	int container = !strcmp(scenario, "container");

	write_text(CG_ROOT "cgroup.subtree_control", "+pids +memory");
	if (mkdir(CGROUP, 0755) && errno != EEXIST)
		return -1;
	if (!container)
		return 0;
	if (write_text(CGROUP "pids.max", "300") ||
	    write_text(CGROUP "memory.max", "128M"))
		return -1;
	return 0;
}

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
		if (ms >= 0 && ms < TICK_MS)
			sleep_ms(TICK_MS - (long)ms);
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

/*
 * Run @argv as an ordinary process in the bomb's cgroup, its output
 * thrown away (a bash whose forks fail says so on every retry); @in,
 * when >= 0, becomes its stdin.
 */
static pid_t start_in_cgroup(char *const argv[], int in)
{
	char *envp[] = { "PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/tmp", NULL };
	pid_t pid = fork();
	int null;

	if (pid)
		return pid;
	write_text("/proc/self/oom_score_adj", "0");
	write_text(CGROUP "cgroup.procs", "0");
	null = open("/dev/null", O_RDWR);
	dup2(in >= 0 ? in : null, 0);
	dup2(null, 1);
	dup2(null, 2);
	if (null > 2)
		close(null);
	execve(argv[0], argv, envp);
	_exit(127);
}

/* The login shell of the bash scenario; *@typing is where to type. */
static pid_t start_shell(int *typing)
{
	char *argv[] = { "/bin/bash", NULL };
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = start_in_cgroup(argv, fds[0]);
	close(fds[0]);
	*typing = fds[1];
	return pid;
}

int main(int argc, char **argv)
{
	const char *scenario = argc > 1 ? argv[1] : "c";
	double window = argc > 2 ? atof(argv[2]) : 45;
	const char *bash_bomb = "f(){ date >/dev/null; f & f & }; f\n";
	char *c_bomb[] = { BOMB, "c", "64", NULL };
	long oom0, fails0, kills0, tasks0, oom, fails, kills, tasks;
	double start, shell_born = 0, recovered = -1, t, latency_ms;
	int bombs = -1, killed = 0, shell_dead = 0, typing = -1, current;
	struct saved_settings saved = { 0 };
	struct timespec next;
	struct sources src;
	struct probe *probe;
	pid_t by, shell = -1, w;

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

	if (strcmp(scenario, "c") && strcmp(scenario, "bash") &&
	    strcmp(scenario, "container")) {
		emit("DEMO-ERROR unknown scenario %s\n", scenario);
		return 2;
	}
	if (setup_cgroup(scenario)) {
		emit("DEMO-ERROR no cgroup for the bomb: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(scenario, "bash")) {
		shell = start_shell(&typing);
		shell_born = now_s();
		if (shell < 0) {
			emit("DEMO-ERROR no shell: %s\n", strerror(errno));
			return 1;
		}
	}
	/* Let the reaper see the system calm, as it would be before a real bomb. */
	if (wait_calm(&saved, 200, 30))
		knob_set("mm_tracking_reset_interval_msecs", "30000");
	write_text(THREADS_MAX, "100000");
	while (shell > 0 && now_s() - shell_born < SHELL_AGE_S)
		sleep_ms(100);

	open_sources(&src);
	oom0 = fd_value(src.vmstat, "oom_kill");
	fails0 = fd_value(src.pids_events, "max");
	kills0 = fd_long(src.kills);
	tasks0 = fd_long(src.tasks);
	protect_sampler();

	emit("DEMO-START scenario=%s window=%.0f\n", scenario, window);
	start = now_s();
	if (shell > 0) {
		if (write(typing, bash_bomb, strlen(bash_bomb)) < 0)
			emit("DEMO-ERROR typing: %s\n", strerror(errno));
	} else {
		start_in_cgroup(c_bomb, -1);
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (t = 0; t < window; ) {
		next_tick(&next);
		while ((w = waitpid(-1, NULL, WNOHANG)) > 0) {
			killed |= w == by;
			shell_dead |= w == shell;
		}
		latency_ms = killed ? -1 : latency_now(probe);
		current = fd_long(src.pids);
		/* The login shell is in the cgroup too, and not the bomb. */
		bombs = current < 0 ? -1 : current - (shell > 0 && !shell_dead);
		oom = fd_value(src.vmstat, "oom_kill") - oom0;
		fails = fails0 < 0 ? 0 : fd_value(src.pids_events, "max") - fails0;
		kills = kills0 < 0 ? -1 : fd_long(src.kills) - kills0;
		tasks = tasks0 < 0 ? -1 : fd_long(src.tasks) - tasks0;
		t = now_s() - start;
		emit("DEMO-SAMPLE t=%.2f bombs=%d latency_ms=%.1f bystander_killed=%d "
		     "oom_kills=%ld fork_fails=%ld fbk_kills=%ld fbk_tasks=%ld shell=%s\n",
		     t, bombs, latency_ms, killed, oom, fails, kills, tasks,
		     shell < 0 ? "-" : shell_dead ? "dead" : "alive");
		if (bombs == 0 && !killed && latency_ms >= 0 && latency_ms < 50) {
			if (recovered < 0)
				recovered = t;
			if (t - recovered >= 3)
				break;
		} else {
			recovered = -1;
		}
	}
	emit("DEMO-RESULT scenario=%s recovered=%.2f window=%.0f\n",
	     scenario, recovered, window);
	/* Whatever is left of the bomb goes, so that the guest can power off. */
	write_text(CGROUP "cgroup.kill", "1");
	return 0;
}
