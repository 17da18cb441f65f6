#!/bin/sh
# ci/cross-suite.sh: build the tree for another ISA and run its tests under
# qemu-user, through the ISA's CMake presets (cmake/toolchains/).
#
#   ci/cross-suite.sh aarch64              the whole aarch64 suite (all but label ci)
#   ci/cross-suite.sh riscv                the riscv subset (no Linux host: see below)
#   ci/cross-suite.sh aarch64 -L pid       any ctest arguments select tests
#   NOBUILD=1 ci/cross-suite.sh aarch64    test what is built
#
# Needs the cross gcc and qemu-user (bootstrap.sh installs them), the
# target's libraries (cmake/cross-sysroot.sh; Debian 12 has none for
# riscv64, so the riscv preset builds without port/linux, libdtrace and
# dtrace), and binfmt_misc for tests that start foreign programs by path
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
if [ "$isa" = aarch64 ] && [ ! -e /opt/dtrace-cross/aarch64/usr/lib/$triple/libelf.so ]; then
	echo "SKIP: no aarch64 sysroot in /opt/dtrace-cross/aarch64 (run cmake/cross-sysroot.sh aarch64 as root)"
	exit 77
fi
if [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$arch" ]; then
	echo "SKIP: qemu-$arch is not registered with binfmt_misc (run cmake/cross-binfmt.sh as root)"
	exit 77
fi
if [ -z "${NOBUILD:-}" ]; then
	cmake --preset "$isa" >/dev/null
	cmake --build --preset "$isa" -j "${JOBS:-2}" >/dev/null
fi
exec ctest --preset "$isa" "$@"
