#!/bin/sh
# Cross-compile the ISA module for $1 (aarch64 | riscv) with the Linux port's
# signal handling and isa_selftest.c, and run it under qemu-user.
# Exit 77 (CTest: skipped) with the reason when a tool is missing.
# Usage: cross_isa_selftest.sh ISA SOURCE_DIR WORK_DIR
set -eu
isa=$1 src=$2 work=$3
case $isa in
aarch64) cc=aarch64-linux-gnu-gcc qemu=qemu-aarch64 ;;
riscv) cc=riscv64-linux-gnu-gcc qemu=qemu-riscv64 ;;
*) echo "unknown ISA $isa"; exit 2 ;;
esac
for tool in $cc $qemu; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed (bootstrap.sh installs it)"
		exit 77
	fi
done
mkdir -p "$work"
exe=$work/isa_selftest_$isa
# shellcheck disable=SC2086
$cc -static -O2 -g -std=gnu11 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-I"$src/isa/$isa" -I"$src/isa" -I"$src/port/linux" -I"$src/core" -I"$src/tests/port" \
	"$src/isa/$isa/nofault.S" "$src/isa/$isa/regs.c" "$src/isa/$isa/stack.c" \
	"$src/isa/$isa/patch.c" \
	"$src/port/linux/trap.c" "$src/port/linux/nofault.c" "$src/port/linux/thread.c" \
	"$src/port/linux/text.c" "$src/port/linux/mcontext_$isa.c" \
	"$src/tests/port/isa_selftest.c" -o "$exe"
exec "$qemu" "$exe"
