#!/bin/sh
# The data disk of the Debian guest: the test driver (scripts/system/data/),
# a static fbk_bomb and the demo's sampler (scripts/guest/fbk_sampler.c), on a small ext4 image labelled FBKDATA, made anew
# for each run in seconds. The image's forkbomb-test.service mounts it at
# /opt/forkbomb and runs its run.sh.
#
# Output: $BUILD/system/data.ext4
set -eu
. "$(dirname "$0")/lib.sh"

dir=$BUILD/system
stage=$dir/data
rm -rf "$stage"
mkdir -p "$stage"
cp "$TOP"/scripts/system/data/* "$stage/"
gcc -static -O2 -Wall -Werror -o "$stage/fbk_bomb" \
	"$TOP/tools/testing/selftests/forkbomb/fbk_bomb.c"
gcc -static -O2 -Wall -Werror -I"$TOP/tools/testing/selftests/forkbomb" \
	-o "$stage/fbk_sampler" "$TOP/scripts/guest/fbk_sampler.c"
rm -f "$dir/data.ext4"
mkfs.ext4 -q -d "$stage" -L FBKDATA "$dir/data.ext4" 64M
