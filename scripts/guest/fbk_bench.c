// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmarks of `make bench`, run inside the guest.
 *
 *   fbk_bench fork ROUNDS N      N x (fork, child exits, wait) per round
 *   fbk_bench exec ROUNDS N      N x (fork, child execs and exits, wait)
 *   fbk_bench records N          fork a tree of N processes that exit, then
 *                                report the records, their memory and the
 *                                time of a scan (debugfs dry run)
 *   fbk_bench locks N            (a CONFIG_LOCK_STAT kernel) one process
 *                                per CPU, each N x (fork, exit, wait), with
 *                                tracking on and then off: /proc/lock_stat
 *                                for the feature's locks and tasklist_lock
 *
 * With the fork bomb killer present, every round of fork and exec measures
 * tracking disabled and enabled back to back, in alternating order
 * (off/on, on/off, ...), so that drift cancels out. Prints
 * "BENCH kind=... round=... tracking=... ns_per_op=..." lines.
 */
#include "forkbomb_util.h"	/* tools/testing/selftests/forkbomb/ */

static char *self;

/* ns per operation over @n operations of @kind. */
static double measure(const char *kind, long n)
{
	char *const argv[] = { self, "exit", NULL };
	double start = now_s();
	long i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (!strcmp(kind, "exec"))
				execv(self, argv);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid) {
			perror("fork");
			exit(1);
		}
	}
	return (now_s() - start) * 1e9 / n;
}

static void rounds(const char *kind, int nr, long n)
{
	int have = access(OOM_DIR "mm_tracking_enabled", W_OK) == 0;
	int r, i;

	measure(kind, n / 10);	/* warm up */
	for (r = 0; r < nr; r++) {
		for (i = 0; i < (have ? 2 : 1); i++) {
			int on = have && (i ^ (r & 1));
			double ns;

			if (have)
				knob_set("mm_tracking_enabled", on ? "enabled" : "disabled");
			ns = measure(kind, n);
			printf("BENCH kind=%s round=%d tracking=%s ns_per_op=%.0f\n", kind, r,
			       have ? (on ? "on" : "off") : "none", ns);
		}
	}
	if (have)
		knob_set("mm_tracking_enabled", "enabled");
}

/* A tree of @n processes: @n/100 children each fork 99 that exit. */
static void records(long n)
{
	long before, after, kids = n / 100, i, j, objsize, slabsize;
	char val[32];

	knob_set("mm_tracking_reset_interval_msecs", "86400000");
	snprintf(val, sizeof(val), "%ld", n * 2 + 100000);
	knob_set("mm_tracking_max_records", val);
	before = knob_long("mm_tracking_records");
	for (i = 0; i < kids; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			for (j = 0; j < 99; j++) {
				pid_t c = fork();

				if (c == 0)
					_exit(0);
				waitpid(c, NULL, 0);
			}
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	after = knob_long("mm_tracking_records");
	objsize = file_long("/sys/kernel/slab/fbk_node/object_size");
	slabsize = file_long("/sys/kernel/slab/fbk_node/slab_size");
	printf("BENCH kind=records processes=%ld records_before=%ld records_after=%ld object_size=%ld slab_size=%ld\n",
	       kids * 100, before, after, objsize, slabsize);
	/* The scan an OOM would run, a few times: the best and the median. */
	for (i = 0; i < 5; i++)
		printf("BENCH kind=scan records=%ld scan_ns=%ld\n",
		       dry_run_value("records"),
		       dry_run_value("scan_ns"));
}

/* The lock classes of the table: the feature's, and what fork and exit take. */
static const char *const lock_classes[] = {
	"fbk_lock", "fbk_history_rwsem", "fbk_mutex", "oom_lock",
	"tasklist_lock", "pidmap_lock", "css_set_lock",
};

/* Print /proc/lock_stat's line for each class of lock_classes[]. */
static void lock_stat_print(const char *tracking)
{
	static const char *const cols[] = {
		"con_bounces", "contentions", "wait_min_us", "wait_max_us",
		"wait_total_us", "wait_avg_us", "acq_bounces", "acquisitions",
		"hold_min_us", "hold_max_us", "hold_total_us", "hold_avg_us",
	};
	char line[512], name[128];
	unsigned int i, c;
	FILE *f = fopen("/proc/lock_stat", "r");

	if (!f) {
		perror("/proc/lock_stat");
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *p;
		size_t len;

		if (!colon || sscanf(line, " %127[^:]", name) != 1)
			continue;
		len = strlen(name);
		for (i = 0; i < sizeof(lock_classes) / sizeof(lock_classes[0]); i++) {
			size_t n = strlen(lock_classes[i]);

			if (!strncmp(name, lock_classes[i], n) &&
			    (len == n || (len == n + 2 && name[n] == '-')))
				break;
		}
		if (i == sizeof(lock_classes) / sizeof(lock_classes[0]))
			continue;
		printf("BENCH kind=lockstat tracking=%s class=%s", tracking, name);
		p = colon + 1;
		for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
			char *end;
			double v = strtod(p, &end);

			if (end == p)
				break;
			printf(" %s=%.2f", cols[c], v);
			p = end;
		}
		printf("\n");
	}
	fclose(f);
}

/* One process per CPU, each @n x (fork, exit, wait), under lock_stat. */
static void locks(long n)
{
	int cpus = sysconf(_SC_NPROCESSORS_ONLN), r, c;
	static const char *const order[] = { "on", "off" };

	for (r = 0; r < 2; r++) {
		const char *tracking = order[r];
		double start;

		knob_set("mm_tracking_enabled",
			 strcmp(tracking, "on") ? "disabled" : "enabled");
		write_text("/proc/lock_stat", "0");
		write_text("/proc/sys/kernel/lock_stat", "1");
		start = now_s();
		for (c = 0; c < cpus; c++) {
			if (fork() == 0) {
				measure("fork", n);
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
		write_text("/proc/sys/kernel/lock_stat", "0");
		printf("BENCH kind=lockstorm tracking=%s cpus=%d forks=%ld seconds=%.2f\n",
		       tracking, cpus, n * cpus, now_s() - start);
		lock_stat_print(tracking);
	}
	knob_set("mm_tracking_enabled", "enabled");
}

int main(int argc, char **argv)
{
	self = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	if (argc > 3 && (!strcmp(argv[1], "fork") || !strcmp(argv[1], "exec"))) {
		rounds(argv[1], atoi(argv[2]), atol(argv[3]));
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "records")) {
		records(atol(argv[2]));
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "locks")) {
		locks(atol(argv[2]));
		return 0;
	}
	fprintf(stderr, "usage: fbk_bench fork|exec ROUNDS N | records N | locks N\n");
	return 2;
}
