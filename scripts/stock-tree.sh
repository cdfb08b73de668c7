#!/bin/sh
# Provide the pristine tree, without the series, at $BUILD/linux-stock
# (a git worktree of the "pristine" commit), for the stock kernel.
set -eu
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/get-source.sh"
if [ -f "$STOCK_TREE/Makefile" ] &&
   [ "$(git -C "$STOCK_TREE" rev-parse HEAD)" = "$(git -C "$TREE" rev-parse pristine)" ]; then
	# Undo anything that touched it; unchanged files keep their timestamps.
	git -C "$STOCK_TREE" reset -q --hard pristine
	git -C "$STOCK_TREE" clean -qfd
	exit 0
fi
say "checking out the pristine tree at $STOCK_TREE"
rm -rf "$STOCK_TREE"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$STOCK_TREE" pristine
