#!/bin/sh
# Look for the kernel's bug reports in a guest's kernel log: KASAN,
# UBSAN, lockdep, sleeping in atomic context, RCU warnings and stalls,
# WARN/BUG/Oops, hung tasks, soft lockups, kmemleak leaks. Prints what it
# finds; exits 1 when it found anything.
#
# The console holds every message (scripts/run-qemu.sh boots with
# ignore_loglevel), so these must not match what a healthy guest prints
# at info level; what the detectors print in 6.12:
#   WARN()            "WARNING: CPU: 1 PID: 42 at mm/x.c:12 f+0x1/0x2"
#   lockdep           "WARNING: possible circular locking dependency
#                      detected", "BUG: MAX_LOCKDEP_ENTRIES too low!",
#                      "INFO: trying to register non-static key."
#   KASAN             "BUG: KASAN: slab-use-after-free in f+0x1/0x2"
#   UBSAN             "UBSAN: array-index-out-of-bounds in mm/x.c:12:3"
#   soft lockup       "watchdog: BUG: soft lockup - CPU#0 stuck for 22s!"
#   hung task         "INFO: task bomb:123 blocked for more than 120 seconds."
#   RCU stalls        "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
#                     "... self-detected stall on CPU", "... detected
#                      expedited stalls", "INFO: rcu_tasks detected stalls"
#   kmemleak          scripts/guest/init's marker for the feature's objects
set -eu
log=$1
patterns='BUG: |WARNING: |KASAN|UBSAN|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|Oops|general protection fault|kernel BUG at|unreferenced object of the fork bomb killer|Kernel panic|INFO: task .* blocked for more than|INFO: .*detected (expedited )?stall|INFO: Stall ended|INFO: trying to register non-static key|INFO: lockdep is turned off|list_add corruption|list_del corruption|ODEBUG'
if grep -Eq "$patterns" "$log"; then
	echo "  FAIL kernel report in $(basename "$log"):"
	grep -En -A20 "$patterns" "$log" | head -60 | sed 's/^/      /'
	exit 1
fi
