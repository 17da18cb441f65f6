#!/bin/sh
# port/netbsd/build.sh: build the NetBSD "dtrace" module (core + port + isa
# + providers) for one target, from the shared trees as build inputs.
#
#   build.sh amd64   OUTDIR SYSROOT XXHASH   -> OUTDIR/dtrace.kmod.o
#   build.sh aarch64 OUTDIR SYSROOT XXHASH   -> OUTDIR/dtrace.kmod.o
#   build.sh rump    OUTDIR RUMPDIR XXHASH   -> OUTDIR/librumpdtrace.so
#
# amd64/aarch64: clang with exactly the module flags of SYSROOT/README.md
# (its check.sh), plus -Werror, then `ld -r` into one relocatable object as
# a NetBSD kernel module is.  rump: the flags RUMPDIR/kernel/cflags.sh
# prints, plus warnings and frame pointers (stack() in the rump kernel),
# every object renamed into the rump namespace (rumpns-rename.sh), linked
# as a shared object that needs librump.  XXHASH is the path of xxhash.h.
# Environment: CLANG (default clang-14 or clang), CC for rump (default
# gcc), LD (default ld.lld), NM, OBJCOPY.
set -eu
TARGET=$1
OUT=$2
TREE=$3
XXHASH=$4
SRC=$(cd "$(dirname "$0")/../.." && pwd)
P=$SRC/port/netbsd
CLANG=${CLANG:-$(command -v clang-14 || command -v clang)}
LD=${LD:-ld.lld}

COMMON="cpu.c device.c destructive.c memory.c module.c modules.c nofault.c
	profile.c stack.c syscall.c thread.c timer.c"
case $TARGET in
amd64)
	ISA=x86_64
	PORT="$COMMON trap_x86_64.c invop_x86_64.S text_x86_64.c sdt.c"
	TRIPLE=x86_64-unknown-netbsd7
	ISAFLAGS="-mcmodel=kernel -mno-red-zone -mno-mmx -mno-sse -msoft-float" ;;
aarch64)
	ISA=aarch64
	PORT="$COMMON trap_aarch64.c text_aarch64.c sdt.c"
	TRIPLE=aarch64-unknown-netbsd7
	ISAFLAGS="-mgeneral-regs-only" ;;
rump)
	ISA=x86_64
	PORT="$COMMON trap_rump.c" ;;
*)
	echo "build.sh: unknown target $TARGET" >&2
	exit 2 ;;
esac

mkdir -p "$OUT/obj" "$OUT/xxhash"
rm -f "$OUT"/obj/*.o
ln -sf "$XXHASH" "$OUT/xxhash/xxhash.h"
INC="-I$P -I$P/include -I$SRC/core -I$SRC/isa -I$SRC/isa/$ISA -I$SRC/kernel -I$OUT/xxhash"

if [ "$TARGET" = rump ]; then
	KFLAGS="$("$TREE/kernel/cflags.sh") -Wall -Werror -fno-omit-frame-pointer"
	CC=${CC:-gcc}
else
	# SYSROOT/README.md, "Triples and flags", then -Werror.
	KFLAGS="--target=$TRIPLE -nostdinc -ffreestanding -D_KERNEL -D_MODULE -std=gnu99
		-fno-common -fno-strict-aliasing -I$TREE/include -I$TREE/arch/$TARGET
		$ISAFLAGS -Werror=implicit-function-declaration -O2 -Werror"
	CC=$CLANG
fi

# The rump libraries' soname links (librump.so -> librump.so.0.0) may come
# as small files holding the target's name where symbolic links were not
# kept: make real links, in the build tree, to the files themselves.
rump_libdir() {
	rm -rf "$2" && mkdir -p "$2"
	for f in "$1"/*; do
		name=$(basename "$f")
		target=$f
		if [ ! -L "$f" ] && [ "$(wc -c <"$f")" -lt 64 ]; then
			target=$1/$(cat "$f")
		fi
		ln -s "$(cd "$(dirname "$target")" && pwd)/$(basename "$target")" "$2/$name"
	done
}

n=0
compile() {
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$CC" $KFLAGS $INC -c "$1" -o "$OUT/obj/$n-$(basename "$1" | sed 's/\.[cS]$//').o"
}
for f in $(cd "$SRC" && find core -name '*.c' | sort); do compile "$SRC/$f"; done
for f in $PORT; do compile "$P/$f"; done
for f in nofault.S regs.c patch.c; do compile "$SRC/isa/$ISA/$f"; done
compile "$SRC/isa/frame_walk.c"

if [ "$TARGET" = rump ]; then
	"$TREE/kernel/rumpns-rename.sh" "$OUT"/obj/*.o
	rump_libdir "$TREE/lib" "$OUT/rumplib"
	"$CC" -shared -o "$OUT/librumpdtrace.so" "$OUT"/obj/*.o -L"$OUT/rumplib" \
		-Wl,--no-as-needed -lrump -lrumpuser
else
	"$LD" -r -o "$OUT/dtrace.kmod.o" "$OUT"/obj/*.o
fi
