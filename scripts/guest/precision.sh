# One case of the precision table of `make bench`, run by the guest's init
# (busybox sh): fbk.case=NAME fbk.window=SECONDS on the kernel command line.
case=c
window=30
for arg in $(cat /proc/cmdline); do
	case $arg in
	fbk.case=*) case=${arg#fbk.case=} ;;
	fbk.window=*) window=${arg#fbk.window=} ;;
	esac
done
exec /usr/bin/fbk_precision "$case" "$window"
