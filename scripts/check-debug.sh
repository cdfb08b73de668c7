#!/bin/sh
# The whole test plan on the debug kernel (KASAN, lockdep, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, KMEMLEAK, DEBUG_VM, SLUB_DEBUG) with
# panic_on_warn: any report in a kernel log fails the run. Each boot ends
# with a kmemleak scan of the feature's objects (scripts/guest/init).
set -eu
. "$(dirname "$0")/lib.sh"

[ -f "$BUILD/bzImage-debug" ] || "$TOP/scripts/build-kernel.sh" debug
say "running the test plan on the debug kernel (slower: timeouts x4)"
"$TOP/scripts/run-plan.sh" -k "$BUILD/bzImage-debug" -p debug- -t 4 -s \
	-a "panic_on_warn=1 kmemleak=on fbk.kmemleak=1"
