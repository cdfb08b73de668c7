/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the fork bomb killer selftests: files and knobs,
 * settings saved and put back, processes, the kernel log, time, and
 * waiting for the reaper to see the system calm.
 *
 * Environment:
 *   FORKBOMB_DESTRUCTIVE=1   run the tests that start fork bombs and
 *                            memory hogs (they skip otherwise)
 *   FORKBOMB_TIME_FACTOR=N   stretch every wait and time limit N times
 *                            (slow kernels: KASAN, lockdep, emulation)
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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OOM_DIR		"/sys/kernel/mm/oom/"
#define DRY_RUN		"/sys/kernel/debug/forkbomb/dry_run"
#define THREADS_MAX	"/proc/sys/kernel/threads-max"

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

/* FORKBOMB_TIME_FACTOR, at least 1. */
static inline int time_factor(void)
{
	const char *env = getenv("FORKBOMB_TIME_FACTOR");
	int factor = env ? atoi(env) : 1;

	return factor > 0 ? factor : 1;
}

/* @s seconds on this kernel. */
static inline int scaled(int s)
{
	return s * time_factor();
}

static inline bool destructive_allowed(void)
{
	const char *env = getenv("FORKBOMB_DESTRUCTIVE");

	return env && !strcmp(env, "1");
}

#define DESTRUCTIVE_SKIP \
	"starts fork bombs: set FORKBOMB_DESTRUCTIVE=1 to run it (in a guest)"

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

static inline long file_long(const char *path)
{
	char buf[64];

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * A value from a file of "key value" lines (/proc/vmstat, which a debug
 * kernel makes longer than 8 KiB); -1 if missing.
 */
static inline long file_value(const char *path, const char *key)
{
	static char buf[1 << 16];
	size_t len = strlen(key);
	char *p;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

static inline long knob_long(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), OOM_DIR "%s", name);
	return file_long(path);
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

/* A value from the debugfs dry run; -1 if missing. */
static inline long dry_run_value(const char *key)
{
	return file_value(DRY_RUN, key);
}

/*
 * Settings a test changes, put back by restore_settings() in the fixture's
 * teardown, last changed first.
 */
#define MAX_SAVED	16

struct saved_settings {
	int count;
	char path[MAX_SAVED][128];
	char value[MAX_SAVED][128];
	char controllers_added[32];	/* "-pids -memory": see cgroups_setup() */
};

/* Remember @path's value (once), then write @val to it. */
static inline int change_setting(struct saved_settings *saved,
				 const char *path, const char *val)
{
	int i, n;

	for (i = 0; i < saved->count; i++)
		if (!strcmp(saved->path[i], path))
			break;
	if (i == saved->count) {
		if (saved->count == MAX_SAVED)
			return -ENOSPC;
		n = read_text(path, saved->value[i], sizeof(saved->value[i]));
		if (n < 0)
			return n;
		if (n > 0 && saved->value[i][n - 1] == '\n')
			saved->value[i][n - 1] = '\0';
		snprintf(saved->path[i], sizeof(saved->path[i]), "%s", path);
		saved->count++;
	}
	return write_text(path, val);
}

static inline int change_knob(struct saved_settings *saved, const char *name,
			      const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), OOM_DIR "%s", name);
	return change_setting(saved, path, val);
}

/* Put everything back; returns the number of settings that would not go. */
static inline int restore_settings(struct saved_settings *saved)
{
	int failed = 0;

	while (saved->count > 0) {
		saved->count--;
		if (write_text(saved->path[saved->count], saved->value[saved->count]))
			failed++;
	}
	return failed;
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

/* Set the calling process's oom_score_adj. */
static inline int set_oom_score_adj(int adj)
{
	char val[16];

	snprintf(val, sizeof(val), "%d", adj);
	return write_text("/proc/self/oom_score_adj", val);
}

/* Set the oom_score_adj of process @pid. */
static inline int set_oom_score_adj_of(pid_t pid, int adj)
{
	char path[64], val[16];

	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
	snprintf(val, sizeof(val), "%d", adj);
	return write_text(path, val);
}

/* Reap children that exited, so that they do not linger as zombies. */
static inline void reap_children(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* Is our child @pid still running (not exited, not killed)? */
static inline bool child_alive(pid_t pid)
{
	return pid > 0 && waitpid(pid, NULL, WNOHANG) == 0;
}

static inline void stop_child(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/*
 * The bystanders' heartbeat: the CLOCK_MONOTONIC time, in ms, at which
 * one last woke and did its work, in a page shared with them.
 */
static long *bystander_beat;

static inline long now_ms(void)
{
	return (long)(now_s() * 1000);
}

/*
 * A bystander: an ordinary process (oom_score_adj 0) that sleeps and
 * wakes, keeps a little memory, beats its heart every 100 ms, and lives
 * on; but not past the test that started it, whose stdout it holds open.
 */
static inline pid_t spawn_bystander(void)
{
	pid_t parent = getpid();
	char *mem;
	pid_t pid;

	if (!bystander_beat) {
		void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (page == MAP_FAILED)
			return -1;
		bystander_beat = page;
	}
	__atomic_store_n(bystander_beat, now_ms(), __ATOMIC_RELAXED);
	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	set_oom_score_adj(0);
	mem = malloc(256 << 10);
	for (;;) {
		if (mem)
			memset(mem, pid++, 256 << 10);
		__asm__ volatile("" : : "r" (mem) : "memory");
		__atomic_store_n(bystander_beat, now_ms(), __ATOMIC_RELAXED);
		sleep_ms(100);
	}
}

/*
 * Is the bystander @pid alive and responsive: not reaped, and a heartbeat
 * within the last @max_s seconds (a process stuck in D state is alive
 * too)?
 */
static inline bool bystander_responsive(pid_t pid, double max_s)
{
	return child_alive(pid) && bystander_beat &&
	       now_ms() - __atomic_load_n(bystander_beat, __ATOMIC_RELAXED) <=
	       max_s * 1000;
}

/*
 * How many kernel log records contain @needle; the text of the last one
 * (after the record's header) goes to @last, "" when none, if @last.
 */
static inline int kmsg_scan(const char *needle, char *last, size_t size)
{
	char line[2048];
	int count = 0;
	int fd;

	if (last)
		last[0] = '\0';
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
		if (!strstr(line, needle))
			continue;
		count++;
		if (last)
			snprintf(last, size, "%s",
				 strchr(line, ';') ? strchr(line, ';') + 1 : line);
	}
	close(fd);
	return count;
}

/* How many kernel log records contain @needle. */
static inline int kmsg_count(const char *needle)
{
	return kmsg_scan(needle, NULL, 0);
}

/* The kernel log from now on: a reader for kmsg_new(), or -1. */
static inline int kmsg_follow(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * How many records that contain @needle the kernel logged since @fd last
 * read (kmsg_follow()); records overwritten before they were read (the
 * log wrapped) are not counted. The text of the last one goes to @last,
 * if @last.
 */
static inline int kmsg_new(int fd, const char *needle, char *last, size_t size)
{
	char line[2048];
	int count = 0;

	if (last)
		last[0] = '\0';
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, line, sizeof(line) - 1);

		if (n < 0) {
			if (errno == EPIPE)
				continue;
			break;
		}
		line[n] = '\0';
		if (!strstr(line, needle))
			continue;
		count++;
		if (last)
			snprintf(last, size, "%s",
				 strchr(line, ';') ? strchr(line, ';') + 1 : line);
	}
	return count;
}

/*
 * Make the reaper run every @interval_ms until it has found the system calm
 * after this call: everything alive now is then old history, as the login
 * shell of a real fork bomb would be. Then put the default interval (30 s)
 * back, so that what follows runs as it would on a real machine (the
 * caller's teardown restores the original). Returns 0, or -1 when the
 * system did not calm down within @timeout_s (scaled).
 */
static inline int wait_calm(struct saved_settings *saved, int interval_ms,
			    int timeout_s)
{
	char val[32];
	double start = now_s();

	snprintf(val, sizeof(val), "%d", interval_ms);
	if (change_knob(saved, "mm_tracking_reset_interval_msecs", val))
		return -1;
	while (now_s() - start < scaled(timeout_s)) {
		long ago;

		sleep_ms(interval_ms);
		ago = dry_run_value("calm_ms_ago");
		if (ago >= 0 && ago < (now_s() - start) * 1000 - 10)
			return change_knob(saved, "mm_tracking_reset_interval_msecs",
					   "30000");
	}
	return -1;
}

/* One fork()+_exit()+waitpid() of the caller, in ms: a bystander's fork. */
static inline double fork_exit_wait_ms(void)
{
	double t0 = now_s();
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return (now_s() - t0) * 1000;
}

/* qsort() order of doubles. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define TRACE		"/sys/kernel/tracing/trace"

/* Trace the scans (forkbomb:forkbomb_scan) from now on, and only those. */
static inline int trace_scans_restart(void)
{
	int fd;

	if (write_text("/sys/kernel/tracing/events/forkbomb/forkbomb_scan/enable", "1"))
		return -1;
	fd = open(TRACE, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/*
 * The scans of @trigger ("oom", "memcg_oom", "fork_fail") in the trace:
 * how many, and walked= of the last one in *@walked (-1 when there is
 * none). -1 when the trace cannot be read.
 */
static inline int trace_scans(const char *trigger, long *walked)
{
	static char buf[4 << 20];	/* the whole trace buffer of 2 CPUs */
	char needle[64], *p, *last = NULL;
	int fd = open(TRACE, O_RDONLY), scans = 0;
	ssize_t n, len = 0;

	*walked = -1;
	if (fd < 0)
		return -1;
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	snprintf(needle, sizeof(needle), "trigger=%s ", trigger);
	for (p = strstr(buf, needle); p; p = strstr(p + 1, needle)) {
		last = p;
		scans++;
	}
	p = last ? strstr(last, " walked=") : NULL;
	if (p)
		*walked = atol(p + 8);
	return scans;
}

#endif /* __FORKBOMB_UTIL_H */
