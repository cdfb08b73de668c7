# One boot of `make bench`, run by the guest's init (busybox sh):
#   fbk.bench=overhead fbk.rounds=R fbk.forks=N fbk.execs=M
#   fbk.bench=records
what=overhead rounds=20 forks=1500 execs=300
for arg in $(cat /proc/cmdline); do
	case $arg in
	fbk.bench=*) what=${arg#fbk.bench=} ;;
	fbk.rounds=*) rounds=${arg#fbk.rounds=} ;;
	fbk.forks=*) forks=${arg#fbk.forks=} ;;
	fbk.execs=*) execs=${arg#fbk.execs=} ;;
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
	;;
esac
