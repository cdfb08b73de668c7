#!/bin/bash
# The fork bomb killer on a real Debian system: run by forkbomb-test.service
# (the image's) as root at the end of the boot, from the data disk mounted
# at /opt/forkbomb. The kernel command line says what to run:
#
#   fbk.run=system:SCENARIO[,SCENARIO...]   scenarios, in order
#   fbk.window=SECONDS                      how long a bomb may take (60)
#
# Results go to the second serial port, as the kselftests' do: "# ok N NAME"
# or "# not ok N NAME" per scenario with "# # ..." lines saying what was
# seen, one summary line, and "FBK-END rc=N". Every scenario also prints
# a "SYSTEM-RESULT" line, and every bomb its samples as they are taken
# ("DEMO-START", "DEMO-SAMPLE", see watch_start), for make demo-system. The same
# runs on the stock kernel, where the bombs are expected to stay.
#
# Scenarios (see each function): user-c-bomb user-shell-bomb root-bomb
# service-bomb container-bomb, and busy programs beside a memory hog:
# make-j8 xargs-gzip journal-flood restart-storm.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
DATA=/opt/forkbomb
BOMB=$DATA/fbk_bomb
OOM=/sys/kernel/mm/oom
RUN=/run/forkbomb
mkdir -p "$RUN"
exec 3>/dev/ttyS1

scenarios=
window=60
for arg in $(cat /proc/cmdline); do
	case $arg in
	fbk.run=system:*) scenarios=${arg#fbk.run=system:} ;;
	fbk.window=*) window=${arg#fbk.window=} ;;
	esac
done
patched=0
[ -d "$OOM" ] && patched=1

# A sleep that does not fork: a swamped system may not let us.
mkfifo "$RUN/sleep.fifo"
exec 9<>"$RUN/sleep.fifo"
nap() { read -r -t "$1" -u 9 _ || true; }
now() { echo "${EPOCHREALTIME}"; }
elapsed() { awk -v a="$1" -v b="${EPOCHREALTIME}" 'BEGIN { printf "%.1f", b - a }'; }
value() { local v; read -r v < "$1" 2>/dev/null && echo "$v" || echo -1; }
knob() { [ "$patched" = 1 ] && value "$OOM/$1" || echo -1; }

log() { echo "# # $*" >&3; }
failed=0
fail() { log "FAIL: $*"; failed=1; }

# The processes whose life we check: name -> pid, before the bomb.
declare -A before
note_daemons() {
	local d
	for d in systemd-journald systemd-logind systemd-udevd; do
		before[$d]=$(pidof -s "$d" || echo none)
	done
	before[systemd]=1
}
check_daemons() {
	local d
	for d in "${!before[@]}"; do
		# A daemon that was not running before (udevd in a guest
		# without devices) is not checked.
		[ "${before[$d]}" = none ] && continue
		if ! kill -0 "${before[$d]}" 2>/dev/null; then
			fail "$d (pid ${before[$d]}) is gone"
		fi
	done
}

# A login session: "su - USER" on a pseudo terminal (script), as typed at
# a terminal; commands go in through a FIFO kept open on fd 5. Sets
# session_shell, the login shell's pid.
start_session() {
	local user=$1 i
	rm -f "$RUN/in"
	mkfifo "$RUN/in"
	# Our own oom_score_adj (-1000, the unit's) is not the session's.
	choom -n 0 -- script -qfc "su - $user" /dev/null < "$RUN/in" \
		> "$RUN/session.out" 2>&1 &
	session_script=$!
	exec 5>"$RUN/in"
	session_shell=
	for i in $(seq 50); do
		# The newest bash of the user in a login session: not this
		# script's own bash, which is root's too.
		session_shell=$(pgrep -n -u "$user" -x bash)
		[ -n "$session_shell" ] && [ "$session_shell" != $$ ] &&
			grep -q user.slice "/proc/$session_shell/cgroup" 2>/dev/null && break
		session_shell=
		nap 0.2
	done
	[ -n "$session_shell" ] || { fail "no login shell for $user"; return 1; }
	log "login shell of $user: pid $session_shell, in $(cut -d: -f3 "/proc/$session_shell/cgroup")"
}
type_line() { echo "$1" >&5; }
end_session() {
	exec 5>&-
	kill -9 "$session_shell" "$session_script" 2>/dev/null
	wait "$session_script" 2>/dev/null
	nap 1
}

# Tasks in cgroup directory $1 and below (no fork); 0 once systemd has
# removed the directory of a unit whose tasks are all gone.
tasks_in() { if [ -d "$1" ]; then value "$1/pids.current"; else echo 0; fi; }

# Sample the bomb in cgroup $1 (keeping $2 tasks of its own) until it is
# gone for 3 s or the window ends: fbk_sampler, which streams each sample
# to the results port as it takes it ("DEMO-SAMPLE", for make demo-system)
# and forks nothing, so that a bomb that swamps the guest leaves every
# sample up to that moment. watch_start before the bomb starts (it
# returns once the sampler samples); watch_end after, which sets
# recovered (seconds, or -1) and left.
watch_start() {
	local i
	rm -f "$RUN/watched"
	"$DATA/fbk_sampler" "$1" "$2" "$window" "$RUN/watched" >&3 2>&3 &
	sampler=$!
	for ((i = 0; i < 100; i++)); do
		[ -s "$RUN/watched" ] && break
		nap 0.05
	done
}
watch_end() {
	wait "$sampler"
	read -r recovered left < "$RUN/watched" 2>/dev/null || recovered=-1 left=-1
	[ "$recovered" != ready ] || recovered=-1 left=-1
}

# What the kernel and systemd said about it.
reports() {
	journalctl -k -b --no-pager -o cat 2>/dev/null | grep -c 'killed fork bomb'
}

result() {
	echo "SYSTEM-RESULT scenario=$1 kernel=$([ "$patched" = 1 ] && echo patched || echo stock) recovered=$recovered left=$left fbk_kills=$(( $(knob forkbomb_kills) - kills0 )) reports=$(( $(reports) - reports0 )) $2" >&3
}

begin() {
	note_daemons
	kills0=$(knob forkbomb_kills)
	reports0=$(reports)
	recovered=-1 left=-1
}

# --- bombs ---

# A bomb run in the user's login shell: the user slice's TasksMax (pids.max)
# stops it first. The bomb goes, the shell and the session stay.
user_bomb() {
	local what=$1 shell cg=/sys/fs/cgroup/user.slice/user-1000.slice
	start_session user || return
	shell=$session_shell
	log "user-1000.slice TasksMax (pids.max): $(cat $cg/pids.max)"
	nap 11		# a login shell that has been up for a while
	begin
	watch_start "$cg" "$(tasks_in "$cg")"
	type_line "$what"
	watch_end
	if [ "$patched" = 1 ]; then
		[ "$recovered" != -1 ] || fail "the bomb is still there after $window s"
		kill -0 "$shell" 2>/dev/null || fail "the login shell died"
		type_line "touch /tmp/after-the-bomb"
		nap 2
		[ -e /tmp/after-the-bomb ] || fail "the user could not run a new command"
		rm -f /tmp/after-the-bomb
		[ "$(( $(reports) - reports0 ))" = 1 ] ||
			fail "$(( $(reports) - reports0 )) kill reports in journalctl -k, not one"
		check_daemons
	fi
	result "$2" "shell=$(kill -0 "$shell" 2>/dev/null && echo alive || echo dead)"
	end_session
	systemctl kill --signal=KILL user-1000.slice 2>/dev/null
	nap 2
}

scenario_user_c_bomb() { user_bomb "$BOMB c 64" user-c-bomb; }
scenario_user_shell_bomb() { user_bomb 'f(){ f|f & }; f' user-shell-bomb; }

# A bomb as root on the console: no limit but threads-max or memory.
scenario_root_bomb() {
	local cg=/sys/fs/cgroup/user.slice/user-0.slice shell
	systemctl set-property --runtime user-0.slice TasksMax=infinity
	start_session root || return
	shell=$session_shell
	nap 11
	begin
	watch_start "$cg" "$(tasks_in "$cg")"
	type_line "$BOMB c 64"
	watch_end
	if [ "$patched" = 1 ]; then
		[ "$recovered" != -1 ] || fail "the bomb is still there after $window s"
		kill -0 "$shell" 2>/dev/null || fail "root's shell died"
		check_daemons
	fi
	result root-bomb "shell=$(kill -0 "$shell" 2>/dev/null && echo alive || echo dead)"
	end_session
}

# A bomb in a service with TasksMax= and MemoryMax=: killed, the unit
# fails, other services live.
scenario_service_bomb() {
	local cg=/sys/fs/cgroup/system.slice/fbk-bomb.service state
	systemd-run --quiet --unit=fbk-idle sleep infinity
	begin
	watch_start "$cg" 0
	systemd-run --quiet --unit=fbk-bomb -p TasksMax=300 -p MemoryMax=200M "$BOMB" c 64
	watch_end
	state=$(systemctl is-failed fbk-bomb 2>/dev/null)
	if [ "$patched" = 1 ]; then
		[ "$recovered" != -1 ] || fail "the bomb is still there after $window s"
		[ "$state" = failed ] || fail "fbk-bomb.service is $state, not failed"
		systemctl is-active --quiet fbk-idle || fail "fbk-idle.service died"
		check_daemons
	fi
	result service-bomb "unit=$state"
	systemctl stop fbk-bomb fbk-idle 2>/dev/null
	systemctl reset-failed 2>/dev/null
}

# A bomb in a container-like scope (TasksMax=512, its own pid namespace)
# while the rest of the system holds many more processes: removed from
# that scope alone.
scenario_container_bomb() {
	local cg=/sys/fs/cgroup/system.slice/fbk-container.scope crowd
	systemd-run --quiet --unit=fbk-crowd -p TasksMax=infinity "$BOMB" prefork 1500 0
	nap 5
	crowd=$(tasks_in /sys/fs/cgroup/system.slice/fbk-crowd.service)
	log "the rest of the system: $crowd idle processes in fbk-crowd.service"
	begin
	watch_start "$cg" 0
	systemd-run --quiet --scope --unit=fbk-container -p TasksMax=512 \
		choom -n 0 -- unshare --pid --fork --mount-proc "$BOMB" c 64 &
	watch_end
	if [ "$patched" = 1 ]; then
		[ "$recovered" != -1 ] || fail "the bomb is still there after $window s"
		[ "$(tasks_in /sys/fs/cgroup/system.slice/fbk-crowd.service)" = "$crowd" ] ||
			fail "fbk-crowd.service lost processes"
		check_daemons
	fi
	result container-bomb "crowd=$(tasks_in /sys/fs/cgroup/system.slice/fbk-crowd.service)"
	systemctl stop fbk-crowd fbk-container.scope 2>/dev/null
}

# --- busy programs beside a memory hog: no fork bomb kill ---

# Start the hog as a service; wait for the OOM killer to take it.
hog_oom() {
	local i
	systemd-run --quiet --unit=fbk-hog "$BOMB" hog
	for i in $(seq $((window * 4))); do
		systemctl is-active --quiet fbk-hog || break
		nap 0.25
	done
	systemctl is-active --quiet fbk-hog && fail "the hog was not killed"
	systemctl reset-failed fbk-hog 2>/dev/null
}

busy() {
	local name=$1 ok
	begin
	shift
	# Our own oom_score_adj (-1000, the unit's) is not the job's.
	( echo 0 > /proc/self/oom_score_adj; "$@" ) &
	local job=$!
	nap 2
	hog_oom
	wait "$job"
	ok=$?
	recovered=0 left=0
	if [ "$patched" = 1 ]; then
		[ "$(( $(knob forkbomb_kills) - kills0 ))" = 0 ] ||
			fail "the fork bomb killer acted on $name"
	fi
	[ "$ok" = 0 ] || fail "$name failed (status $ok)"
	check_daemons
	result "$name" "status=$ok"
}

make_project() {
	local d=/tmp/project i
	rm -rf $d
	mkdir -p $d
	for i in $(seq 40); do
		printf 'int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * %d; return s; }\n' \
			"$i" "$i" > "$d/f$i.c"
	done
	printf 'SRCS := $(wildcard *.c)\nall: $(SRCS:.c=.o)\n%%.o: %%.c\n\tgcc -O2 -c $< -o $@\n' \
		> "$d/Makefile"
	make -s -C "$d" -j8
}
scenario_make_j8() { busy make-j8 make_project; }

gzip_files() {
	local d=/tmp/gz i
	rm -rf $d
	mkdir -p $d
	for i in $(seq 32); do
		head -c 4M /dev/urandom > "$d/f$i"
	done
	ls "$d"/f* | xargs -P 8 -n 1 gzip -9
}
scenario_xargs_gzip() { busy xargs-gzip gzip_files; }

flood_journal() {
	seq 1 100000 | systemd-cat -t fbk-flood
}
scenario_journal_flood() { busy journal-flood flood_journal; }

restart_storm() {
	local i
	# No start rate limit: 60 restarts in a row are what this asks for.
	systemd-run --quiet --unit=fbk-svc -p StartLimitIntervalSec=0 sleep infinity
	for i in $(seq 60); do
		systemctl restart fbk-svc || return 1
	done
	systemctl stop fbk-svc
}
scenario_restart_storm() { busy restart-storm restart_storm; }

# --- main ---
echo "FBK-CPUS $(nproc)" >&3
echo "FBK-BEGIN system:$scenarios" >&3
log "kernel $(uname -r), $([ "$patched" = 1 ] && echo patched || echo stock), $(nproc) CPUs, $(free -m | awk '/Mem:/ {print $2}') MiB, threads-max $(cat /proc/sys/kernel/threads-max)"
log "systemd $(systemctl --version | head -n 1), $(systemctl is-system-running)"
n=0 rc=0
for s in $(echo "$scenarios" | tr ',' ' '); do
	n=$((n + 1))
	failed=0
	if declare -F "scenario_${s//-/_}" >/dev/null; then
		"scenario_${s//-/_}"
	else
		fail "no scenario $s"
	fi
	if [ "$failed" = 0 ]; then
		echo "# ok $n $s" >&3
	else
		echo "# not ok $n $s" >&3
		rc=1
	fi
done
echo "$([ "$rc" = 0 ] && echo ok || echo not ok) 1 selftests: system: $scenarios" >&3
# The kernel's taint flags and lockdep's state, for the harness (as
# scripts/guest/init reports them).
debug_locks=-
# Not the read builtin: a sysctl file gives all of its value to the first
# read() or nothing, and read takes one byte at a time. If the pids are
# all taken, the taint is "unknown", which fails the boot too.
tainted=$(cat /proc/sys/kernel/tainted 2>/dev/null) || tainted=unknown
if [ -r /proc/lockdep_stats ]; then
	while read -r key value; do
		[ "$key" = debug_locks: ] && debug_locks=$value
	done < /proc/lockdep_stats
fi
echo "FBK-TAINT tainted=$tainted debug_locks=$debug_locks" >&3
echo "FBK-END rc=$rc" >&3
