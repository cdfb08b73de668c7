#!/bin/sh
# Look for the kernel's bug reports in a guest's kernel log: KASAN,
# lockdep, sleeping in atomic context, RCU warnings, WARN/BUG/Oops,
# kmemleak leaks. Prints what it finds; exits 1 when it found anything.
set -eu
log=$1
patterns='BUG: |WARNING: |KASAN|UBSAN|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|Oops|general protection fault|kernel BUG at|unreferenced object of the fork bomb killer|Kernel panic|INFO: task .* blocked for more than|rcu_.*detected stall|list_add corruption|list_del corruption|ODEBUG'
if grep -Eq "$patterns" "$log"; then
	echo "  FAIL kernel report in $(basename "$log"):"
	grep -En -A20 "$patterns" "$log" | head -60 | sed 's/^/      /'
	exit 1
fi
