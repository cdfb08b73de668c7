#!/bin/sh
# Write the patch series to $BUILD/series/: one commit per
# scripts/series/NNNN-*.msg over the pristine tree (its "Files:" from this
# repository, patches/NNNN-*.patch for hunks in existing files), then
# `git format-patch` with a cover letter. The series must pass
# checkpatch.pl --strict without a single message, and `git am` onto a
# fresh checkout of the pristine tree must give exactly the applied tree.
set -eu
. "$(dirname "$0")/lib.sh"

author_name="Fork bomb killer developers"
author_email="forkbomb-killer@lists.example.org"
out=$BUILD/series
tmp=$BUILD/series.tmp
rm -rf "$out" "$tmp"
mkdir -p "$out" "$tmp"
[ -f "$BUILD/applied.list" ] || "$TOP/scripts/apply.sh"

# Reproducible commits: the date of this repository's last commit.
date=$(git -C "$TOP" log -1 --format=%cI 2>/dev/null || date -R)
export GIT_AUTHOR_NAME="$author_name" GIT_AUTHOR_EMAIL="$author_email"
export GIT_COMMITTER_NAME="$author_name" GIT_COMMITTER_EMAIL="$author_email"
export GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date"

say "committing the series over the pristine tree"
cd "$TREE"
export GIT_INDEX_FILE="$tmp/index"
git read-tree pristine
head=$(git rev-parse pristine)
: > "$tmp/files"
for msg in "$TOP"/scripts/series/[0-9]*.msg; do
	name=$(basename "$msg" .msg)
	num=${name%%-*}
	[ "$num" = 0000 ] && continue
	subject=$(sed -n '1s/^Subject: //p' "$msg")
	[ -n "$subject" ] || die "$msg: the first line must be 'Subject: ...'"
	for f in $(sed -n 's/^Files: //p' "$msg"); do
		[ -f "$TOP/$f" ] || die "$msg lists $f, which does not exist"
		if [ "$f" = Kconfig ]; then
			git cat-file blob ":$(kpath "$f")" > "$tmp/Kconfig.before"
			splice_kconfig "$tmp/Kconfig.before" > "$tmp/Kconfig.after"
			blob=$(git hash-object -w "$tmp/Kconfig.after")
		else
			blob=$(git hash-object -w "$TOP/$f")
		fi
		git update-index --add --cacheinfo "100644,$blob,$(kpath "$f")"
		echo "$(kpath "$f")" >> "$tmp/files"
	done
	for p in "$TOP"/patches/"$num"-*.patch; do
		[ -f "$p" ] || continue
		git apply --cached "$p" || die "$p does not apply in the series"
		sed -n 's|^+++ b/||p' "$p" >> "$tmp/files"
	done
	{
		echo "$subject"
		echo
		sed '1,/^$/d' "$msg"
		echo
		echo "Signed-off-by: $author_name <$author_email>"
	} > "$tmp/message"
	head=$(git commit-tree "$(git write-tree)" -p "$head" -F "$tmp/message")
done
unset GIT_INDEX_FILE

# Every file of the applied tree is in exactly one commit, and the end of
# the series is the applied tree.
sort -u "$tmp/files" > "$tmp/files.sorted"
sort -u "$BUILD/applied.list" | diff -u - "$tmp/files.sorted" >&2 ||
	die "the series and the applied tree hold different files (- applied, + series)"
while IFS= read -r k; do
	git show "$head:$k" | cmp -s - "$TREE/$k" || die "$k differs between the series and the applied tree"
done < "$tmp/files.sorted"
git update-ref refs/heads/forkbomb-series "$head"

# The cover letter: its text, then what `make bench` measured, if it ran.
{
	sed -n '1s/^Subject: //p' "$TOP/scripts/series/0000-cover.msg"
	echo
	sed '1,/^$/d' "$TOP/scripts/series/0000-cover.msg"
	echo
	if [ -f "$BUILD/bench/summary.txt" ]; then
		echo "Measured with \`make bench\` ($(date -r "$BUILD/bench/summary.txt" +%Y-%m-%d)):"
		echo
		cat "$BUILD/bench/summary.txt"
	else
		echo "Costs: run \`make bench\` in the harness for the figures."
	fi
} > "$tmp/cover"
git config branch.forkbomb-series.description "$(cat "$tmp/cover")"
git format-patch -q --cover-letter --cover-from-description=subject \
	--subject-prefix="PATCH" -o "$out" pristine..forkbomb-series
# The cover letter apart, so that `git am .../series/*.patch` takes the
# patches alone (git send-email takes cover/ and the patches).
mkdir -p "$out/cover"
mv "$out/0000-cover-letter.patch" "$out/cover/"
say "$(ls "$out"/*.patch | wc -l) patches in $out, the cover letter in $out/cover/"

say "checkpatch --strict"
bad=0
for p in "$out"/*.patch; do
	# Debian's python3 first: spdxcheck.py needs python3-ply and python3-git.
	report=$(PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --no-summary "$p" 2>&1 || true)
	if [ -n "$report" ]; then
		echo "$(basename "$p"):"
		echo "$report" | sed 's/^/    /'
		bad=1
	fi
done
[ "$bad" = 0 ] || die "checkpatch.pl --strict is not clean"
echo "    no errors, no warnings, no checks"

# The README's own command, word for word but for its two placeholders.
say "the README's git am command, onto a fresh checkout of the pristine tree"
am=$BUILD/am-test
git worktree remove --force "$am" 2>/dev/null || rm -rf "$am"
git worktree prune
git worktree add -q --detach "$am" pristine
cmd=$(grep -m 1 'cd /path/to/linux-6.12 && git am ' "$TOP/README" | sed 's/^ *//') ||
	die "the README has no git am command"
echo "    $cmd"
cmd=$(echo "$cmd" | sed "s|/path/to/linux-6.12|$am|; s|/path/to/this|$TOP|")
# The README's build/ is the default; a BUILD elsewhere holds the series.
[ "$BUILD" = "$TOP/build" ] || cmd=$(echo "$cmd" | sed "s|$TOP/build/|$BUILD/|")
sh -c "$cmd" > "$BUILD/am-test.log" 2>&1 || die "the README's git am failed (see $BUILD/am-test.log)"
[ "$(git -C "$am" rev-parse HEAD^{tree})" = "$(git rev-parse "$head^{tree}")" ] ||
	die "git am gave a different tree than the series"
git worktree remove --force "$am"
echo "    applies cleanly, same tree"
say "series ready: $out"
