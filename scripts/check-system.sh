#!/bin/sh
# make check-system: the patched kernel on a real Debian 12 system with
# systemd (scripts/systemplan), with the summary line of make check:
# "N passed, N failed, N skipped".
set -eu
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/system-image.sh"
"$TOP/scripts/system-data.sh"
say "the scenarios on the patched kernel, in the Debian guest"
"$TOP/scripts/run-plan.sh" -P "$TOP/scripts/systemplan" -p system- "$@"
