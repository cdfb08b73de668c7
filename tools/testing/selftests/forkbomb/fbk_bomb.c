// SPDX-License-Identifier: GPL-2.0
/*
 * Fork bombs and innocent workloads for the fork bomb killer selftests and
 * the demo. Not a test by itself: the tests start it (marked through its
 * environment) and watch what happens to it.
 *
 *   fbk_bomb c KIB        every process forks forever; each new one first
 *                         touches KIB of memory (the classic C bomb)
 *   fbk_bomb spread KIB   the same, children spread over all CPUs
 *   fbk_bomb exec KIB     every process forks, and the child execs this
 *                         program again
 *   fbk_bomb setsid KIB   every process forks a child that calls setsid(),
 *                         forks the next bomb process and exits (daemonize)
 *   fbk_bomb chain KIB    every process forks one child and waits for it:
 *                         a chain as deep as the system lets it grow
 *   fbk_bomb command KIB  every process runs a short-lived child, then
 *                         forks two copies of itself and exits: the C form
 *                         of f(){ date; f & f & }; f
 *   fbk_bomb clonevm KIB  every process clone()s others that share its
 *                         address space (CLONE_VM, not threads), forever
 *   fbk_bomb leaderless KIB  every process starts a thread and its main
 *                         thread calls pthread_exit(); the thread forks
 *                         forever, each child the same
 *   fbk_bomb spawner KIB  waits for SIGUSR1, then forks children in a loop
 *                         that touch KIB and idle (a runaway spawner,
 *                         older than its bomb)
 *   fbk_bomb burst MS KIB every process touches KIB, sleeps MS, forks three
 *                         children (which do the same), and again
 *   fbk_bomb userbomb UID forks a child that stays root and, on SIGUSR1,
 *                         forks an idle child; then becomes UID with
 *                         RLIMIT_NPROC 200 and runs the C bomb
 *   fbk_bomb hog          allocates and touches memory until it is killed
 *   fbk_bomb make JOBS KIB  keeps JOBS short-lived children of KIB running
 *   fbk_bomb build JOBS MIB a build: keeps JOBS compile jobs running, each
 *                         an exec of "fbk_bomb compile MIB"
 *   fbk_bomb compile MIB [MS]  a compile job: grows by 1 MiB every MS
 *                         (20) ms up to MIB, then exits
 *   fbk_bomb browser N MIB  opens N tabs of MIB over 5 s, then idles
 *   fbk_bomb workers N    a worker pool: N workers at once, each growing
 *                         by 1 MiB every 100 ms
 *   fbk_bomb prefork N MIB  a pre-forking server: touches MIB, then forks N
 *                         idle workers that share it copy-on-write
 *   fbk_bomb ramp N KIB   a pre-forking server after a restart: forks 30
 *                         workers a second toward N, each touching KIB
 *   fbk_bomb session N MIB  a browser restoring a session: its zygote forks
 *                         N renderers over 2 s, each growing to MIB
 *   fbk_bomb recycle N MS  a pool that recycles its workers: forks N idle
 *                         workers at once, which hold three quarters of
 *                         the available memory between them, then every
 *                         MS milliseconds retires the oldest and forks its
 *                         replacement (php-fpm's pm.max_requests)
 *   fbk_bomb loop         runs one short-lived child after another
 *   fbk_bomb adjmin N     N idle children with oom_score_adj -1000
 *   fbk_bomb latency MS   a bystander: forks a child every MS milliseconds
 *                         and prints "seconds fork_exit_wait_ms" lines
 *   fbk_bomb family CGROUP MODE ARGS...  first forks three idle children
 *                         that move to the cgroup directory CGROUP (out of
 *                         the bomb's scope, in its family), then runs
 *                         fbk_bomb MODE ARGS...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Touch @kib of fresh memory so that the process really holds it. */
static void touch(long kib)
{
	char *mem;

	if (kib <= 0)
		return;
	mem = malloc(kib << 10);
	if (!mem)
		return;
	memset(mem, 1, kib << 10);
	/* Nobody reads it: keep the compiler from dropping it all. */
	asm volatile("" : : "r" (mem) : "memory");
}

static void pin_to(int cpu)
{
	cpu_set_t set;
	int n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu % n, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void bomb(long kib, int spread)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			if (spread)
				pin_to(getpid());
			touch(kib);
		} else if (pid < 0) {
			sched_yield();
		}
	}
}

static void exec_bomb(char **argv)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			execv("/proc/self/exe", argv);
			_exit(1);
		}
		if (pid < 0)
			sched_yield();
	}
}

static void setsid_bomb(long kib)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			setsid();
			pid = fork();
			if (pid == 0) {
				touch(kib);
				continue;	/* the daemon is the next bomb process */
			}
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		else
			sched_yield();
	}
}

static void chain_bomb(long kib)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			touch(kib);
			continue;	/* the child carries the chain on */
		}
		if (pid < 0) {
			sched_yield();
			continue;
		}
		waitpid(pid, NULL, 0);
		_exit(0);
	}
}

/*
 * Runs a command, then starts two copies of itself and exits; a copy that
 * cannot be forked is not started, as a shell prints "can't fork" and
 * goes on.
 */
static void command_bomb(long kib)
{
	pid_t pid;
	int i;

	for (;;) {
		touch(kib);
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		for (i = 0; i < 2; i++)
			if (fork() == 0)
				break;
		if (i == 2)
			_exit(0);
	}
}

#define CLONEVM_STACK	(64 << 10)

static int clonevm_child(void *arg);

/* Processes sharing one address space, each cloning more forever. */
static void clonevm_bomb(long kib)
{
	char *stack;

	for (;;) {
		stack = mmap(NULL, CLONEVM_STACK, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (stack == MAP_FAILED) {
			sched_yield();
			continue;
		}
		memset(stack, 0, kib << 10 < CLONEVM_STACK ? kib << 10 : 4096);
		if (clone(clonevm_child, stack + CLONEVM_STACK,
			  CLONE_VM | SIGCHLD, (void *)kib) < 0) {
			munmap(stack, CLONEVM_STACK);
			sched_yield();
		}
	}
}

static int clonevm_child(void *arg)
{
	clonevm_bomb((long)arg);
	return 0;
}

static long leaderless_kib;

static void *leaderless_thread(void *arg);

/* Its main thread leaves; a thread forks on, and so does every child. */
static void leaderless(void)
{
	pthread_t thread;

	touch(leaderless_kib);
	while (pthread_create(&thread, NULL, leaderless_thread, NULL))
		sched_yield();
	pthread_exit(NULL);
}

static void *leaderless_thread(void *arg)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0)
			leaderless();
		else if (pid < 0)
			sched_yield();
	}
	return NULL;
}

/* Wait for SIGUSR1; one sent before we got here stays pending. */
static void wait_usr1(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigwait(&set, &sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* An older process that, once told, forks idle children without end. */
static void spawner(long kib)
{
	wait_usr1();
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			touch(kib);
			for (;;)
				pause();
		}
		if (pid < 0)
			sched_yield();
	}
}

/* Grows in bursts: every @ms, each process forks three more. */
static void burst(long ms, long kib)
{
	int i;

	touch(kib);
	for (;;) {
		sleep_ms(ms);
		for (i = 0; i < 3; i++) {
			if (fork() == 0) {
				touch(kib);
				break;
			}
		}
	}
}

/* A user's bomb whose first process left a root child behind. */
static void userbomb(uid_t uid)
{
	struct rlimit rl = { 200, 200 };

	if (fork() == 0) {
		wait_usr1();
		if (fork() == 0)
			for (;;)
				pause();
		for (;;)
			pause();
	}
	if (setrlimit(RLIMIT_NPROC, &rl) || setgid(uid) || setuid(uid))
		_exit(1);
	bomb(64, 0);
}

static void hog(void)
{
	for (;;) {
		touch(1024);
		sched_yield();
	}
}

/* A parallel build: JOBS compilers of KIB each, 20-60 ms apiece. */
static void make(int jobs, long kib)
{
	int running = 0;

	srand(getpid());
	for (;;) {
		while (running < jobs) {
			pid_t pid = fork();

			if (pid == 0) {
				touch(kib);
				sleep_ms(20 + rand() % 40);
				_exit(0);
			}
			if (pid < 0)
				break;
			running++;
		}
		if (wait(NULL) > 0)
			running--;
	}
}

/* A compile job: grows by 1 MiB every @ms up to @mib, then exits. */
static void compile(long mib, long ms)
{
	long i;

	for (i = 0; i < mib; i++) {
		touch(1024);
		sleep_ms(ms);
	}
	_exit(0);
}

/* A build: keeps @jobs compile jobs (fork and exec) of @mib running. */
static void build(char *self, int jobs, long mib)
{
	char arg[32];
	char *const argv[] = { self, "compile", arg, NULL };
	int running = 0;

	snprintf(arg, sizeof(arg), "%ld", mib);
	for (;;) {
		while (running < jobs) {
			pid_t pid = fork();

			if (pid == 0) {
				execv("/proc/self/exe", argv);
				_exit(127);
			}
			if (pid < 0)
				break;
			running++;
		}
		if (wait(NULL) > 0)
			running--;
	}
}

/* A browser: opens @n tabs of @mib over 5 s, then everything idles. */
static void browser(int n, long mib)
{
	int i;

	for (i = 0; i < n; i++) {
		if (fork() == 0) {
			touch(mib << 10);
			for (;;)
				pause();
		}
		sleep_ms(5000 / n);
	}
	for (;;)
		pause();
}

/* A worker pool: @n workers forked at once, each growing 1 MiB every 100 ms. */
static void workers(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (fork() == 0) {
			for (;;) {
				touch(1024);
				sleep_ms(100);
			}
		}
	}
	for (;;)
		pause();
}

/* A pre-forking server: @mib of its own, shared with @n idle workers. */
static void prefork(int n, long mib)
{
	int i;

	touch(mib << 10);
	for (i = 0; i < n; i++)
		if (fork() == 0)
			break;
	for (;;)
		pause();
}

/* A server ramping up after a restart: 30 idle workers a second, to @n. */
static void ramp(int n, long kib)
{
	int i;

	for (i = 0; i < n; i++) {
		if (fork() == 0) {
			touch(kib);
			for (;;)
				pause();
		}
		sleep_ms(1000 / 30);
	}
	for (;;)
		pause();
}

/*
 * A browser restoring a session: the zygote, a child of the browser,
 * forks @n renderers over 2 s, each growing 1 MiB every 50 ms to @mib.
 */
static void session(int n, long mib)
{
	long i;

	if (fork() == 0) {
		for (i = 0; i < n; i++) {
			if (fork() == 0) {
				for (i = 0; i < mib; i++) {
					touch(1024);
					sleep_ms(50);
				}
				for (;;)
					pause();
			}
			sleep_ms(2000 / n);
		}
		for (;;)
			pause();
	}
	for (;;)
		pause();
}

static pid_t idle_worker(long kib)
{
	pid_t pid = fork();

	if (pid == 0) {
		touch(kib);
		for (;;)
			pause();
	}
	return pid;
}

/* MemAvailable, in KiB; 0 when unknown. */
static long available_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* A pool of @n idle workers; every @ms, the oldest is replaced. */
static void recycle(int n, long ms)
{
	pid_t *workers = calloc(n, sizeof(*workers));
	long kib;
	int i;

	if (!workers || n <= 0)
		exit(1);
	kib = available_kib() / 4 * 3 / n;
	for (i = 0; i < n; i++)
		workers[i] = idle_worker(kib);
	for (i = 0;; i = (i + 1) % n) {
		sleep_ms(ms);
		if (workers[i] > 0) {
			kill(workers[i], SIGTERM);
			waitpid(workers[i], NULL, 0);
		}
		workers[i] = idle_worker(kib);
	}
}

static void adj_min_children(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (fork() == 0) {
			int fd = open("/proc/self/oom_score_adj", O_WRONLY);

			if (fd < 0 || write(fd, "-1000", 5) != 5)
				_exit(1);
			close(fd);
			touch(64);
			for (;;)
				pause();
		}
	}
	for (;;)
		pause();
}

static void loop(void)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		sleep_ms(2);
	}
}

/* How long a fork+exit+wait takes for a bystander, every @ms. */
static void latency(long ms)
{
	double start = now_s();

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		double t0 = now_s(), t1;
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		t1 = now_s();
		printf("%.3f %.1f%s\n", t0 - start, (t1 - t0) * 1000,
		       pid < 0 ? " fork-failed" : "");
		if ((t1 - t0) * 1000 < ms)
			sleep_ms(ms - (long)((t1 - t0) * 1000));
	}
}

/* Three children of the bomb's first process that leave for @cgroup. */
static void escapees(const char *cgroup)
{
	char path[512], pid[32];
	int i, fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
	for (i = 0; i < 3; i++) {
		if (fork())
			continue;
		fd = open(path, O_WRONLY);
		snprintf(pid, sizeof(pid), "%d", getpid());
		if (fd < 0 || write(fd, pid, strlen(pid)) < 0)
			_exit(1);
		close(fd);
		touch(64);
		for (;;)
			pause();
	}
	/* They have left before the bomb starts. */
	sleep_ms(100);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long arg;

	if (!strcmp(mode, "family") && argc > 3) {
		escapees(argv[2]);
		argv += 2;
		argc -= 2;
		mode = argv[1];
	}
	arg = argc > 2 ? atol(argv[2]) : 64;

	if (!strcmp(mode, "c"))
		bomb(arg, 0);
	if (!strcmp(mode, "spread"))
		bomb(arg, 1);
	if (!strcmp(mode, "exec")) {
		touch(arg);
		exec_bomb(argv);
	}
	if (!strcmp(mode, "setsid"))
		setsid_bomb(arg);
	if (!strcmp(mode, "chain"))
		chain_bomb(arg);
	if (!strcmp(mode, "command"))
		command_bomb(arg);
	if (!strcmp(mode, "clonevm"))
		clonevm_bomb(arg);
	if (!strcmp(mode, "leaderless")) {
		leaderless_kib = arg;
		leaderless();
	}
	if (!strcmp(mode, "spawner"))
		spawner(arg);
	if (!strcmp(mode, "burst") && argc > 3)
		burst(arg, atol(argv[3]));
	if (!strcmp(mode, "userbomb"))
		userbomb(arg);
	if (!strcmp(mode, "hog"))
		hog();
	if (!strcmp(mode, "make") && argc > 3)
		make(arg, atol(argv[3]));
	if (!strcmp(mode, "build") && argc > 3)
		build(argv[0], arg, atol(argv[3]));
	if (!strcmp(mode, "compile"))
		compile(arg, argc > 3 ? atol(argv[3]) : 20);
	if (!strcmp(mode, "browser") && argc > 3)
		browser(arg, atol(argv[3]));
	if (!strcmp(mode, "workers"))
		workers(arg);
	if (!strcmp(mode, "prefork") && argc > 3)
		prefork(arg, atol(argv[3]));
	if (!strcmp(mode, "ramp") && argc > 3)
		ramp(arg, atol(argv[3]));
	if (!strcmp(mode, "session") && argc > 3)
		session(arg, atol(argv[3]));
	if (!strcmp(mode, "recycle") && argc > 3)
		recycle(arg, atol(argv[3]));
	if (!strcmp(mode, "adjmin"))
		adj_min_children(arg);
	if (!strcmp(mode, "loop"))
		loop();
	if (!strcmp(mode, "latency"))
		latency(arg);
	fprintf(stderr, "usage: see the comment at the top of fbk_bomb.c\n");
	return 2;
}
