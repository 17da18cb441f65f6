#!/bin/sh
# Let the kernel start aarch64 and riscv64 programs through qemu-user, so
# a cross-built dtrace's `-c ./target` and the tests' foreign programs run
# on this machine (Linux binfmt_misc).  As root:
#   - mount binfmt_misc on /proc/sys/fs/binfmt_misc if it is not;
#   - take the static qemu-<arch>-static binaries out of Debian's
#     qemu-user-static package into DIR/bin (apt-get download + dpkg-deb:
#     the package itself is not installed, it conflicts with qemu-user-binfmt).
#     A static interpreter matters: a dynamic qemu's own loader would try the
#     LD_PRELOAD meant for the guest (the dtrace agent) and complain;
#   - register qemu-aarch64 and qemu-riscv64 with flags POF (keep argv[0],
#     open the binary, interpreter opened now), replacing any entry of the
#     same name that points elsewhere;
#   - point qemu's default library prefix /etc/qemu-binfmt/<arch> at the
#     sysroot cmake/cross-sysroot.sh made (DIR/<isa>), or at the cross C
#     library (/usr/<triple>) when there is none (replaced by the sysroot
#     once it exists), unless the prefix is already something else.
# Says what it did; changes nothing already in place.  Exit 77 when
# binfmt_misc cannot be used here (no permission, no kernel support).
# Usage: cmake/cross-binfmt.sh [DIR]     (DIR: /opt/dtrace-cross)
set -eu
dir=${1:-/opt/dtrace-cross}
bm=/proc/sys/fs/binfmt_misc
say() { echo "cross-binfmt: $*"; }

if [ ! -e "$bm/register" ]; then
	if ! mount -t binfmt_misc binfmt_misc "$bm" 2>/dev/null; then
		say "binfmt_misc is not available (mount failed): foreign programs cannot be started by path"
		exit 77
	fi
	say "mounted binfmt_misc on $bm"
fi

need=
for a in aarch64 riscv64; do
	[ -x "$dir/bin/qemu-$a-static" ] || need=1
done
if [ -n "$need" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -qq qemu-user-static)
	mkdir -p "$dir/bin"
	dpkg-deb --fsys-tarfile "$tmp"/qemu-user-static_*.deb |
		tar -x -C "$tmp" ./usr/bin/qemu-aarch64-static ./usr/bin/qemu-riscv64-static
	for a in aarch64 riscv64; do
		mv "$tmp/usr/bin/qemu-$a-static" "$dir/bin/"
		say "extracted qemu-$a-static from qemu-user-static into $dir/bin"
	done
fi

# The ELF header of each ISA (64-bit little-endian executables and shared
# objects), as Debian's qemu-user-binfmt has it.
magic_aarch64='\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
magic_riscv64='\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xf3\x00'
mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
for a in aarch64 riscv64; do
	interp=$dir/bin/qemu-$a-static
	entry=$bm/qemu-$a
	if [ -e "$entry" ]; then
		if grep -q "^interpreter $interp\$" "$entry"; then
			continue
		fi
		say "replacing qemu-$a ($(sed -n 's/^interpreter //p' "$entry"))"
		echo -1 >"$entry"
	fi
	eval magic=\$magic_$a
	printf ':qemu-%s:M::%s:%s:%s:POF\n' "$a" "$magic" "$mask" "$interp" >"$bm/register"
	say "registered qemu-$a -> $interp"
done

mkdir -p /etc/qemu-binfmt
for pair in aarch64:aarch64 riscv64:riscv; do
	a=${pair%%:*} isa=${pair#*:}
	root=$dir/$isa
	# without a sysroot, the cross C library alone
	[ -d "$root/lib" ] || root=/usr/$a-linux-gnu
	[ -d "$root" ] || continue
	link=/etc/qemu-binfmt/$a
	if [ -L "$link" ] && [ "$(readlink "$link")" = "$root" ]; then
		continue
	fi
	# our own fallback (the cross C library), made before the sysroot existed
	if [ -L "$link" ] && [ "$(readlink "$link")" = "/usr/$a-linux-gnu" ]; then
		rm "$link"
		say "replacing $link -> /usr/$a-linux-gnu (made before $root existed)"
	fi
	if [ -e "$link" ]; then
		say "$link exists and is not ours: left alone"
		continue
	fi
	ln -s "$root" "$link"
	say "linked $link -> $root (the guest's library root)"
done
