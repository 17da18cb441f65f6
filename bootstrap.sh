#!/bin/sh
# Install every dependency from Debian's packages, prepare the foreign-ISA
# builds (cmake/cross-sysroot.sh, cmake/cross-binfmt.sh), configure and
# build the tree, then run a first D program once the dtrace command exists.
# Usage: ./bootstrap.sh            (as root, or with sudo available)
set -eu
cd "$(dirname "$0")"

PACKAGES="cmake ninja-build gcc clang lld bison flex pkg-config libelf-dev libdwarf-dev
binutils-dev libxxhash-dev libclang-rt-14-dev qemu-user gcc-aarch64-linux-gnu
libc6-dev-arm64-cross gcc-riscv64-linux-gnu libc6-dev-riscv64-cross systemtap-sdt-dev
netbase libzydis-dev libc6-dbg python3.11 strace bpftrace util-linux"
# netbase: /etc/services, which printf's %P (port to service name) tests read
# libzydis-dev: the x86_64 instruction decoder of isa/x86_64/insn_decode.c
# libc6-dbg: libc's full symbol table, so ustack() names its static functions
# python3.11: a real program the pid and profile tests trace
# strace, bpftrace: peers in tests and benchmarks; util-linux: setpriv

if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "bootstrap: installing$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi

# The foreign-ISA suites (cmake --preset aarch64 / riscv, tests under
# qemu-user): the target's libraries and binfmt_misc.  Never fatal: the
# native tree does not need them, and each step says what it did or why
# it could not.
cross_setup() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$SUDO dpkg --add-architecture arm64 && $SUDO apt-get update -qq &&
			echo "bootstrap: added Debian architecture arm64 (package lists only)"
	fi
	# aarch64: Debian 12's arm64 packages; riscv: Debian 13's riscv64
	# packages and C library, through a private apt configuration (the
	# system's sources and dpkg state stay as they are)
	for isa in aarch64 riscv; do
		rc=0
		$SUDO sh cmake/cross-sysroot.sh "$isa" || rc=$?
		case $rc in
		0) echo "bootstrap: $isa sysroot ready in /opt/dtrace-cross/$isa" ;;
		77) echo "bootstrap: no $isa sysroot (see above): the $isa preset builds without the" \
			"Linux host (core, ISA, engine) and ci/cross-suite.sh $isa skips, saying so" ;;
		*) echo "bootstrap: cmake/cross-sysroot.sh $isa failed (status $rc)" ;;
		esac
	done
	$SUDO sh cmake/cross-binfmt.sh || echo "bootstrap: binfmt_misc not set up: foreign programs are started through qemu only where a test names it"
}
cross_setup || echo "bootstrap: cross setup incomplete (see above); the native build is unaffected"

cmake --preset default
cmake --build --preset default

if [ -x build/userland/cmd/dtrace ]; then
	echo "bootstrap: running examples/first.d"
	build/userland/cmd/dtrace -s examples/first.d
fi
