#!/bin/sh
# port/netbsd/rump/build-component.sh OUTDIR RUMPDIR XXHASH
#
# Build the NetBSD "dtrace" module (core + inst/ + kernel/ + port/netbsd + isa/x86_64)
# as a component of the NetBSD rump kernel in RUMPDIR (../shared/rump, read
# as a build input): OUTDIR/librumpdtrace.so, and OUTDIR/rumplib holding
# links to RUMPDIR's libraries.  The kernel module pairs (amd64, aarch64)
# are built by ci/kernel-modules.sh; this is the same module with the
# rump kernel's flags instead of a sysroot's:
#   - every file with the flags RUMPDIR/kernel/cflags.sh prints (the ones
#     NetBSD's build uses for rump components), plus -Wall -Werror and frame
#     pointers (stack() walks them);
#   - the C names the OS-neutral files include answered by port/netbsd/std/
#     over the rump kernel's own headers;
#   - the port's md_rump.c instead of the md_<isa>_* files, clock.c (the
#     rump kernel's timecounter ticks at hz: md_rump.c reads the host's
#     clock through the rumpuser hypercall, RUMPDIR/include/rump/rumpuser.h)
#     and sdt.c (librump has no SDT link sets);
#   - each object renamed into the rump namespace (RUMPDIR/kernel/
#     rumpns-rename.sh), then linked as a shared object that needs librump.
# XXHASH is the path of xxhash.h.  CC defaults to gcc; NM and OBJCOPY are
# passed to the rename script.
set -eu
OUT=$1
RUMP=$2
XXHASH=$3
SRC=$(cd "$(dirname "$0")/../../.." && pwd)
P=$SRC/port/netbsd
CC=${CC:-gcc}

mkdir -p "$OUT/obj" "$OUT/xxhash"
rm -f "$OUT"/obj/*.o
ln -sf "$XXHASH" "$OUT/xxhash/xxhash.h"
KFLAGS="$("$RUMP/kernel/cflags.sh") -Wall -Werror -fno-omit-frame-pointer"
INC="-I$P -I$P/std -I$SRC/core -I$SRC/inst -I$SRC/kernel -I$SRC/isa -I$SRC/isa/x86_64 -I$OUT/xxhash
	-I$RUMP/include"

n=0
compile() {
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$CC" $KFLAGS $INC -c "$1" -o "$OUT/obj/$n-$(basename "$1").o"
}
# kernel/'s files named for another ISA (instprov_aarch64.c, ...) stay out
for f in $(find "$SRC/core" "$SRC/inst" "$SRC/kernel" -name '*.c' | sort); do
	case $(basename "$f") in
	*_aarch64.c | *_riscv.c) ;;
	*) compile "$f" ;;
	esac
done
for f in "$P"/*.c "$P"/*.S; do
	case $(basename "$f") in
	md_rump.c) compile "$f" ;;
	md_* | clock.c | sdt.c) ;;
	*) compile "$f" ;;
	esac
done
# isa/x86_64 as dtrace_isa has it: not the Zydis decoder, which is user space's
for f in $(grep -L '<Zydis/' "$SRC"/isa/x86_64/*.c) "$SRC"/isa/x86_64/*.S "$SRC/isa/frame_walk.c"; do
	compile "$f"
done
"$RUMP/kernel/rumpns-rename.sh" "$OUT"/obj/*.o

# The libraries' soname links (librump.so -> librump.so.0.0) may arrive as
# small files holding the target's name where symbolic links were not kept:
# make real links, in the build tree, to the files themselves.
rm -rf "$OUT/rumplib" && mkdir -p "$OUT/rumplib"
for f in "$RUMP"/lib/*; do
	target=$f
	if [ ! -L "$f" ] && [ "$(wc -c <"$f")" -lt 64 ]; then
		target=$RUMP/lib/$(cat "$f")
	fi
	ln -s "$(cd "$(dirname "$target")" && pwd)/$(basename "$target")" "$OUT/rumplib/$(basename "$f")"
done
"$CC" -shared -o "$OUT/librumpdtrace.so" "$OUT"/obj/*.o -L"$OUT/rumplib" \
	-Wl,--no-as-needed -lrump -lrumpuser
