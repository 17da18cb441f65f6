#!/usr/bin/env bash
#
# ci/kernel-modules.sh: build each kernel backend as one relocatable module
# object (core + inst/ + kernel/ + port/<os> + isa/<isa>, `ld -r`) against that
# kernel's real headers, and prove that the kernel provides every symbol the
# object leaves undefined.
#
#   ci/kernel-modules.sh --list                 print the pairs (os-isa)
#   ci/kernel-modules.sh --pair freebsd-x86_64  build and check one pair
#   ci/kernel-modules.sh                        every pair
#   ci/kernel-modules.sh --self-test            prove the symbol check can fail
#
# Options: --work DIR (scratch; default a temporary directory).  Environment:
# CLANG (default clang-14), LD (ld.lld), NM (nm), SYSROOTS (default
# ../shared/sysroots beside the tree), XXHASH_H (/usr/include/xxhash.h).
#
# Flags.  Every file is compiled with exactly the module flags of the
# sysroot's README (check.sh proves them against the headers) plus -Werror
# -Wall and -fno-omit-frame-pointer (the backends walk kernel stacks by frame
# pointer), except that the OS-neutral sources are C11 (-std=gnu11 after the
# README's gnu99, as the tree builds them everywhere; they include no kernel
# header).  The kernel backend sees the sysroot's headers and, for the four
# C names core/port.h includes, its port/<os>/std/ shims over them; the
# OS-neutral core, kernel/ and isa/ see clang's freestanding headers as
# ci/freestanding-matrix.sh gives them, and xxhash.h.
#
# The symbol check.  `nm -u` on the linked object lists what the module needs
# from the kernel.  Each name must be
#   - declared by the sysroot's headers: a file including every header the
#     backend includes takes the address of each name, and clang must accept
#     it (an undeclared name is an error), and
#   - not one of the names those headers declare but the DTrace module we
#     replace defines (FBSD_FROM_DTRACE_KO below): nothing would provide it;
# or be one of the hook variables the kernel defines without declaring them
# in a header (HOOKS below, with the file that defines each), or bound a
# linker set the object itself holds (__start_set_X/__stop_set_X with a
# section set_X, which the kernel's module linker defines).  Anything else
# fails the pair, naming the symbol.
#
# Adding a pair is one line in PAIRS; a new OS also needs its flags in
# os_cflags and, if it has them, its undeclared hooks in HOOKS.

set -u
export LC_ALL=C

CI_DIR=$(cd "$(dirname "$0")" && pwd)
TREE=$(cd "$CI_DIR/.." && pwd)
SYSROOTS=${SYSROOTS:-$(cd "$TREE/.." && pwd)/shared/sysroots}
XXHASH_H=${XXHASH_H:-/usr/include/xxhash.h}
CLANG=${CLANG:-clang-14}
LD=${LD:-ld.lld}
NM=${NM:-nm}
READELF=${READELF:-readelf}
WORK=

# os  isa  clang triple  sysroot arch directory
PAIRS="
freebsd x86_64  x86_64-unknown-freebsd13  amd64
freebsd aarch64 aarch64-unknown-freebsd13 arm64
freebsd riscv   riscv64-unknown-freebsd13 riscv
illumos x86_64  x86_64-unknown-illumos    amd64
netbsd  x86_64  x86_64-unknown-netbsd7    amd64
netbsd  aarch64 aarch64-unknown-netbsd7   aarch64
"

# Hook variables the kernel defines but no header declares (on illumos they
# are declared in <sys/dtrace.h>, the framework's own header, which a module
# replacing the framework does not include and the sysroot does not ship;
# isa * for every ISA of the OS):
# os  isa  symbol  where the kernel defines it
HOOKS="
netbsd  x86_64  dtrace_invop_jump_addr     sys/arch/amd64/amd64/amd64_trap.S
netbsd  x86_64  dtrace_invop_calltrap_addr sys/arch/amd64/amd64/amd64_trap.S
netbsd  *       __start_link_set_sdt_providers_set the kernel's link (sys/sdt.h link sets)
netbsd  *       __stop_link_set_sdt_providers_set  the kernel's link (sys/sdt.h link sets)
netbsd  *       __start_link_set_sdt_probes_set    the kernel's link (sys/sdt.h link sets)
netbsd  *       __stop_link_set_sdt_probes_set     the kernel's link (sys/sdt.h link sets)
netbsd  *       __start_link_set_sdt_argtypes_set  the kernel's link (sys/sdt.h link sets)
netbsd  *       __stop_link_set_sdt_argtypes_set   the kernel's link (sys/sdt.h link sets)
freebsd x86_64  dtrace_invop_jump_addr     sys/amd64/amd64/exception.S
freebsd x86_64  dtrace_invop_calltrap_addr sys/amd64/amd64/exception.S
freebsd aarch64 dtrace_invop_jump_addr     sys/arm64/arm64/trap.c
freebsd riscv   dtrace_invop_jump_addr     sys/riscv/riscv/trap.c
illumos x86_64  dtrace_invop_add           usr/src/uts/i86pc/os/dtrace_subr.c
illumos x86_64  dtrace_invop_remove        usr/src/uts/i86pc/os/dtrace_subr.c
illumos x86_64  dtrace_modload             usr/src/uts/common/os/dtrace_subr.c
illumos x86_64  dtrace_modunload           usr/src/uts/common/os/dtrace_subr.c
illumos x86_64  dtrace_vtime_active        usr/src/uts/common/os/dtrace_subr.c
"

# Declared in the FreeBSD sysroot (sys/dtrace_bsd.h) but defined in
# dtrace.ko itself, which this module replaces.
FBSD_FROM_DTRACE_KO="dtrace_trap dtrace_gethrtime dtrace_gethrestime"

# Declared by the sysroot's headers but defined by no kernel of that pair,
# so nothing would provide them (isa * for all): os isa symbol why
UNDEFINED_IN_KERNEL="
netbsd  aarch64 dtrace_trap_func        only amd64 trap.c defines it in 7.99
netbsd  aarch64 dtrace_doubletrap_func  only amd64 trap.c defines it in 7.99
netbsd  *       dtrace_invop_func       sys/dtrace_bsd.h declares it, no 7.99 file defines it
netbsd  *       dtrace_fasttrap_fork    sys/dtrace_bsd.h declares it, no 7.99 file defines it
netbsd  *       dtrace_fasttrap_exec    sys/dtrace_bsd.h declares it, no 7.99 file defines it
netbsd  *       dtrace_fasttrap_exit    sys/dtrace_bsd.h declares it, no 7.99 file defines it
netbsd  *       dtrace_malloc_probe     sys/dtrace_bsd.h declares it, no 7.99 file defines it
"

say() { printf '%s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*" >&2; }

pair_field() { # pair-name field-number
	printf '%s\n' "$PAIRS" | awk -v p="$1" -v f="$2" 'NF == 4 && $1 !~ /^#/ && $1 "-" $2 == p { print $f }'
}

list_pairs() { printf '%s\n' "$PAIRS" | awk 'NF == 4 && $1 !~ /^#/ { print $1 "-" $2 }'; }

# The sysroot README's module flags for os/arch.
os_cflags() {
	local os=$1 isa=$2 arch=$3 sr=$SYSROOTS/$1
	case $os in
	freebsd)
		printf '%s ' -nostdinc -ffreestanding -D_KERNEL -DKLD_MODULE -std=gnu99 -fno-common \
			-fno-strict-aliasing -include opt_global.h -I"$sr/include" -I"$sr/arch/$arch" \
			-Werror=implicit-function-declaration -O2
		case $isa in
		x86_64) printf '%s ' -mcmodel=kernel -mno-red-zone -mno-mmx -mno-sse -msoft-float \
			-mno-aes -mno-avx -fno-asynchronous-unwind-tables ;;
		aarch64) printf '%s ' -mgeneral-regs-only -ffixed-x18 ;;
		riscv) printf '%s ' -march=rv64imac -mabi=lp64 -mcmodel=medany ;;
		esac
		;;
	netbsd)
		printf '%s ' -nostdinc -ffreestanding -D_KERNEL -D_MODULE -std=gnu99 -fno-common \
			-fno-strict-aliasing -I"$sr/include" -I"$sr/arch/$arch" \
			-Werror=implicit-function-declaration -O2
		case $isa in
		x86_64) printf '%s ' -mcmodel=kernel -mno-red-zone -mno-mmx -mno-sse -msoft-float ;;
		aarch64) printf '%s ' -mgeneral-regs-only ;;
		esac
		;;
	illumos)
		printf '%s ' -nostdinc -ffreestanding -mcmodel=kernel -mno-red-zone -mno-mmx -mno-sse \
			-msoft-float -std=gnu99 -fno-common -fno-strict-aliasing \
			-Werror=implicit-function-declaration \
			-D_KERNEL -D_SYSCALL32 -D_SYSCALL32_IMPL -D_ELF64 -D_DDI_STRICT -Dsun -D__sun \
			-D__SVR4 -Di86pc -D_MACHDEP -DC2_AUDIT -D_ASM_INLINES -fgnu89-inline \
			-I"$sr/arch/$arch" -I"$sr/include" -O2
		;;
	*)
		fail "$os: no module flags"
		return 1
		;;
	esac
	printf '%s ' -Werror -Wall -fno-omit-frame-pointer
	# after -Wall, which would turn them back on: Sun pragmas (README)
	[ "$os" = illumos ] && printf '%s ' -Wno-ignored-pragmas -Wno-unknown-pragmas
	printf '\n'
}

# clang's freestanding headers and the xxhash shims, as the matrix builds them.
make_freestanding_dir() {
	local dir=$1 resdir h
	resdir=$("$CLANG" -print-resource-dir)/include
	mkdir -p "$dir/include" "$dir/xxhash"
	for h in stdint.h stddef.h stdbool.h stdarg.h limits.h stdatomic.h \
		__stddef_max_align_t.h stdalign.h; do
		ln -sf "$resdir/$h" "$dir/include/$h"
	done
	ln -sf "$XXHASH_H" "$dir/xxhash/xxhash.h"
}

# The backend's sources for this ISA: port/<os>/*.{c,S} except other ISAs' md_*.
port_sources() {
	local os=$1 isa=$2 f b
	for f in "$TREE/port/$os"/*.c "$TREE/port/$os"/*.S; do
		[ -e "$f" ] || continue
		b=$(basename "$f")
		case $b in
		md_"$isa".* | md_"$isa"_*) printf '%s\n' "$f" ;;
		md_*) ;;
		*) printf '%s\n' "$f" ;;
		esac
	done
}

# kernel/ files named for an ISA (instprov_x86_64.c, ...) go only into that
# ISA's modules.
ISAS="x86_64 aarch64 riscv"

neutral_sources() {
	local isa=$1 f other skip
	find "$TREE/core" -name '*.c' | sort
	find "$TREE/inst" -name '*.c' 2>/dev/null | sort
	find "$TREE/kernel" -name '*.c' 2>/dev/null | sort | while read -r f; do
		skip=
		for other in $ISAS; do
			[ "$other" = "$isa" ] && continue
			case $f in *_"$other".c) skip=1 ;; esac
		done
		[ -z "$skip" ] && printf '%s\n' "$f"
	done
	# the instruction decoder over Zydis is user space's alone (dtrace_isa_decode
	# in isa/<isa>/CMakeLists.txt): a kernel links dtrace_isa's files
	grep -L '<Zydis/' "$TREE/isa/$isa"/*.c 2>/dev/null
	ls "$TREE/isa/$isa"/*.S "$TREE/isa/frame_walk.c" 2>/dev/null
}

build_pair() {
	local pair=$1 work=$2 os isa triple arch cflags fs obj f n=0 rc=0
	os=$(pair_field "$pair" 1)
	isa=$(pair_field "$pair" 2)
	triple=$(pair_field "$pair" 3)
	arch=$(pair_field "$pair" 4)
	if [ -z "$os" ]; then
		fail "$pair: no such pair (see --list)"
		return 1
	fi
	if [ ! -f "$TREE/port/$os/CMakeLists.txt" ] && [ -z "$(port_sources "$os" "$isa")" ]; then
		fail "$pair: port/$os has no sources"
		return 1
	fi
	rm -rf "$work"
	mkdir -p "$work/obj"
	fs=$work/freestanding
	make_freestanding_dir "$fs"
	cflags=$(os_cflags "$os" "$isa" "$arch") || return 1

	while read -r f; do
		n=$((n + 1))
		obj=$work/obj/$n-$(basename "$f").o
		# shellcheck disable=SC2086
		if ! "$CLANG" --target="$triple" $cflags -std=gnu11 -isystem "$fs/include" -isystem "$TREE/ci/freestanding-include" \
			-isystem "$fs/xxhash" -I"$TREE/core" -I"$TREE/inst" -I"$TREE/kernel" -I"$TREE/isa/$isa" -I"$TREE/isa" \
			-c "$f" -o "$obj" 2>"$work/err"; then
			fail "$pair: ${f#"$TREE"/}: does not compile"
			cat "$work/err" >&2
			rc=1
		fi
	done < <(neutral_sources "$isa")
	while read -r f; do
		n=$((n + 1))
		obj=$work/obj/$n-$(basename "$f").o
		# shellcheck disable=SC2086
		if ! "$CLANG" --target="$triple" $cflags -I"$TREE/port/$os/std" -I"$TREE/port/$os" \
			-I"$TREE/core" -I"$TREE/inst" -I"$TREE/kernel" -I"$TREE/isa/$isa" -I"$TREE/isa" \
			-c "$f" -o "$obj" 2>"$work/err"; then
			fail "$pair: ${f#"$TREE"/}: does not compile"
			cat "$work/err" >&2
			rc=1
		fi
	done < <(port_sources "$os" "$isa")
	[ "$rc" -eq 0 ] || return 1
	if ! "$LD" -r -o "$work/dtrace.o" "$work"/obj/*.o 2>"$work/err"; then
		fail "$pair: ld -r failed"
		cat "$work/err" >&2
		return 1
	fi
	say "ok   $pair: built $work/dtrace.o from $n sources ($(wc -c <"$work/dtrace.o") bytes)"
}

# check_symbols pair object work: every undefined symbol is provided.
check_symbols() {
	local pair=$1 obj=$2 work=$3 os isa triple arch cflags f sym syms sets hooks check port_api rc=0 n=0
	os=$(pair_field "$pair" 1)
	isa=$(pair_field "$pair" 2)
	triple=$(pair_field "$pair" 3)
	arch=$(pair_field "$pair" 4)
	cflags=$(os_cflags "$os" "$isa" "$arch") || return 1
	syms=$("$NM" -u "$obj" | awk '{ print $NF }' | sort -u)
	hooks=$(printf '%s\n' "$HOOKS" | awk -v os="$os" -v isa="$isa" \
		'$1 == os && ($2 == isa || $2 == "*") { print $3 }')

	# Every header the backend includes, then the address of each symbol.
	check=$work/declared.c
	{
		# the port's own headers first: they include the kernel's in a valid order
		for f in "$TREE/port/$os"/*.h; do
			[ -e "$f" ] && say "#include \"$f\""
		done
		grep -h '^#include <' $(port_sources "$os" "$isa") 2>/dev/null | awk '!seen[$0]++'
		say "void dtrace_kernel_symbol_check(void);"
		say "void dtrace_kernel_symbol_check(void) {"
		for sym in $syms; do
			printf '%s\n' "$hooks" | grep -qx "$sym" && continue
			case $sym in __start_set_* | __stop_set_*) continue ;; esac
			say "	(void)&$sym;"
		done
		say "}"
	} >"$check"
	# shellcheck disable=SC2086
	"$CLANG" --target="$triple" $cflags -Wno-error -w -Werror=implicit-function-declaration \
		-ferror-limit=0 -I"$TREE/port/$os/std" -I"$TREE/port/$os" -I"$TREE/core" \
		-I"$TREE/inst" -I"$TREE/kernel" -I"$TREE/isa/$isa" -I"$TREE/isa" -fsyntax-only "$check" \
		2>"$work/declared.err"

	sets=$("$READELF" -SW "$obj" | sed -n 's/.* \(set_[A-Za-z0-9_]*\) .*/\1/p' | sort -u)
	# What the backend itself must define: the functions of core/port.h and
	# kernel/kernel_port.h.  The declaration check below sees them declared
	# (through the port's own headers), so they are refused by name.
	port_api=$(sed -n 's/.*[ *]\(dtrace_port_[a-z0-9_]*\)(.*/\1/p
		s/.*[ *]\(kern_[a-z0-9_]*\)(.*/\1/p' "$TREE/core/port.h" "$TREE/kernel/kernel_port.h")
	for sym in $syms; do
		n=$((n + 1))
		if printf '%s\n' "$port_api" | grep -qx "$sym"; then
			fail "$pair: $sym is a port.h/kernel_port.h function the backend does not define"
			rc=1
			continue
		fi
		if printf '%s\n' "$hooks" | grep -qx "$sym"; then
			continue
		fi
		case $sym in
		__start_set_* | __stop_set_*)
			# the kernel linker bounds the module's own linker sets
			if printf '%s\n' "$sets" | grep -qx "set_${sym#__st*_set_}"; then
				continue
			fi
			;;
		esac
		if [ "$os" = freebsd ] && printf '%s\n' $FBSD_FROM_DTRACE_KO | grep -qx "$sym"; then
			fail "$pair: $sym is declared in the sysroot but defined by dtrace.ko, which this module replaces"
			rc=1
			continue
		fi
		if printf '%s\n' "$UNDEFINED_IN_KERNEL" | awk -v os="$os" -v isa="$isa" -v s="$sym" \
			'$1 == os && ($2 == isa || $2 == "*") && $3 == s { f = 1 } END { exit !f }'; then
			fail "$pair: $sym is declared in the sysroot but no kernel of this pair defines it"
			rc=1
			continue
		fi
		if grep -q "undeclared identifier '$sym'" "$work/declared.err"; then
			fail "$pair: $sym is undefined in the module and no sysroot header declares it"
			rc=1
		fi
	done
	if [ "$rc" -eq 0 ] && grep -q "error:" "$work/declared.err"; then
		fail "$pair: the declaration check did not compile"
		cat "$work/declared.err" >&2
		rc=1
	fi
	[ "$rc" -eq 0 ] && say "ok   $pair: $n undefined symbols, each provided by the kernel"
	return $rc
}

run_pair() {
	local pair=$1 work=$WORK/$1 os
	os=$(pair_field "$pair" 1)
	if [ -n "$os" ] && [ ! -d "$SYSROOTS/$os" ]; then
		say "skip $pair: no $os sysroot at $SYSROOTS/$os (../shared/sysroots beside the tree)" >&2
		return 77
	fi
	build_pair "$pair" "$work" || return 1
	check_symbols "$pair" "$work/dtrace.o" "$work"
}

# The check must fail on a name nobody provides, on one only dtrace.ko
# defines, on one declared for a pair whose kernel lacks it, on a port.h
# function the backend leaves undefined, and pass on a kernel function and
# on a hook only some ISA's kernel has.
self_test() {
	local pair work=$WORK/selftest rc=0 triple cflags case
	mkdir -p "$work"
	for case in freebsd-x86_64:printf:pass freebsd-x86_64:dtrace_no_such_kernel_symbol:fail \
		freebsd-x86_64:dtrace_gethrtime:fail netbsd-x86_64:xc_broadcast:pass \
		netbsd-x86_64:dtrace_no_such_kernel_symbol:fail netbsd-x86_64:dtrace_trap_func:pass \
		netbsd-aarch64:dtrace_trap_func:fail netbsd-x86_64:dtrace_invop_func:fail \
		netbsd-x86_64:dtrace_port_zalloc_private:fail; do
		pair=${case%%:*}
		case=${case#*:}
		if [ ! -d "$SYSROOTS/${pair%%-*}" ]; then
			say "skip self-test: no sysroot at $SYSROOTS/${pair%%-*}" >&2
			return 77
		fi
		triple=$(pair_field "$pair" 3)
		cflags=$(os_cflags "$(pair_field "$pair" 1)" "$(pair_field "$pair" 2)" \
			"$(pair_field "$pair" 4)")
		local sym=${case%%:*} want=${case##*:} got
		printf 'extern void %s(void); void f(void); void f(void) { %s(); }\n' "$sym" "$sym" \
			>"$work/$sym.c"
		# shellcheck disable=SC2086
		"$CLANG" --target="$triple" $cflags -Wno-error -w -c "$work/$sym.c" -o "$work/$sym.o" ||
			return 1
		if check_symbols "$pair" "$work/$sym.o" "$work" >/dev/null 2>"$work/$sym.log"; then
			got=pass
		else
			got=fail
		fi
		if [ "$got" != "$want" ]; then
			fail "self-test: $pair: an object needing $sym should $want the check, it did $got"
			cat "$work/$sym.log" >&2
			rc=1
		else
			say "ok   self-test: $pair: an object needing $sym: $want"
		fi
	done
	return $rc
}

main() {
	local mode=all pair= rc=0 p
	while [ $# -gt 0 ]; do
		case $1 in
		--list) list_pairs; return 0 ;;
		--pair) mode=one; pair=$2; shift ;;
		--self-test) mode=self ;;
		--work) WORK=$2; shift ;;
		*) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//' >&2; return 2 ;;
		esac
		shift
	done
	if [ -z "$WORK" ]; then
		WORK=$(mktemp -d)
		trap 'rm -rf "$WORK"' EXIT
	fi
	mkdir -p "$WORK"
	case $mode in
	one) run_pair "$pair" ;;
	self) self_test ;;
	all)
		for p in $(list_pairs); do
			run_pair "$p" || rc=1
		done
		return $rc
		;;
	esac
}

main "$@"
