/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running fork bombs and busy programs safely: each in a cgroup of its own
 * with pids.max and memory.max (from FORKBOMB_PIDS_MAX, default 4096, and
 * FORKBOMB_MEMORY_MAX, default 512M), counted from pids.current and
 * removed with cgroup.kill whatever happens, so that a failing test (or a
 * kernel without the fork bomb killer) can never take the machine down.
 * In a guest smaller than memory.max, a bomb runs the machine out of
 * memory; on a big machine it meets its cgroup's limits instead.
 *
 * The test process protects itself (oom_score_adj -1000, and it adopts
 * the bomb's orphans as a subreaper), so that a broken kernel gives a
 * named failure, not a killed test; what it starts runs at 0.
 */
#ifndef __FORKBOMB_BOMB_COMMON_H
#define __FORKBOMB_BOMB_COMMON_H

#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <sys/prctl.h>
#include "forkbomb_util.h"

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK	0x40000000
#endif

#define REPORT		"forkbomb: "
#define CG_ROOT		"/sys/fs/cgroup/"
#define CG_TESTS	CG_ROOT "forkbomb.selftest/"

/* The fbk_bomb helper, next to the test program. */
static inline const char *bomb_path(void)
{
	static char path[PATH_MAX];
	char self[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return "./fbk_bomb";
	self[n] = '\0';
	snprintf(path, sizeof(path), "%s/fbk_bomb", dirname(self));
	return path;
}

/* --- cgroups --- */

struct test_cgroup {
	char path[256];
};

/*
 * The parent of the tests' cgroups, with the pids and memory controllers.
 * What had to be enabled in the root for it is noted in @saved and
 * disabled again by cgroups_teardown().
 */
static inline int cgroups_setup(struct saved_settings *saved)
{
	static const char *const needed[] = { "pids", "memory" };
	char controllers[256], change[32];
	unsigned int i;
	size_t len;

	if (read_text(CG_ROOT "cgroup.subtree_control", controllers,
		      sizeof(controllers)) < 0)
		return -1;
	for (i = 0; i < 2; i++) {
		if (strstr(controllers, needed[i]))
			continue;
		snprintf(change, sizeof(change), "+%s", needed[i]);
		if (write_text(CG_ROOT "cgroup.subtree_control", change))
			return -1;
		len = strlen(saved->controllers_added);
		snprintf(saved->controllers_added + len,
			 sizeof(saved->controllers_added) - len, "%s-%s",
			 len ? " " : "", needed[i]);
	}
	if (mkdir(CG_TESTS, 0755) && errno != EEXIST)
		return -1;
	return write_text(CG_TESTS "cgroup.subtree_control", "+pids +memory");
}

static inline void cgroups_teardown(struct saved_settings *saved)
{
	rmdir(CG_TESTS);
	if (saved->controllers_added[0])
		write_text(CG_ROOT "cgroup.subtree_control",
			   saved->controllers_added);
	saved->controllers_added[0] = '\0';
}

static inline const char *env_or(const char *name, const char *def)
{
	const char *env = getenv(name);

	return env && *env ? env : def;
}

static inline int cg_write(struct test_cgroup *cg, const char *file,
			   const char *val)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/%s", cg->path, file);
	return write_text(path, val);
}

static inline long cg_long(struct test_cgroup *cg, const char *file)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/%s", cg->path, file);
	return file_long(path);
}

/* A value of a "key value" file of the cgroup; -1 if missing. */
static inline long cg_value(struct test_cgroup *cg, const char *file,
			    const char *key)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/%s", cg->path, file);
	return file_value(path, key);
}

/* A cgroup @name for one workload, with the limits from the environment. */
static inline int cg_create(struct test_cgroup *cg, const char *name)
{
	snprintf(cg->path, sizeof(cg->path), CG_TESTS "%s", name);
	if (mkdir(cg->path, 0755) && errno != EEXIST)
		return -1;
	if (cg_write(cg, "pids.max", env_or("FORKBOMB_PIDS_MAX", "4096")) ||
	    cg_write(cg, "memory.max", env_or("FORKBOMB_MEMORY_MAX", "512M")))
		return -1;
	return 0;
}

/* Live processes in the cgroup (not zombies), or -1. */
static inline long cg_procs(struct test_cgroup *cg)
{
	char path[320], buf[4096];
	long count = 0;
	ssize_t n, i;
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg->path);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			count += buf[i] == '\n';
	close(fd);
	return n < 0 ? -1 : count;
}

/* How many processes of the cgroup still have their address space? */
static inline long cg_procs_with_mm(struct test_cgroup *cg)
{
	char path[320];
	long count = 0, size;
	FILE *procs, *statm;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg->path);
	procs = fopen(path, "r");
	if (!procs)
		return -1;
	while (fscanf(procs, "%d", &pid) == 1) {
		snprintf(path, sizeof(path), "/proc/%d/statm", pid);
		statm = fopen(path, "r");
		if (!statm)
			continue;	/* gone meanwhile */
		if (fscanf(statm, "%ld", &size) == 1 && size > 0)
			count++;
		fclose(statm);
	}
	fclose(procs);
	return count;
}

/* Is anything left in the cgroup? */
static inline bool cg_populated(struct test_cgroup *cg)
{
	char path[320];

	snprintf(path, sizeof(path), "%s/cgroup.events", cg->path);
	return file_value(path, "populated") == 1;
}

/* Kill everything in the cgroup and remove it. */
static inline void cg_destroy(struct test_cgroup *cg)
{
	double start = now_s();

	if (!cg->path[0])
		return;
	while (cg_populated(cg) && now_s() - start < scaled(30)) {
		cg_write(cg, "cgroup.kill", "1");
		reap_children();
		sleep_ms(50);
	}
	rmdir(cg->path);
	cg->path[0] = '\0';
}

/* Setup callback of spawn(): the child joins @arg, an ordinary process. */
static inline int cg_enter(void *arg)
{
	struct test_cgroup *cg = arg;
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (set_oom_score_adj(0))
		return -1;
	return cg_write(cg, "cgroup.procs", pid);
}

/*
 * Run @argv as a child; @setup, when given, runs in the child before exec
 * (join a cgroup, become a user, ...). Returns the pid, or -1.
 */
static inline pid_t spawn(const char *const argv[], int (*setup)(void *),
			  void *arg)
{
	static const char *const envp[] = {
		"PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/tmp", NULL
	};
	pid_t pid = fork();

	if (pid)
		return pid;
	if (setup && setup(arg))
		_exit(126);
	execve(argv[0], (char **)argv, (char **)envp);
	_exit(127);
}

/*
 * A @shell (/bin/sh, /bin/bash) reading commands from a pipe, as a user's
 * shell reads them from its terminal, in @cg; *@in is where to type.
 * Returns its pid, or -1.
 */
static inline pid_t start_shell(struct test_cgroup *cg, int *in,
				const char *shell)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		if (cg_enter(cg))
			_exit(126);
		execl(shell, shell, NULL);
		_exit(127);
	}
	close(fds[0]);
	*in = fds[1];
	return pid;
}

/* Type @cmd into the shell. */
static inline int shell_type(int in, const char *cmd)
{
	char line[256];
	int len = snprintf(line, sizeof(line), "%s\n", cmd);

	return write(in, line, len) == len ? 0 : -1;
}

/* Threads in the system now: the total of /proc/loadavg's "running/total". */
static inline long nr_threads(void)
{
	char buf[128], *slash;

	if (read_text("/proc/loadavg", buf, sizeof(buf)) <= 0)
		return -1;
	slash = strchr(buf, '/');
	return slash ? strtol(slash + 1, NULL, 10) : -1;
}

/* Make room for @extra more threads than run now (saved, put back later). */
static inline int limit_threads(struct saved_settings *saved, int extra)
{
	long threads = nr_threads();
	char val[32];

	if (threads < 0)
		return -1;
	snprintf(val, sizeof(val), "%ld", threads + extra);
	return change_setting(saved, THREADS_MAX, val);
}

/*
 * Make sure that threads-max leaves room for more threads than a bomb's
 * pids.max, so that a bomb meets memory or its cgroup's limit first.
 */
static inline int make_room(struct saved_settings *saved)
{
	long room = strtol(env_or("FORKBOMB_PIDS_MAX", "4096"), NULL, 10) + 1000;

	if (file_long(THREADS_MAX) >= nr_threads() + room)
		return 0;
	return limit_threads(saved, room);
}

/* --- the course of a fork bomb test --- */

/*
 * Older than the young window of the fork bomb killer (10 s): a process
 * that has been around this long before a bomb began is not part of it
 * by its age.
 */
#define OLD_MS		11000

/*
 * Protect the test process itself, and adopt the orphans of what it starts.
 * Out of the OOM killer's reach, and on the CPU whenever it wakes: the
 * lowest real-time priority, so that a guest thrashing under a bomb that
 * was not killed cannot keep the test from failing, by its own deadline,
 * with a name (it mostly sleeps). What it forks from now on is an ordinary
 * process again (SCHED_RESET_ON_FORK).
 */
static inline int protect_self(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) ||
	    sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp))
		return -1;
	return set_oom_score_adj(-1000);
}

/*
 * How fast a bomb must be gone, in seconds (scaled by the time factor),
 * from the moment it exhausted memory or pids (the first OOM kill or
 * failed fork): the kill decided, and the last of its processes gone.
 * The README quotes 1 to 3 s from the bomb's start to a recovered system
 * (a kill within a second of the exhaustion): a killer five times slower
 * to decide, or a bomb that takes five to ten times as long to go, fails,
 * on a loaded host too.
 */
#define KILL_WITHIN_S	5
#define GONE_WITHIN_S	15
/* The bystander beats every 100 ms; this long without a beat is stuck. */
#define BEAT_WITHIN_S	2

struct bomb_run {
	struct saved_settings saved;
	struct test_cgroup cg;
	pid_t bystander;
	long kills;
	long tasks_killed;
	bool oom;		/* the OOM trigger is on: memory runs out */
	bool fork_fail;		/* the fork failure trigger is on */
	long oom_kills;		/* /proc/vmstat oom_kill at the start */
	long memcg_ooms;	/* the bomb's cgroup's memory.events oom */
	long fork_failures;
	int kmsg;		/* the kernel log from the start on */
	double started;
	/* Seconds from the start, -1 when it did not happen: */
	double exhausted;	/* the first OOM kill or failed fork */
	double killed;		/* the first fork bomb kill */
	double recovered;	/* the last bomb process gone */
	long peak;		/* most bomb processes alive at once */
	long survivors;		/* processes in the cgroup that must stay (a shell) */
	long new_kills;
	long new_tasks_killed;
};

/* Note the counters (and the log) the checks of a bomb compare with. */
static inline void bomb_note_counters(struct bomb_run *run)
{
	run->kills = knob_long("forkbomb_kills");
	run->tasks_killed = knob_long("forkbomb_tasks_killed");
	run->fork_failures = knob_long("forkbomb_fork_failures");
	run->oom_kills = file_value("/proc/vmstat", "oom_kill");
	run->memcg_ooms = cg_value(&run->cg, "memory.events", "oom");
	if (run->kmsg >= 0)
		close(run->kmsg);
	run->kmsg = kmsg_follow();
}

/*
 * Protect the test, make the bomb's cgroup, start a bystander, set the
 * triggers, wait until the system is calm (so that the test and the
 * bystander are old history), and note the counters.
 */
static inline int bomb_prepare(struct bomb_run *run, const char *name,
			       const char *triggers)
{
	memset(run, 0, sizeof(*run));
	run->oom = strstr(triggers, "oom");
	run->fork_fail = strstr(triggers, "fork_fail");
	if (protect_self() || cgroups_setup(&run->saved) ||
	    cg_create(&run->cg, name) ||
	    change_knob(&run->saved, "forkbomb_triggers", triggers) ||
	    change_knob(&run->saved, "forkbomb_min_descendants", "10"))
		return -1;
	run->kmsg = -1;
	run->bystander = spawn_bystander();
	if (run->bystander < 0 || wait_calm(&run->saved, 200, 60))
		return -1;
	bomb_note_counters(run);
	return 0;
}

/* Start fbk_bomb @mode @arg in the bomb's cgroup. */
static inline pid_t bomb_start(struct bomb_run *run, const char *mode,
			       const char *arg)
{
	const char *const argv[] = { bomb_path(), mode, arg, NULL };

	run->started = now_s();
	return spawn(argv, cg_enter, &run->cg);
}

/*
 * Wait until the cgroup @cg is empty and stays so for @quiet_ms. Returns
 * the seconds it took from @since, or -1 after @timeout_s (scaled).
 */
static inline double wait_empty(struct test_cgroup *cg, double since,
				int timeout_s, int quiet_ms)
{
	double gone_at = 0;

	while (now_s() - since < scaled(timeout_s)) {
		reap_children();
		if (!cg_populated(cg)) {
			if (!gone_at)
				gone_at = now_s();
			if ((now_s() - gone_at) * 1000 >= quiet_ms)
				return gone_at - since;
		} else {
			gone_at = 0;
		}
		sleep_ms(50);
	}
	return -1;
}

/*
 * Has the bomb exhausted what its triggers watch: memory (an OOM kill, or
 * an OOM of its memory cgroup) or pids (a failed fork)? Fork failures
 * with the OOM trigger alone, or OOM kills with the fork failure trigger
 * alone (the cgroup's memory.max), do not tell.
 */
static inline bool bomb_exhausted(struct bomb_run *run)
{
	if (run->oom &&
	    (file_value("/proc/vmstat", "oom_kill") > run->oom_kills ||
	     cg_value(&run->cg, "memory.events", "oom") > run->memcg_ooms))
		return true;
	return run->fork_fail &&
	       knob_long("forkbomb_fork_failures") > run->fork_failures;
}

/*
 * Wait until the bomb is gone for good (quiet for 2 s), noting when it
 * exhausted memory or pids, when the fork bomb killer first acted, and
 * how many bomb processes were alive at most.
 */
static inline int bomb_wait(struct bomb_run *run, int timeout_s)
{
	double gone_at = 0, t;
	long procs;

	run->exhausted = -1;
	run->killed = -1;
	run->recovered = -1;
	run->peak = 0;
	while ((t = now_s()) - run->started < scaled(timeout_s)) {
		reap_children();
		if (run->exhausted < 0 && bomb_exhausted(run))
			run->exhausted = t - run->started;
		if (run->killed < 0 && knob_long("forkbomb_kills") > run->kills)
			run->killed = t - run->started;
		procs = cg_procs(&run->cg) - run->survivors;
		if (procs > run->peak)
			run->peak = procs;
		if (procs > 0) {
			gone_at = 0;
		} else if (!gone_at) {
			gone_at = t;
		} else if (t - gone_at >= 2) {
			run->recovered = gone_at - run->started;
			break;
		}
		sleep_ms(50);
	}
	run->new_kills = knob_long("forkbomb_kills") - run->kills;
	run->new_tasks_killed = knob_long("forkbomb_tasks_killed") - run->tasks_killed;
	return run->recovered < 0 ? -1 : 0;
}

static inline void bomb_cleanup(struct bomb_run *run)
{
	if (run->kmsg >= 0)
		close(run->kmsg);
	run->kmsg = -1;
	cg_destroy(&run->cg);
	stop_child(run->bystander);
	reap_children();
	restore_settings(&run->saved);
	cgroups_teardown(&run->saved);
}

#ifdef TEST_HARNESS_MAIN	/* in a kselftest_harness test */
/*
 * The checks every killed bomb must pass: gone within GONE_WITHIN_S of
 * the exhaustion, in one kill (two at most: a bomb can come back from a
 * process forked just before its parent's SIGKILL, see fbk_kill_doomed()),
 * decided within KILL_WITHIN_S, that took most of what was alive; the
 * bystander alive and responsive; the kill reported in the kernel log.
 */
static inline void expect_bomb_killed(struct __test_metadata *_metadata,
				      struct bomb_run *run)
{
	char report[2048];

	TH_LOG("exhausted after %.1f s, killed after %.1f s, gone after %.1f s",
	       run->exhausted, run->killed, run->recovered);
	TH_LOG("%ld kills, %ld tasks killed of %ld at most", run->new_kills,
	       run->new_tasks_killed, run->peak);
	EXPECT_GE(run->recovered, 0)
		TH_LOG("%ld bomb processes left after %d s",
		       cg_procs(&run->cg) - run->survivors, scaled(150));
	EXPECT_EQ(run->survivors, cg_procs(&run->cg));
	EXPECT_TRUE(bystander_responsive(run->bystander, scaled(BEAT_WITHIN_S)))
		TH_LOG("the bystander was killed or stopped beating");
	EXPECT_GE(run->new_kills, 1);
	EXPECT_LE(run->new_kills, 2) TH_LOG("the bomb took %ld kills", run->new_kills);
	EXPECT_GE(run->new_tasks_killed, run->peak / 2 > 10 ? run->peak / 2 : 10)
		TH_LOG("the kills took %ld of the bomb's %ld processes",
		       run->new_tasks_killed, run->peak);
	EXPECT_GE(run->exhausted, 0) TH_LOG("the bomb never exhausted anything");
	if (run->exhausted >= 0) {
		EXPECT_GE(run->killed, 0);
		EXPECT_LE(run->killed - run->exhausted, scaled(KILL_WITHIN_S))
			TH_LOG("killed %.1f s after the exhaustion",
			       run->killed - run->exhausted);
		EXPECT_LE(run->recovered - run->exhausted, scaled(GONE_WITHIN_S))
			TH_LOG("gone %.1f s after the exhaustion",
			       run->recovered - run->exhausted);
	}
	EXPECT_GE(kmsg_new(run->kmsg, "killed fork bomb", report, sizeof(report)), 1)
		TH_LOG("no kernel log report");
	if (report[0])
		TH_LOG("%s", report);
}
#endif

#endif /* __FORKBOMB_BOMB_COMMON_H */
