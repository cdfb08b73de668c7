#!/bin/sh
# make check: the whole test plan on the patched test kernel, then again on
# the debug kernel (scripts/check-debug.sh), and one summary line for both:
# "N passed, N failed, N skipped". Both halves always run; the exit status
# is non-zero when either failed. CHECK_DEBUG=0 skips the debug half.
# CHECK_MINUTES (default 70) bounds both halves together, builds included:
# a boot that would run past it fails as "not run" (CI stops at 90).
set -eu
. "$(dirname "$0")/lib.sh"

FBK_DEADLINE=$(( $(date +%s) + ${CHECK_MINUTES:-70} * 60 ))
export FBK_DEADLINE

rc=0
say "test plan on the patched kernel"
"$TOP/scripts/run-plan.sh" || rc=1
if [ "${CHECK_DEBUG:-1}" != 0 ]; then
	say "test plan on the debug kernel (builds it first: several minutes)"
	"$TOP/scripts/build-kernel.sh" debug
	"$TOP/scripts/check-debug.sh" || rc=1
fi

# The last line of each summary holds its totals.
total() {
	tail -n 1 "$BUILD/logs/$1summary.txt" 2>/dev/null |
		sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p'
}
passed=0 failed=0 skipped=0
for prefix in "" debug-; do
	[ -n "$prefix" ] && [ "${CHECK_DEBUG:-1}" = 0 ] && continue
	counts=$(total "$prefix")
	if [ -z "$counts" ]; then
		rc=1
		continue
	fi
	set -- $counts
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
done
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
