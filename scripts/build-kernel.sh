#!/bin/sh
# Configure and build one flavour of the test kernel, out of tree and
# incrementally.
#
#   patched  the series applied, CONFIG_FORKBOMB_KILLER=y  -> $BUILD/bzImage
#   stock    the pristine tree, same base config          -> $BUILD/bzImage-stock
#   nofbk    the series applied, CONFIG_FORKBOMB_KILLER=n  -> $BUILD/bzImage-nofbk
#   debug    patched + KASAN, lockdep, kmemleak, ...       -> $BUILD/bzImage-debug
#   bench    patched + the irqsoff tracer (make bench)     -> $BUILD/bzImage-bench
#   lockstat patched + CONFIG_LOCK_STAT (make bench)       -> $BUILD/bzImage-lockstat
#
# The tree must be prepared first (scripts/apply.sh; scripts/stock-tree.sh).
# EXTRA_CONFIG names one more fragment to merge last.
set -eu
. "$(dirname "$0")/lib.sh"

flavour=${1:-patched}
cfg=$TOP/scripts/config
case $flavour in
patched) src=$TREE; frags="$cfg/base.config $cfg/forkbomb.config"; out=bzImage ;;
stock)   src=$STOCK_TREE; frags="$cfg/base.config"; out=bzImage-stock ;;
nofbk)   src=$TREE; frags="$cfg/base.config"; out=bzImage-nofbk ;;
debug)   src=$TREE; frags="$cfg/base.config $cfg/forkbomb.config $cfg/debug.config"; out=bzImage-debug ;;
bench)   src=$TREE; frags="$cfg/base.config $cfg/forkbomb.config $cfg/bench.config"; out=bzImage-bench ;;
lockstat) src=$TREE; frags="$cfg/base.config $cfg/forkbomb.config $cfg/lockstat.config"; out=bzImage-lockstat ;;
*) die "unknown kernel flavour '$flavour'" ;;
esac
[ -z "${EXTRA_CONFIG:-}" ] || frags="$frags $EXTRA_CONFIG"
[ -f "$src/Makefile" ] || die "no kernel tree at $src"

obj=$BUILD/obj/$flavour
mkdir -p "$obj"
# ccache (scripts/deps.sh installs it) turns a build from scratch that
# was built before into a minute or two. Its cache is $CCACHE_DIR, or
# ~/.cache/ccache (root's in CI); its default 5 GB holds every flavour
# here (a few hundred MB each, compressed). A cache it cannot write would
# fail every compile: then the build goes without it.
cc=gcc
if command -v ccache >/dev/null 2>&1; then
	ccdir=$(ccache -k cache_dir 2>/dev/null || true)
	if [ -n "$ccdir" ] && mkdir -p "$ccdir" 2>/dev/null && [ -w "$ccdir" ]; then
		cc="ccache gcc"
	else
		say "ccache cannot write its cache directory (${ccdir:-none}): building without it"
	fi
fi
kmake() { make -C "$src" O="$obj" CC="$cc" HOSTCC="$cc" -j"$JOBS" "$@"; }

# Regenerate .config only when the fragments changed, so that a rebuild
# stays incremental.
cat $frags > "$obj/fragment.new"
if [ ! -f "$obj/.config" ] || ! cmp -s "$obj/fragment.new" "$obj/fragment.config"; then
	say "configuring the $flavour kernel (allnoconfig + $(echo "$frags" | xargs -n1 basename | xargs))"
	KCONFIG_ALLCONFIG="$obj/fragment.new" kmake -s allnoconfig >/dev/null
	# Every option a fragment asks for must have survived Kconfig (where
	# fragments disagree, the last one's value).
	bad=$(grep -h '^CONFIG_' $frags | awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = n++ }
		END { for (k in v) print o[k] "\t" v[k] }' | sort -n | cut -f2 | while IFS= read -r line; do
		opt=${line%%=*} val=${line#*=}
		case $val in
		n) if grep -q "^$opt=" "$obj/.config"; then echo "$opt (wanted n)"; fi ;;
		*) grep -qx "$line" "$obj/.config" || echo "$line" ;;
		esac
	done)
	[ -z "$bad" ] || die "not in the $flavour config (missing dependencies?): $(echo $bad)"
	mv "$obj/fragment.new" "$obj/fragment.config"
else
	rm -f "$obj/fragment.new"
fi

say "building the $flavour kernel in $obj (-j$JOBS; a full build takes minutes, a rebuild seconds)"
start=$(date +%s)
# Keep the full log; show warnings and errors, and a progress line now and then.
set +e
{ kmake bzImage 2>&1; echo "rc=$?" > "$obj/build.rc"; } |
	tee "$obj/build.log" |
	awk '/^  [A-Z0-9_]+ / { n++; if (n % 500 == 0) { printf "    ... %d steps done\n", n; fflush() } next }
	     /^make(\[[0-9]+\])?: (Entering|Leaving)/ { next }
	     { print; fflush() }'
set -e
rc=$(sed -n 's/^rc=//p' "$obj/build.rc")
[ "$rc" = 0 ] || die "the $flavour kernel build failed (log: $obj/build.log)"
cp "$obj/arch/x86/boot/bzImage" "$BUILD/$out"
say "$BUILD/$out ready ($(( $(date +%s) - start ))s)"
