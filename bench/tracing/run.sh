#!/bin/sh
# bench/tracing/run.sh [build-dir]: what tracing costs the traced program,
# in nanoseconds per operation: a system call traced and untraced by the
# syscall provider (seccomp filters and the agent's SIGSYS handler), a
# USDT probe with its semaphore off and on (a breakpoint when on), and, in
# the same run, bpftrace's tracepoint:syscalls: and usdt: where bpftrace
# is installed and works.  Each figure is the best of three runs of
# bench_tracee, which times its own loop; the cost of a traced operation
# is its figure less the untraced one.  Measures, never fails.
set -u
build=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build}
DT=$build/userland/cmd/dtrace
T=$build/bench/tracing/bench_tracee
[ -x "$DT" ] && [ -x "$T" ] || { echo "build dtrace and bench_tracee first"; exit 0; }

best() { # best of three: best N command...
	n=$1
	shift
	b=
	for i in 1 2 3; do
		v=$("$@" 2>/dev/null | awk -v n="$n" '/^[0-9.]+$/ { print; exit }')
		[ -z "$v" ] && continue
		if [ -z "$b" ] || awk -v a="$v" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$v; fi
	done
	echo "${b:-n/a}"
}
dt() { # dt D-PROGRAM MODE N: the tracee under dtrace, its figure
	"$DT" -q -n "$1" -c "$T $2 $3" 2>/dev/null | head -1
}
bt() { # bt PROGRAM MODE N: the tracee under bpftrace, its figure
	if [ -n "$TRACEFS" ]; then
		# tracefs (for tracepoint:) mounted in a mount namespace of
		# bpftrace's own, the machine's left as it is
		unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && exec "$@"' sh \
			bpftrace -e "$1" -c "$T $2 $3" 2>/dev/null
	else
		bpftrace -e "$1" -c "$T $2 $3" 2>/dev/null
	fi | awk '/^[0-9.]+$/ { print; exit }'
}
TRACEFS=
if [ ! -e /sys/kernel/tracing/events ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	TRACEFS=mount
fi

NS=2000000 # untraced iterations
NT=200000  # traced iterations
nop=$(best $NS "$T" nop $NS)
sys=$(best $NS "$T" sys $NS)
sys_other=$(best $NS dt 'syscall::getpid:entry /pid == $target/ { @ = count(); }' sys $NS)
sys_traced=$(best $NT dt 'syscall::getppid:entry /pid == $target/ { @ = count(); }' sys $NT)
sys_both=$(best $NT dt 'syscall::getppid:entry, syscall::getppid:return /pid == $target/ { @ = count(); }' sys $NT)
sys_false=$(best $NT dt 'syscall::getppid:entry /0/ { @ = count(); }' sys $NT)
usdt_off=$(best $NS "$T" usdt $NS)
usdt_on=$(best $NT dt 'bench$target:::fire { @ = count(); }' usdt $NT)

echo "system calls (getppid), ns per call:"
echo "  untraced, no tracer                          $sys"
echo "  untraced, dtrace tracing another call         $sys_other"
echo "  traced, entry (count())                       $sys_traced"
echo "  traced, entry and return (count())            $sys_both"
echo "  trapped, probe's predicate false              $sys_false"
echo "USDT probe with a semaphore, ns per probe site:"
echo "  is-enabled off (no tracer)                    $usdt_off"
echo "  is-enabled on, firing (count())               $usdt_on"
# DTrace's own USDT: built here with dtrace -h and -G
here=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/bench_dtg.XXXXXX")
g_off=n/a
g_on=n/a
if "$DT" -h -s "$here/bench_dtg.d" -o "$W/bench_dtg.h" 2>/dev/null &&
	cc -O2 -D_DTRACE_VERSION=1 -I"$W" -c "$here/bench_dtg.c" -o "$W/bench_dtg.o" &&
	"$DT" -G -s "$here/bench_dtg.d" -o "$W/bench_dtg_dof.o" "$W/bench_dtg.o" 2>/dev/null &&
	cc -o "$W/bench_dtg" "$W/bench_dtg.o" "$W/bench_dtg_dof.o"; then
	g_off=$(best $NS "$W/bench_dtg" $NS)
	g_on=$(best $NT sh -c '"$1" -q -n "benchg\$target:::fire { @ = count(); }" -c "$2 $3" 2>/dev/null' \
		sh "$DT" "$W/bench_dtg" $NT)
fi
rm -rf "$W"
echo "dtrace -G probe guarded by its is-enabled test, ns per probe site:"
echo "  is-enabled off (no tracer)                    $g_off"
echo "  is-enabled on, firing (count())               $g_on"
echo "  (empty loop iteration                         $nop)"
if command -v bpftrace >/dev/null 2>&1 &&
	bpftrace -e 'BEGIN { exit(); }' >/dev/null 2>&1; then
	b_sys=$(best $NT bt "tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @ = count(); }" sys $NT)
	b_usdt=$(best $NT bt "usdt:$T:bench:fire { @ = count(); }" usdt $NT)
	echo "bpftrace, same program, same run:"
	echo "  tracepoint:syscalls:sys_enter_getppid         $b_sys"
	echo "  usdt:bench:fire                               $b_usdt"
	awk -v d="$sys_traced" -v b="$b_sys" -v u="$sys" -v du="$usdt_on" -v bu="$b_usdt" \
		-v uo="$usdt_off" 'BEGIN {
		if (b - u > 0) printf("  traced system call, dtrace/bpftrace (cost over untraced): %.1f\n",
			(d - u) / (b - u))
		if (bu - uo > 0) printf("  USDT firing, dtrace/bpftrace (cost over is-enabled off): %.1f\n",
			(du - uo) / (bu - uo))
	}'
else
	echo "bpftrace: not installed or cannot attach here"
fi
