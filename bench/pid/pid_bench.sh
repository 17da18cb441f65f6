#!/bin/sh
# bench/pid/pid_bench.sh: what a pid probe costs the traced program.
#
#   bench/pid/pid_bench.sh [build-dir]      (default: build)
#
# Environment: PIDBENCH_CALLS (calls per traced run, default 100000),
# PIDBENCH_ROUNDS (runs of each case, the best kept; default 3).
#
# pidbench calls bench_fn (sites_<isa>.S) in a tight loop and prints the
# ns per call of the loop, by the wall clock and by the thread's CPU time.
# Each case runs pidbench bare, under
#     dtrace -qn 'pid$target:a.out:bench_fn:<probe> { @ = count(); }' -c ...
# and, when bpftrace is installed and can attach uprobes here, under
#     bpftrace -e 'uprobe:<pidbench>:<fn> { @ = count(); }' -c ...
# checking that each count is exactly what the calls make it.  Cases:
#     entry           the first instruction (push %rbp: jump-patched, no
#                     trap; emulated at a breakpoint with DTRACE_PID_JUMP=0)
#     entry+return    and the ret (emulated; bpftrace: a uretprobe)
#     offset ool      bench_fn+0x4, lea: stepped out of line
#     offset rip      bench_fn+0x8, addq $1,x(%rip): out of line through a
#                     scratch register, a second trap closes the step
#     offset load     bench_fn+0x10, mov x(%rip),%rdx: a RIP-relative load,
#                     emulated (one trap)
# and, as the floor under any probe fired from a signal handler, one int3
# whose SIGTRAP an empty handler takes (pidbench -s): the kernel's signal
# delivery and sigreturn, nothing of DTrace.
# bpftrace has no offset probes in Debian's build (no disassembler to
# check the boundary), so its offset cases probe bench_fn_ool,
# bench_fn_rip and bench_fn_load, symbols sites_<isa>.S puts at the same
# instructions.
#
# The ratio dtrace/bpftrace is of the CPU-time figures, the steadier ones
# on a shared machine (the kernel's uprobe and signal work is system time
# of the traced thread, so both are in them); wall-clock ratios beside.
# Target (the issue's, for the entry probe): dtrace at most 0.5 of bpftrace.
# Measures only: a miscount or a skipped peer is printed, never fatal.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
calls=${PIDBENCH_CALLS:-100000}
rounds=${PIDBENCH_ROUNDS:-3}
dtrace=$build/userland/cmd/dtrace
pb=$build/bench/pid/pidbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$pb" ] || [ ! -x "$dtrace" ]; then
	echo "pid benchmark not built (needs the Linux agent and bench/pid/sites_<isa>.S)"
	exit 0
fi

# Lines of bpftrace's own chatter that say nothing about the run: the
# memlock warning, and detach complaints of kernels without tracefs.
bt_noise='RLIMIT_MEMLOCK|uprobe_events|failed to detach|^Attaching'

# Why bpftrace cannot take part, or nothing if it can.
bpftrace_skip()
{
	if ! command -v bpftrace >/dev/null 2>&1; then
		echo "bpftrace is not installed (Debian: apt-get install bpftrace)"
		return
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "bpftrace needs root (uprobes and BPF maps)"
		return
	fi
	timeout 60 bpftrace -e "uprobe:$pb:bench_fn { @ = count(); }" -c "$pb 10" \
		>"$tmp/bt.out" 2>"$tmp/bt.err"
	if ! grep -q '^@: 10$' "$tmp/bt.out"; then
		why=$(grep -Ev "$bt_noise" "$tmp/bt.err" | head -1)
		echo "bpftrace could not count a uprobe here: ${why:-no count printed}"
	fi
}

# run TOOL PROBE CALLS EXPECT: one traced (or bare) run; prints
# "wall cpu count status" where status is ok or what went wrong.
run()
{
	tool=$1 probe=$2 n=$3 expect=$4
	case $tool in
	bare)
		"$pb" "$n" >"$tmp/out" 2>"$tmp/err"
		;;
	signal)
		"$pb" -s "$n" >"$tmp/out" 2>"$tmp/err"
		;;
	dtrace)
		timeout 900 "$dtrace" -qn "$probe { @ = count(); }" -c "$pb $n" \
			>"$tmp/out" 2>"$tmp/err"
		;;
	bpftrace)
		timeout 900 bpftrace -e "$probe { @ = count(); }" -c "$pb $n" \
			>"$tmp/out" 2>"$tmp/err.all"
		grep -Ev "$bt_noise" "$tmp/err.all" >"$tmp/err"
		;;
	esac
	awk -v tool="$tool" -v expect="$expect" -v errfile="$tmp/err" '
		/^calls / { wall = $8; cpu = $10 }
		tool == "dtrace" && /^ *[0-9]+ *$/ { count = $1 }
		tool == "bpftrace" && /^@: / { count = $2 }
		END {
			status = "ok"
			if (wall == "")
				status = "no-figure"
			else if (tool != "bare" && tool != "signal" && count != expect)
				status = "count=" (count == "" ? "none" : count) "/want=" expect
			if ((getline line < errfile) > 0)
				status = status "+stderr"
			if (tool == "bare" || tool == "signal")
				count = "-"
			print (wall == "" ? "-" : wall), (cpu == "" ? "-" : cpu), \
			    (count == "" ? "-" : count), status
		}' "$tmp/out"
	if [ -s "$tmp/err" ]; then
		sed "s/^/    [$tool] /" "$tmp/err" | head -5 >&2
	fi
}

# best TOOL PROBE CALLS EXPECT: the best of $rounds runs, "wall cpu status".
best()
{
	i=0
	: >"$tmp/rounds"
	while [ "$i" -lt "$rounds" ]; do
		run "$@" >>"$tmp/rounds"
		i=$((i + 1))
	done
	awk '
		$1 != "-" && (bw == "" || $1 + 0 < bw + 0) { bw = $1 }
		$2 != "-" && (bc == "" || $2 + 0 < bc + 0) { bc = $2 }
		$4 != "ok" { bad = bad (bad == "" ? "" : ",") $4 }
		END { print (bw == "" ? "-" : bw), (bc == "" ? "-" : bc), (bad == "" ? "ok" : bad) }
	' "$tmp/rounds"
}

fmt()
{
	awk -v w="$1" -v c="$2" 'BEGIN {
		if (w == "-") printf "%-21s", "-"
		else printf "%-21s", sprintf("%.0f / %.0f", w, c)
	}'
}

ratio()
{
	awk -v dw="$1" -v dc="$2" -v bw="$3" -v bc="$4" 'BEGIN {
		if (dc == "-" || bc == "-" || bc + 0 == 0) { printf "-"; exit }
		printf "%.2f (wall %.2f)", dc / bc, (bw + 0 > 0 ? dw / bw : 0)
	}'
}

skip=$(bpftrace_skip)
set -- $("$pb" -o)
ool=$2 rip=$4 load=$6

echo "pidbench: $calls calls per traced run, best of $rounds rounds;" \
	"figures are ns per call, wall / CPU"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$(nproc 2>/dev/null || echo '?') CPUs"
[ -n "$skip" ] && echo "bpftrace skipped: $skip"

# The bare call: more calls, so the clock's granularity does not show.
set -- $(best bare - $((calls * 100)) 0)
printf '%-32s %s\n' "bare call" "$(awk -v w="$1" -v c="$2" 'BEGIN { printf "%.2f / %.2f", w, c }')"
# The floor under a probe fired from a signal handler: int3, the kernel's
# SIGTRAP delivery to an empty handler, sigreturn.
set -- $(best signal - "$calls" 0)
printf '%-32s %s\n' "int3 + empty SIGTRAP handler" "$(fmt "$1" "$2")"
echo
printf '%-32s %-21s %-21s %s\n' "probe" "dtrace" "bpftrace" "dtrace/bpftrace (CPU)"

P="pid\$target:a.out:bench_fn"
U="uprobe:$pb"
while IFS='|' read -r name dprobe bprobe mult; do
	expect=$((calls * mult))
	set -- $(best dtrace "$dprobe" "$calls" "$expect")
	dw=$1 dc=$2 ds=$3
	bw=- bc=- bs=ok
	if [ -z "$skip" ]; then
		set -- $(best bpftrace "$bprobe" "$calls" "$expect")
		bw=$1 bc=$2 bs=$3
	fi
	printf '%-32s %s %s %s\n' "$name" "$(fmt "$dw" "$dc")" "$(fmt "$bw" "$bc")" \
		"$(ratio "$dw" "$dc" "$bw" "$bc")"
	[ "$ds" != ok ] && echo "    dtrace: $ds"
	[ "$bs" != ok ] && echo "    bpftrace: $bs"
done <<EOF
entry|$P:entry|$U:bench_fn|1
entry+return|$P:entry,$P:return|$U:bench_fn,uretprobe:$pb:bench_fn|2
offset $ool (out of line)|$P:${ool#0x}|$U:bench_fn_ool|1
offset $rip (rip-relative)|$P:${rip#0x}|$U:bench_fn_rip|1
offset $load (rip-relative load)|$P:${load#0x}|$U:bench_fn_load|1
EOF
echo "target: dtrace/bpftrace at most 0.50"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
