#!/bin/sh
# Boot a kernel in QEMU (TCG) with the test initramfs, or the Debian image,
# and run one thing.
#
# Usage: scripts/run-qemu.sh NAME RUN [options]
#   RUN            what the guest runs (fbk.run=...): for the initramfs see
#                  scripts/guest/init; system:SCENARIO,... boots the Debian
#                  image (scripts/system-image.sh) with systemd, which runs
#                  them from the data disk (scripts/system/data/run.sh)
#   -k IMAGE       kernel image (default $BUILD/bzImage)
#   -m MEM         guest memory (default 256M)
#   -c CPUS        vCPUs (default 2)
#   -t SECONDS     hard timeout; a guest still running then is killed (default 300)
#   -a "ARGS"      more kernel command line
#   -q "ARGS"      more QEMU arguments
#   -x NAME        also load the extra archive $BUILD/initramfs-NAME.cpio.gz
#
# The kernel log goes to $BUILD/logs/NAME.console, every message of it
# whatever the console log level (ignore_loglevel: WARN()'s "WARNING:"
# and lockdep's reports, "suspicious RCU usage" among them, are printed
# at KERN_WARNING, which loglevel=4 kept off the console); what the guest
# reports goes to $BUILD/logs/NAME.results. OOM reports leave out their
# per-task dump (vm.oom_dump_tasks=0), which for a fork bomb lists every
# one of its processes, fills the 256 KiB kernel log and floods the
# console. Every scan of the fork bomb killer is traced (forkbomb_scan):
# the guest copies the last ones to its results. Exit status: 0 when the
# guest ran RUN to the end and powered off, 2 when it did but RUN failed
# (its status in the end marker), 1 when it crashed or stopped early, 124
# on timeout.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 NAME RUN [-k IMAGE] [-m MEM] [-c CPUS] [-t SECONDS] [-a ARGS] [-q ARGS]"
name=$1 run=$2
shift 2
kernel=$BUILD/bzImage mem=256M cpus=2 limit=300 append= qargs= extra=
while [ $# -gt 0 ]; do
	case $1 in
	-k) kernel=$2 ;;
	-m) mem=$2 ;;
	-c) cpus=$2 ;;
	-t) limit=$2 ;;
	-a) append=$2 ;;
	-q) qargs=$2 ;;
	-x) extra=$2 ;;
	*) die "unknown option $1" ;;
	esac
	shift 2
done
[ -f "$kernel" ] || die "no kernel image $kernel"
logs=$BUILD/logs
mkdir -p "$logs"
case $run in
system:*)
	# The Debian image, never written (snapshot), and the data disk.
	[ -f "$BUILD/system/debian.ext4" ] || die "no Debian image; run scripts/system-image.sh"
	[ -f "$BUILD/system/data.ext4" ] || die "no data disk; run scripts/system-data.sh"
	boot="-drive file=$BUILD/system/debian.ext4,format=raw,if=virtio,snapshot=on
	      -drive file=$BUILD/system/data.ext4,format=raw,if=virtio,readonly=on"
	append="root=/dev/vda rw $append"
	;;
*)
	initrd=$BUILD/initramfs.cpio.gz
	[ -f "$initrd" ] || die "no initramfs; run scripts/build-initramfs.sh"
	boot="-initrd $initrd"
	;;
esac
if [ -n "$extra" ]; then
	[ -f "$BUILD/initramfs-$extra.cpio.gz" ] || die "no initramfs-$extra.cpio.gz"
	cat "$initrd" "$BUILD/initramfs-$extra.cpio.gz" > "$BUILD/logs/$name.initrd"
	boot="-initrd $BUILD/logs/$name.initrd"
fi

logs=$BUILD/logs
console=$logs/$name.console
results=$logs/$name.results
rm -f "$console" "$results"

say "boot $name: $(basename "$kernel"), $mem, $cpus vCPU, fbk.run=$run (timeout ${limit}s)"
start=$(date +%s)
rc=0
# shellcheck disable=SC2086
timeout -k 10 "$limit" qemu-system-x86_64 \
	-accel tcg -m "$mem" -smp "$cpus" -nodefaults -no-reboot \
	-display none -monitor none \
	-serial "file:$console" -serial "file:$results" \
	-kernel "$kernel" $boot \
	-append "console=ttyS0 ignore_loglevel sysctl.vm.oom_dump_tasks=0 trace_event=forkbomb:forkbomb_scan panic=-1 oops=panic printk.devkmsg=on tsc=reliable fbk.run=$run $append" \
	$qargs </dev/null || rc=$?
took=$(( $(date +%s) - start ))
[ -z "$extra" ] || rm -f "$logs/$name.initrd"

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	say "boot $name: TIMEOUT after ${took}s (guest hung; see $console)"
	exit 124
fi
[ "$rc" = 0 ] || { say "boot $name: qemu failed (exit $rc)"; exit 1; }
if ! grep -q '^FBK-END' "$results" 2>/dev/null; then
	say "boot $name: the guest stopped before finishing (${took}s; see $console)"
	exit 1
fi
seen=$(sed -n 's/^FBK-CPUS \([0-9]*\).*/\1/p' "$results" | head -n 1)
if [ "$seen" != "$cpus" ]; then
	say "boot $name: the guest brought up ${seen:-an unknown number of} CPUs, not $cpus"
	exit 1
fi
guest_rc=$(sed -n 's/^FBK-END rc=\([0-9]*\).*/\1/p' "$results" | tail -n 1)
if [ "${guest_rc:-1}" != 0 ]; then
	say "boot $name: done in ${took}s, $run failed (status $guest_rc)"
	exit 2
fi
say "boot $name: done in ${took}s"
