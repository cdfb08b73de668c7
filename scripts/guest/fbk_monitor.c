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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OOM_DIR		"/sys/kernel/mm/oom/"
#define MARK		"FBK_BOMB=demo"
#define BOMB		"/kselftest/forkbomb/fbk_bomb"
#define CGROUP		"/sys/fs/cgroup/demo-bomb/"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static long read_long(const char *path, const char *key)
{
	char buf[8192], *p;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!key)
		return strtol(buf, NULL, 10);
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, strlen(key)) && p[strlen(key)] == ' ')
			return strtol(p + strlen(key) + 1, NULL, 10);
	return -1;
}

/*
 * Live (not zombie) processes carrying the demo's mark, the slow way:
 * reading every process's environment gets slow when the system thrashes.
 */
static int scan_bombs(void)
{
	char path[64], buf[4096];
	struct dirent *de;
	int count = 0;
	DIR *dir = opendir("/proc");

	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		int pid = atoi(de->d_name), fd, i;
		ssize_t n;
		char *p;

		if (pid <= 1)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (!p || p[2] == 'Z' || p[2] == 'X')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/environ", pid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		for (i = 0; i < n; i += strlen(buf + i) + 1) {
			buf[n] = '\0';
			if (!strcmp(buf + i, MARK)) {
				count++;
				break;
			}
		}
	}
	closedir(dir);
	return count;
}

/*
 * The bomb runs in a cgroup of its own, so that counting it is one read
 * of pids.current (zombies count until we reap them, which we do before
 * each count); the slow scan is the fallback without the pids controller.
 */
static int use_cgroup;

static void setup_cgroup(void)
{
	mkdir(CGROUP, 0755);
	write_file("/sys/fs/cgroup/cgroup.subtree_control", "+pids");
	use_cgroup = access(CGROUP "pids.current", R_OK) == 0;
}

static int count_bombs(void)
{
	return use_cgroup ? read_long(CGROUP "pids.current", NULL) : scan_bombs();
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
	write_file("/proc/self/oom_score_adj", "0");
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
	char *envp[] = { MARK, "PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL };
	char *shell[] = { "/bin/sh", "-c", "f(){ f|f & }; f", NULL };
	char *c[] = { BOMB, "c", "64", NULL };
	pid_t pid = fork();

	if (pid)
		return pid;
	write_file("/proc/self/oom_score_adj", "0");
	if (use_cgroup)
		write_file(CGROUP "cgroup.procs", "0");
	execve(strcmp(scenario, "shell") ? c[0] : shell[0],
	       strcmp(scenario, "shell") ? c : shell, envp);
	_exit(127);
}

/* Let the reaper see the system calm, as it would be before a real bomb. */
static void settle(void)
{
	double start = now_s();

	if (write_file(OOM_DIR "mm_tracking_reset_interval_msecs", "200"))
		return;
	while (now_s() - start < 30) {
		long ago;

		sleep_ms(200);
		ago = read_long("/sys/kernel/debug/forkbomb/dry_run", "calm_ms_ago");
		if (ago >= 0 && ago < (now_s() - start) * 1000 - 10)
			break;
	}
	write_file(OOM_DIR "mm_tracking_reset_interval_msecs", "30000");
}

int main(int argc, char **argv)
{
	const char *scenario = argc > 1 ? argv[1] : "c";
	double window = argc > 2 ? atof(argv[2]) : 45;
	long oom0, kills0, tasks0;
	double start, recovered = -1, t, latency_ms = -1;
	int bombs = -1, killed = 0;
	struct probe *probe;
	pid_t by, w;

	setvbuf(stdout, NULL, _IOLBF, 0);
	write_file("/proc/self/oom_score_adj", "-1000");
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
	settle();
	if (!strcmp(scenario, "threads"))
		write_file("/proc/sys/kernel/threads-max", "3000");
	else
		write_file("/proc/sys/kernel/threads-max", "100000");
	oom0 = read_long("/proc/vmstat", "oom_kill");
	kills0 = read_long(OOM_DIR "forkbomb_kills", NULL);
	tasks0 = read_long(OOM_DIR "forkbomb_tasks_killed", NULL);

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
		       read_long("/proc/vmstat", "oom_kill") - oom0,
		       kills0 < 0 ? -1 : read_long(OOM_DIR "forkbomb_kills", NULL) - kills0);
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
	       read_long("/proc/vmstat", "oom_kill") - oom0,
	       kills0 < 0 ? -1 : read_long(OOM_DIR "forkbomb_kills", NULL) - kills0,
	       tasks0 < 0 ? -1 : read_long(OOM_DIR "forkbomb_tasks_killed", NULL) - tasks0,
	       window);
	/* Whatever is left of the bomb goes, so that the guest can power off. */
	if (use_cgroup)
		write_file(CGROUP "cgroup.kill", "1");
	return 0;
}
