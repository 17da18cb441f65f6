#!/bin/sh
# ci/cross-suite.sh: build the tree for another ISA and run its tests under
# qemu-user, through the ISA's CMake presets (cmake/toolchains/).
#
#   ci/cross-suite.sh aarch64              the whole aarch64 suite (all but label ci)
#   ci/cross-suite.sh riscv                the whole riscv64 suite (all but label ci)
#   ci/cross-suite.sh aarch64 -L pid       any ctest arguments select tests
#   NOBUILD=1 ci/cross-suite.sh aarch64    test what is built
#
# Needs the cross gcc and qemu-user (bootstrap.sh installs them), the
# target's libraries (cmake/cross-sysroot.sh: Debian 12's arm64 packages
# for aarch64, Debian 13's riscv64 packages and C library for riscv), and
# binfmt_misc for tests that start foreign programs by path
# (cmake/cross-binfmt.sh).  Exit 77 (CTest: skipped) with the reason when
# one is missing; else ctest's status.
set -eu
cd "$(dirname "$0")/.."
isa=${1:?usage: ci/cross-suite.sh aarch64|riscv [ctest args]}
shift
case $isa in
aarch64) triple=aarch64-linux-gnu qemu=qemu-aarch64 arch=aarch64 ;;
riscv) triple=riscv64-linux-gnu qemu=qemu-riscv64 arch=riscv64 ;;
*) echo "cross-suite: unknown ISA $isa" >&2; exit 2 ;;
esac
for tool in $triple-gcc $qemu; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed (bootstrap.sh installs it)"
		exit 77
	fi
done
if [ ! -e /opt/dtrace-cross/$isa/usr/lib/$triple/libelf.so ]; then
	echo "SKIP: no $isa sysroot in /opt/dtrace-cross/$isa (run cmake/cross-sysroot.sh $isa as root;" \
		"for riscv it needs Debian 13 (trixie) reachable)"
	exit 77
fi
if [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$arch" ]; then
	echo "SKIP: qemu-$arch is not registered with binfmt_misc (run cmake/cross-binfmt.sh as root)"
	exit 77
fi
if [ -z "${NOBUILD:-}" ]; then
	# A build directory configured before the sysroot had the target's
	# libraries (an older tree's riscv preset left the Linux host out)
	# keeps DTRACE_LINUX_HOST OFF in its cache: configure it afresh.
	fresh=
	if grep -q '^DTRACE_LINUX_HOST:BOOL=OFF' "build-$isa/CMakeCache.txt" 2>/dev/null; then
		fresh=--fresh
	fi
	log=$(mktemp)
	if ! cmake --preset "$isa" $fresh >"$log" 2>&1 ||
		! cmake --build --preset "$isa" -j "${JOBS:-2}" >>"$log" 2>&1; then
		echo "cross-suite: the $isa build failed:"
		tail -40 "$log"
		rm -f "$log"
		exit 1
	fi
	rm -f "$log"
fi
exec ctest --preset "$isa" "$@"
