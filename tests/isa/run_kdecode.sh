#!/usr/bin/env bash
# tests/isa/run_kdecode.sh TEST WORK FILE...: build the amd64 kernel module
# objects (FreeBSD, illumos) with their kernels' flags, then run the kernel
# decoder's comparison with Zydis over libc.so.6, those objects and the
# files given (the tree's executables).  A module that does not build is a
# failure of its own CTest (label ci), not of this one: it is left out.
set -u
test=$1 work=$2
shift 2
tree=$(cd "$(dirname "$0")/../.." && pwd)
files=()
for pair in freebsd-x86_64 illumos-x86_64; do
	if "$tree/ci/kernel-modules.sh" --pair "$pair" --work "$work/$pair" >"$work.$pair.log" 2>&1 ||
		[ -f "$work/$pair/$pair/dtrace.o" ]; then
		[ -f "$work/$pair/$pair/dtrace.o" ] && files+=("$work/$pair/$pair/dtrace.o")
	fi
done
libc=$(gcc -print-file-name=libc.so.6 2>/dev/null)
[ -f "$libc" ] || libc=/lib/x86_64-linux-gnu/libc.so.6
exec "$test" -n 4000000 -m 4000000 "$libc" "${files[@]}" "$@"
