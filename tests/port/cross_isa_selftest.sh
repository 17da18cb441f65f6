#!/bin/sh
# Cross-compile one port test for $1 (aarch64 | riscv) with the ISA module
# and the Linux port (everything but libelf's modules.c and the files that
# need the core), link it statically and run it under qemu-user.
# Exit 77 (CTest: skipped) with the reason when a tool is missing; any
# other failure (compile, link, test) fails.
# Usage: cross_isa_selftest.sh ISA SOURCE_DIR WORK_DIR [TEST]
#   TEST: a file of tests/port without .c (default isa_selftest).
set -eu
isa=$1 src=$2 work=$3 test=${4:-isa_selftest}
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
exe=$work/${test}_$isa
lib=$work/libport_$isa.a
p=$src/port/linux
flags="-static -O2 -g -std=gnu11 -Wall -Wextra -Werror -fno-omit-frame-pointer"
incs="-I$src/isa/$isa -I$src/isa -I$p -I$src/core -I$src/inst -I$src/tests/port"
srcs="$src/isa/$isa/nofault.S $src/isa/$isa/regs.c $src/isa/frame_walk.c $src/isa/cfi_unwind.c
	$src/isa/$isa/patch.c $p/arena.c $p/slots.c $p/thread.c $p/trap.c $p/nofault.c
	$p/stack.c $p/unwind.c $p/destructive.c $p/text.c $p/codearena.c $p/timer.c $p/cputimer.c $p/log.c
	$p/profile_names.c $p/mcontext_$isa.c"

# The ISA module and port as one archive per ISA, rebuilt when a source or
# header changed; tests running in parallel take turns (flock).
build_lib() {
	if [ -f "$lib" ] && [ -z "$(find $srcs "$src/isa" "$p" -newer "$lib" \
		\( -name '*.[chS]' \) 2>/dev/null | head -1)" ]; then
		return 0
	fi
	objdir=$work/obj_$isa
	rm -rf "$objdir" && mkdir -p "$objdir"
	for f in $srcs; do
		extra=
		# stack.c counts the frames it skips: no sibling calls, as
		# port/linux/CMakeLists.txt builds it.
		[ "$f" = "$p/stack.c" ] && extra=-fno-optimize-sibling-calls
		# shellcheck disable=SC2086
		$cc $flags $extra $incs -c "$f" -o "$objdir/$(basename "$(dirname "$f")")_$(basename "$f").o"
	done
	rm -f "$lib.tmp"
	"${cc%-gcc}-ar" rcs "$lib.tmp" "$objdir"/*.o
	mv "$lib.tmp" "$lib"
}
(
	flock 9
	build_lib
) 9>"$work/.lock_$isa"
# shellcheck disable=SC2086
$cc $flags $incs "$src/tests/port/$test.c" "$lib" -o "$exe" -lpthread -lrt
exec "$qemu" "$exe"
