# fbk.run=script:optin: the forkbomb kselftests as anyone would run them,
# without FORKBOMB_DESTRUCTIVE=1, on the patched kernel. Every test of a
# program that starts bombs or hogs must skip and say how to opt in, the
# knobs tests (which start none) must pass, and the killer must have killed
# nothing. Prints the runner's output (as "# | " lines), then three results
# of its own in the form scripts/parse-results.py reads.
oom=/sys/kernel/mm/oom
log=/tmp/optin.log
tests=/tmp/optin.tests

kills0=$(cat $oom/forkbomb_kills)
cd /kselftest || exit 1
# Appending: the runner reopens its output for each test's lines.
: > $log
env -u FORKBOMB_DESTRUCTIVE ./run_kselftest.sh -c forkbomb >> $log 2>&1
kills=$(($(cat $oom/forkbomb_kills) - kills0))
sed 's/^/# | /' $log

# One line per test: "PROGRAM pass|fail|optin-skip|skip NAME".
awk '
/^# selftests: forkbomb: / { prog = $4; next }
/^# (not )?ok [0-9]+ / {
	what = "pass"
	if ($0 ~ /# SKIP/)
		what = $0 ~ /FORKBOMB_DESTRUCTIVE=1/ ? "optin-skip" : "skip"
	else if ($2 == "not")
		what = "fail"
	print prog, what, $0
}' $log > $tests

# Each program the collection lists must have reported, all in one way:
# knobs' tests passed, every other test skipped for want of the opt-in.
skipped_bad='' knobs_bad='' kills_bad=''
for prog in $(./run_kselftest.sh -l | sed -n 's/^forkbomb://p'); do
	want=optin-skip
	[ "$prog" = knobs ] && want=pass
	all=$(grep -c "^$prog " $tests)
	good=$(grep -c "^$prog $want " $tests)
	[ "$all" -gt 0 ] && [ "$good" = "$all" ] && continue
	if [ "$prog" = knobs ]; then
		knobs_bad="$prog: $good of $all passed"
	else
		skipped_bad="$skipped_bad $prog: $good of $all skipped;"
	fi
done
[ "$kills" = 0 ] || kills_bad="$kills fork bomb kills"

n=0
# result NAME WHAT_WENT_WRONG (empty: passed)
result() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "# ok $n optin.$1"
	else
		echo "# # $2"
		echo "# not ok $n optin.$1"
	fi
}

echo "TAP version 13"
echo "1..1"
echo "# selftests: forkbomb: optin"
echo "# 1..3"
result destructive_tests_skip "$skipped_bad"
result knobs_pass "$knobs_bad"
result nothing_killed "$kills_bad"
echo "ok 1 selftests: forkbomb: optin"
