#!/bin/sh
# The test plan on the debug kernel (KASAN, lockdep, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, KMEMLEAK, DEBUG_VM, SLUB_DEBUG) with
# panic_on_warn: any report in a kernel log fails the run. Each boot ends
# with a kmemleak scan of the feature's objects (scripts/guest/init).
set -eu
. "$(dirname "$0")/lib.sh"

# The boots that take every path of the feature's code at least once; the
# other shapes of bombs and the busy programs take the same paths, and
# the debug kernel runs about seven times slower than the test kernel.
# Not the shell bomb typed at a prompt: on this kernel it grows so slowly
# (about 480 processes in a minute, then stalled) that it has no young
# population, and is left to the OOM killer, one of the limits that
# Documentation/vm/forkbomb.rst states.
DEBUG_BOOTS='^(kunit|knobs|bomb-c|bomb-spawner|bomb-chain|forkfail|memcg|stress|hardening)$'

[ -f "$BUILD/bzImage-debug" ] || "$TOP/scripts/build-kernel.sh" debug
say "running the test plan on the debug kernel (slower: time limits x4)"
"$TOP/scripts/run-plan.sh" -k "$BUILD/bzImage-debug" -p debug- -t 4 \
	-o "$DEBUG_BOOTS" -a "panic_on_warn=1 kmemleak=on fbk.kmemleak=1"
