#!/bin/sh
# Boot the guests of scripts/testplan, count the results and print one
# summary line: "N passed, N failed, N skipped". A boot fails (and counts
# as one failure more) when it did not run exactly the tests it expects,
# skipped a test its line does not allow, crashed, timed out, ended with a
# non-zero runner status, or left a bug report in its kernel log. Exits
# non-zero when anything failed.
#
# Usage: scripts/run-plan.sh [-k IMAGE] [-a KERNEL_ARGS] [-t TIME_FACTOR]
#                            [-o NAME_REGEX] [-p PREFIX] [-P PLAN]
#   -k  kernel image (default $BUILD/bzImage)
#   -a  more kernel command line for every boot
#   -t  stretch every time limit, the guests' and the tests' (slow kernels)
#   -o  only the boots whose name matches
#   -p  prefix for the log names (default: none)
#   -P  the plan (default scripts/testplan)
# FBK_DEADLINE (seconds since the epoch, optional): no boot runs past it;
# boots that no longer fit fail as "not run", so that a hung guest cannot
# make a whole run overrun its time.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$BUILD/bzImage append= factor=1 only=. prefix= plan=$TOP/scripts/testplan
while getopts k:a:t:o:p:P: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	a) append=$OPTARG ;;
	t) factor=$OPTARG ;;
	o) only=$OPTARG ;;
	p) prefix=$OPTARG ;;
	P) plan=$OPTARG ;;
	*) die "usage: $0 [-k IMAGE] [-a ARGS] [-t FACTOR] [-o REGEX] [-p PREFIX] [-P PLAN]" ;;
	esac
done

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

	if [ "$run" = none ]; then
		counts=$(python3 "$TOP/scripts/parse-results.py" kunit \
			 "$BUILD/logs/$log.console" "$TREE" 2>>"$fail") || counts="0 0 0 - -"
	else
		counts=$(python3 "$TOP/scripts/parse-results.py" kselftest \
			 "$BUILD/logs/$log.results" 2>>"$fail") || counts="0 0 0 - -"
	fi
	set -- $counts
	p=$1 f=$2 s=$3 skipnames=${4:--} failnames=${5:--}
	ran=$((p + f + s))
	ran_total=$((ran_total + ran))

	# Skips the plan does not allow fail.
	if [ "$skipnames" != - ]; then
		for t in $(echo "$skipnames" | tr ',' ' '); do
			case ",$skips," in
			*",$t,"*) ;;
			*) s=$((s - 1)) f=$((f + 1))
			   echo "  FAIL $t skipped, and the plan does not allow it" >> "$fail" ;;
			esac
		done
	fi
	# Failures the plan allows ("!NAME": the test fails on the stock
	# kernel too, in this guest) count as skipped.
	xfailed=0
	if [ "$failnames" != - ]; then
		for t in $(echo "$failnames" | tr ',' ' '); do
			case ",$skips," in
			*",!$t,"*) f=$((f - 1)) s=$((s + 1)) xfailed=$((xfailed + 1)) ;;
			esac
		done
	fi
	boot_failed=
	case $status in
	0) ;;
	124) boot_failed="timed out" ;;
	125) boot_failed="not run: the run's time (FBK_DEADLINE) is spent" ;;
	2) [ "$f" != 0 ] || [ "$xfailed" != 0 ] ||
	   boot_failed="the test runner failed (see $log.results)" ;;
	*) boot_failed="crashed or stopped early" ;;
	esac
	[ -n "$boot_failed" ] || [ "$ran" = "$expect" ] ||
		boot_failed="ran $ran tests, the plan expects $expect"
	if ! "$TOP/scripts/scan-log.sh" "$BUILD/logs/$log.console" >> "$fail"; then
		boot_failed="${boot_failed:+$boot_failed; }a kernel report in its log"
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
	fi
done < "$plan"

[ "$boots" -gt 0 ] || die "no boot of the test plan matches '$only'"
say "$boots boots, $planned tests planned, $ran_total ran"
[ -z "$failures" ] || say "failed boots:$failures (logs in $BUILD/logs/)"
echo "$passed passed, $failed failed, $skipped skipped" | tee -a "$summary"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
