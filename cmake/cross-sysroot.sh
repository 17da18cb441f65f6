#!/bin/sh
# Make the run-time and link-time root of a foreign-ISA Linux build in
# DIR (default /opt/dtrace-cross/ISA): the target's libelf, libctf
# (binutils-dev) and libdwarf with what they link (zlib, zstd, libbfd),
# xxhash.h and systemtap's sys/sdt.h, from Debian's packages (apt-get
# download + dpkg-deb -x: nothing is installed into the system).  The
# toolchain files (cmake/toolchains/*.cmake) link against it and tell
# qemu-user to use it as the guest's root for libraries (-L), and
# cmake/cross-binfmt.sh points qemu's binfmt_misc prefix
# (/etc/qemu-binfmt/<qemu arch>) at it, so a foreign program the
# cross-built dtrace starts finds its libraries too.
#
#   aarch64  Debian 12 (bookworm) arm64 packages, through the system's apt
#            (needs `dpkg --add-architecture arm64`), beside links to the
#            cross C library of libc6-dev-arm64-cross (/usr/aarch64-linux-gnu).
#   riscv    Debian 12 has no riscv64 packages, Debian 13 (trixie) has: they
#            come from trixie through a private apt configuration in a
#            temporary directory (its own sources list, package lists, cache
#            and an empty dpkg status; the system's apt sources and dpkg
#            state are not touched).  apt verifies trixie's Release file
#            with the system keyring (/etc/apt/trusted.gpg.d: bookworm's
#            debian-archive-keyring carries the trixie keys).  trixie's
#            libelf needs glibc 2.38, newer than bookworm's cross libc
#            (2.36), so the sysroot carries trixie's C library too (libc6,
#            libc6-dev, linux-libc-dev, libgcc-s1) in a merged-/usr layout
#            (lib -> usr/lib), and the riscv toolchain compiles and links
#            with --sysroot DIR.  Mirror: DEBIAN_MIRROR (default
#            http://deb.debian.org/debian).
#
# Needs root for /opt.  Exits 77, saying why, when the packages cannot be
# had (no arm64 architecture in dpkg, trixie unreachable): DIR then holds
# xxhash.h alone, enough for the core, the ISA module and the engine.
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
if [ "$isa" = riscv ]; then
	mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/parts" "$tmp/debs"
	# apt's sandbox user must be able to write the download directories
	chmod -R 755 "$tmp"
	echo "deb $mirror trixie main" >"$tmp/sources.list"
	: >"$tmp/status"
	set -- -o Dir::Etc::sourcelist="$tmp/sources.list" -o Dir::Etc::sourceparts="$tmp/parts" \
		-o Dir::Etc::preferences=/dev/null -o Dir::Etc::preferencesparts="$tmp/parts" \
		-o Dir::State::Lists="$tmp/lists" -o Dir::State::status="$tmp/status" \
		-o Dir::Cache="$tmp/cache" -o APT::Architecture=riscv64 -o APT::Architectures::=riscv64
	if ! apt-get "$@" -qq update >"$tmp/update.log" 2>&1 ||
		grep -q '^[WE]:' "$tmp/update.log"; then
		sed 's/^/cross-sysroot: apt: /' "$tmp/update.log"
		echo "cross-sysroot: cannot read Debian 13 (trixie) riscv64 package lists from $mirror" \
			"(unreachable or not verified): no riscv sysroot"
		exit 77
	fi
	echo "cross-sysroot: read trixie riscv64 package lists from $mirror (signature verified by apt)"
	(cd "$tmp/debs" && apt-get "$@" download -qq \
		libc6 libc6-dev linux-libc-dev libcrypt1 libcrypt-dev libgcc-s1 \
		libelf1t64 libelf-dev zlib1g zlib1g-dev libzstd1 libzstd-dev libdwarf1 libdwarf-dev \
		libctf0 libctf-nobfd0 libbinutils libsframe1 binutils-dev libxxhash0 libxxhash-dev \
		systemtap-sdt-dev)
	# merged /usr, as trixie's packages expect: the loader is /lib/ld-linux-riscv64-lp64d.so.1
	mkdir -p "$dir/usr/lib"
	[ -e "$dir/lib" ] || ln -s usr/lib "$dir/lib"
	for deb in "$tmp/debs"/*.deb; do
		dpkg-deb -x "$deb" "$dir"
		echo "cross-sysroot: extracted $(basename "$deb") into $dir"
	done
	if [ ! -e "$dir/lib/$triple/libc.so.6" ]; then
		echo "cross-sysroot: no libc.so.6 in $dir/lib/$triple after extraction" >&2
		exit 1
	fi
	echo "cross-sysroot: $dir is a Debian 13 riscv64 sysroot (glibc $(dpkg-deb -f "$tmp"/debs/libc6_*.deb Version))"
	exit 0
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
