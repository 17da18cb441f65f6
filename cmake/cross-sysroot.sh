#!/bin/sh
# Make the run-time and link-time root of a foreign-ISA Linux build in
# DIR (default /opt/dtrace-cross/ISA): the target's libelf, libctf
# (binutils-dev) and libdwarf with what they link (zlib, zstd, libbfd) from
# Debian's packages (apt-get download + dpkg-deb -x: nothing is installed
# into the system), beside links to the cross C library Debian's
# libc6-<arch>-cross installs under /usr/<triple>.  The toolchain files
# (cmake/toolchains/*.cmake) link against it and tell qemu-user to use it
# as the guest's root for libraries (-L), and bootstrap.sh points qemu's
# binfmt_misc prefix (/etc/qemu-binfmt/<qemu arch>) at it, so a foreign
# program the cross-built dtrace starts finds its libraries too.
# Needs the Debian architecture in dpkg (dpkg --add-architecture) and root
# for /opt.  Exits 77 when Debian has no packages for the ISA (riscv64 is
# not a release architecture of Debian 12): DIR then holds xxhash.h alone,
# enough for the core, the ISA module and the engine.
# Usage: cmake/cross-sysroot.sh aarch64|riscv [DIR]
set -eu
isa=$1
case $isa in
aarch64) arch=arm64 triple=aarch64-linux-gnu ;;
riscv) arch=riscv64 triple=riscv64-linux-gnu ;;
*) echo "cross-sysroot: unknown ISA $isa" >&2; exit 2 ;;
esac
dir=${2:-/opt/dtrace-cross/$isa}
pkgs=
for p in libelf1 libelf-dev zlib1g zlib1g-dev libzstd1 libdwarf1 libdwarf-dev libctf0 libxxhash-dev \
	libctf-nobfd0 libbinutils binutils-dev systemtap-sdt-dev; do
	pkgs="$pkgs $p:$arch"
done

if [ -e "$dir/usr/lib/$triple/libelf.so" ] && [ -e "$dir/usr/lib/$triple/libctf.so" ] &&
	[ -e "$dir/usr/lib/$triple/libdwarf.so" ] && [ -e "$dir/usr/include/xxhash.h" ] &&
	[ -e "$dir/usr/include/$triple/sys/sdt.h" ] &&
	[ -e "$dir/lib/$triple/libc.so.6" ]; then
	echo "cross-sysroot: $dir is ready"
	exit 0
fi
# The core's one library header (xxhash.h, used inline) is the same for
# every ISA: a target without packages still gets it from this machine.
if [ ! -e "$dir/usr/include/xxhash.h" ] && [ -e /usr/include/xxhash.h ]; then
	mkdir -p "$dir/usr/include"
	cp /usr/include/xxhash.h "$dir/usr/include/"
	echo "cross-sysroot: copied /usr/include/xxhash.h into $dir (header only)"
fi
if ! apt-cache show "libelf-dev:$arch" >/dev/null 2>&1; then
	echo "cross-sysroot: Debian offers no libelf-dev:$arch here (dpkg architectures:" \
		"$(dpkg --print-architecture) $(dpkg --print-foreign-architectures | tr '\n' ' '))"
	exit 77
fi
if [ ! -d "/usr/$triple/lib" ]; then
	echo "cross-sysroot: /usr/$triple/lib missing (install libc6-dev-$arch-cross)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# apt's sandbox user must be able to write the download directory
chmod 755 "$tmp"
(cd "$tmp" && apt-get download -qq $pkgs)
mkdir -p "$dir/lib/$triple"
for deb in "$tmp"/*.deb; do
	dpkg-deb -x "$deb" "$dir"
	echo "cross-sysroot: extracted $(basename "$deb") into $dir"
done
# The cross C library where the target's dynamic loader looks for it.
for f in "/usr/$triple/lib"/*; do
	ln -sf "$f" "$dir/lib/$triple/$(basename "$f")"
done
ld=$(cd "/usr/$triple/lib" && ls ld-linux-*.so.* | head -1)
ln -sf "/usr/$triple/lib/$ld" "$dir/lib/$ld"
echo "cross-sysroot: linked /usr/$triple/lib into $dir/lib/$triple and $dir/lib/$ld"
