# One boot of `make bench`, run by the guest's init (busybox sh):
#   fbk.bench=overhead fbk.rounds=R fbk.forks=N fbk.execs=M
#   fbk.bench=records
#   fbk.bench=bigbomb fbk.bomb=N fbk.tracking=on|off fbk.window=S
#   fbk.bench=locks fbk.forks=N
#   fbk.bench=scoped fbk.others=N fbk.rounds=R
#   fbk.bench=abuse fbk.others=N fbk.window=S fbk.rounds=R
#   fbk.bench=busy fbk.window=S fbk.forks=RATE (the disk to read: /dev/vda)
what=overhead rounds=20 forks=1500 execs=300 bomb=100000 tracking=on window=600 others=50000
for arg in $(cat /proc/cmdline); do
	case $arg in
	fbk.bench=*) what=${arg#fbk.bench=} ;;
	fbk.rounds=*) rounds=${arg#fbk.rounds=} ;;
	fbk.forks=*) forks=${arg#fbk.forks=} ;;
	fbk.execs=*) execs=${arg#fbk.execs=} ;;
	fbk.bomb=*) bomb=${arg#fbk.bomb=} ;;
	fbk.tracking=*) tracking=${arg#fbk.tracking=} ;;
	fbk.window=*) window=${arg#fbk.window=} ;;
	fbk.others=*) others=${arg#fbk.others=} ;;
	esac
done
echo "BENCH-KERNEL $(uname -r) $([ -d /sys/kernel/mm/oom ] && echo patched || echo stock) cpus=$(nproc)"
case $what in
overhead)
	/usr/bin/fbk_bench fork "$rounds" "$forks"
	/usr/bin/fbk_bench exec "$((rounds / 2))" "$execs"
	;;
records)
	/usr/bin/fbk_bench records 10000
	/usr/bin/fbk_bench records 90000
	/usr/bin/fbk_bench records 900000
	;;
bigbomb)
	/usr/bin/fbk_bigbomb "$bomb" "$tracking" "$window"
	;;
locks)
	/usr/bin/fbk_bench locks "$forks"
	;;
scoped)
	/usr/bin/fbk_scoped "$others" "$rounds"
	;;
abuse)
	/usr/bin/fbk_abuse "$others" "$window" "$rounds"
	;;
busy)
	/usr/bin/fbk_busy "$window" /dev/vda "$forks"
	;;
esac
