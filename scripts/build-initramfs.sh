#!/bin/sh
# Build the guest's initramfs: busybox-static, the init in scripts/guest/,
# the statically linked kselftests of the feature and the kernel's own
# cgroup and clone3 kselftests (installed the kselftest way, with
# run_kselftest.sh), the demo/bench scripts, coreutils' timeout from
# Debian (the kselftest runner's time limit), and Debian's bash, perl and
# GNU make (the bombs people write), with their libraries. stress-ng and its libraries (about 30 MiB) go to an extra
# archive that only the boots that need it load (the kernel unpacks
# concatenated archives in order).
#
# Usage: scripts/build-initramfs.sh [TREE]   (default: the patched tree)
# Output: $BUILD/initramfs.cpio.gz, $BUILD/initramfs-stress.cpio.gz
set -eu
. "$(dirname "$0")/lib.sh"

src=${1:-$TREE}
busybox=/bin/busybox
"$TOP/scripts/deps.sh" busybox-static coreutils stress-ng libcap-dev bash perl-base make
file "$busybox" 2>/dev/null | grep -q 'dynamically linked' &&
	die "$busybox is not busybox-static"

root=$BUILD/initramfs
ksft=$BUILD/kselftest
rm -rf "$root" "$ksft"
mkdir -p "$root"

say "building the forkbomb, cgroup and clone3 kselftests (static)"
make -s -C "$src/tools/testing/selftests" TARGETS="forkbomb cgroup clone3" \
	O="$BUILD/obj/kselftest" KSFT_INSTALL_PATH="$ksft" \
	CC="gcc -static" install >/dev/null

say "assembling the initramfs"
cd "$root"
mkdir -p bin sbin usr/bin usr/sbin proc sys dev tmp run root etc \
	 usr/share/forkbomb
cp "$busybox" bin/busybox
# Applets go to /bin only: the kselftest runner passes --foreground to
# /usr/bin/timeout when there is one, and busybox's timeout rejects it.
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -sf busybox "bin/$applet"
done
cp "$TOP/scripts/guest/init" init
chmod 755 init
cp -r "$ksft" kselftest
cp "$TOP"/scripts/guest/*.sh usr/share/forkbomb/
for c in "$TOP"/scripts/guest/*.c; do
	gcc -static -O2 -Wall -Werror -I"$TOP/tools/testing/selftests/forkbomb" \
		-o "usr/bin/$(basename "$c" .c)" "$c"
done
# A dynamically linked program from the host, with its libraries, in the
# current directory.
install_prog() {
	mkdir -p ".$(dirname "$1")"
	cp -L "$1" ".$1"
	for lib in $(ldd "$1" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
		mkdir -p ".$(dirname "$lib")"
		[ -e ".$lib" ] || cp -L "$lib" ".$lib"
	done
}
install_prog /usr/bin/timeout
# The shells and tools the bombs people write run in: Debian's bash, perl
# and GNU make, as a user would type them (busybox has none of them).
# perl goes to /usr/local/bin: with /usr/bin/perl, the kselftest runner
# would pipe every test's output through a perl script of its own.
install_prog /bin/bash
install_prog /usr/bin/make
install_prog /usr/bin/perl
mkdir -p usr/local/bin
mv usr/bin/perl usr/local/bin/perl
cat > etc/passwd <<'PW'
root:x:0:0:root:/root:/bin/sh
bomber:x:1000:1000:unprivileged tests:/tmp:/bin/sh
nobody:x:65534:65534:nobody:/:/bin/false
PW
cat > etc/group <<'GR'
root:x:0:
bomber:x:1000:
nogroup:x:65534:
GR
find . | sort | cpio -o -H newc --quiet | gzip -1 > "$BUILD/initramfs.cpio.gz"
say "$BUILD/initramfs.cpio.gz ready ($(du -k "$BUILD/initramfs.cpio.gz" | cut -f1) KiB)"

rm -rf "$root-stress"
mkdir -p "$root-stress"
cd "$root-stress"
install_prog /usr/bin/stress-ng
find . | sort | cpio -o -H newc --quiet | gzip -1 > "$BUILD/initramfs-stress.cpio.gz"
say "$BUILD/initramfs-stress.cpio.gz ready ($(du -k "$BUILD/initramfs-stress.cpio.gz" | cut -f1) KiB)"
