#!/bin/sh
# Cross-compile step/step_cross.c with step/step_$1.S and the ISA module's
# instruction-probe half (static) and run it under qemu-user: each probed
# instruction run natively and stepped through isa_probe_step in a SIGTRAP
# handler must leave the same registers, flags, memory and landing.
# Exit 77 (CTest: skipped) with the reason when a tool is missing.
# Usage: run_step_cross.sh ISA SOURCE_DIR WORK_DIR
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
exe=$work/step_$isa
# shellcheck disable=SC2086
$cc -static -O2 -g -std=gnu11 -Wall -Wextra -Werror -I"$src/isa/$isa" -I"$src/isa" \
	-I"$src/tests/isa" -I"$src/tests/isa/step" \
	"$src/tests/isa/step/step_cross.c" "$src/tests/isa/step/step_$isa.S" \
	"$src/isa/$isa/insn.c" "$src/isa/$isa/patch.c" "$src/isa/$isa/regs.c" \
	"$src/isa/$isa/nofault.S" -o "$exe"
exec "$qemu" "$exe"
