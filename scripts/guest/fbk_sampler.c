// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler of make demo-system (scripts/system/data/run.sh): samples
 * the tasks of the cgroup a bomb runs in every 250 ms, streaming each
 * sample to stdout (the results port) as it is taken, until the bomb is
 * gone for 3 s or the window ends; then writes "RECOVERED LEFT" to
 * RESULT_FILE.
 *
 *   fbk_sampler CGROUP_DIR KEEP WINDOW_S RESULT_FILE
 *
 * KEEP: tasks of its own the cgroup holds before the bomb (a login
 * session), not counted. A cgroup that does not exist (yet, or any more:
 * a unit systemd removed) holds 0 tasks. The bomb is gone when none of
 * its tasks are left once it was seen (or 2 s after the start, when it
 * was not, as a bomb killed within a sample would not be). Writes "ready" to RESULT_FILE
 * once it samples, and "DEMO-START" to stdout: start the bomb then.
 *
 * Lines: "DEMO-START window=W", "DEMO-SAMPLE t=T bombs=N oom_kills=N
 * fork_fails=N fbk_kills=N" (fork_fails: the cgroup's pids.events max;
 * fbk_kills -1 on a stock kernel), "DEMO-WATCHED recovered=S left=N".
 * How it keeps sampling under a bomb: fbk_sampling.h.
 */
#define _GNU_SOURCE
#include "fbk_sampling.h"

struct cgroup_files {
	const char *dir;
	int pids;		/* pids.current */
	int events;		/* pids.events */
	int seen;		/* it existed once */
};

static int open_in(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return open(path, O_RDONLY);
}

/*
 * Tasks in the cgroup now, and its forks failed on pids.max so far. A
 * unit's cgroup appears after the bomb started (the one open() left once
 * the bomb runs) and goes when the unit does (reads fail).
 */
static long cgroup_tasks(struct cgroup_files *cg, long *fails)
{
	long n;

	if (cg->pids < 0 && !cg->seen) {
		cg->pids = open_in(cg->dir, "pids.current");
		cg->events = open_in(cg->dir, "pids.events");
		cg->seen = cg->pids >= 0;
	}
	n = fd_long(cg->pids);
	if (fd_value(cg->events, "max") >= 0)
		*fails = fd_value(cg->events, "max");
	return n < 0 ? 0 : n;
}

static int write_result(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t len = strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

int main(int argc, char **argv)
{
	struct cgroup_files cg = { .pids = -1, .events = -1 };
	long keep, n = 0, fails = 0, fails0 = -1, oom0, kills0;
	double window, start, t = 0, gone = -1, recovered = -1;
	int vmstat, kills, bomb_seen = 0;
	struct timespec next;
	char text[64], when[32] = "-1";

	if (argc != 5) {
		fprintf(stderr, "usage: %s CGROUP_DIR KEEP WINDOW_S RESULT_FILE\n", argv[0]);
		return 2;
	}
	cg.dir = argv[1];
	keep = atol(argv[2]);
	window = atof(argv[3]);
	set_oom_score_adj(-1000);
	vmstat = open("/proc/vmstat", O_RDONLY);
	kills = open(OOM_DIR "forkbomb_kills", O_RDONLY);
	oom0 = fd_value(vmstat, "oom_kill");
	kills0 = fd_long(kills);
	cgroup_tasks(&cg, &fails);
	if (cg.seen)
		fails0 = fails;
	protect_sampler();
	if (write_result(argv[4], "ready\n"))
		return 1;
	emit("DEMO-START window=%.0f\n", window);
	start = now_s();
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (t < window) {
		next_tick(&next);
		n = cgroup_tasks(&cg, &fails) - keep;
		if (n < 0)
			n = 0;
		if (fails0 < 0 && cg.seen)
			fails0 = 0;
		t = now_s() - start;
		emit("DEMO-SAMPLE t=%.2f bombs=%ld oom_kills=%ld fork_fails=%ld fbk_kills=%ld\n",
		     t, n, fd_value(vmstat, "oom_kill") - oom0,
		     fails0 < 0 ? 0 : fails - fails0,
		     kills0 < 0 ? -1 : fd_long(kills) - kills0);
		if (n > 0) {
			bomb_seen = 1;
			gone = -1;
			continue;
		}
		if (!bomb_seen && t < 2)
			continue;
		if (gone < 0)
			gone = t;
		if (t - gone >= 3) {
			recovered = gone;
			break;
		}
	}
	if (recovered >= 0)
		snprintf(when, sizeof(when), "%.1f", recovered);
	emit("DEMO-WATCHED recovered=%s left=%ld\n", when, n);
	snprintf(text, sizeof(text), "%s %ld\n", when, n);
	return write_result(argv[4], text) ? 1 : 0;
}
