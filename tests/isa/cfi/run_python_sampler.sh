#!/bin/sh
# Run Debian's python3.11 (no frame pointers in it or in libc) with the CFI
# sampler preloaded: for about a second of CPU time, every SIGPROF compares
# isa_cfi_walk with backtrace() (python_sampler.c).  Exit 77 (CTest:
# skipped) when that python is not installed.
# Usage: run_python_sampler.sh SAMPLER.so [PYTHON]
set -eu
lib=$1 py=${2:-/usr/bin/python3.11}
if [ ! -x "$py" ]; then
	echo "SKIP: $py is not installed"
	exit 77
fi
# A sampler built for another ISA (a cross build under qemu-user) cannot be
# preloaded into this machine's python.
mach() { od -An -tx1 -j18 -N2 "$1" | tr -d ' \n'; }
if [ "$(mach "$1")" != "$(mach "$py")" ]; then
	echo "SKIP: $py is this machine's ($(uname -m)); the sampler is built for another ISA"
	exit 77
fi
case $lib in /*) ;; *) lib=$PWD/$lib ;; esac
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Recursion through C (sorted's key, str.join over a generator), pure
# interpretation, and C library calls.
rc=0
LD_PRELOAD=$lib "$py" -I -c '
import time
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def nest(d):
    return sorted(range(300), key=lambda x: -x)[0] if d == 0 else nest(d - 1) + 1
t = time.process_time()
while time.process_time() - t < 1.0:
    fib(15)
    nest(20)
    "".join(str(i) for i in range(2000)).encode().hex()
' 2>"$log" || rc=$?
cat "$log"
# The sampler's report proves it was loaded and ran to the end.
if ! grep -q '^cfi sampler: [0-9]' "$log"; then
	echo "FAIL: the sampler did not report (not preloaded?)"
	exit 1
fi
exit "$rc"
