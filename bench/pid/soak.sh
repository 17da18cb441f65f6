#!/bin/sh
# bench/pid/soak.sh: many threads through one pid probe, every firing
# counted.  Not a ctest test (it runs for minutes; tests/e2e/pid's
# threads_exact_count is the short form, 16 x 20000).
#
#   bench/pid/soak.sh [build-dir [threads [calls]]]   (default: build 16 1000000)
#
# Runs
#     dtrace -qn 'pid$target:a.out:bench_fn:entry { @ = count(); }' \
#         -c 'pidbench -t THREADS CALLS'
# at dtrace's default buffer and aggregation sizes and checks that the
# count is exactly THREADS x CALLS, that dtrace said nothing on standard
# error (a drop is reported there as DTrace reports it, e.g. "dtrace: 12
# aggregation drops on CPU 1", and is shown as is), that both dtrace and
# pidbench exited 0 (pidbench checks each thread got every return value
# right).  Prints the elapsed time and the rate; exits 0 if all held,
# 1 if not.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
threads=${2:-16}
calls=${3:-1000000}
dtrace=$build/userland/cmd/dtrace
pb=$build/bench/pid/pidbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$pb" ] || [ ! -x "$dtrace" ]; then
	echo "soak: $pb or $dtrace not built (cmake --build $build --target bench)" >&2
	exit 1
fi
want=$((threads * calls))
echo "soak: $threads threads x $calls calls of a pid-probed function, want @ = $want"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$(nproc 2>/dev/null || echo '?') CPUs"
t0=$(date +%s.%N)
"$dtrace" -qn 'pid$target:a.out:bench_fn:entry { @ = count(); }' \
	-c "$pb -t $threads $calls" >"$tmp/out" 2>"$tmp/err"
rc=$?
t1=$(date +%s.%N)

count=$(awk '/^ *[0-9]+ *$/ { c = $1 } END { print c }' "$tmp/out")
loop_ns=$(awk '/^calls / { print $6 }' "$tmp/out")
ok=1
echo "dtrace exit status: $rc"
[ "$rc" -eq 0 ] || ok=0
echo "count: ${count:-none} (want $want)"
[ "${count:-0}" = "$want" ] || ok=0
if [ -s "$tmp/err" ]; then
	echo "standard error (drops, errors):"
	sed 's/^/    /' "$tmp/err"
	ok=0
else
	echo "standard error: empty (no drops reported)"
fi
if [ -z "$loop_ns" ]; then
	echo "pidbench printed no figures"
	ok=0
fi
awk -v t0="$t0" -v t1="$t1" -v loop="${loop_ns:-0}" -v n="$want" 'BEGIN {
	printf "elapsed: %.1f s for the whole dtrace -c run, %.1f s in the threads'"'"' loops\n",
	    t1 - t0, loop / 1e9
	if (loop > 0)
		printf "rate: %.0f probes/s (%.2f us of wall time per call across all threads)\n",
		    n / (loop / 1e9), loop / 1e3 / n
}'
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$ok" -eq 1 ]; then
	echo "soak: PASS"
	exit 0
fi
echo "soak: FAIL"
exit 1
