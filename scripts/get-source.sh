#!/bin/sh
# Provide a pristine Linux 6.12 tree at $BUILD/linux, as a git repository
# whose commit tagged "pristine" is the unmodified source.
#
# The source is Debian's linux-source-6.12 tarball (installed with apt when
# missing), or the tree named by KERNEL_SRC. It is extracted once; later runs
# reuse it for as long as the source stays the same.
set -eu
. "$(dirname "$0")/lib.sh"

if [ -n "${KERNEL_SRC:-}" ]; then
	[ -f "$KERNEL_SRC/Makefile" ] || die "KERNEL_SRC=$KERNEL_SRC is not a kernel tree"
	src=$(cd "$KERNEL_SRC" && pwd)
	id="dir $src $(make -s --no-print-directory -C "$src" kernelversion 2>/dev/null)"
else
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1 || true)
	if [ -z "$tarball" ]; then
		"$TOP/scripts/deps.sh" linux-source-6.12
		tarball=$(ls /usr/src/linux-source-6.12.tar.* | head -n 1)
	fi
	id="tar $tarball $(stat -c '%s %Y' "$tarball")"
fi

stamp=$TREE/.git/forkbomb-source
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ] &&
   git -C "$TREE" rev-parse -q --verify pristine >/dev/null; then
	exit 0
fi

say "preparing a pristine kernel tree in $TREE (once; about a minute)"
rm -rf "$TREE" "$STOCK_TREE"
mkdir -p "$TREE"
if [ -n "${KERNEL_SRC:-}" ]; then
	say "copying $src"
	rsync -a --exclude=.git "$src/" "$TREE/"
else
	say "extracting $tarball"
	tar -xf "$tarball" -C "$TREE" --strip-components=1
fi
[ ! -f "$TREE/.config" ] || die "the source tree is configured (has .config); run 'make mrproper' in it"
version=$(make -s --no-print-directory -C "$TREE" kernelversion)
case $version in
6.12.*|6.12) ;;
*) die "this series is for Linux 6.12, the source is $version" ;;
esac

say "recording Linux $version as the pristine commit"
cd "$TREE"
git init -q
git config user.name "Fork bomb killer harness"
git config user.email "forkbomb-harness@localhost"
git config core.autocrlf false
git config gc.auto 0
git add -A -f .
git commit -q --no-verify -m "Linux $version (pristine)"
git tag -f pristine >/dev/null
echo "$id" > "$stamp"
say "pristine Linux $version ready"
