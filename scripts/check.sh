#!/bin/sh
# make check: the whole test plan on the patched test kernel, then again on
# the debug kernel (scripts/check-debug.sh), and one summary line for both:
# "N passed, N failed, N skipped", after the Linux version tested. Both
# halves always run; the exit status is non-zero when either failed.
# CHECK_DEBUG=0 skips the debug half.
#
# CHECK_MINUTES (default 60) bounds all of make check, from its start
# (FBK_CHECK_START, which the Makefile sets before it builds anything: on
# a fresh machine the Debian packages, the kernel source, the test kernel
# and the guest come first): a boot that would run past it fails as "not
# run" (CI stops at 90). The test kernel's plan stops DEBUG_MINUTES
# (default 20) earlier, so that however long it takes, the debug kernel
# still gets built (about 11 minutes without ccache) and booted (about 5).
set -eu
. "$(dirname "$0")/lib.sh"

start=${FBK_CHECK_START:-$(date +%s)}
end=$((start + ${CHECK_MINUTES:-60} * 60))
first=$end
[ "${CHECK_DEBUG:-1}" = 0 ] || first=$((end - ${DEBUG_MINUTES:-20} * 60))
say "make check started $(( $(date +%s) - start ))s ago; it ends by $(date -d "@$end" +%H:%M)" \
    "(CHECK_MINUTES=${CHECK_MINUTES:-60}), the test kernel's plan by $(date -d "@$first" +%H:%M)"

rc=0
say "test plan on the patched kernel"
FBK_DEADLINE=$first "$TOP/scripts/run-plan.sh" || rc=1
if [ "${CHECK_DEBUG:-1}" != 0 ]; then
	say "test plan on the debug kernel (builds it first: several minutes)"
	"$TOP/scripts/build-kernel.sh" debug
	FBK_DEADLINE=$end "$TOP/scripts/check-debug.sh" || rc=1
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

# The version tested, and the one the README's counts and times are of.
version=$(make -s --no-print-directory -C "$TREE" kernelversion 2>/dev/null || echo unknown)
say "tested Linux $version in $(( ($(date +%s) - start + 30) / 60 )) minutes"
[ "$version" = "$README_LINUX" ] ||
	say "warning: the README's counts and times are of Linux $README_LINUX (README_LINUX in scripts/lib.sh), not $version"
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
