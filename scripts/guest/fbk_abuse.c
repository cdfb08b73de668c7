// SPDX-License-Identifier: GPL-2.0
/*
 * The unprivileged-abuse part of `make bench`, run inside the guest: can
 * an ordinary user, by running a fork loop at its RLIMIT_NPROC, make the
 * kernel work for every process of a crowded machine?
 *
 *   fbk_abuse OTHERS SECONDS ROUNDS
 *
 * OTHERS idle processes of root sit in a cgroup of their own. The user
 * (uid 1000, RLIMIT_NPROC at LIMIT) holds LIMIT - 1 processes (one
 * parent of LIMIT - 2 idle children, started at once: a spawner that no
 * longer forks) and runs one more process that calls fork() in a loop,
 * every call failing. For SECONDS, a bystander (root, SCHED_OTHER) forks,
 * exits and waits every 20 ms and a real-time probe (SCHED_FIFO 2) sleeps
 * 1 ms at a time: their latencies, and the scans the user's failures
 * caused (forkbomb:forkbomb_scan), with tracking on and off in turn. The
 * crowd is started again after each switch, so that with tracking on its
 * processes have their records, as on a machine that booted with it.
 *
 * Prints "ABUSE tracking=on|off limit=L others=N round=R seconds=S
 * failures=... fork_ms_p50=... fork_ms_p99=... fork_ms_max=...
 * rt_late_ms_p99=... rt_late_ms_max=... scans=... scan_ms_total=...
 * scan_ms_max=... walked_max=... kills=..." lines.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/resource.h>
#include "fbk_crowd.h"

#define TRACING		"/sys/kernel/tracing/"
#define USER_UID	1000
#define FORKERS_EVERY	500	/* each forker of the crowd starts 499 */
#define MAX_FORKS	4096
#define MAX_WAKEUPS	65536

static const int limits[] = { 5, 64 };

/* Kill every process of @cg and wait until they are gone. */
static int empty_cgroup(struct test_cgroup *cg)
{
	double t0 = now_s();

	cg_write(cg, "cgroup.kill", "1");
	while (cg_populated(cg)) {
		if (now_s() - t0 > 900)
			return -1;
		sleep_ms(100);
		reap_children();
	}
	reap_children();
	return 0;
}

/*
 * The user, in @cg at RLIMIT_NPROC @limit: a parent of @limit - 2 idle
 * children, and a fork loop counting its failures in *@failures.
 */
static pid_t start_user(struct test_cgroup *cg, int limit, long *failures)
{
	struct rlimit rl = { limit, limit };
	pid_t pid = fork();
	int i;

	if (pid)
		return pid;
	if (cg_enter(cg) || setrlimit(RLIMIT_NPROC, &rl) ||
	    setgid(USER_UID) || setuid(USER_UID))
		_exit(1);
	if (fork() == 0) {
		for (i = 0; i < limit - 2; i++)
			if (fork() == 0)
				idle_forever();
		idle_forever();
	}
	/* Once the holder's children run, every fork of the loop fails. */
	sleep_ms(500);
	for (;;) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		else
			__atomic_add_fetch(failures, 1, __ATOMIC_RELAXED);
	}
}

struct probe {
	double until;
	double late_ms[MAX_WAKEUPS];
	int wakeups;
};

/* How late each 1 ms sleep at SCHED_FIFO 2 wakes. */
static void *rt_probe(void *arg)
{
	struct sched_param sp = { .sched_priority = 2 };
	struct probe *probe = arg;
	double t;

	sched_setscheduler(0, SCHED_FIFO, &sp);
	while ((t = now_s()) < probe->until && probe->wakeups < MAX_WAKEUPS) {
		sleep_ms(1);
		probe->late_ms[probe->wakeups++] = (now_s() - t) * 1000 - 1;
	}
	return NULL;
}

static double pct(double *xs, int n, int p)
{
	qsort(xs, n, sizeof(*xs), cmp_double);
	return n ? xs[(long)(n - 1) * p / 100] : -1;
}

/* Trace the scans from now on, and only those. */
static void trace_start(void)
{
	write_text(TRACING "buffer_size_kb", "8192");
	trace_scans_restart();
	write_text(TRACING "tracing_on", "1");
}

struct scans {
	long count, walked_max;
	double ms_total, ms_max;
};

/* The fork-failure scans traced since trace_start(). */
static void fork_fail_scans(struct scans *s)
{
	static char buf[32 << 20];
	char *p, *eol, *field;
	double ms;
	long walked;

	memset(s, 0, sizeof(*s));
	if (read_text(TRACING "trace", buf, sizeof(buf)) <= 0)
		return;
	for (p = strstr(buf, "trigger=fork_fail "); p;
	     p = strstr(p + 1, "trigger=fork_fail ")) {
		eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		field = strstr(p, " scan=");
		ms = field ? atol(field + 6) / 1e6 : 0;
		field = strstr(p, " walked=");
		walked = field ? atol(field + 8) : 0;
		s->count++;
		s->ms_total += ms;
		if (ms > s->ms_max)
			s->ms_max = ms;
		if (walked > s->walked_max)
			s->walked_max = walked;
		if (eol)
			*eol = '\n';
	}
}

static double fork_ms[MAX_FORKS];
static struct probe probe;

/* One window: the user at @limit, the bystander and the probe beside it. */
static int measure(struct test_cgroup *user, const char *tracking, int limit,
		   long others, int round, int seconds)
{
	long *failures = mmap(NULL, sizeof(long), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long kills = knob_long("forkbomb_kills"), start_failures;
	double until;
	struct scans scans;
	pthread_t thread;
	pid_t loop;
	int forks = 0;

	if (failures == MAP_FAILED)
		return -1;
	*failures = 0;
	loop = start_user(user, limit, failures);
	if (loop < 0)
		return -1;
	sleep_ms(2000);
	if (!*failures) {
		fprintf(stderr, "the user's forks do not fail at RLIMIT_NPROC %d\n", limit);
		return -1;
	}
	trace_start();
	start_failures = *failures;
	until = now_s() + seconds;
	probe.until = until;
	probe.wakeups = 0;
	pthread_create(&thread, NULL, rt_probe, &probe);
	while (now_s() < until && forks < MAX_FORKS) {
		fork_ms[forks++] = fork_exit_wait_ms();
		sleep_ms(20);
	}
	pthread_join(thread, NULL);
	write_text(TRACING "tracing_on", "0");
	fork_fail_scans(&scans);
	printf("ABUSE tracking=%s limit=%d others=%ld round=%d seconds=%d failures=%ld "
	       "fork_ms_p50=%.3f fork_ms_p99=%.3f fork_ms_max=%.3f "
	       "rt_late_ms_p99=%.3f rt_late_ms_max=%.3f scans=%ld scan_ms_total=%.1f "
	       "scan_ms_max=%.2f walked_max=%ld kills=%ld\n",
	       tracking, limit, others, round, seconds, *failures - start_failures,
	       pct(fork_ms, forks, 50), pct(fork_ms, forks, 99),
	       pct(fork_ms, forks, 100), pct(probe.late_ms, probe.wakeups, 99),
	       pct(probe.late_ms, probe.wakeups, 100), scans.count,
	       scans.ms_total, scans.ms_max, scans.walked_max,
	       knob_long("forkbomb_kills") - kills);
	munmap(failures, sizeof(long));
	return empty_cgroup(user);
}

int main(int argc, char **argv)
{
	long others = argc > 1 ? atol(argv[1]) : 50000;
	int seconds = argc > 2 ? atoi(argv[2]) : 30;
	int rounds = argc > 3 ? atoi(argv[3]) : 1;
	struct test_cgroup user = {}, crowd = {};
	struct saved_settings saved = {};
	const char *tracking;
	int r, t, l;
	double t0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!have_forkbomb_killer()) {
		fprintf(stderr, "fbk_abuse needs the fork bomb killer\n");
		return 1;
	}
	/* Not protect_self(): the bystander is this ordinary process. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || set_oom_score_adj(-1000) ||
	    cgroups_setup(&saved) ||
	    cg_create(&user, "abuser") || cg_create(&crowd, "crowd"))
		return 1;
	cg_write(&user, "pids.max", "max");
	cg_write(&crowd, "pids.max", "max");
	cg_write(&crowd, "memory.max", "max");
	change_setting(&saved, "/proc/sys/kernel/pid_max", "4194304");
	limit_threads(&saved, others + 20000);
	signal(SIGCHLD, SIG_DFL);

	for (r = 1; r <= rounds; r++) {
		for (t = 0; t < 2; t++) {
			tracking = t ? "off" : "on";
			change_knob(&saved, "mm_tracking_enabled",
				    t ? "disabled" : "enabled");
			t0 = now_s();
			if (start_idle(&crowd, others, FORKERS_EVERY, others))
				return 1;
			printf("ABUSE-CROWD tracking=%s %ld processes started in %.1f s, records %ld\n",
			       tracking, cg_long(&crowd, "pids.current"), now_s() - t0,
			       t ? 0 : knob_long("mm_tracking_records"));
			for (l = 0; l < (int)(sizeof(limits) / sizeof(limits[0])); l++)
				if (measure(&user, tracking, limits[l], others, r, seconds))
					return 1;
			if (empty_cgroup(&crowd))
				return 1;
		}
	}
	restore_settings(&saved);
	return 0;
}
