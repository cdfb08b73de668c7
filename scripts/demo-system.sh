#!/bin/sh
# make demo-system: the stock and the patched kernel on the same fork bombs
# in a real Debian 12 system with systemd (scripts/system/data/run.sh):
# a bomb typed into a user's login shell (stopped first by the user
# slice's TasksMax), the shell bomb there, a bomb as root with no limit
# but threads-max, one in a service with TasksMax= and MemoryMax=, and one
# in a container-like scope next to 1,500 other processes. Prints a table
# and draws $BUILD/demo-system/demo-system.png.
#
# REPLOT=1 redraws from the last run's logs. WINDOW (60 s) bounds a bomb.
set -eu
. "$(dirname "$0")/lib.sh"

window=${WINDOW:-60}
# A guest that has not started its bomb SETUP s after QEMU started (a
# systemd boot under TCG, a login, 1,500 processes to start) has failed.
setup=${SETUP:-300} margin=${MARGIN:-15}
scenarios=${SCENARIOS:-user-c-bomb user-shell-bomb root-bomb service-bomb container-bomb}
out=$BUILD/demo-system
mkdir -p "$out"
"$TOP/scripts/deps.sh" gnuplot-nox
if [ -z "${REPLOT:-}" ]; then
	"$TOP/scripts/system-image.sh"
	"$TOP/scripts/system-data.sh"
fi

# The samples of one boot ($1: its results) summed up: "failed=1" when
# there are none, else the last (or the sampler's own end, DEMO-WATCHED),
# when memory or pids ran out and when the fork bomb killer acted.
samples() {
	awk '
	function get(key,  i) {
		for (i = 2; i <= NF; i++)
			if (index($i, key "=") == 1)
				return substr($i, length(key) + 2)
		return ""
	}
	/^DEMO-SAMPLE/ {
		n++
		t = get("t"); left = get("bombs"); kills = get("fbk_kills")
		if (exhausted == "" && (get("oom_kills") + 0 > 0 || get("fork_fails") + 0 > 0))
			exhausted = t
		if (killed == "" && kills + 0 > 0)
			killed = t
	}
	/^DEMO-WATCHED/ { watched = 1; recovered = get("recovered"); left = get("left") }
	END {
		if (!n) {
			print "failed=1"
			exit
		}
		printf "failed=0 watched=%d last=%s recovered=%s left=%s fbk_kills=%s exhausted=%s killed=%s\n",
			watched, t, watched ? recovered : -1, left, kills,
			exhausted == "" ? -1 : exhausted, killed == "" ? -1 : killed
	}' "$1" 2>/dev/null || echo failed=1
}

say "booting each kernel on each scenario in the Debian guest, one guest at a time (a bomb the kernel does not stop runs its $window s)"
for s in $scenarios; do
	for k in stock patched; do
		image=$BUILD/bzImage
		[ "$k" = stock ] && image=$BUILD/bzImage-stock
		log=demo-system-$s-$k
		# The guest streams the samples of its bomb (fbk_sampler); a
		# guest still up $margin s after the bomb's window is ended.
		[ -n "${REPLOT:-}" ] || "$TOP/scripts/boot-window.sh" "$log" "$window" "$setup" "$margin" \
			"system:$s" -k "$image" -m 1G -c 2 -a "fbk.window=$window kunit.enable=0" || true
		# What it wrote to its results port, without the serial line's \r.
		res=$out/$s-$k.results
		tr -d '\r' 2>/dev/null < "$BUILD/logs/$log.results" > "$res" || : > "$res"
		sed -n 's/^DEMO-SAMPLE t=\([^ ]*\) bombs=\([^ ]*\).*/\1 \2/p' "$res" > "$out/$s-$k.dat"
		samples "$res" > "$out/$s-$k.samples"
		grep '^SYSTEM-RESULT' "$res" > "$out/$s-$k.result" || : > "$out/$s-$k.result"
	done
done

field() {
	awk -v key="$2" '{ for (i = 1; i <= NF; i++)
		if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$1" 2>/dev/null
}
secs() { awk -v s="$1" 'BEGIN { if (s < 0) print "-"; else printf "%.1f s", s }'; }

table=$out/table.txt
{
	printf '%-16s %-8s %-26s %9s %8s %9s %15s %8s  %s\n' scenario kernel "recovered after" \
		"bomb left" "ran out" "kill done" "fork bomb kills" reports "systemd and the session"
	for s in $scenarios; do
		for k in stock patched; do
			r=$out/$s-$k.result m=$out/$s-$k.samples
			if [ "$(field "$m" failed)" = 1 ]; then
				printf '%-16s %-8s %s\n' "$s" "$k" "(guest failed, see $BUILD/logs/demo-system-$s-$k.*)"
				echo "$k: guest failed" > "$out/$s-$k.caption"
				continue
			fi
			rec=$(field "$m" recovered)
			case $rec in
			-1) if [ "$(field "$m" watched)" = 1 ]; then
				rec="never ($window s)"
			    else
				rec="never (stopped at $(secs "$(field "$m" last)"))"
			    fi ;;
			*) rec="$rec s" ;;
			esac
			kills=$(field "$m" fbk_kills)
			[ "$kills" = -1 ] && kills=-
			if [ -s "$r" ]; then
				reports=$(field "$r" reports)
				said=$(sed 's/.* reports=[^ ]* *//' "$r")
			else
				# Too swamped to say more than its samples did.
				reports=unknown said="unknown (guest swamped)"
			fi
			printf '%-16s %-8s %-26s %9s %8s %9s %15s %8s  %s\n' "$s" "$k" "$rec" \
				"$(field "$m" left)" "$(secs "$(field "$m" exhausted)")" \
				"$(secs "$(field "$m" killed)")" "$kills" "$reports" "$said"
			echo "$k: recovered after $rec, $(field "$m" left) left, fork bomb kills $kills; $said" |
				sed 's/recovered after never/not recovered, never/' > "$out/$s-$k.caption"
		done
	done
} > "$table"

# Dashed: memory or pids ran out; solid: the fork bomb killer's kill done
# (its counter moved); in the kernel's colour.
marks() {
	m=$out/$1-$2.samples
	for what in exhausted killed; do
		at=$(field "$m" $what)
		case $at in -*|'') continue ;; esac
		dt=2
		[ $what = killed ] && dt=1
		echo "set arrow from $at, graph 0 to $at, graph 1 nohead dt $dt lw 2 lc rgb '$3'"
	done
}

n=$(echo $scenarios | wc -w)
red='#d62728' blue='#1f77b4'
{
	echo "set terminal pngcairo size 1200,$((320 * n + 40)) font 'sans,10' noenhanced"
	echo "set output '$out/demo-system.png'"
	printf 'set multiplot layout %s,1 title "%s\\n%s"\n' "$n" \
		'Fork bombs in Debian 12 with systemd: stock Linux 6.12 (red) vs the fork bomb killer (blue), 2 vCPU TCG guests' \
		"tasks in the bomb's cgroup; dashed: memory or pids ran out; solid: the fork bomb killer's kill done"
	echo "set xlabel 'seconds since the bomb started'"
	echo "set ylabel 'bomb tasks'"
	echo "unset key"
	echo "set grid"
	echo "set yrange [0:*]"
	echo "set xrange [0:$((window + 2))]"
	for s in $scenarios; do
		echo "unset arrow"
		marks "$s" stock "$red"
		marks "$s" patched "$blue"
		printf 'set title "%s\\n%s\\n%s"\n' "$s" "$(cat "$out/$s-stock.caption")" \
			"$(cat "$out/$s-patched.caption")"
		for k in stock patched; do
			[ -s "$out/$s-$k.dat" ] || echo "-1 0" > "$out/$s-$k.dat"
		done
		echo "plot '$out/$s-stock.dat' using 1:2 with lines lw 2 lc rgb '$red' notitle, \\"
		echo "     '$out/$s-patched.dat' using 1:2 with lines lw 2 lc rgb '$blue' notitle"
	done
	echo "unset multiplot"
} > "$out/demo-system.gp"
gnuplot "$out/demo-system.gp" 2>"$out/gnuplot.log" || say "gnuplot failed: see $out/gnuplot.log"

echo
cat "$table"
echo
echo "recovered: the bomb's tasks are gone from its cgroup (for 3 s); never: not within"
echo "           the window, or the guest stopped answering (its last sample)"
echo "ran out:   the first OOM kill or fork failed on the cgroup's pids.max; kill done:"
echo "           the fork bomb killer's first kill counted (from the bomb's start)"
echo "reports:   kernel log lines 'killed fork bomb' in journalctl -k"
echo "picture:   $out/demo-system.png    logs: $BUILD/logs/demo-system-*"
