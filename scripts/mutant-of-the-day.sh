#!/bin/sh
# One mutant in rotation: scripts/check-mutants.sh on the mutant of the
# day, the day of the year modulo the number of mutants (in the order of
# their names), so that a daily run goes through all of them in turn.
# Prints which one it picked; exits as check-mutants.sh does.
#
# MUTANT_DAY=N picks day N of the year instead of today (1-366), to
# rerun a day's mutant; -n only prints the name.
set -eu
. "$(dirname "$0")/lib.sh"

print_only=0
case ${1:-} in
-n) print_only=1 ;;
'') ;;
*) die "usage: $0 [-n]" ;;
esac

day=${MUTANT_DAY:-$(date +%j)}
day=$(echo "$day" | sed 's/^0*//')
case $day in
''|*[!0-9]*) die "MUTANT_DAY=${MUTANT_DAY:-} is not a day of the year" ;;
esac
# shellcheck disable=SC2012 # the names are ours: letters, digits, dashes
names=$(cd "$TOP/scripts/mutants" && LC_ALL=C ls -- *.diff | sed 's/\.diff$//')
count=$(echo "$names" | wc -l)
name=$(echo "$names" | sed -n "$((day % count + 1))p")
if [ "$print_only" = 1 ]; then
	echo "$name"
	exit 0
fi
say "mutant of the day $day: $name ($((day % count + 1)) of $count, scripts/mutants/$name.diff)"
MUTANTS=$name exec "$TOP/scripts/check-mutants.sh"
