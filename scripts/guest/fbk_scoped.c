// SPDX-License-Identifier: GPL-2.0
/*
 * The scoped-cost part of `make bench`, run inside the guest: what a memory
 * cgroup OOM and a fork that fails on pids.max cost in a small cgroup,
 * first alone on the machine, then beside many other processes.
 *
 *   fbk_scoped OTHERS ROUNDS
 *
 * The cgroup holds 100 idle processes: 10 parents of 9 children each (no
 * shape the fork bomb killer would take for a bomb). Each phase measures,
 * ROUNDS times each:
 *  - memcg_oom: a hog in the cgroup (memory.max 32M) allocates until the
 *    OOM killer kills it: the time from its start to its death;
 *  - pids_fork_fail: with pids.max at pids.current, a process of the cgroup
 *    forks once a second (each failure may scan, at most once a second per
 *    scope): how long the failing fork() took.
 * Phase "alone" runs with nothing else on the machine; phase "crowded"
 * after OTHERS idle processes were started in another cgroup. On a kernel
 * with the fork bomb killer, the forkbomb:forkbomb_scan tracepoint gives
 * each scan's own duration.
 *
 * Prints "SCOPED kernel=... phase=... others=N kind=... round=I ms=X
 * scan_us=Y" lines (scan_us -1 where no scan was seen).
 */
#define _GNU_SOURCE
#include "fbk_crowd.h"

#define BOMB		"/kselftest/forkbomb/fbk_bomb"
#define TRACING		"/sys/kernel/tracing/"
#define GROUPS		10
#define GROUP_SIZE	10	/* a parent and 9 children */
#define FORKERS_EVERY	500	/* each forker of the others starts 499 */

static bool patched;

/* Trace the scans from now on, and only those. */
static void trace_start(void)
{
	if (!patched)
		return;
	trace_scans_restart();
	write_text(TRACING "tracing_on", "1");
}

/* The longest scan of @trigger traced since trace_start(), or -1. */
static long trace_scan_us(const char *trigger)
{
	static char buf[1 << 16];
	char needle[64], *p;
	long worst = -1, ns;

	if (!patched || read_text(TRACING "trace", buf, sizeof(buf)) <= 0)
		return -1;
	snprintf(needle, sizeof(needle), "trigger=%s ", trigger);
	for (p = strstr(buf, needle); p; p = strstr(p + 1, needle)) {
		char *scan = strstr(p, " scan=");
		char *eol = strchr(p, '\n');

		if (!scan || (eol && scan > eol))
			continue;
		ns = atol(scan + 6);
		if (ns / 1000 > worst)
			worst = ns / 1000;
	}
	return worst;
}

static void report(const char *phase, long others, const char *kind, int round,
		   double ms, long scan_us)
{
	printf("SCOPED kernel=%s phase=%s others=%ld kind=%s round=%d ms=%.2f scan_us=%ld\n",
	       patched ? "patched" : "stock", phase, others, kind, round, ms,
	       scan_us);
}

static void memcg_oom_rounds(struct test_cgroup *cg, const char *phase,
			     long others, int rounds)
{
	const char *const hog[] = { BOMB, "hog", NULL };
	int r, status;

	for (r = 0; r < rounds; r++) {
		double t0;
		pid_t pid;

		trace_start();
		t0 = now_s();
		pid = spawn(hog, cg_enter, cg);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			exit(1);
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
			fprintf(stderr, "the hog was not killed (status %#x)\n", status);
			exit(1);
		}
		report(phase, others, "memcg_oom", r, (now_s() - t0) * 1e3,
		       trace_scan_us("memcg_oom"));
		sleep_ms(200);
	}
}

/*
 * A process of @cg, at its pids.max, forks once a second: how long each
 * failing fork() took.
 */
static void pids_fork_fail_rounds(struct test_cgroup *cg, const char *phase,
				  long others, int rounds)
{
	double *ms = mmap(NULL, 2 * rounds * sizeof(*ms), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double *scan_us = ms + rounds;
	char val[32];
	int r, status;
	pid_t pid;

	if (ms == MAP_FAILED)
		exit(1);
	pid = fork();
	if (pid == 0) {
		if (cg_enter(cg))
			_exit(1);
		snprintf(val, sizeof(val), "%ld", cg_long(cg, "pids.current"));
		if (cg_write(cg, "pids.max", val))
			_exit(1);
		for (r = 0; r < rounds; r++) {
			double t0;
			pid_t child;

			trace_start();
			sleep_ms(1100);
			t0 = now_s();
			child = fork();
			ms[r] = (now_s() - t0) * 1e3;
			scan_us[r] = trace_scan_us("fork_fail");
			if (child == 0)
				_exit(0);
			if (child > 0) {
				/* Not at the limit: no failure to time. */
				waitpid(child, NULL, 0);
				ms[r] = -1;
			}
		}
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		exit(1);
	cg_write(cg, "pids.max", "max");
	for (r = 0; r < rounds; r++) {
		if (ms[r] < 0) {
			fprintf(stderr, "fork did not fail at pids.max\n");
			exit(1);
		}
		report(phase, others, "pids_fork_fail", r, ms[r], scan_us[r]);
	}
	munmap(ms, 2 * rounds * sizeof(*ms));
}

int main(int argc, char **argv)
{
	long others = argc > 1 ? atol(argv[1]) : 50000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	struct saved_settings saved = {};
	struct test_cgroup scope = {}, crowd = {};
	double t0;
	int g;

	setvbuf(stdout, NULL, _IOLBF, 0);
	patched = have_forkbomb_killer();
	if (protect_self() || cgroups_setup(&saved) ||
	    cg_create(&scope, "scoped") || cg_create(&crowd, "crowd"))
		return 1;
	cg_write(&scope, "pids.max", "max");
	cg_write(&scope, "memory.max", "32M");
	cg_write(&crowd, "pids.max", "max");
	cg_write(&crowd, "memory.max", "max");
	change_setting(&saved, "/proc/sys/kernel/pid_max", "4194304");
	limit_threads(&saved, others + 20000);
	signal(SIGCHLD, SIG_DFL);

	for (g = 0; g < GROUPS; g++)
		if (start_idle(&scope, GROUP_SIZE, GROUP_SIZE, (g + 1) * GROUP_SIZE))
			return 1;
	printf("SCOPED-START kernel=%s cgroup=%ld processes\n",
	       patched ? "patched" : "stock", cg_long(&scope, "pids.current"));

	memcg_oom_rounds(&scope, "alone", 0, rounds);
	pids_fork_fail_rounds(&scope, "alone", 0, rounds);

	t0 = now_s();
	if (start_idle(&crowd, others, FORKERS_EVERY, others))
		return 1;
	printf("SCOPED-CROWD %ld processes started in %.1f s\n",
	       cg_long(&crowd, "pids.current"), now_s() - t0);

	memcg_oom_rounds(&scope, "crowded", others, rounds);
	pids_fork_fail_rounds(&scope, "crowded", others, rounds);

	/* The guest powers off next: no need to wait for 50,000 exits. */
	cg_write(&crowd, "cgroup.kill", "1");
	cg_write(&scope, "cgroup.kill", "1");
	restore_settings(&saved);
	return 0;
}
