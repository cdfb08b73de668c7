#!/bin/sh
# make check-kernel-selftests: the kernel's own kselftests of the paths the
# series hooks (cgroup: test_core, test_kill, test_pids, test_memcontrol
# with its OOM and memory.oom.group tests; clone3), booted once on the
# stock and once on the patched kernel (the boot "kernel-selftests" of
# scripts/testplan), and compared test by test. Any test whose result
# differs between the two kernels fails the run; so does a boot that did
# not report. make check runs the patched half alone, against what the
# plan expects.
set -eu
. "$(dirname "$0")/lib.sh"

out=$BUILD/kernel-selftests
mkdir -p "$out"
for k in stock patched; do
	image=$BUILD/bzImage
	[ "$k" = stock ] && image=$BUILD/bzImage-stock
	[ -f "$image" ] || die "no $image: make kernel stock-kernel first"
	say "the kernel's cgroup and clone3 selftests on the $k kernel"
	"$TOP/scripts/run-plan.sh" -k "$image" -o '^kernel-selftests$' -p "$k-" || true
	res=$BUILD/logs/$k-kernel-selftests.results
	grep -q '^FBK-END' "$res" || die "the $k kernel's boot did not finish: $res"
	# "program/test result" for every test of every program.
	awk '/^# selftests: / { prog = $NF; next }
	     /^# (not )?ok [0-9]+ / {
		r = ($2 == "ok") ? "pass" : "FAIL"
		if ($0 ~ /# SKIP/) r = "skip"
		t = prog "/" (($2 == "ok") ? $4 : $5)
		if (++seen[t] > 1) t = t "#" seen[t]
		print t, r }
	     /^(not )?ok [0-9]+ selftests: / {
		r = ($1 == "ok") ? "pass" : "FAIL"
		if ($0 ~ /# SKIP/) r = "skip"
		name = $0; sub(/^.*selftests: [^ ]*: /, "", name); sub(/ .*/, "", name)
		print name "/(program)", r }' "$res" | sort -k1,1 > "$out/$k.txt"
done

say "stock vs patched, test by test"
join -a 1 -a 2 -e missing -o 0,1.2,2.2 "$out/stock.txt" "$out/patched.txt" \
	> "$out/compare.txt"
printf '%-58s %-8s %s\n' test stock patched
awk '{ printf "%-58s %-8s %s%s\n", $1, $2, $3, ($2 == $3) ? "" : "   <- differs" }' "$out/compare.txt"
n=$(wc -l < "$out/compare.txt")
diffs=$(awk '$2 != $3' "$out/compare.txt" | wc -l)
echo
echo "$n tests, $diffs differ between the stock and the patched kernel"
[ "$n" -gt 0 ] && [ "$diffs" = 0 ]
