// SPDX-License-Identifier: GPL-2.0
/*
 * The busy-host part of `make bench`, run inside the guest: what the
 * history costs a host that is never calm.
 *
 *   fbk_busy SECONDS DEVICE RATE
 *
 * A reader streams DEVICE (a disk larger than the guest's memory) through
 * the page cache over and over, so kswapd reclaims all the time and the
 * reaper never finds the system calm. Beside it, LIVE idle processes, and
 * a server that forks RATE short-lived children a second (each exits at
 * once). Every SAMPLE_S seconds: the records, what they take in the slab,
 * the kswapd runs since the last sample (pageoutrun), the forks, and the
 * duration of the scan an OOM would run now (the debugfs dry run).
 *
 * Prints "BUSY-SAMPLE t=... records=... dropped=... slab_kb=...
 * kswapd_runs=... forks=... scan_ms=... calm_ms_ago=..." lines and one
 * "BUSY ..." line with the maxima, the cap and the rate of exits.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include "fbk_crowd.h"

#define LIVE		2000
#define SAMPLE_S	30
#define CHUNK		(1 << 20)

/* Read @device from start to end, again and again. */
static pid_t start_reader(const char *device)
{
	static char buf[CHUNK];
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	fd = open(device, O_RDONLY);
	if (fd < 0) {
		perror(device);
		_exit(1);
	}
	for (;;)
		if (read(fd, buf, sizeof(buf)) <= 0)
			lseek(fd, 0, SEEK_SET);
}

/* Fork @rate children a second, each exiting at once; count them. */
static pid_t start_server(int rate, long *forks)
{
	pid_t pid = fork(), child;
	double next;

	if (pid)
		return pid;
	next = now_s();
	for (;;) {
		child = fork();
		if (child == 0)
			_exit(0);
		if (child > 0) {
			waitpid(child, NULL, 0);
			__atomic_add_fetch(forks, 1, __ATOMIC_RELAXED);
		}
		next += 1.0 / rate;
		if (next > now_s())
			sleep_ms((long)((next - now_s()) * 1000));
	}
}

/* What @records take in the slab (its objects' stride; the cache may be merged). */
static long slab_kb(long records)
{
	long stride = file_long("/sys/kernel/slab/fbk_node/slab_size");

	return stride < 0 ? -1 : records * stride / 1024;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 600;
	const char *device = argc > 2 ? argv[2] : "/dev/vda";
	int rate = argc > 3 ? atoi(argv[3]) : 100;
	long max_records = 0, max_slab = 0, runs, last_runs, last_forks = 0;
	long *forks = mmap(NULL, sizeof(long), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double t0, t, max_scan = 0, scan;
	int samples = 0, busy = 0, i, j;
	long records, calm_ms = -1;
	pid_t reader, server;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (forks == MAP_FAILED || !have_forkbomb_killer() ||
	    prctl(PR_SET_CHILD_SUBREAPER, 1) || set_oom_score_adj(-1000))
		return 1;
	if (access(DRY_RUN, R_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	for (i = 0; i < LIVE / 100; i++) {
		if (fork() == 0) {
			for (j = 0; j < 99; j++)
				if (fork() == 0)
					idle_forever();
			idle_forever();
		}
	}
	reader = start_reader(device);
	server = start_server(rate, forks);
	last_runs = file_value("/proc/vmstat", "pageoutrun");
	t0 = now_s();
	printf("BUSY-START seconds=%d rate=%d live=%d max_records=%ld\n", seconds,
	       rate, LIVE, knob_long("mm_tracking_max_records"));
	while ((t = now_s() - t0) < seconds) {
		sleep_ms(SAMPLE_S * 1000);
		t = now_s() - t0;
		runs = file_value("/proc/vmstat", "pageoutrun");
		records = knob_long("mm_tracking_records");
		scan = dry_run_value("scan_ns") / 1e6;
		calm_ms = dry_run_value("calm_ms_ago");
		printf("BUSY-SAMPLE t=%.0f records=%ld dropped=%ld slab_kb=%ld kswapd_runs=%ld forks=%ld scan_ms=%.1f calm_ms_ago=%ld\n",
		       t, records, knob_long("mm_tracking_records_dropped"), slab_kb(records),
		       runs - last_runs, *forks - last_forks, scan, calm_ms);
		samples++;
		busy += runs > last_runs;
		max_records = records > max_records ? records : max_records;
		max_slab = slab_kb(records) > max_slab ? slab_kb(records) : max_slab;
		max_scan = scan > max_scan ? scan : max_scan;
		last_runs = runs;
		last_forks = *forks;
	}
	printf("BUSY seconds=%.0f samples=%d kswapd_samples=%d calm_ms_ago=%ld exits_per_s=%.1f live=%d max_records=%ld cap=%ld dropped=%ld max_slab_kb=%ld max_scan_ms=%.1f\n",
	       now_s() - t0, samples, busy, calm_ms, *forks / (now_s() - t0), LIVE,
	       max_records, knob_long("mm_tracking_max_records"),
	       knob_long("mm_tracking_records_dropped"), max_slab, max_scan);
	kill(reader, SIGKILL);
	kill(server, SIGKILL);
	return 0;
}
