#!/bin/sh
# make check-mutants: proof that the suite can fail. Each mutant in
# scripts/mutants/ is a deliberate breakage of the series (a patch on this
# repository, applied with patch -p1 from its top): a threshold of the rule
# halved or doubled, the OOM hook that does nothing, the fork failure hook
# that does nothing, the kill loop skipping a process, a knob taking
# garbage, the scope of a memcg OOM ignored. Each is applied to a scratch
# copy of the repository, whose tests must then fail. Prints which tests
# caught each mutant; exits non-zero when one went uncaught, or did not
# apply or build.
#
# The first line of a mutant names what must catch it:
#
#   # caught by: ITEM...
#
# where an ITEM is "kunit" or "kunit:NAME" (the KUnit boot of
# scripts/testplan; NAME the KUnit case or parameter expected to fail, as
# KUnit prints it), or "boot:BOOT" or "boot:BOOT:TEST" (the boot BOOT of
# scripts/testplan; TEST the test expected to fail, as the table names
# it, PROGRAM/TEST). Only those boots run (scripts/run-plan.sh -o); a
# mutant whose first line names none runs the whole plan, as make
# check-quick does. The table says when none of the tests it names failed.
#
# The scratch copy builds in $BUILD/mutants/build, which is kept between
# mutants and between runs: its kernel tree and objects (scripts/apply.sh
# rewrites only the files that differ, so the build after the first
# recompiles the mutated file and the one the last mutant had changed),
# with ccache (scripts/build-kernel.sh), and its initramfs, built once a
# run and kept for every mutant that changes only the kernel. The first
# run builds a kernel tree of its own (minutes, fewer with a warm ccache);
# after it, a mutant costs a kernel rebuild and its boots. Estimated, not
# yet measured: a minute or two for the rebuild, about a minute for the
# KUnit boot, a bomb boot up to its time limit (5 or 10 minutes) when its
# tests wait for their deadlines.
#
# MUTANTS="name ..." runs some of them (scripts/mutant-of-the-day.sh
# picks one). With FBK_DEADLINE (seconds since the epoch), a boot that
# would run past it is not run (scripts/run-plan.sh), and its mutant is
# reported NOT RUN, not caught. Logs: $BUILD/mutants/NAME.log, the boots' in
# $BUILD/mutants/build/logs/NAME-BOOT.*.
set -eu
. "$(dirname "$0")/lib.sh"

mut=$BUILD/mutants
src=$mut/src
build=$mut/build
table=$mut/table.txt
mkdir -p "$mut"
: > "$table"

# The boots a mutant's first line names, and the tests it expects to
# fail. Sets $named (its items), $boots (a regular expression for
# run-plan.sh -o, empty when it names none) and $expected ("BOOT=TEST
# ...", TEST empty for any).
read_header() {
	boots='' expected=''
	named=$(sed -n '1s/^# caught by: *//p' "$1")
	for item in $named; do
		case $item in
		kunit) boot=kunit test= ;;
		kunit:?*) boot=kunit test=$item ;;
		boot:?*:?*)
			rest=${item#boot:}
			boot=${rest%%:*} test=${rest#*:} ;;
		boot:?*) boot=${item#boot:} test= ;;
		*) echo "cannot read '$item' in the first line of $1" >&2
		   return 1 ;;
		esac
		case " $boots " in
		*" $boot "*) ;;
		*) boots="${boots:+$boots }$boot" ;;
		esac
		expected="${expected:+$expected }$boot=$test"
	done
	[ -z "$boots" ] || boots="^($(echo "$boots" | tr ' ' '|'))\$"
}

# Did what caught the mutant ($1) include what its first line expects: a
# test it names, a failure of the boot as a whole, or anything for a boot
# named without a test (only the boots it names ran)?
as_expected() {
	for want in $expected; do
		boot=${want%%=*} test=${want#*=}
		case " $1 " in
		*" boot:$boot "*) return 0 ;;
		esac
		if [ -z "$test" ]; then
			[ -z "$1" ] || return 0
		else
			case " $1 " in
			*" $test "*) return 0 ;;
			esac
		fi
	done
	return 1
}

# Does the mutant change only the kernel (the initramfs stays as it is)?
kernel_only() {
	! sed -n 's|^+++ b/||p' "$1" | grep -qv -e '^mm/' -e '^include/' \
		-e '^patches/' -e '^Kconfig$'
}

names=${MUTANTS:-$(cd "$TOP/scripts/mutants" && LC_ALL=C ls -- *.diff | sed 's/\.diff$//')}
# initramfs_clean: $build's initramfs was built in this run from a copy
# whose tools and scripts no mutant had changed.
rc=0 initramfs_clean=0
for name in $names; do
	diff=$TOP/scripts/mutants/$name.diff
	log=$mut/$name.log
	[ -f "$diff" ] || die "no mutant scripts/mutants/$name.diff"
	: > "$log"
	if ! read_header "$diff" 2>> "$log"; then
		printf '%-30s BROKEN     its first line: %s\n' "$name" "$log" >> "$table"
		rc=1
		tail -n 1 "$table"
		continue
	fi
	what="the whole plan"
	[ -z "$boots" ] || what="the boots $boots"
	say "mutant $name: the series broken on purpose, in a scratch copy; $what"
	rm -rf "$src"
	mkdir -p "$src"
	(cd "$TOP" && git ls-files -z | xargs -0 cp --parents -t "$src")
	if ! patch -s -p1 -F0 -d "$src" < "$diff" >> "$log" 2>&1; then
		printf '%-30s BROKEN     scripts/mutants/%s.diff no longer applies; update it\n' \
		       "$name" "$name" >> "$table"
		rc=1
		tail -n 1 "$table"
		continue
	fi
	status=0
	if [ -z "$boots" ]; then
		make -C "$src" BUILD="$build" check-quick >> "$log" 2>&1 || status=$?
	else
		targets="kernel initramfs"
		if kernel_only "$diff" && [ "$initramfs_clean" = 1 ] &&
		   [ -f "$build/initramfs.cpio.gz" ]; then
			targets=kernel
		fi
		# shellcheck disable=SC2086 # two targets, or one
		if make -C "$src" BUILD="$build" $targets >> "$log" 2>&1; then
			BUILD=$build "$src/scripts/run-plan.sh" -o "$boots" -p "$name-" \
				>> "$log" 2>&1 || status=$?
		else
			status=125
		fi
	fi
	if kernel_only "$diff"; then
		[ "$status" = 125 ] || initramfs_clean=1
	else
		initramfs_clean=0
	fi
	# The failed tests: boots (named without the prefix of this mutant's
	# logs), kselftests, KUnit cases and parameters.
	caught=$(sed -n -e "s/^ *FAIL boot $name-\([^:]*\):.*/boot:\1/p" \
		-e 's/^ *FAIL boot \([^:]*\):.*/boot:\1/p' \
		-e 's/^ *FAIL \([^ ]*\).*/\1/p' \
		-e 's/^ *\[FAILED\] \([^ =]*\)$/kunit:\1/p' "$log" | sort -u | tr '\n' ' ')
	caught=${caught% }
	if [ "$status" = 125 ]; then
		printf '%-30s BROKEN     the kernel or the initramfs did not build: %s\n' \
		       "$name" "$log" >> "$table"
		rc=1
	elif grep -q 'not run: the run.s time (FBK_DEADLINE) is spent' "$log"; then
		# A boot left out for lack of time caught nothing.
		printf '%-30s NOT RUN    FBK_DEADLINE came first: %s\n' "$name" "$log" >> "$table"
		rc=1
	elif [ "$status" != 0 ] && [ -n "$caught" ]; then
		note=
		[ -z "$expected" ] || as_expected "$caught" ||
			note=" (none of what its first line names: $named)"
		printf '%-30s caught by  %s%s\n' "$name" "$caught" "$note" >> "$table"
	elif [ "$status" != 0 ]; then
		printf '%-30s BROKEN     the build or the harness failed: %s\n' "$name" "$log" >> "$table"
		rc=1
	else
		printf '%-30s MISSED     %s\n' "$name" "$(tail -n 1 "$log")" >> "$table"
		rc=1
	fi
	tail -n 1 "$table"
done
echo
cat "$table"
exit $rc
