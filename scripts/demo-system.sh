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
scenarios=${SCENARIOS:-user-c-bomb user-shell-bomb root-bomb service-bomb container-bomb}
out=$BUILD/demo-system
mkdir -p "$out"
"$TOP/scripts/deps.sh" gnuplot-nox
if [ -z "${REPLOT:-}" ]; then
	"$TOP/scripts/system-image.sh"
	"$TOP/scripts/system-data.sh"
fi

say "booting each kernel on each scenario in the Debian guest (up to $window s of bomb each)"
for s in $scenarios; do
	for k in stock patched; do
		image=$BUILD/bzImage
		[ "$k" = stock ] && image=$BUILD/bzImage-stock
		log=demo-system-$s-$k
		[ -n "${REPLOT:-}" ] || "$TOP/scripts/run-qemu.sh" "$log" "system:$s" -k "$image" \
			-m 1G -c 2 -t $((window + 420)) -a "fbk.window=$window kunit.enable=0" || true
		res=$BUILD/logs/$log.results
		sed -n 's/^DEMO-SAMPLE t=\([^ ]*\) bombs=\([^ ]*\).*/\1 \2/p' "$res" > "$out/$s-$k.dat" 2>/dev/null || true
		if ! grep '^SYSTEM-RESULT' "$res" > "$out/$s-$k.result" 2>/dev/null; then
			# Too swamped to report: its last sample, held to the window's end.
			last=$(tail -n 1 "$out/$s-$k.dat" 2>/dev/null || true)
			if [ -n "$last" ]; then
				echo "SYSTEM-RESULT scenario=$s recovered=-1 left=${last#* } swamped=1" > "$out/$s-$k.result"
				echo "$window ${last#* }" >> "$out/$s-$k.dat"
			else
				echo "SYSTEM-RESULT scenario=$s failed=1" > "$out/$s-$k.result"
			fi
		fi
	done
done

field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1"; }

table=$out/table.txt
{
	printf '%-16s %-8s %-26s %10s %16s %8s  %s\n' scenario kernel "recovered after" \
		"bomb left" "fork bomb kills" reports "systemd and the session"
	for s in $scenarios; do
		for k in stock patched; do
			r=$out/$s-$k.result
			if [ "$(field "$r" failed)" = 1 ]; then
				printf '%-16s %-8s %s\n' "$s" "$k" "(guest failed, see $BUILD/logs/demo-system-$s-$k.*)"
				continue
			fi
			rec=$(field "$r" recovered)
			case $rec in
			-1) rec="never (within $window s)" ;;
			*) rec="$rec s" ;;
			esac
			if [ "$(field "$r" swamped)" = 1 ]; then
				printf '%-16s %-8s %-26s %10s %16s %8s  %s\n' "$s" "$k" "$rec" \
					"$(field "$r" left)" "unknown" "unknown" "unknown (guest swamped)"
				continue
			fi
			kills=$(field "$r" fbk_kills)
			[ "$k" = stock ] && kills=-
			said=$(sed 's/.* reports=[^ ]* *//' "$r")
			printf '%-16s %-8s %-26s %10s %16s %8s  %s\n' "$s" "$k" "$rec" \
				"$(field "$r" left)" "$kills" "$(field "$r" reports)" "$said"
		done
	done
} > "$table"

n=$(echo $scenarios | wc -w)
{
	echo "set terminal pngcairo size 1200,$((320 * n)) font 'sans,10'"
	echo "set output '$out/demo-system.png'"
	echo "set multiplot layout $n,1 title 'Fork bombs in Debian 12 with systemd: stock Linux 6.12 vs the fork bomb killer'"
	echo "set xlabel 'seconds since the bomb started'"
	echo "set ylabel 'bomb tasks'"
	echo "set key outside right top"
	echo "set grid"
	echo "set xrange [0:$((window + 5))]"
	for s in $scenarios; do
		echo "set title '$s'"
		echo "plot '$out/$s-stock.dat' using 1:2 with lines lw 2 lc rgb '#d62728' title 'stock', \\"
		echo "     '$out/$s-patched.dat' using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'patched'"
	done
	echo "unset multiplot"
} > "$out/demo-system.gp"
gnuplot "$out/demo-system.gp" 2>"$out/gnuplot.log" || say "gnuplot failed: see $out/gnuplot.log"

echo
cat "$table"
echo
echo "recovered: the bomb's tasks are gone from its cgroup (for 3 s)"
echo "reports:   kernel log lines 'killed fork bomb' in journalctl -k"
echo "picture:   $out/demo-system.png    logs: $BUILD/logs/demo-system-*"
