#!/bin/sh
# Boot the guests of scripts/testplan, count the results and print one
# summary line: "N passed, N failed, N skipped". A test fails when it
# failed, or skipped (or ended in XFAIL) where its line does not allow it
# by name (scripts/parse-results.py judges the tests). A boot fails (and
# counts as one failure more) when it did not run exactly the tests it
# expects, crashed, timed out, ended with a non-zero runner status, left a
# bug report in its kernel log (scripts/scan-log.sh), ended with the kernel
# tainted or lockdep turned off (see taint_check below), or, for the
# kernel's own selftests, did not give the stock kernel's results. Exits
# non-zero when anything failed.
#
# The kernel's own selftests (fbk.run=kernel:...) are compared test by
# test with the stock kernel's results in this guest, kept in the golden
# file scripts/golden/NAME.txt (make check-kernel-selftests writes it from
# a stock boot): a test that fails there too counts as skipped, and says
# so; any other difference fails the boot, naming the tests, and so does a
# missing golden file.
#
# Usage: scripts/run-plan.sh [-k IMAGE] [-a KERNEL_ARGS] [-t TIME_FACTOR]
#                            [-o NAME_REGEX] [-p PREFIX] [-P PLAN] [-n]
#   -k  kernel image (default $BUILD/bzImage)
#   -a  more kernel command line for every boot
#   -t  stretch every time limit, the guests' and the tests' (slow kernels)
#   -o  only the boots whose name matches
#   -p  prefix for the log names (default: none)
#   -P  the plan (default scripts/testplan)
#   -n  no comparison with a golden file (the stock boot that makes one)
# FBK_DEADLINE (seconds since the epoch, optional): no boot runs past it;
# boots that no longer fit fail as "not run", so that a hung guest cannot
# make a whole run overrun its time.
#
# Logs of each boot in $BUILD/logs/: PREFIXNAME.console (the kernel log),
# .results (what the guest reported), .tests (every test and its result,
# "NAME RESULT"), .failures (what went wrong).
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$BUILD/bzImage append= factor=1 only=. prefix= plan=$TOP/scripts/testplan golden=1
while getopts k:a:t:o:p:P:n opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	a) append=$OPTARG ;;
	t) factor=$OPTARG ;;
	o) only=$OPTARG ;;
	p) prefix=$OPTARG ;;
	P) plan=$OPTARG ;;
	n) golden=0 ;;
	*) die "usage: $0 [-k IMAGE] [-a ARGS] [-t FACTOR] [-o REGEX] [-p PREFIX] [-P PLAN] [-n]" ;;
	esac
done

# Taint flags a boot may end with (/proc/sys/kernel/tainted, bits of
# include/linux/panic.h in 6.12): only TAINT_TEST (bit 18, "N"), which
# KUnit sets whenever its tests ran. Every other flag is a failure here:
# W (a WARN), D (an oops), L (a soft lockup), B (a bad page), and those
# that have no business in these guests (no modules: P F R O E C K; no
# kernel parameter that taints, so no U; a QEMU CPU and firmware that set
# neither S, M, A nor I; no X, nor T without RANDSTRUCT).
TAINT_EXPECTED=$((1 << 18))
# The flags' letters and meanings, by bit.
TAINT_FLAGS='P:proprietary-module F:forced-module-load S:CPU-out-of-spec R:forced-module-unload
M:machine-check B:bad-page U:tainted-by-user D:kernel-died A:ACPI-table-overridden
W:warning C:staging-driver I:firmware-workaround O:out-of-tree-module E:unsigned-module
L:soft-lockup K:live-patch X:auxiliary T:randstruct N:test'

# Why the boot whose results are $1 fails on its taint or on lockdep
# (scripts/guest/init reports both at its end: "FBK-TAINT tainted=N
# debug_locks=0|1|-"); nothing when it does not.
taint_check() {
	line=$(sed -n 's/^FBK-TAINT //p' "$1" 2>/dev/null | tr -d '\r' | tail -n 1)
	if [ -z "$line" ]; then
		echo "no FBK-TAINT line in its results: its taint was not checked"
		return
	fi
	tainted=$(echo "$line" | sed -n 's/^tainted=\([0-9][0-9]*\) .*/\1/p')
	debug_locks=$(echo "$line" | sed -n 's/.* debug_locks=\([0-9-]*\).*/\1/p')
	if [ -z "$tainted" ]; then
		echo "its taint could not be read (FBK-TAINT $line)"
		return
	fi
	unexpected=$((tainted & ~TAINT_EXPECTED))
	if [ "$unexpected" != 0 ]; then
		names= bit=0
		for flag in $TAINT_FLAGS; do
			[ $(((unexpected >> bit) & 1)) = 0 ] || names="$names $flag"
			bit=$((bit + 1))
		done
		[ $((unexpected >> bit)) = 0 ] || names="$names (bits above $((bit - 1)))"
		printf 'the kernel is tainted %s:%s' "$tainted" "$names"
		[ "$debug_locks" != 0 ] || printf '; '
	fi
	[ "$debug_locks" != 0 ] ||
		printf 'lockdep turned itself off (debug_locks 0: it found a bug, or ran out of room)'
}

passed=0 failed=0 skipped=0 boots=0 planned=0 ran_total=0
failures=
summary=$BUILD/logs/${prefix}summary.txt
mkdir -p "$BUILD/logs"
: > "$summary"

while read -r name mem cpus limit expect run tests args skips; do
	case $name in ''|'#'*) continue ;; esac
	echo "$name" | grep -Eq -- "$only" || continue
	boots=$((boots + 1))
	planned=$((planned + expect))
	log=$prefix$name
	fail=$BUILD/logs/$log.failures
	: > "$fail"

	# What the guest runs, and for how long each test may take.
	cmdline="$append fbk.factor=$factor fbk.timeout=$(( (limit - 30) * factor ))"
	[ "$tests" = - ] || cmdline="$cmdline fbk.test=$tests"
	extra=
	for a in $(echo "$args" | tr ',' ' '); do
		case $a in
		-) ;;
		+*) extra="-x ${a#+}" ;;	# an extra initramfs
		*) cmdline="$cmdline $a" ;;
		esac
	done
	case $run in none) ;; *) cmdline="$cmdline kunit.enable=0" ;; esac
	status=0
	seconds=$((limit * factor))
	if [ -n "${FBK_DEADLINE:-}" ]; then
		left=$((FBK_DEADLINE - $(date +%s)))
		[ "$left" -ge "$seconds" ] || seconds=$left
	fi
	: > "$BUILD/logs/$log.console"
	: > "$BUILD/logs/$log.results"
	if [ "$seconds" -lt 60 ]; then
		status=125
	else
		# shellcheck disable=SC2086
		"$TOP/scripts/run-qemu.sh" "$log" "$run" -k "$kernel" -m "$mem" \
			-c "$cpus" -t "$seconds" -a "$cmdline" $extra || status=$?
	fi

	# The tests, judged against the skips and failures the plan allows
	# (by full name) and, for the kernel's own selftests, the stock
	# kernel's results: "PASSED FAILED SKIPPED EXCUSED DIFFERENT".
	compare=
	case $run in
	kernel:*) [ "$golden" = 0 ] || compare=$TOP/scripts/golden/$name.txt ;;
	esac
	rm -f "$BUILD/logs/$log.tests"
	if [ "$run" = none ]; then
		counts=$(python3 "$TOP/scripts/parse-results.py" --allow "$skips" kunit \
			 "$BUILD/logs/$log.console" "$TREE" 2>>"$fail") || counts="0 0 0 0 0"
	else
		counts=$(python3 "$TOP/scripts/parse-results.py" --allow "$skips" \
			 ${compare:+--golden "$compare"} --list "$BUILD/logs/$log.tests" \
			 kselftest "$BUILD/logs/$log.results" 2>>"$fail") || counts="0 0 0 0 0"
	fi
	set -- $counts
	p=$1 f=$2 s=$3 excused=$4 different=$5
	ran=$((p + f + s))
	ran_total=$((ran_total + ran))

	boot_failed=
	case $status in
	0) ;;
	124) boot_failed="timed out" ;;
	125) boot_failed="not run: the run's time (FBK_DEADLINE) is spent" ;;
	2) [ "$f" != 0 ] || [ "$excused" != 0 ] ||
	   boot_failed="the test runner failed (see $log.results)" ;;
	*) boot_failed="crashed or stopped early" ;;
	esac
	[ -n "$boot_failed" ] || [ "$ran" = "$expect" ] ||
		boot_failed="ran $ran tests, the plan expects $expect"
	if [ -n "$compare" ] && [ ! -f "$compare" ]; then
		say "NO GOLDEN FILE ${compare#"$TOP"/}: the $name boot cannot be compared with the stock kernel; make check-kernel-selftests writes it"
		boot_failed="${boot_failed:+$boot_failed; }no golden file ${compare#"$TOP"/} (make check-kernel-selftests writes it)"
	elif [ -n "$compare" ] && [ "$different" != 0 ]; then
		boot_failed="${boot_failed:+$boot_failed; }$different tests differ from the stock kernel's results (${compare#"$TOP"/}; named above)"
	fi
	if ! "$TOP/scripts/scan-log.sh" "$BUILD/logs/$log.console" >> "$fail"; then
		boot_failed="${boot_failed:+$boot_failed; }a kernel report in its log"
	fi
	# The kernel's taint and lockdep at the guest's end. A guest that did
	# not get there has failed already (one failure all the same); this
	# names what was not checked.
	if [ "$status" != 125 ]; then
		why=$(taint_check "$BUILD/logs/$log.results")
		[ -z "$why" ] || boot_failed="${boot_failed:+$boot_failed; }$why"
	fi
	if [ -n "$boot_failed" ]; then
		f=$((f + 1))
		echo "  FAIL boot $log: $boot_failed" >> "$fail"
	fi

	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	line="$name: $p passed, $f failed, $s skipped (of $expect planned)"
	echo "    $line"
	echo "$line" >> "$summary"
	if [ "$f" != 0 ]; then
		failures="$failures $name"
		sed 's/^/    /' "$fail"
	elif [ "$excused" != 0 ]; then
		# Failures that count as skipped: as on the stock kernel, or
		# allowed by the plan.
		grep '^  EXCUSED ' "$fail" | sed 's/^/    /'
	fi
done < "$plan"

[ "$boots" -gt 0 ] || die "no boot of the test plan matches '$only'"
say "$boots boots, $planned tests planned, $ran_total ran"
[ -z "$failures" ] || say "failed boots:$failures (logs in $BUILD/logs/)"
echo "$passed passed, $failed failed, $skipped skipped" | tee -a "$summary"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
