#!/bin/sh
# make demo: the stock and the patched kernel on the same fork bombs, side
# by side. Each scenario boots each kernel once (256 MiB, 2 vCPUs, one
# guest at a time); a bystander times its own fork every 250 ms while the
# bomb runs, and the guest streams its samples as it takes them. Prints a
# table and draws $BUILD/demo/demo.png. Every figure comes from the runs.
#
# REPLOT=1 redraws the table and the picture from the last run's logs
# (scripts/demo-boot.sh). WINDOW (45 s) bounds a bomb.
# Scenarios (SCENARIOS="c bash container" by default):
#   c          a C fork bomb, each process touching 64 KiB
#   bash       f(){ date >/dev/null; f & f & }; f typed into a bash login
#              shell started 11 s before; the shell must stay
#   container  the C bomb in a container: a cgroup with pids.max 300 and
#              memory.max 128M
set -eu
. "$(dirname "$0")/lib.sh"

window=${WINDOW:-45}
scenarios=${SCENARIOS:-c bash container}
out=$BUILD/demo
[ -n "${REPLOT:-}" ] || rm -rf "$out"
mkdir -p "$out"
"$TOP/scripts/deps.sh" gnuplot-nox

describe() {
	case $1 in
	c) echo 'C fork bomb (fbk_bomb c 64), 256 MiB guest' ;;
	bash) echo 'f(){ date >/dev/null; f & f & }; f typed into a bash login shell, 256 MiB guest' ;;
	container) echo 'C fork bomb in a container (pids.max 300, memory.max 128M), 256 MiB guest' ;;
	*) echo "$1" ;;
	esac
}

n=$(echo $scenarios | wc -w)
[ -n "${REPLOT:-}" ] || say "booting each kernel on each scenario, one guest at a time ($((2 * n)) boots; a bomb the kernel does not stop runs its $window s)"
for s in $scenarios; do
	for k in stock patched; do
		image=$BUILD/bzImage
		[ "$k" = stock ] && image=$BUILD/bzImage-stock
		"$TOP/scripts/demo-boot.sh" "demo-$s-$k" "$s" "$image" "$window" "$out/$s-$k"
	done
done

# The value of KEY in a .result line: field FILE KEY.
field() {
	awk -v key="$2" '{ for (i = 1; i <= NF; i++)
		if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$1" 2>/dev/null
}

# "1.25" seconds as "1.2 s"; milliseconds as "120 ms" or "9.8 s".
secs() { awk -v s="$1" 'BEGIN { printf "%.1f s", s }'; }
ms() { awk -v m="$1" 'BEGIN { if (m < 1000) printf "%.0f ms", m; else printf "%.1f s", m / 1000 }'; }

# The figures of one run ($1: its .result), as table columns and as a
# caption; sets rec, left, worst, innocents, oom, kills, exh, kill.
sum_up() {
	r=$1
	if [ "$(field "$r" ended)" = 1 ]; then
		rec=$(field "$r" recovered)
		case $rec in
		-*) rec="never ($(field "$r" window) s)" ;;
		*) rec=$(secs "$rec") ;;
		esac
	else
		rec="never (stopped at $(secs "$(field "$r" last)"))"
	fi
	left=$(field "$r" left)
	worst=$(ms "$(field "$r" worst_ms)")
	innocents=
	[ "$(field "$r" bystander_killed)" = 1 ] && innocents=bystander
	[ "$(field "$r" shell)" = dead ] && innocents="${innocents:+$innocents, }login shell"
	innocents=${innocents:-none}
	oom=$(field "$r" oom_kills)
	kills=$(field "$r" fbk_kills)
	case $kills in
	-1) kills=- ;;
	*) kills="$kills ($(field "$r" fbk_tasks) tasks)" ;;
	esac
	exh=$(field "$r" exhausted)
	case $exh in -*) exh=- ;; *) exh=$(secs "$exh") ;; esac
	kill=$(field "$r" killed)
	case $kill in -*) kill=- ;; *) kill=$(secs "$kill") ;; esac
}

row() { printf '%-9s %-7s %-26s %5s  %-10s %-9s %9s  %-7s  %-9s  %s\n' "$@"; }

table=$out/table.txt
{
	row scenario kernel "recovered after" left "worst fork" killed \
		"OOM kills" "ran out" "kill done" "fork bomb kills"
	for s in $scenarios; do
		for k in stock patched; do
			r=$out/$s-$k.result
			if [ "$(field "$r" failed)" != 0 ]; then
				printf '%-9s %-7s %s\n' "$s" "$k" \
					"(guest failed, see $BUILD/logs/demo-$s-$k.*)"
				continue
			fi
			sum_up "$r"
			row "$s" "$k" "$rec" "$left" "$worst" "$innocents" "$oom" \
				"$exh" "$kill" "$kills"
		done
	done
} > "$table"

# The caption of a panel: the table's figures in words.
caption() {
	r=$out/$1-$2.result
	if [ "$(field "$r" failed)" != 0 ]; then
		echo "$2: guest failed"
		return
	fi
	sum_up "$r"
	case $rec in
	"never (stopped"*) rec="not recovered, stopped answering at ${rec#never (stopped at }"
		rec=${rec%)} ;;
	never*) rec="not recovered in $(field "$r" window) s" ;;
	*) rec="recovered after $rec" ;;
	esac
	case $kills in
	-) kills= ;;
	*) kills=", fork bomb kills $kills" ;;
	esac
	echo "$2: $rec, $left bombs left, bystander's fork $worst at worst, $oom OOM kills$kills, innocents killed: $innocents"
}

# A dashed line at the moment memory or pids ran out, a solid one when
# the fork bomb killer's first kill was done (its counter moved), in the
# kernel's colour, with one label on the right of the first of them at
# the height $4 (a fraction of the panel, above the data: stock's and
# patched's labels never meet).
marks() {
	r=$out/$1-$2.result
	[ "$(field "$r" failed)" = 0 ] || return 0
	exh=$(field "$r" exhausted) kill=$(field "$r" killed) text= at=
	case $exh in
	-*) ;;
	*) echo "set arrow from $exh, graph 0 to $exh, graph 1 nohead dt 2 lw 2 lc rgb '$3'"
	   text="ran out at $(secs "$exh")" at=$exh ;;
	esac
	case $kill in
	-*) ;;
	*) echo "set arrow from $kill, graph 0 to $kill, graph 1 nohead lw 2 lc rgb '$3'"
	   text="${text:+$text, }kill done at $(secs "$kill")" at=${at:-$kill} ;;
	esac
	[ -z "$text" ] ||
		echo "set label '$2: $text' at $at, graph $4 left offset 0.5,0 tc rgb '$3'"
}

# One panel per scenario: bomb processes (lines, left axis) and the
# bystander's fork latency (points, right axis, log scale; a fork still
# hanging counts for as long as it has hung, a failed one is a cross on
# the top line), stock red, patched blue.
red='#d62728' blue='#1f77b4'
{
	echo "set terminal pngcairo size 1200,$((420 * n + 60)) font 'sans,10' noenhanced"
	echo "set output '$out/demo.png'"
	printf 'set multiplot layout %s,1 title "%s\\n%s\\n%s" font "sans,11"\n' "$n" \
		'Fork bombs on stock Linux 6.12 (red) and with the fork bomb killer (blue), 2 vCPU TCG guests' \
		"lines: bomb processes (left axis); dots: a bystander's fork+exit+wait (right axis, log; x: its fork failed)" \
		"dashed: memory or pids ran out (the first OOM kill or failed fork); solid: the fork bomb killer's kill done"
	echo "set xlabel 'seconds since the bomb started'"
	echo "set ylabel 'bomb processes'"
	echo "set y2label \"bystander's fork+exit+wait (log)\""
	echo "set logscale y2"
	echo "set y2range [0.5:2000000]"
	echo "set y2tics ('1 ms' 1, '10 ms' 10, '100 ms' 100, '1 s' 1000, '10 s' 10000, '100 s' 100000)"
	echo "set ytics nomirror"
	echo "set yrange [0:*]"
	# Room above the data for the labels of the marks.
	echo "set offsets 0, 0, graph 0.25, 0"
	echo "unset key"
	echo "set grid"
	echo "set xrange [0:$((window + 2))]"
	echo "ok(x) = x < 0 ? 1/0 : (x < 0.5 ? 0.5 : x)"
	echo "failed(x) = x < 0 ? 100000 : 1/0"
	for s in $scenarios; do
		echo "unset arrow"
		echo "unset label"
		marks "$s" stock "$red" 0.95
		marks "$s" patched "$blue" 0.88
		printf "set title \"%s\\\\n%s\\\\n%s\"\n" "$s: $(describe "$s")" \
			"$(caption "$s" stock)" "$(caption "$s" patched)"
		for k in stock patched; do
			[ -s "$out/$s-$k.dat" ] || echo "-1 0 -1" > "$out/$s-$k.dat"
		done
		echo "plot '$out/$s-stock.dat' using 1:2 with lines lw 2 lc rgb '$red' notitle, \\"
		echo "     '$out/$s-patched.dat' using 1:2 with lines lw 2 lc rgb '$blue' notitle, \\"
		echo "     '$out/$s-stock.dat' using 1:(ok(\$3)) axes x1y2 with points pt 7 ps 0.5 lc rgb '#ff9896' notitle, \\"
		echo "     '$out/$s-patched.dat' using 1:(ok(\$3)) axes x1y2 with points pt 7 ps 0.5 lc rgb '#6baed6' notitle, \\"
		echo "     '$out/$s-stock.dat' using 1:(failed(\$3)) axes x1y2 with points pt 2 ps 0.8 lc rgb '$red' notitle, \\"
		echo "     '$out/$s-patched.dat' using 1:(failed(\$3)) axes x1y2 with points pt 2 ps 0.8 lc rgb '$blue' notitle"
	done
	echo "unset multiplot"
} > "$out/demo.gp"
gnuplot "$out/demo.gp" 2>"$out/gnuplot.log" || say "gnuplot failed: see $out/gnuplot.log"

echo
cat "$table"
echo
echo "recovered after: the bomb is gone and the bystander forks in under 50 ms again"
echo "                 (never: not within the window, or the guest stopped answering)"
echo "left:       bomb processes left at the end; worst fork: the bystander's slowest"
echo "killed:     innocents killed (the bystander; the login shell in bash)"
echo "OOM kills:  /proc/vmstat oom_kill, which also counts each task the fork bomb killer kills on OOM"
echo "ran out:    the first OOM kill or fork failed on pids.max; kill done: the fork bomb killer's"
echo "            first kill counted; both from the bomb's start, as is recovered after"
echo "picture:    $out/demo.png    samples: $out/*.dat    logs: $BUILD/logs/demo-*"
