#!/bin/sh
# make bench: what the fork bomb killer costs, and what it buys.
#
#  1. fork+exit+wait and fork+exec+exit+wait, 1 vCPU with -icount (the
#     guest clock counts executed instructions, so timings repeat): the
#     patched kernel with tracking off and on in interleaved rounds, the
#     patched tree with CONFIG_FORKBOMB_KILLER=n, and the stock kernel.
#  2. records and scan time after trees of 10,000 and 100,000 processes.
#  3. precision, patched vs stock: every shape of fork bomb (time from
#     the first exhaustion to recovered, processes left) and busy programs
#     that are not bombs (fork bomb kills, which must be 0; the ordinary
#     OOM killer's victims; whether the program's parent lives).
#  4. a big bomb: 100,000 processes (BIGBOMB) at threads-max in a 14 GiB
#     guest on 2 vCPUs, on the bench kernel (irqsoff tracer), with tracking
#     on and, as the baseline, off (the bomb then removed by cgroup.kill):
#     recovery, scan and kill times, the longest interrupts-off section,
#     a real-time probe's and a bystander's worst latencies.
#  5. locks: a fork+exit storm on 2 vCPUs on the CONFIG_LOCK_STAT kernel,
#     tracking on and off: the feature's locks next to tasklist_lock.
#  6. scoped cost, patched vs stock: a memcg OOM and a fork failing on
#     pids.max in a cgroup of 100 processes, alone and beside OTHERS
#     (50,000) idle processes in an 8 GiB guest: each scan's duration
#     (forkbomb:forkbomb_scan) and what the process saw.
#  7. unprivileged abuse, tracking on vs off: a user (uid 1000) whose fork
#     loop fails at its RLIMIT_NPROC (5, then 64) for ABUSE_SECONDS (30)
#     beside OTHERS idle processes of root, in an 8 GiB guest on 2 vCPUs:
#     a bystander's fork latency, a real-time probe's lateness, and the
#     scans the user's failures cost.
#  8. a busy host that never calms: for BUSY_SECONDS (600) a reader streams
#     a disk twice the size of the 1 GiB guest's memory, so kswapd runs
#     all the time, beside 2,000 idle processes and a server forking
#     BUSY_RATE (100) short-lived children a second: records, their
#     memory and the OOM scan's duration (the dry run), every 30 s.
#
# Writes $BUILD/bench/report.md (and summary.txt, quoted in the series'
# cover letter). PARTS (default: all eight) picks the
# parts; BOOTS, ROUNDS, FORKS, EXECS, WINDOW, CASES and KERNELS (of the
# precision table: "stock patched") tune them.
set -eu
. "$(dirname "$0")/lib.sh"

boots=${BOOTS:-2} rounds=${ROUNDS:-12} forks=${FORKS:-1500} execs=${EXECS:-300} window=${WINDOW:-30}
parts=${PARTS:-overhead records precision bigbomb locks scoped abuse busy}
part() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
out=$BUILD/bench
rm -rf "$out"
mkdir -p "$out"
icount="-icount shift=0,sleep=off"

# Two boots per kernel, interleaved: one boot and the next of the same
# kernel can differ by a few per cent, so comparisons across kernels take
# the median of all rounds of both.
part overhead || boots=0
say "1/8 fork and exec cost: $boots boots per kernel, each $rounds rounds of $forks forks and $((rounds / 2)) of $execs execs"
for pass in $(seq "$boots"); do
	for k in patched nofbk stock; do
		image=$BUILD/bzImage
		[ "$k" = patched ] || image=$BUILD/bzImage-$k
		"$TOP/scripts/run-qemu.sh" "bench-$k-$pass" script:bench -k "$image" -m 512M -c 1 -t 1800 \
			-q "$icount" -a "fbk.bench=overhead fbk.rounds=$rounds fbk.forks=$forks fbk.execs=$execs kunit.enable=0"
		grep '^BENCH' "$BUILD/logs/bench-$k-$pass.results" |
			sed "s/^BENCH /BENCH boot=$pass /" >> "$out/overhead-$k.txt"
	done
done

if part records; then
	say "2/8 records and scan time after 10,000, 100,000 and 1,000,000 processes"
	"$TOP/scripts/run-qemu.sh" bench-records script:bench -m 1G -c 2 -t 1800 \
		-a "fbk.bench=records kunit.enable=0"
	grep '^BENCH' "$BUILD/logs/bench-records.results" > "$out/records.txt"
fi

# Each case: its guest's memory, and the extra archive it needs.
cases=${CASES:-"c shell exec setsid chain spawner burst typed threads-c threads-spawner
	bash-command c-command script make perl threads-command threads-bash-command
	nproc-command container-command container-spawner
	browser build workers prefork-hog deep-build ramp session ci-runner
	stress-ng-fork nproc-job bash-retry stress-ng-nproc"}
part precision || cases=
say "3/8 precision: $(echo $cases | wc -w) cases, patched vs stock (up to $window s each)"
for c in $cases; do
	mem=256M extra=
	case $c in
	threads-*|container-*) mem=2G ;;
	stress-ng-*) mem=512M extra="-x stress" ;;
	esac
	for k in ${KERNELS:-stock patched}; do
		image=$BUILD/bzImage
		[ "$k" = stock ] && image=$BUILD/bzImage-stock
		# shellcheck disable=SC2086
		"$TOP/scripts/run-qemu.sh" "bench-precision-$c-$k" script:precision -k "$image" \
			-m "$mem" -c 2 -t $((window + 240)) $extra \
			-a "fbk.case=$c fbk.window=$window kunit.enable=0" || true
		grep '^PRECISION' "$BUILD/logs/bench-precision-$c-$k.results" >> "$out/precision.txt" ||
			echo "PRECISION case=$c kernel=$k failed=1" >> "$out/precision.txt"
	done
done

if part bigbomb; then
	n=${BIGBOMB:-100000}
	for tracking in on off; do
		say "4/8 a bomb of $n processes, tracking $tracking (a 14 GiB guest; the bomb grows for minutes under TCG)"
		"$TOP/scripts/run-qemu.sh" "bench-bigbomb-$tracking" script:bench -k "$BUILD/bzImage-bench" \
			-m 14G -c 2 -t 1800 \
			-a "fbk.bench=bigbomb fbk.bomb=$n fbk.tracking=$tracking fbk.window=900 kunit.enable=0" || true
		grep '^BIGBOMB' "$BUILD/logs/bench-bigbomb-$tracking.results" >> "$out/bigbomb.txt" ||
			echo "BIGBOMB tracking=$tracking failed=1" >> "$out/bigbomb.txt"
	done
fi

if part locks; then
	say "5/8 lock statistics of a fork+exit storm, tracking on and off (CONFIG_LOCK_STAT kernel)"
	"$TOP/scripts/run-qemu.sh" bench-locks script:bench -k "$BUILD/bzImage-lockstat" -m 1G -c 2 -t 1800 \
		-a "fbk.bench=locks fbk.forks=${LOCK_FORKS:-3000} kunit.enable=0"
	grep '^BENCH' "$BUILD/logs/bench-locks.results" > "$out/locks.txt"
fi

if part scoped; then
	for k in stock patched; do
		image=$BUILD/bzImage
		[ "$k" = stock ] && image=$BUILD/bzImage-stock
		say "6/8 scoped cost on the $k kernel: a cgroup of 100 processes, alone and beside ${OTHERS:-50000} others"
		"$TOP/scripts/run-qemu.sh" "bench-scoped-$k" script:bench -k "$image" -m 8G -c 2 -t 1800 \
			-a "fbk.bench=scoped fbk.others=${OTHERS:-50000} fbk.rounds=${SCOPED_ROUNDS:-5} kunit.enable=0" || true
		grep '^SCOPED ' "$BUILD/logs/bench-scoped-$k.results" >> "$out/scoped.txt" ||
			echo "SCOPED kernel=$k failed=1" >> "$out/scoped.txt"
	done
fi

if part abuse; then
	say "7/8 an unprivileged fork loop at RLIMIT_NPROC beside ${OTHERS:-50000} processes, tracking on and off"
	"$TOP/scripts/run-qemu.sh" bench-abuse script:bench -m 8G -c 2 -t 2400 \
		-a "fbk.bench=abuse fbk.others=${OTHERS:-50000} fbk.window=${ABUSE_SECONDS:-30} fbk.rounds=${ABUSE_ROUNDS:-2} kunit.enable=0" || true
	grep '^ABUSE ' "$BUILD/logs/bench-abuse.results" > "$out/abuse.txt" ||
		echo "ABUSE failed=1" > "$out/abuse.txt"
fi

if part busy; then
	say "8/8 a busy host: kswapd awake for ${BUSY_SECONDS:-600} s beside a server forking ${BUSY_RATE:-100} children a second"
	truncate -s 2G "$out/busy-disk.img"
	"$TOP/scripts/run-qemu.sh" bench-busy script:bench -m 1G -c 2 -t $((${BUSY_SECONDS:-600} + 600)) \
		-q "-drive file=$out/busy-disk.img,format=raw,if=virtio,readonly=on" \
		-a "fbk.bench=busy fbk.window=${BUSY_SECONDS:-600} fbk.forks=${BUSY_RATE:-100} kunit.enable=0" || true
	rm -f "$out/busy-disk.img"
	grep '^BUSY' "$BUILD/logs/bench-busy.results" > "$out/busy.txt" ||
		echo "BUSY failed=1" > "$out/busy.txt"
fi

python3 "$TOP/scripts/bench-report.py" "$out"
cat "$out/report.md"
