#!/bin/sh
# make check-mutants: proof that the suite can fail. Each mutant in
# scripts/mutants/ is a deliberate breakage of the series (a patch on this
# repository): the OOM hook that does nothing, the fork failure hook that
# does nothing, the threshold ignored, the kill loop skipping a process, a
# knob taking garbage. Each is applied to a scratch copy of the repository,
# whose test plan (make check-quick) must then fail. Prints which tests
# caught each mutant; exits non-zero when one went uncaught.
#
# The scratch copy builds in $BUILD/mutants, with a kernel tree and objects
# of its own: one full kernel build, then seconds per mutant, and the plan
# (about 7 minutes) for each. MUTANTS="name ..." runs some of them.
set -eu
. "$(dirname "$0")/lib.sh"

mut=$BUILD/mutants
src=$mut/src
table=$mut/table.txt
mkdir -p "$mut"
: > "$table"

names=${MUTANTS:-$(cd "$TOP/scripts/mutants" && ls *.diff | sed 's/\.diff$//')}
rc=0
for name in $names; do
	say "mutant $name: the series broken on purpose, in a scratch copy"
	rm -rf "$src"
	mkdir -p "$src"
	(cd "$TOP" && git ls-files -z | xargs -0 cp --parents -t "$src")
	patch -s -p1 -d "$src" < "$TOP/scripts/mutants/$name.diff" ||
		die "scripts/mutants/$name.diff no longer applies; update it"
	log=$mut/$name.log
	status=0
	make -C "$src" BUILD="$mut/build" check-quick > "$log" 2>&1 || status=$?
	caught=$(sed -n -e 's/^ *FAIL boot \([^:]*\):.*/boot:\1/p' \
		-e 's/^ *FAIL \([^ ]*\).*/\1/p' \
		-e 's/^ *\[FAILED\] \([^ =]*\)$/kunit:\1/p' "$log" | sort -u | tr '\n' ' ')
	if [ "$status" != 0 ] && [ -n "$caught" ]; then
		printf '%-20s caught by  %s\n' "$name" "$caught" >> "$table"
	elif [ "$status" != 0 ]; then
		printf '%-20s BROKEN     the build or the harness failed: %s\n' "$name" "$log" >> "$table"
		rc=1
	else
		printf '%-20s MISSED     %s\n' "$name" "$(tail -n 1 "$log")" >> "$table"
		rc=1
	fi
	tail -n 1 "$table"
done
echo
cat "$table"
exit $rc
