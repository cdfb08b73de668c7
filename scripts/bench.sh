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
#
# Writes $BUILD/bench/report.md (and summary.txt, quoted in the series'
# cover letter). PARTS (default "overhead records precision") picks the
# parts; BOOTS, ROUNDS, FORKS, EXECS, WINDOW, CASES and KERNELS (of the
# precision table: "stock patched") tune them.
set -eu
. "$(dirname "$0")/lib.sh"

boots=${BOOTS:-2} rounds=${ROUNDS:-12} forks=${FORKS:-1500} execs=${EXECS:-300} window=${WINDOW:-30}
parts=${PARTS:-overhead records precision}
part() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
out=$BUILD/bench
rm -rf "$out"
mkdir -p "$out"
icount="-icount shift=0,sleep=off"

# Two boots per kernel, interleaved: one boot and the next of the same
# kernel can differ by a few per cent, so comparisons across kernels take
# the median of all rounds of both.
part overhead || boots=0
say "1/3 fork and exec cost: $boots boots per kernel, each $rounds rounds of $forks forks and $((rounds / 2)) of $execs execs"
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
	say "2/3 records and scan time after 10,000 and 100,000 processes"
	"$TOP/scripts/run-qemu.sh" bench-records script:bench -m 1G -c 2 -t 1800 \
		-a "fbk.bench=records kunit.enable=0"
	grep '^BENCH' "$BUILD/logs/bench-records.results" > "$out/records.txt"
fi

# Each case: its guest's memory, and the extra archive it needs.
cases=${CASES:-"c shell exec setsid chain spawner burst typed threads-c threads-spawner
	browser build workers prefork-hog stress-ng-fork nproc-job stress-ng-nproc"}
part precision || cases=
say "3/3 precision: $(echo $cases | wc -w) cases, patched vs stock (up to $window s each)"
for c in $cases; do
	mem=256M extra=
	case $c in
	threads-*) mem=2G ;;
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

python3 "$TOP/scripts/bench-report.py" "$out"
cat "$out/report.md"
