#!/bin/sh
# Make $BUILD/linux exactly the pristine tree plus this series: the new
# files laid in at their kernel paths (Documentation/vm -> Documentation/mm;
# the entries of Kconfig go into mm/Kconfig), then patches/*.patch in order.
#
# The result is computed aside first; the tree is only touched when all of
# it applied. Files left from an earlier apply or edited by hand are reset
# to pristine, and only files whose content changes are rewritten, so the
# next kernel build stays incremental.
set -eu
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/get-source.sh"

stage=$BUILD/stage
rm -rf "$stage"
mkdir -p "$stage"
manifest=$BUILD/stage.list
: > "$manifest"

say "applying the series to $TREE"
cd "$TOP"
for f in Kconfig $(find mm include Documentation tools -type f \
		  ! -name '*.o' ! -path '*/__pycache__/*' | sort); do
	k=$(kpath "$f")
	mkdir -p "$stage/$(dirname "$k")"
	if [ "$f" = Kconfig ]; then
		git -C "$TREE" show "pristine:$k" > "$stage/$k.pristine"
		splice_kconfig "$stage/$k.pristine" > "$stage/$k" ||
			die "no place for the Kconfig entries in $k"
		rm "$stage/$k.pristine"
	elif git -C "$TREE" cat-file -e "pristine:$k" 2>/dev/null; then
		die "$f would overwrite the kernel's own $k; make it a patch"
	else
		cp "$f" "$stage/$k"
	fi
	echo "$k" >> "$manifest"
done

for p in patches/*.patch; do
	for k in $(sed -n 's|^+++ b/||p' "$p"); do
		grep -qxF "$k" "$manifest" && continue
		mkdir -p "$stage/$(dirname "$k")"
		git -C "$TREE" show "pristine:$k" > "$stage/$k" ||
			die "$p patches $k, which is not in the kernel tree"
		echo "$k" >> "$manifest"
	done
	patch -s -p1 -d "$stage" --forward --batch --no-backup-if-mismatch -r - < "$p" ||
		die "$p does not apply to Linux $(make -s --no-print-directory -C "$TREE" kernelversion)"
done

# Reset whatever differs from pristine and is not part of the series
# (the Debian tree's .gitignore hides every untracked file from git status).
cd "$TREE"
git ls-files --others | while IFS= read -r k; do
	grep -qxF "$k" "$manifest" || rm -f "$k"
done
git diff --name-only --no-renames pristine | while IFS= read -r k; do
	grep -qxF "$k" "$manifest" || git checkout -q pristine -- "$k"
done
# Bring the series' files in; unchanged ones keep their timestamps.
changed=0
while IFS= read -r k; do
	if ! cmp -s "$stage/$k" "$k"; then
		mkdir -p "$(dirname "$k")"
		cp "$stage/$k" "$k"
		changed=$((changed + 1))
	fi
done < "$manifest"
cp "$manifest" "$BUILD/applied.list"
say "series applied: $(wc -l < "$manifest") files, $changed rewritten"
