#!/bin/sh
# The Debian 12 guest of make check-system and make demo-system: a minimal
# bookworm with systemd as init, made with mmdebstrap from Debian's
# archive, on an ext4 image made with mkfs.ext4 -d (no loop mount).
#
#   - systemd, udev, dbus, logind (libpam-systemd), util-linux, procps, bash, and
#     gcc, make and libc6-dev for a real parallel build;
#   - a user "user" (uid 1000), logged in automatically on the serial
#     console;
#   - forkbomb-test.service, which at boot mounts the data disk (label
#     FBKDATA, made by scripts/system-data.sh for each run) and runs its
#     run.sh, results on the second serial port, then powers off.
#
# Output: $BUILD/system/debian.ext4, rebuilt only when this recipe (this
# script and scripts/system/image/) changes. The guests boot it with
# -snapshot, so it stays as built.
set -eu
. "$(dirname "$0")/lib.sh"

dir=$BUILD/system
img=$dir/debian.ext4
recipe=$( (cat "$0"; find "$TOP/scripts/system/image" -type f | sort | xargs cat) |
	sha256sum | cut -c1-16)
if [ -f "$img" ] && [ "$(cat "$dir/recipe" 2>/dev/null)" = "$recipe" ]; then
	exit 0
fi

"$TOP/scripts/deps.sh" mmdebstrap e2fsprogs
say "building the Debian 12 guest image with mmdebstrap (about two minutes)"
rm -rf "$dir/root" "$img"
mkdir -p "$dir"
as_root mmdebstrap --variant=minbase --mode=root \
	--include=systemd-sysv,udev,dbus,libpam-systemd,procps,util-linux,bash,gcc,make,libc6-dev,kmod \
	--customize-hook="cp -r '$TOP/scripts/system/image/.' \"\$1/\"" \
	--customize-hook='chroot "$1" useradd -m -u 1000 -s /bin/bash user' \
	--customize-hook='chroot "$1" systemctl enable forkbomb-test.service' \
	--customize-hook='echo forkbomb-system > "$1/etc/hostname"' \
	--customize-hook='printf "LABEL=debian / ext4 rw 0 1\n" > "$1/etc/fstab"' \
	bookworm "$dir/root" http://deb.debian.org/debian
say "making the ext4 image"
as_root mkfs.ext4 -q -d "$dir/root" -L debian "$img" 2G
as_root rm -rf "$dir/root"
echo "$recipe" > "$dir/recipe"
say "$img ready"
