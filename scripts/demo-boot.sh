#!/bin/sh
# Boot one kernel on one demo scenario (scripts/guest/fbk_monitor.c) and
# keep what it measured, for make demo and make bench:
#   OUT.dat     "t bombs latency_ms" samples
#   OUT.result  the DEMO-RESULT line; for a guest too swamped to finish its
#               window (the stock kernel can be), its last sample as of
#               that moment (stuck=1); "boot-failed" when there is neither.
# Usage: scripts/demo-boot.sh LOGNAME SCENARIO KERNEL WINDOW_S OUT
# REPLOT=1 reuses the log of the last boot instead of booting.
set -eu
. "$(dirname "$0")/lib.sh"

name=$1 scenario=$2 kernel=$3 window=$4 out=$5
mem=256M
[ "$scenario" = threads ] && mem=2G
[ -n "${REPLOT:-}" ] || "$TOP/scripts/run-qemu.sh" "$name" script:demo -k "$kernel" -m "$mem" \
	-c 2 -t $((window + 180)) -a "fbk.demo=$scenario fbk.window=$window kunit.enable=0" || true
res=$BUILD/logs/$name.results
sed -n 's/^DEMO-SAMPLE t=\([^ ]*\) bombs=\([^ ]*\) latency_ms=\([^ ]*\).*/\1 \2 \3/p' \
	"$res" > "$out.dat" 2>/dev/null || true
grep '^DEMO-RESULT' "$res" > "$out.result" 2>/dev/null ||
	grep '^DEMO-SAMPLE' "$res" 2>/dev/null | tail -n 1 |
	sed 's/^DEMO-SAMPLE t=\([^ ]*\) bombs=\([^ ]*\) latency_ms=[^ ]* \(.*\)/DEMO-RESULT recovered=-1 left=\2 \3 window=\1 stuck=1/' \
		> "$out.result"
[ -s "$out.result" ] || echo "DEMO-RESULT boot-failed" > "$out.result"
# A guest swamped before the window ended: what it sampled last held to the
# end, so that its curve spans the window like the others.
if grep -q 'stuck=1' "$out.result" && [ -s "$out.dat" ]; then
	last=$(tail -n 1 "$out.dat")
	echo "$window ${last#* }" >> "$out.dat"
fi
