// SPDX-License-Identifier: GPL-2.0
/*
 * The big-bomb part of `make bench`, run inside the guest: a classic C fork
 * bomb (every process forks forever) in its own cgroup, grown until
 * kernel.threads-max stops it at about N processes, and what the machine
 * goes through meanwhile.
 *
 *   fbk_bigbomb N on|off WINDOW_S
 *
 * "on": the fork bomb killer does its work. "off": tracking is switched off
 * (mm_tracking_enabled), as the kernel behaves without the feature; the
 * bomb is held at its limit for 20 s and then removed with cgroup.kill, the
 * kernel's own mass kill, which is timed as the baseline.
 *
 * Measured, in 100 ms buckets from the start of the bomb:
 *  - a real-time probe per CPU (SCHED_FIFO, pinned, waking every 1 ms):
 *    its worst wake-up lateness, which is the longest stretch the kernel
 *    ran on that CPU without a point where it could switch (interrupts or
 *    preemption off, or kernel code that does not offer the CPU: under
 *    PREEMPT_VOLUNTARY this is what "preemption off" means to a task);
 *  - a bystander process (normal priority) that calls fork() every 10 ms:
 *    the worst duration of that call, failed or not;
 *  - the irqsoff tracer's tracing_max_latency over the whole run, with the
 *    functions where the longest interrupts-off section began and ended.
 * The kernel's own report gives the scan and kill durations.
 *
 * Prints "BIGBOMB key=value ..." and, once a second, "BIGBOMB-T" lines.
 * The tool runs at oom_score_adj -1000, locked in memory, as a real-time
 * task that mostly sleeps, and never forks once the bomb runs. It adopts
 * the bomb's orphans and ignores SIGCHLD, so that the kernel releases them
 * as they exit.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include "bomb_common.h"	/* tools/testing/selftests/forkbomb/ */

#define BOMB		"/kselftest/forkbomb/fbk_bomb"
#define TRACING		"/sys/kernel/tracing/"
#define BUCKET_S	0.1
#define MAX_BUCKETS	20000	/* 2000 s */
#define MAX_CPUS	8
#define HOLD_S		20	/* "off": how long the bomb is held */

struct timeline {
	volatile double start;		/* 0 until the bomb starts */
	volatile double by_first_failure;
	volatile double by_last_ok;	/* a fork+wait under 50 ms ended */
	float rt_ms[MAX_CPUS][MAX_BUCKETS];
	float fork_ms[MAX_BUCKETS];
};

static struct timeline *tl;

static int bucket(double t)
{
	int b;

	if (!tl->start || t < tl->start)
		return -1;
	b = (t - tl->start) / BUCKET_S;
	return b < MAX_BUCKETS ? b : -1;
}

static void note(float *slot, double ms)
{
	if (ms > *slot)
		*slot = ms;
}

static void rt_probe(int cpu)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec next;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(1);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		struct timespec ts;
		double late_ms;
		int b;

		next.tv_nsec += 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		late_ms = (ts.tv_sec - next.tv_sec) * 1e3 +
			  (ts.tv_nsec - next.tv_nsec) / 1e6;
		b = bucket(ts.tv_sec + ts.tv_nsec / 1e9);
		if (b >= 0)
			note(&tl->rt_ms[cpu][b], late_ms);
		if (late_ms > 1)
			next = ts;	/* no burst of catching up */
	}
}

static void bystander(void)
{
	set_oom_score_adj(0);
	for (;;) {
		double t0 = now_s(), t1;
		pid_t pid = fork();
		int b;

		if (pid == 0)
			_exit(0);
		t1 = now_s();
		b = bucket(t0);
		if (b >= 0)
			note(&tl->fork_ms[b], (t1 - t0) * 1e3);
		if (pid > 0) {
			waitpid(pid, NULL, 0);
			if (now_s() - t0 < 0.05)
				tl->by_last_ok = now_s();
		} else if (tl->start && !tl->by_first_failure) {
			tl->by_first_failure = t0;
		}
		sleep_ms(10);
	}
}

/* The number after @key in @text, or -1. */
static long after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* The irqsoff tracer, with its function tracing off (less overhead). */
static bool irqsoff_start(void)
{
	if (access(TRACING "current_tracer", W_OK))
		mount("tracefs", TRACING, "tracefs", 0, NULL);
	write_text(TRACING "options/function-trace", "0");
	if (write_text(TRACING "current_tracer", "irqsoff"))
		return false;
	write_text(TRACING "tracing_max_latency", "0");
	return !write_text(TRACING "tracing_on", "1");
}

/* "func1 -> func2": where the longest section began and ended. */
static void irqsoff_where(char *out, size_t size)
{
	char buf[8192], *s, *e;
	char from[96] = "?", to[96] = "?";

	if (read_text(TRACING "trace", buf, sizeof(buf)) > 0) {
		s = strstr(buf, "started at:");
		e = strstr(buf, "ended at:");
		if (s)
			sscanf(s + 11, " %95s", from);
		if (e)
			sscanf(e + 9, " %95s", to);
	}
	snprintf(out, size, "%s->%s", from, to);
}

/* Worst of @row's buckets in [@from, @to) seconds. */
static double worst(const float *row, double from, double to)
{
	double m = 0;
	int b;

	for (b = from < 0 ? 0 : from / BUCKET_S; b < to / BUCKET_S && b < MAX_BUCKETS; b++)
		if (row[b] > m)
			m = row[b];
	return m;
}

static double worst_rt(int cpus, double from, double to)
{
	double m = 0;
	int c;

	for (c = 0; c < cpus; c++) {
		double w = worst(tl->rt_ms[c], from, to);

		if (w > m)
			m = w;
	}
	return m;
}

/* Setup of the bomb's first process: SIGCHLD as a bomb would have it. */
static int bomb_enter(void *cg)
{
	signal(SIGCHLD, SIG_DFL);
	return cg_enter(cg);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	bool on = argc > 2 ? strcmp(argv[2], "off") != 0 : true;
	double window = argc > 3 ? atof(argv[3]) : 300;
	struct sched_param sp = { .sched_priority = 40 };
	struct saved_settings saved = {};
	struct test_cgroup cg = {};
	double t = 0, exhausted = -1, empty = -1, recovered = -1, killed_at = -1;
	long peak = 0, pids, ff0, kills0, tasks0, threads_max;
	int cpus = sysconf(_SC_NPROCESSORS_ONLN), c, last_print = -1;
	char report[2048], evidence[2048], where[200] = "-";
	pid_t pid, helpers[MAX_CPUS + 1];
	bool tracer, rt_throttled;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!have_forkbomb_killer()) {
		fprintf(stderr, "no fork bomb killer in this kernel\n");
		return 2;
	}
	if (cpus > MAX_CPUS)
		cpus = MAX_CPUS;
	tl = mmap(NULL, sizeof(*tl), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tl == MAP_FAILED || protect_self() || cgroups_setup(&saved) ||
	    cg_create(&cg, "bigbomb"))
		return 1;
	cg_write(&cg, "pids.max", "max");
	cg_write(&cg, "memory.max", "max");
	for (c = 0; c < cpus; c++) {
		helpers[c] = fork();
		if (helpers[c] == 0)
			rt_probe(c);
	}
	helpers[cpus] = fork();
	if (helpers[cpus] == 0)
		bystander();
	/*
	 * The bomb's orphans come to this subreaper: released as they exit
	 * (a waitpid() loop over 100,000 children would be the bottleneck).
	 */
	signal(SIGCHLD, SIG_IGN);
	/* What this process forks from now on is an ordinary process. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE) ||
	    sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp))
		perror("mlockall/SCHED_FIFO");

	if (on)
		wait_calm(&saved, 200, 30);
	else
		change_knob(&saved, "mm_tracking_enabled", "disabled");
	change_setting(&saved, "/proc/sys/kernel/pid_max", "4194304");
	limit_threads(&saved, n);
	threads_max = file_long(THREADS_MAX);
	tracer = irqsoff_start();
	ff0 = knob_long("forkbomb_fork_failures");
	kills0 = knob_long("forkbomb_kills");
	tasks0 = knob_long("forkbomb_tasks_killed");
	printf("BIGBOMB-START tracking=%s cpus=%d threads_max=%ld threads_now=%ld irqsoff_tracer=%d\n",
	       on ? "on" : "off", cpus, threads_max, nr_threads(), tracer);

	tl->start = now_s();
	{
		const char *const a[] = { BOMB, "c", "0", NULL };

		pid = spawn(a, bomb_enter, &cg);
	}
	if (pid < 0)
		return 1;

	for (t = 0; t < window; t = now_s() - tl->start) {
		sleep_ms(100);
		t = now_s() - tl->start;
		pids = cg_long(&cg, "pids.current");
		if (pids > peak)
			peak = pids;
		/*
		 * The limit is reached when a fork failed (the kernel's count,
		 * or the bystander's). With tracking off the kernel counts no
		 * failure, and the bystander's fork may hang rather than fail:
		 * there, also when the threads are at threads-max or the bomb
		 * has its N processes.
		 */
		if (exhausted < 0 &&
		    ((ff0 >= 0 && knob_long("forkbomb_fork_failures") > ff0) ||
		     tl->by_first_failure ||
		     (!on && (pids >= n || nr_threads() >= threads_max - 10))))
			exhausted = tl->by_first_failure &&
				    tl->by_first_failure - tl->start < t ?
				    tl->by_first_failure - tl->start : t;
		if ((int)t != last_print) {
			last_print = t;
			printf("BIGBOMB-T t=%d pids=%ld rt_ms=%.1f fork_ms=%.1f\n",
			       (int)t, pids, worst_rt(cpus, t - 1, t),
			       worst(tl->fork_ms, t - 1, t));
		}
		if (!on && exhausted >= 0 && killed_at < 0 && t - exhausted >= HOLD_S) {
			killed_at = t;
			cg_write(&cg, "cgroup.kill", "1");
		}
		if (exhausted < 0 || (!on && killed_at < 0))
			continue;
		if (pids > 0) {
			empty = -1;
			continue;
		}
		if (empty < 0)
			empty = t;
		if (tl->by_last_ok - tl->start > empty) {
			recovered = tl->by_last_ok - tl->start;
			break;
		}
	}

	rt_throttled = kmsg_count("RT throttling") > 0;
	kmsg_scan("killed fork bomb", report, sizeof(report));
	kmsg_scan("evidence:", evidence, sizeof(evidence));
	if (tracer)
		irqsoff_where(where, sizeof(where));
	{
		/* What the kill (or cgroup.kill) window saw, and before it. */
		double from = on ? exhausted : killed_at;
		double to = recovered >= 0 ? recovered + BUCKET_S : t;

		printf("BIGBOMB tracking=%s cpus=%d n=%ld threads_max=%ld peak=%ld exhausted=%.1f killed_at=%.1f empty=%.1f recovered=%.1f left=%ld fbk_kills=%ld fbk_tasks=%ld scan_us=%ld kill_us=%ld irqsoff_us=%ld irqsoff_at=%s rt_grow_ms=%.1f rt_kill_ms=%.1f fork_grow_ms=%.1f fork_kill_ms=%.1f rt_throttled=%d\n",
		       on ? "on" : "off", cpus, n, threads_max, peak, exhausted,
		       killed_at, empty, recovered, cg_long(&cg, "pids.current"),
		       knob_long("forkbomb_kills") - kills0,
		       knob_long("forkbomb_tasks_killed") - tasks0,
		       after(evidence, "scan "), after(evidence, "kill "),
		       tracer ? file_long(TRACING "tracing_max_latency") : -1, where,
		       worst_rt(cpus, 0, from), worst_rt(cpus, from, to),
		       worst(tl->fork_ms, 0, from), worst(tl->fork_ms, from, to),
		       rt_throttled);
	}
	if (report[0])
		printf("BIGBOMB-REPORT %s", report);
	if (evidence[0])
		printf("BIGBOMB-REPORT %s", evidence);
	if (tracer)
		write_text(TRACING "current_tracer", "nop");
	for (c = 0; c <= cpus; c++)
		kill(helpers[c], SIGKILL);
	cg_destroy(&cg);
	restore_settings(&saved);
	cgroups_teardown(&saved);
	return 0;
}
