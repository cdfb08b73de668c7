#!/bin/sh
# make check-kernel-selftests: the kernel's own kselftests of the paths the
# series hooks (cgroup: test_core, test_kill, test_pids, test_memcontrol
# with its OOM and memory.oom.group tests; clone3), booted once on the
# stock and once on the patched kernel (the boot "kernel-selftests" of
# scripts/testplan), and compared test by test in a table. Any test whose
# result differs between the two kernels fails the run; so does a boot
# that did not finish, and a patched boot that make check would fail.
#
# The stock boot's results become the golden file,
# scripts/golden/kernel-selftests.txt, one "program/test result" line per
# test, with which make check (scripts/run-plan.sh) compares the patched
# kernel's without booting stock. Updating it is this one command; then
# read `git diff scripts/golden/` (every line that changed is a change in
# what the stock kernel does in this guest) and commit it. Update it when
# the stock kernel's results change: a new 6.12.y (README_LINUX in
# scripts/lib.sh), a change to the guest (scripts/guest/,
# scripts/build-initramfs.sh, scripts/config/base.config, the testplan's
# line), or when make check says a test differs from the golden file and
# this run shows that stock changed too. Never to make a patched failure
# go away: a test that fails on the patched kernel only still fails here.
set -eu
. "$(dirname "$0")/lib.sh"

out=$BUILD/kernel-selftests
golden=$TOP/scripts/golden/kernel-selftests.txt
mkdir -p "$out" "$(dirname "$golden")"
for k in stock patched; do
	image=$BUILD/bzImage
	[ "$k" = stock ] && image=$BUILD/bzImage-stock
	[ -f "$image" ] || die "no $image: make kernel stock-kernel first"
done

say "the kernel's cgroup and clone3 selftests on the stock kernel"
# Not compared with the golden file it is about to replace (-n).
"$TOP/scripts/run-plan.sh" -k "$BUILD/bzImage-stock" -o '^kernel-selftests$' -p stock- -n || true
res=$BUILD/logs/stock-kernel-selftests.results
grep -q '^FBK-END' "$res" || die "the stock kernel's boot did not finish: $res"
LC_ALL=C sort "$BUILD/logs/stock-kernel-selftests.tests" > "$out/stock.txt"
[ -s "$out/stock.txt" ] || die "the stock kernel's boot reported no tests: $res"
{
	echo "# The stock kernel's results (Linux $(make -s --no-print-directory -C "$STOCK_TREE" kernelversion))"
	echo "# of the boot \"kernel-selftests\" of scripts/testplan, \"program/test result\""
	echo "# per test, which make check compares the patched kernel's with. Written"
	echo "# by make check-kernel-selftests (scripts/check-kernel-selftests.sh says"
	echo "# when to update it)."
	cat "$out/stock.txt"
} > "$golden.new"
if cmp -s "$golden.new" "$golden"; then
	rm "$golden.new"
	say "${golden#"$TOP"/}: unchanged"
else
	mv "$golden.new" "$golden"
	say "${golden#"$TOP"/}: written; read git diff on it, and commit it"
fi

say "the kernel's cgroup and clone3 selftests on the patched kernel (compared with it)"
rc=0
"$TOP/scripts/run-plan.sh" -k "$BUILD/bzImage" -o '^kernel-selftests$' -p patched- || rc=1
res=$BUILD/logs/patched-kernel-selftests.results
grep -q '^FBK-END' "$res" || die "the patched kernel's boot did not finish: $res"
LC_ALL=C sort "$BUILD/logs/patched-kernel-selftests.tests" > "$out/patched.txt"

say "stock vs patched, test by test"
python3 "$TOP/scripts/parse-results.py" compare "$out/stock.txt" "$out/patched.txt" \
	> "$out/compare.txt" || rc=1
cat "$out/compare.txt"
[ "$rc" = 0 ] || say "failed: see the table and $BUILD/logs/patched-kernel-selftests.failures"
exit $rc
