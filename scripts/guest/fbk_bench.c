// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmarks of `make bench`, run inside the guest.
 *
 *   fbk_bench fork ROUNDS N      N x (fork, child exits, wait) per round
 *   fbk_bench exec ROUNDS N      N x (fork, child execs and exits, wait)
 *   fbk_bench records N          fork a tree of N processes that exit, then
 *                                report the records, their memory and the
 *                                time of a scan (debugfs dry run)
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
	fprintf(stderr, "usage: fbk_bench fork|exec ROUNDS N | records N\n");
	return 2;
}
