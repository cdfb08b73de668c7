#!/bin/sh
# Install the Debian packages the harness needs (only the missing ones).
# Usage: scripts/deps.sh [extra packages...]
set -eu
. "$(dirname "$0")/lib.sh"

pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
      qemu-system-x86 busybox-static python3 git perl rsync kmod ccache"
[ -n "${KERNEL_SRC:-}" ] || pkgs="$pkgs linux-source-6.12"
pkgs="$pkgs $*"

missing=
for p in $pkgs; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

say "installing Debian packages:$missing"
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
