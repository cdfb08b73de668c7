#!/bin/sh
# Build the feature, and the core files it hooks into, in configurations
# other than the test kernel's, with W=1 and sparse (C=2): configured
# out, without MEMCG, without VM_EVENT_COUNTERS, without SYSFS, and on
# top of allnoconfig (which is a 32-bit x86 kernel). Fails on any warning
# or sparse report in the feature's files or in the lines the series adds
# to the core files.
set -eu
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/deps.sh" sparse
cfg=$TOP/scripts/config
feature_objs="mm/forkbomb.o mm/forkbomb_tree.o mm/forkbomb_reaper.o mm/forkbomb_sysfs.o
	      mm/forkbomb_score.o mm/forkbomb_kill.o mm/forkbomb_forkfail.o mm/forkbomb_kunit.o"
core_objs="kernel/fork.o fs/exec.o mm/oom_kill.o"
failed=

# What the series adds to a core file: "file:line" for every added line.
added_lines() {
	git -C "$TREE" diff -U0 pristine -- "$1" |
		awk -v f="$1" '/^@@/ { split($3, a, ","); n = a[1]; sub(/\+/, "", n); next }
			       /^\+/ && !/^\+\+\+/ { print f ":" n; n++ }'
}

# check NAME base|none CONFIG_X=y ...: allnoconfig (+ the test kernel's
# base config) + the options given, which must all hold.
check() {
	name=$1 base=$2
	shift 2
	obj=$BUILD/obj/config-$name
	mkdir -p "$obj"
	{
		[ "$base" = none ] || cat "$cfg/base.config"
		for line in "$@"; do echo "$line"; done
	} > "$obj/fragment.config"
	say "config $name: allnoconfig$([ "$base" = none ] || echo " + base.config") + $*"
	KCONFIG_ALLCONFIG="$obj/fragment.config" make -s -C "$TREE" O="$obj" allnoconfig >/dev/null
	for line in "$@"; do
		case $line in
		*=n) ! grep -q "^${line%=n}=" "$obj/.config" || die "$name: ${line%=n} is still set" ;;
		*) grep -qx "$line" "$obj/.config" || die "$name: $line did not make it into the config" ;;
		esac
	done
	objs=$core_objs
	grep -q '^CONFIG_FORKBOMB_KILLER=y' "$obj/.config" && objs="$objs $feature_objs"
	if grep -q '^CONFIG_FORKBOMB_KILLER_KUNIT_TEST=y' "$obj/.config"; then :; else
		objs=$(echo "$objs" | sed 's|mm/forkbomb_kunit.o||')
	fi
	rm -f $(for o in $objs; do echo "$obj/$o"; done)
	make -C "$TREE" O="$obj" -j"$JOBS" W=1 C=2 $objs > "$obj/check.log" 2>&1 ||
		{ tail -20 "$obj/check.log"; die "$name: the build failed"; }
	# Feature files: any diagnostic counts. Core files: only on lines the series added.
	reports=$(grep -E '(warning|error):' "$obj/check.log" | grep -E 'forkbomb|fbk_' || true)
	for f in $core_objs; do
		src=${f%.o}.c
		for at in $(added_lines "$src"); do
			reports="$reports$(grep -F "$at:" "$obj/check.log" || true)"
		done
	done
	# Only .o files are built, so catch here what would fail the link of a
	# 32-bit kernel: open-coded 64-bit divisions (libgcc is not linked).
	for o in $objs; do
		if nm -u "$obj/$o" | grep -Eq '__(u|)(div|mod)di3'; then
			reports="$reports$o: 64-bit division needs div_u64() and friends
"
		fi
	done
	if [ -n "$reports" ]; then
		echo "$reports" | sed 's/^/    /'
		failed="$failed $name"
	else
		echo "    $(echo $objs | wc -w) objects, no warnings (W=1), sparse clean, no libgcc divisions"
	fi
}

check off base CONFIG_FORKBOMB_KILLER=n
check no-memcg base CONFIG_FORKBOMB_KILLER=y CONFIG_MEMCG=n
check no-vm-events base CONFIG_FORKBOMB_KILLER=y CONFIG_EXPERT=y CONFIG_VM_EVENT_COUNTERS=n
check no-sysfs none CONFIG_64BIT=y CONFIG_EXPERT=y CONFIG_SYSFS=n CONFIG_FORKBOMB_KILLER=y
check allnoconfig none CONFIG_FORKBOMB_KILLER=y

[ -z "$failed" ] || die "diagnostics in:$failed"
say "all configurations build cleanly"
