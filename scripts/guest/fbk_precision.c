// SPDX-License-Identifier: GPL-2.0
/*
 * One case of the precision table of `make bench`, run inside the guest,
 * the same on the stock and on the patched kernel: a fork bomb, or a busy
 * program that is not one, driven into memory or pid exhaustion.
 *
 *   fbk_precision CASE WINDOW_S
 *
 * Bombs: c shell exec setsid chain spawner burst typed (256 MiB guest)
 *        the bombs people write, a command in every generation:
 *        bash-command (typed into bash) c-command script make perl
 *        threads-c threads-spawner threads-command (busybox sh -c)
 *        threads-bash-command (2 GiB guest, threads-max 3000 over)
 *        nproc-command (uid 1000, RLIMIT_NPROC 200)
 *        container-command container-spawner (a cgroup with pids.max 300)
 * Busy:  browser build workers prefork-hog deep-build ramp session
 *        ci-runner (256 MiB guest)
 *        stress-ng-fork (512 MiB guest, memory.max 128M; needs stress-ng)
 *        nproc-job bash-retry stress-ng-nproc (as uid 1000 under
 *        RLIMIT_NPROC)
 *
 * A bystander times its fork+exit+wait every 250 ms. The moment of
 * exhaustion is the first OOM kill (/proc/vmstat oom_kill, which counts
 * the fork bomb killer's OOM victims too, or the cgroup's memory.events),
 * the first failed fork the fork bomb killer counted, or the bystander's
 * first failed fork, whichever comes first. A bomb is recovered from when
 * it is gone (its cgroup empty, the typed bomb's shell aside) and the
 * bystander forks in under 50 ms again. Prints one line:
 *
 *   PRECISION case=C kind=bomb|busy kernel=stock|patched exhausted=S
 *             recovered=S left=N fbk_kills=N fbk_tasks=N oom_victims=N
 *             parent=alive|dead bystander=alive|dead
 *
 * (seconds from the start; -1: never within the window; fbk_* -1 on the
 * stock kernel; oom_victims are the ordinary OOM killer's, from the kernel
 * log). The tool runs
 * with oom_score_adj -1000 and never forks once the case runs.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include "bomb_common.h"	/* tools/testing/selftests/forkbomb/ */

#define BOMB		"/kselftest/forkbomb/fbk_bomb"
#define STRESS_NG	"/usr/bin/stress-ng"
#define USER_UID	1000
/* The OOM killer's report of each victim, global or memcg. */
#define OOM_VICTIM	"ut of memory: Killed process"

/* What the bystander shares with us, as in fbk_monitor.c. */
struct probe {
	volatile double started;
	volatile double last_ms;
	volatile double first_failure;
};

static void bystander(struct probe *probe)
{
	set_oom_score_adj(0);
	for (;;) {
		double t0 = now_s(), ms;
		pid_t pid;

		probe->started = t0;
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		else if (!probe->first_failure)
			probe->first_failure = t0;
		ms = pid > 0 ? (now_s() - t0) * 1000 : -1;
		probe->last_ms = ms;
		probe->started = 0;
		sleep_ms(ms >= 0 && ms < 250 ? 250 - (long)ms : 10);
	}
}

static double latency_now(const struct probe *probe)
{
	double started = probe->started, ms = probe->last_ms;

	if (started > 0 && (now_s() - started) * 1000 > ms && ms >= 0)
		ms = (now_s() - started) * 1000;
	return ms;
}

struct user_args {
	struct test_cgroup *cg;
	int nproc;
};

/* Join the cgroup, then become the user under RLIMIT_NPROC. */
static int enter_as_user(void *arg)
{
	struct user_args *args = arg;
	struct rlimit rl = { args->nproc, args->nproc };

	if (cg_enter(args->cg) || chdir("/tmp") || setrlimit(RLIMIT_NPROC, &rl) ||
	    setgid(USER_UID) || setuid(USER_UID))
		return -1;
	return 0;
}

static int enter_tmp(void *arg)
{
	return cg_enter(arg) || chdir("/tmp");
}

static void write_script(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	chmod(path, mode);
}

#define BUILD_DIR	"/tmp/fbk-build"

/*
 * A build three levels deep (as innocents.c's deep_build): three
 * sub-makes, two more each, four compile jobs each, growing 1 MiB every
 * 60 ms to 64 MiB.
 */
static void deep_build_makefiles(void)
{
	static const char *const subs[] = { "a", "b", "c" };
	static const char *const subsubs[] = { "x", "y" };
	char path[256], text[512];
	unsigned int i, j;

	mkdir(BUILD_DIR, 0755);
	write_script(BUILD_DIR "/Makefile",
		     "all: a b c\na b c:\n\t@$(MAKE) -s -C $@\n.PHONY: all a b c\n", 0644);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), BUILD_DIR "/%s", subs[i]);
		mkdir(path, 0755);
		strcat(path, "/Makefile");
		write_script(path, "all: x y\nx y:\n\t@$(MAKE) -s -C $@\n.PHONY: all x y\n",
			     0644);
		for (j = 0; j < 2; j++) {
			snprintf(path, sizeof(path), BUILD_DIR "/%s/%s", subs[i],
				 subsubs[j]);
			mkdir(path, 0755);
			strcat(path, "/Makefile");
			snprintf(text, sizeof(text),
				 "all: 1.o 2.o 3.o 4.o\n%%.o:\n"
				 "\t@echo CC $@ >/dev/null; %s compile 64 60\n.PHONY: all\n",
				 BOMB);
			write_script(path, text, 0644);
		}
	}
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "c";
	double window = argc > 2 ? atof(argv[2]) : 30;
	struct test_cgroup cg = {}, hog_cg = {};
	struct saved_settings saved = {};
	struct user_args user = { &cg, 0 };
	long ff0, kills0, tasks0, memcg_oom0 = 0, left = -1, keep = 0;
	long oom0, victims0;
	double start, t, exhausted = -1, recovered = -1;
	bool bomb = true, patched = have_forkbomb_killer();
	bool parent_dead = false, by_dead = false;
	struct probe *probe;
	pid_t by, parent = 0, spawner = 0, w;
	char path[320];
	int shell_in = -1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (protect_self() || cgroups_setup(&saved) || cg_create(&cg, "case") ||
	    cg_create(&hog_cg, "hog"))
		return 1;
	probe = mmap(NULL, sizeof(*probe), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (probe == MAP_FAILED)
		return 1;
	probe->last_ms = -1;
	by = fork();
	if (by == 0)
		bystander(probe);
	if (patched)
		wait_calm(&saved, 200, 30);
	make_room(&saved);

	if (!strncmp(name, "container-", 10))
		cg_write(&cg, "pids.max", "300");
	/* What must be old before the case starts. */
	if (!strcmp(name, "spawner") || !strcmp(name, "threads-spawner") ||
	    !strcmp(name, "container-spawner")) {
		const char *const a[] = { BOMB, "spawner",
			strcmp(name, "spawner") ? "0" : "256", NULL };

		spawner = spawn(a, cg_enter, &cg);
		sleep_ms(OLD_MS);
	} else if (!strcmp(name, "typed") || !strcmp(name, "bash-command") ||
		   !strcmp(name, "threads-bash-command")) {
		parent = start_shell(&cg, &shell_in,
				     strcmp(name, "typed") ? "/bin/bash" : "/bin/sh");
		keep = 1;
		sleep_ms(OLD_MS);
	} else if (!strcmp(name, "script")) {
		write_script("/tmp/fbk-script-bomb.sh",
			     "#!/bin/bash\ndate >/dev/null\n\"$0\" &\n\"$0\" &\n", 0755);
	} else if (!strcmp(name, "make")) {
		mkdir("/tmp/fbk-make-bomb", 0755);
		write_script("/tmp/fbk-make-bomb/Makefile",
			     "all:\n\t@date >/dev/null\n\t@$(MAKE) -s & $(MAKE) -s; wait\n",
			     0644);
	} else if (!strcmp(name, "perl")) {
		write_script("/tmp/fbk-bomb.pl", "system(\"date >/dev/null\");\n"
			     "for (1 .. 2) {\n\tmy $pid = fork();\n"
			     "\texec($^X, $0) if defined $pid && $pid == 0;\n}\n", 0644);
	} else if (!strcmp(name, "deep-build")) {
		deep_build_makefiles();
	}
	if (!strncmp(name, "threads-", 8))
		limit_threads(&saved, 3000);
	if (!strcmp(name, "burst") && patched)
		change_knob(&saved, "mm_tracking_reset_interval_msecs", "200");

	oom0 = file_value("/proc/vmstat", "oom_kill");
	victims0 = kmsg_count(OOM_VICTIM);
	ff0 = knob_long("forkbomb_fork_failures");
	kills0 = knob_long("forkbomb_kills");
	tasks0 = knob_long("forkbomb_tasks_killed");
	snprintf(path, sizeof(path), "%s/memory.events", cg.path);
	start = now_s();

	if (spawner) {
		kill(spawner, SIGUSR1);
	} else if (!strcmp(name, "typed")) {
		shell_type(shell_in, "f(){ f|f & }; f");
	} else if (!strcmp(name, "bash-command") ||
		   !strcmp(name, "threads-bash-command")) {
		shell_type(shell_in, "f(){ date >/dev/null; f & f & }; f");
	} else if (!strcmp(name, "threads-command")) {
		const char *const a[] = { "/bin/sh", "-c",
			"f(){ date >/dev/null; f & f & }; f", NULL };

		spawn(a, cg_enter, &cg);
	} else if (!strcmp(name, "c-command") || !strcmp(name, "container-command")) {
		const char *const a[] = { BOMB, "command", "64", NULL };

		spawn(a, cg_enter, &cg);
	} else if (!strcmp(name, "nproc-command")) {
		const char *const a[] = { BOMB, "command", "64", NULL };

		user.nproc = 200;
		spawn(a, enter_as_user, &user);
	} else if (!strcmp(name, "script")) {
		const char *const a[] = { "/tmp/fbk-script-bomb.sh", NULL };

		spawn(a, cg_enter, &cg);
	} else if (!strcmp(name, "make")) {
		const char *const a[] = { "/usr/bin/make", "-s", "-C",
			"/tmp/fbk-make-bomb", NULL };

		spawn(a, cg_enter, &cg);
	} else if (!strcmp(name, "perl")) {
		const char *const a[] = { "/usr/local/bin/perl", "/tmp/fbk-bomb.pl", NULL };

		spawn(a, cg_enter, &cg);
	} else if (!strcmp(name, "shell")) {
		const char *const a[] = { "/bin/sh", "-c", "f(){ f|f & }; f", NULL };

		spawn(a, cg_enter, &cg);
	} else if (!strcmp(name, "c") || !strcmp(name, "threads-c") ||
		   !strcmp(name, "exec") || !strcmp(name, "setsid") ||
		   !strcmp(name, "chain")) {
		const char *mode = !strcmp(name, "threads-c") ? "c" : name;
		const char *const a[] = { BOMB, mode,
			strcmp(name, "chain") ? "64" : "0", NULL };

		spawn(a, cg_enter, &cg);
	} else if (!strcmp(name, "burst")) {
		const char *const a[] = { BOMB, "burst", "700", "128", NULL };

		spawn(a, cg_enter, &cg);
	} else {
		bomb = false;
		keep = 1;
		if (!strcmp(name, "browser")) {
			const char *const a[] = { BOMB, "browser", "20", "12", NULL };

			parent = spawn(a, cg_enter, &cg);
		} else if (!strcmp(name, "build")) {
			const char *const a[] = { BOMB, "build", "16", "24", NULL };

			parent = spawn(a, cg_enter, &cg);
		} else if (!strcmp(name, "workers")) {
			const char *const a[] = { BOMB, "workers", "12", NULL };

			parent = spawn(a, cg_enter, &cg);
		} else if (!strcmp(name, "prefork-hog")) {
			const char *const a[] = { BOMB, "prefork", "30", "32", NULL };
			const char *const h[] = { BOMB, "hog", NULL };

			parent = spawn(a, cg_enter, &cg);
			sleep_ms(1000);
			spawn(h, cg_enter, &hog_cg);
		} else if (!strcmp(name, "deep-build")) {
			const char *const a[] = { "/bin/sh", "-c",
				"/usr/bin/make -s -j40 -C " BUILD_DIR "; sleep 1000", NULL };

			parent = spawn(a, cg_enter, &cg);
		} else if (!strcmp(name, "ramp")) {
			const char *const a[] = { BOMB, "ramp", "256", "1024", NULL };

			parent = spawn(a, cg_enter, &cg);
		} else if (!strcmp(name, "session")) {
			const char *const a[] = { BOMB, "session", "60", "12", NULL };

			parent = spawn(a, cg_enter, &cg);
		} else if (!strcmp(name, "ci-runner")) {
			const char *const a[] = { "/bin/sh", "-c",
				"for i in $(seq 20); do sh -c 'date >/dev/null; "
				BOMB " compile 64 40 | cat | wc -c' >/dev/null & done; "
				"wait; sleep 1000", NULL };

			parent = spawn(a, cg_enter, &cg);
		} else if (!strcmp(name, "bash-retry")) {
			const char *const a[] = { "/bin/bash", "-c",
				"for i in $(seq 60); do sleep 3 & done 2>/dev/null; wait",
				NULL };

			user.nproc = 40;
			parent = spawn(a, enter_as_user, &user);
		} else if (!strcmp(name, "stress-ng-fork")) {
			const char *const a[] = { STRESS_NG, "--fork", "16",
				"--fork-max", "64", "--vm", "1", "--vm-bytes", "50%",
				"-t", "10s", NULL };

			cg_write(&cg, "memory.max", "128M");
			memcg_oom0 = file_value(path, "oom");
			parent = spawn(a, enter_tmp, &cg);
		} else if (!strcmp(name, "nproc-job")) {
			const char *const a[] = { "/bin/sh", "-c",
				"for i in $(seq 60); do sleep 3 & done 2>/dev/null; wait",
				NULL };

			user.nproc = 40;
			parent = spawn(a, enter_as_user, &user);
		} else if (!strcmp(name, "stress-ng-nproc")) {
			const char *const a[] = { STRESS_NG, "--fork", "4",
				"--fork-max", "64", "-t", "10s", NULL };

			user.nproc = 100;
			parent = spawn(a, enter_as_user, &user);
		} else {
			fprintf(stderr, "unknown case %s\n", name);
			return 2;
		}
	}

	for (t = 0; t < window; t = now_s() - start) {
		sleep_ms(50);
		while ((w = waitpid(-1, NULL, WNOHANG)) > 0) {
			if (w == by)
				by_dead = true;
			if (w == parent)
				parent_dead = true;
		}
		t = now_s() - start;
		if (exhausted < 0 &&
		    (file_value("/proc/vmstat", "oom_kill") > oom0 ||
		     (ff0 >= 0 && knob_long("forkbomb_fork_failures") > ff0) ||
		     (memcg_oom0 >= 0 && file_value(path, "oom") > memcg_oom0) ||
		     probe->first_failure > start))
			exhausted = probe->first_failure > start &&
				    probe->first_failure - start < t ?
				    probe->first_failure - start : t;
		left = cg_procs(&cg);
		if (!bomb) {
			/* A busy program: watch it for 5 s after it ran out. */
			if ((exhausted >= 0 && t - exhausted >= 5) || parent_dead)
				break;
			continue;
		}
		if (left == keep && !by_dead && latency_now(probe) >= 0 &&
		    latency_now(probe) < 50) {
			if (recovered < 0)
				recovered = t;
			if (t - recovered >= 3)
				break;
		} else {
			recovered = -1;
		}
	}
	if (!bomb && !parent_dead)
		parent_dead = waitpid(parent, NULL, WNOHANG) != 0;
	printf("PRECISION case=%s kind=%s kernel=%s exhausted=%.1f recovered=%.1f left=%ld fbk_kills=%ld fbk_tasks=%ld oom_victims=%ld parent=%s bystander=%s\n",
	       name, bomb ? "bomb" : "busy", patched ? "patched" : "stock",
	       exhausted, recovered, left - keep,
	       patched ? knob_long("forkbomb_kills") - kills0 : -1,
	       patched ? knob_long("forkbomb_tasks_killed") - tasks0 : -1,
	       (long)kmsg_count(OOM_VICTIM) - victims0,
	       parent ? (parent_dead ? "dead" : "alive") : "-",
	       by_dead ? "dead" : "alive");
	/* Whatever is left goes, so that the guest can power off. */
	cg_destroy(&cg);
	cg_destroy(&hog_cg);
	return 0;
}
