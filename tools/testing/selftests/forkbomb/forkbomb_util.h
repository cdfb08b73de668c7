/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the fork bomb killer selftests: the knobs, marked
 * processes (found through their environment, whoever their parent is
 * now), bystanders, and waiting for the reaper to see the system calm.
 */
#ifndef __FORKBOMB_UTIL_H
#define __FORKBOMB_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OOM_DIR		"/sys/kernel/mm/oom/"
#define DRY_RUN		"/sys/kernel/debug/forkbomb/dry_run"
#define BOMB_ENV	"FBK_BOMB="

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Read a whole (small) file; returns its length or -errno. */
static inline int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* Write @val to @path in one write(); returns 0 or -errno. */
static inline int write_text(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static inline long knob_long(const char *name)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), OOM_DIR "%s", name);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

static inline int knob_text(const char *name, char *buf, size_t size)
{
	char path[256];
	int n;

	snprintf(path, sizeof(path), OOM_DIR "%s", name);
	n = read_text(path, buf, size);
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return n;
}

static inline int knob_set(const char *name, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), OOM_DIR "%s", name);
	return write_text(path, val);
}

static inline bool have_forkbomb_killer(void)
{
	return access(OOM_DIR "mm_tracking_enabled", F_OK) == 0;
}

/* State of /proc/@pid: 'R', 'S', 'Z', ..., or 0 when gone. */
static inline char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Does the environment of @pid hold FBK_BOMB=@mark? */
static inline bool proc_marked(pid_t pid, const char *mark)
{
	char path[64], buf[4096], want[128];
	int fd, n, len, i;

	snprintf(path, sizeof(path), "/proc/%d/environ", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	len = snprintf(want, sizeof(want), BOMB_ENV "%s", mark);
	for (i = 0; i < n; i += strlen(buf + i) + 1)
		if (!strncmp(buf + i, want, len + 1))
			return true;
	return false;
}

/*
 * Live processes whose environment carries FBK_BOMB=@mark (zombies are
 * dead already). With @sig, also send them @sig.
 */
static inline int marked_procs(const char *mark, int sig)
{
	struct dirent *de;
	int count = 0;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		pid_t pid = atoi(de->d_name);
		char state;

		if (pid <= 1)
			continue;
		state = proc_state(pid);
		if (!state || state == 'Z' || state == 'X')
			continue;
		if (!proc_marked(pid, mark))
			continue;
		count++;
		if (sig)
			kill(pid, sig);
	}
	closedir(dir);
	return count;
}

static inline int count_marked(const char *mark)
{
	return marked_procs(mark, 0);
}

/* Kill every marked process, until none is left (test cleanup). */
static inline void kill_marked(const char *mark)
{
	int i;

	for (i = 0; i < 100 && marked_procs(mark, SIGKILL) > 0; i++)
		sleep_ms(50);
}

/* Reap children that exited, so that they do not linger as zombies. */
static inline void reap_children(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/*
 * Run @argv[0] with FBK_BOMB=@mark in a clean environment, as a child.
 * @setup, when given, runs in the child before exec (cgroup, uid, ...).
 */
static inline pid_t spawn_marked(const char *mark, const char *const argv[],
				 int (*setup)(void *), void *arg)
{
	char env_mark[128];
	const char *envp[3];
	pid_t pid;

	snprintf(env_mark, sizeof(env_mark), BOMB_ENV "%s", mark);
	envp[0] = env_mark;
	envp[1] = "PATH=/bin:/sbin:/usr/bin:/usr/sbin";
	envp[2] = NULL;
	pid = fork();
	if (pid)
		return pid;
	if (setup && setup(arg))
		_exit(126);
	execve(argv[0], (char **)argv, (char **)envp);
	_exit(127);
}

/* A bystander: sleeps and wakes, keeps a little memory, lives on. */
static inline pid_t spawn_bystander(void)
{
	pid_t pid = fork();
	char *mem;

	if (pid)
		return pid;
	mem = malloc(256 << 10);
	for (;;) {
		if (mem)
			memset(mem, pid++, 256 << 10);
		asm volatile("" : : "r" (mem) : "memory");
		sleep_ms(100);
	}
}

/* Is our child @pid still running (not exited, not killed)? */
static inline bool child_alive(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) == 0;
}

static inline void stop_child(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* A value from a file of "key value" lines (/proc/vmstat); -1 if missing. */
static inline long file_value(const char *path, const char *key)
{
	char buf[8192], *p;
	size_t len = strlen(key);

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

/* A value from the debugfs dry run; -1 if missing. */
static inline long dry_run_value(const char *key)
{
	return file_value(DRY_RUN, key);
}

/*
 * Make the reaper run every @interval_ms until it has found the system calm
 * after this call: everything alive now is then old history, as the login
 * shell of a real fork bomb would be. Then put the default interval (30 s)
 * back, so that what follows runs as it would on a real machine. Returns 0,
 * or -1 when the system did not calm down within @timeout_s.
 */
static inline int wait_calm(int interval_ms, int timeout_s)
{
	char val[32];
	double start = now_s();

	snprintf(val, sizeof(val), "%d", interval_ms);
	if (knob_set("mm_tracking_reset_interval_msecs", val))
		return -1;
	while (now_s() - start < timeout_s) {
		long ago;

		sleep_ms(interval_ms);
		ago = dry_run_value("calm_ms_ago");
		if (ago >= 0 && ago < (now_s() - start) * 1000 - 10)
			return knob_set("mm_tracking_reset_interval_msecs", "30000");
	}
	return -1;
}

/*
 * Wait until no marked process is left and it stays so for @quiet_ms.
 * Returns the seconds it took from @since, or -1 on timeout.
 */
static inline double wait_gone(const char *mark, double since, int timeout_s,
			       int quiet_ms)
{
	double gone_at = 0;

	while (now_s() - since < timeout_s) {
		reap_children();
		if (count_marked(mark) == 0) {
			if (!gone_at)
				gone_at = now_s();
			if ((now_s() - gone_at) * 1000 >= quiet_ms)
				return gone_at - since;
		} else {
			gone_at = 0;
		}
		sleep_ms(100);
	}
	return -1;
}

/* How many kernel log records contain @needle. */
static inline int kmsg_count(const char *needle)
{
	char line[2048];
	int count = 0;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, line, sizeof(line) - 1);

		if (n < 0) {
			if (errno == EPIPE)
				continue;	/* overwritten records */
			break;
		}
		line[n] = '\0';
		if (strstr(line, needle))
			count++;
	}
	close(fd);
	return count;
}

#endif /* __FORKBOMB_UTIL_H */
