#!/bin/sh
# Boot one kernel on one demo scenario (scripts/guest/fbk_monitor.c) and
# keep what it measured, for make demo:
#   OUT.dat     "t bombs latency_ms" samples
#   OUT.result  one line of key=value that sums them up (scripts/demo.sh
#               reads it): "failed=1" when the guest never reported a
#               sample (a kernel that did not boot, a sampler that never
#               started); else the last sample's counters, the bystander's
#               worst fork, when memory or pids ran out and when the fork
#               bomb killer first acted, and "ended=0" for a guest that
#               stopped answering before its window ended.
# The guest streams its samples to the results port as it takes them, so
# a guest that a bomb swamps leaves every sample up to that moment. The
# host ends the guest MARGIN (10) s after its window, counted from the
# bomb's start, and one that has not started its bomb SETUP (60) s after
# QEMU started (scripts/boot-window.sh).
#
# Usage: scripts/demo-boot.sh LOGNAME SCENARIO KERNEL WINDOW_S OUT
# REPLOT=1 reuses the log of the last boot instead of booting.
set -eu
. "$(dirname "$0")/lib.sh"

name=$1 scenario=$2 kernel=$3 window=$4 out=$5
margin=${MARGIN:-10} setup=${SETUP:-60}
res=$BUILD/logs/$name.results

[ -n "${REPLOT:-}" ] || "$TOP/scripts/boot-window.sh" "$name" "$window" "$setup" "$margin" \
	script:demo -k "$kernel" -m 256M -c 2 \
	-a "fbk.demo=$scenario fbk.window=$window kunit.enable=0" || true

# What the guest wrote to its results port, without the serial line's \r.
lines() { [ -f "$res" ] && tr -d '\r' < "$res"; }

lines | sed -n 's/^DEMO-SAMPLE t=\([^ ]*\) bombs=\([^ ]*\) latency_ms=\([^ ]*\).*/\1 \2 \3/p' \
	> "$out.dat"
lines | awk '
	function get(key,  i) {
		for (i = 2; i <= NF; i++)
			if (index($i, key "=") == 1)
				return substr($i, length(key) + 2)
		return ""
	}
	/^DEMO-START/ { started = 1; window = get("window") }
	/^DEMO-SAMPLE/ {
		n++
		t = get("t")
		left = get("bombs")
		if (get("latency_ms") + 0 > worst)
			worst = get("latency_ms") + 0
		bystander_killed = get("bystander_killed")
		oom = get("oom_kills"); fails = get("fork_fails")
		kills = get("fbk_kills"); tasks = get("fbk_tasks")
		shell = get("shell")
		if (exhausted == "" && (oom + 0 > 0 || fails + 0 > 0))
			exhausted = t
		if (killed == "" && kills + 0 > 0)
			killed = t
	}
	/^DEMO-RESULT/ { ended = 1; recovered = get("recovered") }
	END {
		if (!started || !n) {
			print "failed=1"
			exit
		}
		printf "failed=0 ended=%d window=%s last=%s recovered=%s left=%s worst_ms=%.1f bystander_killed=%s shell=%s oom_kills=%s fork_fails=%s fbk_kills=%s fbk_tasks=%s exhausted=%s killed=%s\n",
			ended, window, t, ended ? recovered : -1, left, worst,
			bystander_killed, shell, oom, fails, kills, tasks,
			exhausted == "" ? -1 : exhausted, killed == "" ? -1 : killed
	}' > "$out.result"
