# Common helpers for the scripts in this directory; sourced, not run.
# shellcheck shell=sh

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
TREE=$BUILD/linux		# pristine tree + the series (a git repo)
STOCK_TREE=$BUILD/linux-stock	# pristine tree (a git worktree of $TREE)
JOBS=${JOBS:-$(nproc)}
# The Linux release the README's counts and times of make check were
# measured on (Debian's linux-source-6.12 moves with security updates):
# make check names the release it tested and warns when it is another.
README_LINUX=6.12.118

say() { printf '>>> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run as root, or through sudo when there is one.
as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Where a file of this repository goes in the kernel tree.
kpath() {
	case $1 in
	Kconfig) echo mm/Kconfig ;;
	Documentation/vm/*) echo "Documentation/mm/${1#Documentation/vm/}" ;;
	*) echo "$1" ;;
	esac
}

# The kernel's mm/Kconfig ($1) with this repository's Kconfig entries
# added before DAMON's, on stdout. The leading comment block stays out.
splice_kconfig() {
	awk -v entries="$TOP/Kconfig" '
		!done && $0 == "source \"mm/damon/Kconfig\"" {
			while ((getline line < entries) > 0) {
				if (!body && line ~ /^(#|$)/)
					continue
				body = 1
				print line
			}
			print ""
			done = 1
		}
		{ print }
		END { exit !done }' "$1"
}
