#!/bin/sh
# Boot the guests of scripts/testplan, count the results and print one
# summary line: "N passed, N failed, N skipped". Exits non-zero when a test
# failed, a guest hung or crashed, or nothing ran.
#
# Usage: scripts/run-plan.sh [-k IMAGE] [-a KERNEL_ARGS] [-t TIMEOUT_FACTOR]
#                            [-s] [-o NAME_REGEX]
#   -k  kernel image (default $BUILD/bzImage)
#   -a  more kernel command line for every boot
#   -t  multiply every boot's timeout (slow debug kernels)
#   -s  scan each kernel log for bug reports (KASAN, lockdep, WARN, ...)
#   -o  only the boots whose name matches
#   -p  prefix for the log names (default: none)
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$BUILD/bzImage append= factor=1 scan= only=. prefix=
while getopts k:a:t:so:p: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	a) append=$OPTARG ;;
	t) factor=$OPTARG ;;
	s) scan=1 ;;
	o) only=$OPTARG ;;
	p) prefix=$OPTARG ;;
	*) die "usage: $0 [-k IMAGE] [-a ARGS] [-t FACTOR] [-s] [-o REGEX] [-p PREFIX]" ;;
	esac
done

passed=0 failed=0 skipped=0 boots=0
failures=
summary=$BUILD/logs/${prefix}summary.txt
mkdir -p "$BUILD/logs"
: > "$summary"

while read -r name mem cpus limit run tests args; do
	case $name in ''|'#'*) continue ;; esac
	echo "$name" | grep -Eq -- "$only" || continue
	boots=$((boots + 1))
	cmdline=$append
	[ "$tests" = - ] || cmdline="$cmdline fbk.test=$tests"
	[ "$args" = - ] || cmdline="$cmdline $(echo "$args" | tr ',' ' ')"
	case $run in none) ;; *) cmdline="$cmdline kunit.enable=0" ;; esac
	log=$prefix$name
	status=0
	"$TOP/scripts/run-qemu.sh" "$log" "$run" -k "$kernel" -m "$mem" -c "$cpus" \
		-t $((limit * factor)) -a "$cmdline" || status=$?

	if [ "$run" = none ]; then
		counts=$(python3 "$TOP/scripts/parse-results.py" kunit \
			 "$BUILD/logs/$log.console" "$TREE" 2>"$BUILD/logs/$log.failures")
	else
		counts=$(python3 "$TOP/scripts/parse-results.py" kselftest \
			 "$BUILD/logs/$log.results" 2>"$BUILD/logs/$log.failures")
	fi
	set -- $counts
	p=$1 f=$2 s=$3
	if [ "$status" != 0 ]; then
		f=$((f + 1))
		echo "  FAIL boot $log: $( [ "$status" = 124 ] && echo "timed out" || echo "crashed or stopped early")" \
			>> "$BUILD/logs/$log.failures"
	fi
	if [ -n "$scan" ] && ! "$TOP/scripts/scan-log.sh" "$BUILD/logs/$log.console" \
			>> "$BUILD/logs/$log.failures"; then
		f=$((f + 1))
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	line="$name: $p passed, $f failed, $s skipped"
	echo "    $line"
	echo "$line" >> "$summary"
	if [ "$f" != 0 ]; then
		failures="$failures $name"
		sed 's/^/    /' "$BUILD/logs/$log.failures"
	fi
done < "$TOP/scripts/testplan"

[ "$boots" -gt 0 ] || die "no boot of the test plan matches '$only'"
[ -z "$failures" ] || say "failed boots:$failures (logs in $BUILD/logs/)"
echo "$passed passed, $failed failed, $skipped skipped" | tee -a "$summary"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
