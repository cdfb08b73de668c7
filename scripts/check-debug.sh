#!/bin/sh
# The test plan on the debug kernel (KASAN, lockdep, PROVE_RCU,
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, KMEMLEAK, DEBUG_VM, SLUB_DEBUG) with
# panic_on_warn: any report in a kernel log fails the run. Each boot ends
# with a kmemleak scan of the feature's objects (scripts/guest/init).
set -eu
. "$(dirname "$0")/lib.sh"

# The debug run is for memory, locking and RCU bugs (KASAN, lockdep,
# kmemleak), not for the decision: the boots here take the scan, the
# kill (OOM and memcg OOM), the reaper, the knobs and KUnit; not the
# fork-failure path, which only forkfail takes here. Left out, because on this kernel, about ten times slower,
# their bombs grow too slowly for the 10 s young window and the outcome
# is the OOM killer's, not a bug report (measured 2026-12-05, see
# Documentation/vm/forkbomb.rst, limits): bomb-c (passed once, once the
# OOM killer took the bystander first), bomb-typed (~480 processes in a
# minute; hit the guest's time limit), forkfail (threads_max_root took
# 334 s), stress (twenty bombs: past its 11-minute limit).
DEBUG_BOOTS='^(kunit|knobs|bomb-chain|bomb-spawner|memcg|hardening)$'

[ -f "$BUILD/bzImage-debug" ] || "$TOP/scripts/build-kernel.sh" debug
say "running the test plan on the debug kernel (slower: time limits x4)"
"$TOP/scripts/run-plan.sh" -k "$BUILD/bzImage-debug" -p debug- -t 4 \
	-o "$DEBUG_BOOTS" -a "panic_on_warn=1 kmemleak=on fbk.kmemleak=1"
