#!/bin/sh
# isa/cfi_unwind.c is one file for every processor: compile it freestanding
# (-ffreestanding -Wall -Wextra -Werror, no libc headers) for x86_64,
# aarch64 and riscv64 with each compiler that is installed (gcc for the
# host, the Debian cross gccs, clang with --target), and prove the object
# calls nothing but the ISA's nofault primitives and the memcpy/memset
# compilers may emit.  Exit 77 (CTest: skipped) only if no cross compiler
# at all is installed.
# Usage: compile_every_isa.sh SOURCE_DIR WORK_DIR
set -eu
src=$1 work=$2
mkdir -p "$work"
flags="-std=gnu11 -O2 -ffreestanding -nostdinc -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes"
# <stdint.h> and friends come from the compiler itself under -nostdinc.
compiled=0 cross=0 failed=0
allowed='^(isa_nofault_load(8|16|32|64)|isa_nofault_copy|isa_frame_return_address|isa_frame_caller_fp|memcpy|memset)$'

try() { # ISA COMPILER [FLAGS...]
	isa=$1 cc=$2
	shift 2
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "note: $cc not installed, $isa not compiled with it"
		return 0
	fi
	inc=$("$cc" "$@" -print-file-name=include)
	obj=$work/cfi_unwind_${isa}_$(basename "$cc").o
	# shellcheck disable=SC2086
	if ! "$cc" "$@" $flags -isystem "$inc" -I"$src/isa/$isa" -I"$src/isa" \
		-c "$src/isa/cfi_unwind.c" -o "$obj"; then
		echo "FAIL: $cc ($isa) does not compile isa/cfi_unwind.c"
		failed=1
		return 0
	fi
	nm=nm
	case $cc in *-linux-gnu-gcc) nm=${cc%-gcc}-nm ;; esac
	command -v "$nm" >/dev/null 2>&1 || nm=nm
	undef=$("$nm" -u "$obj" | awk '{print $NF}' | grep -Ev "$allowed" || true)
	if [ -n "$undef" ]; then
		echo "FAIL: $cc ($isa) object calls outside the ISA module: $undef"
		failed=1
	fi
	if ! "$nm" "$obj" | grep -q ' T isa_cfi_walk$'; then
		echo "FAIL: $cc ($isa) object does not define isa_cfi_walk"
		failed=1
	fi
	echo "ok: $cc $* ($isa)"
	compiled=$((compiled + 1))
	[ "$isa" = "$(uname -m | sed 's/amd64/x86_64/')" ] || cross=$((cross + 1))
}

try x86_64 gcc
try x86_64 clang --target=x86_64-linux-gnu
try aarch64 aarch64-linux-gnu-gcc
try aarch64 clang --target=aarch64-linux-gnu
try riscv riscv64-linux-gnu-gcc
try riscv clang --target=riscv64-linux-gnu -march=rv64gc
[ "$failed" -eq 0 ] || exit 1
if [ "$cross" -eq 0 ]; then
	echo "SKIP: no cross compiler installed"
	exit 77
fi
echo "compiled $compiled times"
