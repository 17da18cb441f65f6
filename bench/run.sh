#!/bin/sh
# bench/run.sh: build every benchmark and print its figures, with the date and
# the machine, in the form the README's performance section records them.
#
#   bench/run.sh [build-dir]          (default: build, the `default` preset's)
#
# Also reachable as `cmake --build --preset default --target bench-run`.
# Benchmarks measure; they never fail on a missed target (they say so).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
if [ ! -f "$build/build.ninja" ]; then
	cmake --preset default -S "$here/.." >/dev/null
fi
cmake --build "$build" -j2 --target bench >/dev/null

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: ${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') CPUs, $(uname -sm)"
echo "commit:  $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
echo "== bench/core/bench_dif (ns per DIF instruction, target 2 ns)"
"$build/bench/core/bench_dif" 2
echo
echo "== bench/core/bench_probe (ns per probe firing, target 60 ns for count())"
"$build/bench/core/bench_probe"
if [ -x "$build/bench/compile/bench_compile" ]; then
	echo
	echo "== bench/compile/bench_compile (target < 1 s)"
	"$build/bench/compile/bench_compile"
fi
if [ -x "$build/bench/consumer/bench_consumer" ]; then
	echo
	echo "== bench/consumer/bench_consumer"
	"$build/bench/consumer/bench_consumer"
fi
if [ -x "$build/bench/pid/pidbench" ]; then
	echo
	echo "== bench/pid/pid_bench.sh (pid probes against bpftrace's uprobes, target 0.5)"
	"$here/pid/pid_bench.sh" "$build"
fi
if [ -x "$build/bench/tracing/bench_tracee" ]; then
	echo
	echo "== bench/tracing (ns per system call and per USDT probe, traced and untraced)"
	sh "$here/tracing/run.sh" "$build"
fi
