#!/bin/sh
# Cross-compile one CFI test for $1 (aarch64 | riscv) with the ISA module's
# sources, link it statically and run it under qemu-user: the unwinder on
# that processor's DWARF numbering and its compiler's CFI.
# Exit 77 (CTest: skipped) with the reason when a tool is missing; any
# other failure (compile, link, test) fails.
# Usage: run_cross.sh ISA SOURCE_DIR WORK_DIR TEST
#   TEST: a file of tests/isa/cfi without .c
set -eu
isa=$1 src=$2 work=$3 test=$4
case $isa in
aarch64) cc=aarch64-linux-gnu-gcc qemu=qemu-aarch64 ;;
riscv) cc=riscv64-linux-gnu-gcc qemu=qemu-riscv64 ;;
*) echo "unknown ISA $isa"; exit 2 ;;
esac
for tool in $cc $qemu; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed"
		exit 77
	fi
done
mkdir -p "$work"
exe=$work/${test}_$isa
lib=$work/libisa_$isa.a
flags="-static -O2 -g -std=gnu11 -Wall -Wextra -Werror"
# gcc links static executables without .eh_frame_hdr (libgcc registers
# their FDEs at start-up instead); the walker needs the table.
ldflags="-Wl,--eh-frame-hdr"
incs="-I$src/isa/$isa -I$src/isa -I$src/tests/isa/cfi"
srcs="$src/isa/$isa/nofault.S $src/isa/$isa/regs.c $src/isa/frame_walk.c
	$src/isa/cfi_unwind.c $src/isa/$isa/patch.c"

# The ISA module as one archive per ISA, rebuilt when a source or header
# changed; tests running in parallel take turns (flock).
build_lib() {
	if [ -f "$lib" ] && [ -z "$(find $srcs "$src/isa" -newer "$lib" \
		\( -name '*.[chS]' \) 2>/dev/null | head -1)" ]; then
		return 0
	fi
	objdir=$work/obj_$isa
	rm -rf "$objdir" && mkdir -p "$objdir"
	for f in $srcs; do
		# shellcheck disable=SC2086
		$cc $flags $incs -c "$f" -o "$objdir/$(basename "$(dirname "$f")")_$(basename "$f").o"
	done
	rm -f "$lib.tmp"
	"${cc%-gcc}-ar" rcs "$lib.tmp" "$objdir"/*.o
	mv "$lib.tmp" "$lib"
}
(
	flock 9
	build_lib
) 9>"$work/.lock_$isa"
extra=
# As distributions build: no frame pointers, unwind tables everywhere.
[ "$test" = walk_real_stack ] && extra="-fomit-frame-pointer -fasynchronous-unwind-tables"
# shellcheck disable=SC2086
$cc $flags $extra $incs "$src/tests/isa/cfi/$test.c" "$lib" -o "$exe" $ldflags -lpthread
exec "$qemu" "$exe"
