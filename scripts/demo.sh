#!/bin/sh
# make demo: the stock and the patched kernel on the same fork bombs, side
# by side. Each scenario boots each kernel once; a bystander times its own
# fork every 250 ms while the bomb runs. Prints a table and draws
# $BUILD/demo/demo.png. Every figure comes from the runs.
#
# REPLOT=1 redraws the table and the picture from the last run's logs
# (scripts/demo-boot.sh).
# Scenarios (SCENARIOS="c shell threads" by default):
#   c        a C fork bomb, each process touching 64 KiB, 256 MiB guest
#   shell    the shell bomb whose parents exit, f(){ f|f & }; f, 256 MiB
#   threads  a C bomb in a 2 GiB guest with kernel.threads-max at 3000:
#            forks fail long before memory runs out
set -eu
. "$(dirname "$0")/lib.sh"

window=${WINDOW:-45}
scenarios=${SCENARIOS:-c shell threads}
out=$BUILD/demo
rm -rf "$out"
mkdir -p "$out"
"$TOP/scripts/deps.sh" gnuplot-nox

memory() { [ "$1" = threads ] && echo 2G || echo 256M; }

say "booting each kernel on each scenario (up to $window s of bomb each; about 5 minutes in all)"
for s in $scenarios; do
	for k in stock patched; do
		image=$BUILD/bzImage
		[ "$k" = stock ] && image=$BUILD/bzImage-stock
		"$TOP/scripts/demo-boot.sh" "demo-$s-$k" "$s" "$image" "$window" "$out/$s-$k"
	done
done

field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1"; }

table=$out/table.txt
{
	printf '%-9s %-8s %-26s %11s %10s %9s  %s\n' scenario kernel "recovered after" \
		"bombs left" bystanders "OOM kills" "fork bomb kills"
	for s in $scenarios; do
		for k in stock patched; do
			r=$out/$s-$k.result
			if grep -q boot-failed "$r"; then
				printf '%-9s %-8s %-26s\n' "$s" "$k" "(guest failed, see logs)"
				continue
			fi
			rec=$(field "$r" recovered)
			case $rec in
			-*) rec="never (within $(field "$r" window) s)" ;;
			*) rec="$rec s" ;;
			esac
			if [ "$(field "$r" stuck)" = 1 ]; then
				# Its last sample: counters it could not report since.
				printf '%-9s %-8s %-26s %11s %10s %9s  %s\n' "$s" "$k" \
					"never (swamped at $(field "$r" window) s)" "$(field "$r" left)" \
					unknown unknown "unknown (guest swamped)"
				continue
			fi
			kills=$(field "$r" fbk_kills)
			if [ "$kills" = -1 ]; then
				kills=-
			elif [ -n "$(field "$r" fbk_tasks)" ]; then
				kills="$kills ($(field "$r" fbk_tasks) tasks)"
			fi
			printf '%-9s %-8s %-26s %11s %10s %9s  %s\n' "$s" "$k" "$rec" \
				"$(field "$r" left)" "$(field "$r" bystander_killed) killed" \
				"$(field "$r" oom_kills)" "$kills"
		done
	done
} > "$table"

# One panel per scenario: bomb processes (left) and the bystander's fork
# latency (right, log scale; a fork still hanging counts for as long as it
# has hung; a failed fork is drawn as a cross on the top line), stock vs
# patched.
n=$(echo $scenarios | wc -w)
{
	echo "set terminal pngcairo size 1200,$((380 * n)) font 'sans,10'"
	echo "set output '$out/demo.png'"
	echo "set multiplot layout $n,1 title 'Fork bomb: stock Linux 6.12 vs the fork bomb killer (2 vCPU TCG guest)'"
	echo "set xlabel 'seconds since the bomb started'"
	echo "set ylabel 'bomb processes'"
	echo "set y2label 'bystander fork+exit+wait (ms)'"
	echo "set logscale y2"
	echo "set y2range [0.5:200000]"
	echo "set y2tics"
	echo "set ytics nomirror"
	echo "set key outside right top"
	echo "set grid"
	echo "set xrange [0:$((window + 5))]"
	echo "ok(x) = x < 0 ? 1/0 : (x < 0.5 ? 0.5 : x)"
	echo "failed(x) = x < 0 ? 100000 : 1/0"
	for s in $scenarios; do
		echo "set title '$s bomb ($(memory "$s") guest)'"
		echo "plot '$out/$s-stock.dat' using 1:2 with lines lw 2 lc rgb '#d62728' title 'stock: bomb processes', \\"
		echo "     '$out/$s-patched.dat' using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'patched: bomb processes', \\"
		echo "     '$out/$s-stock.dat' using 1:(ok(\$3)) axes x1y2 with points pt 7 ps 0.4 lc rgb '#ff9896' title 'stock: bystander latency', \\"
		echo "     '$out/$s-patched.dat' using 1:(ok(\$3)) axes x1y2 with points pt 7 ps 0.4 lc rgb '#17becf' title 'patched: bystander latency', \\"
		echo "     '$out/$s-stock.dat' using 1:(failed(\$3)) axes x1y2 with points pt 2 ps 0.6 lc rgb '#ff9896' title 'stock: bystander fork failed', \\"
		echo "     '$out/$s-patched.dat' using 1:(failed(\$3)) axes x1y2 with points pt 2 ps 0.6 lc rgb '#17becf' title 'patched: bystander fork failed'"
	done
	echo "unset multiplot"
} > "$out/demo.gp"
gnuplot "$out/demo.gp" 2>"$out/gnuplot.log" || say "gnuplot failed: see $out/gnuplot.log"

echo
cat "$table"
echo
echo "recovered: the bomb is gone and the bystander forks in under 50 ms again"
echo "OOM kills: /proc/vmstat oom_kill, which also counts each task the fork bomb killer kills on OOM"
echo "picture:   $out/demo.png    samples: $out/*.dat    logs: $BUILD/logs/demo-*"
