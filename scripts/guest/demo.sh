# One scenario of `make demo`, run by the guest's init (busybox sh):
# fbk.demo=c|bash|container fbk.window=SECONDS on the kernel command line
# (scripts/guest/fbk_monitor.c says what they are).
scenario=c
window=45
for arg in $(cat /proc/cmdline); do
	case $arg in
	fbk.demo=*) scenario=${arg#fbk.demo=} ;;
	fbk.window=*) window=${arg#fbk.window=} ;;
	esac
done
echo "DEMO-KERNEL $(uname -r) $([ -d /sys/kernel/mm/oom ] && echo patched || echo stock)"
exec /usr/bin/fbk_monitor "$scenario" "$window"
