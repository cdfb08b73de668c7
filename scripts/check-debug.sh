#!/bin/sh
# The test plan on the debug kernel (KASAN, lockdep, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, KMEMLEAK, DEBUG_VM, SLUB_DEBUG) with
# panic_on_warn: any report in a kernel log fails the run. Each boot ends
# with a kmemleak scan of the feature's objects (scripts/guest/init).
set -eu
. "$(dirname "$0")/lib.sh"

# The debug run is for memory, locking and RCU bugs (KASAN, lockdep,
# kmemleak, UBSAN) in every path the series adds: the scan and the kill
# on a global OOM (bomb-c, and bomb-command, a command in every
# generation, and bomb-typed, whose login shell is spared), on a memcg
# OOM (memcg), when fork fails on threads-max and RLIMIT_NPROC (forkfail)
# and on pids.max (containers), a spawner and a chain, the reaper, the
# knobs and KUnit. The tests scale their waits and limits by the time
# factor (threads-max is 750 over, not 3,000: this kernel forks tens of
# times slower with thousands of processes) and the rule follows the
# bomb's own pace, so the same cases decide the same here. Left out:
# stress (twenty bombs in a row; past its time limit) and the cases whose
# every path one of these boots takes already.
DEBUG_BOOTS='^(kunit|knobs|bomb-c|bomb-command|bomb-typed|bomb-chain|bomb-spawner|memcg|containers|forkfail|hardening)$'

[ -f "$BUILD/bzImage-debug" ] || "$TOP/scripts/build-kernel.sh" debug
say "running the test plan on the debug kernel (slower: time limits x4)"
"$TOP/scripts/run-plan.sh" -k "$BUILD/bzImage-debug" -p debug- -t 4 \
	-o "$DEBUG_BOOTS" -a "panic_on_warn=1 kmemleak=on fbk.kmemleak=1"
