#!/bin/sh
# Boot a demo guest (scripts/run-qemu.sh) and end it MARGIN s after its
# window: WINDOW s after the guest reported that its bomb started (a line
# "DEMO-START" on its results port), or SETUP s after QEMU started when
# it has not by then. A guest that a bomb swamps may never end by itself;
# what it streamed until then is in $BUILD/logs/NAME.results.
#
# Usage: scripts/boot-window.sh NAME WINDOW SETUP MARGIN RUN [run-qemu.sh options]
# Exit status: run-qemu.sh's (1 for a guest ended here).
set -eu
. "$(dirname "$0")/lib.sh"

name=$1 window=$2 setup=$3 margin=$4 run=$5
shift 5
res=$BUILD/logs/$name.results
pidfile=$BUILD/logs/$name.pid
mkdir -p "$BUILD/logs"
rm -f "$res" "$pidfile"
"$TOP/scripts/run-qemu.sh" "$name" "$run" "$@" -q "-pidfile $pidfile" \
	-t $((setup + window + margin + 10)) &
boot=$!
end=$(($(date +%s) + setup)) started= why="no bomb after $setup s"
while kill -0 "$boot" 2>/dev/null; do
	if [ -z "$started" ] && grep -q '^DEMO-START' "$res" 2>/dev/null; then
		started=1 why="$margin s after its window"
		end=$(($(date +%s) + window + margin))
	fi
	if [ "$(date +%s)" -ge "$end" ] && [ -s "$pidfile" ]; then
		say "boot $name: ending the guest ($why)"
		kill "$(cat "$pidfile")" 2>/dev/null || true
		break
	fi
	sleep 1
done
rc=0
wait "$boot" || rc=$?
exit "$rc"
