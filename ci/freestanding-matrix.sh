#!/usr/bin/env bash
#
# ci/freestanding-matrix.sh: prove that core/ is freestanding and OS/ISA
# neutral by compiling it, with clang 14, for every OS/ISA target triple.
#
#   ci/freestanding-matrix.sh                    source check, then every triple
#   ci/freestanding-matrix.sh --source-check     only the source check
#   ci/freestanding-matrix.sh --triple T [...]   only these triples
#   ci/freestanding-matrix.sh --list             print the triples
#   ci/freestanding-matrix.sh --self-test        prove the checks catch violations
#
# Options: --core DIR (default: core/ beside this script), --work DIR (scratch,
# default a temporary directory), --xxhash FILE (xxhash.h, default
# /usr/include/xxhash.h).  Environment: CLANG (default clang-14, else clang),
# NM (default nm; binutils reads every ELF target).
#
# For each triple:
#   1. every core/**/*.c is compiled to an object at -O2 with -Wall -Wextra
#      -Werror (and the core's own -Wshadow -Wmissing-prototypes), with
#      -ffreestanding -fno-builtin -nostdinc, seeing only the six freestanding
#      headers of clang, ci/freestanding-include/ (the names xxhash.h pulls
#      from <stdlib.h>, <string.h> and <assert.h>) and xxhash.h itself, and
#      with the ISA's kernel code-generation flags (no FP/SIMD registers);
#   2. every core header that no .c file reached is syntax-checked on its own,
#      so a tree with only headers is still checked;
#   3. the objects together may leave undefined only memcpy, memmove, memset,
#      memcmp and the dtrace_port_* functions declared in core/port.h: a
#      soft-float helper, an atomic libcall or any other OS function fails.
# The source check (triple-independent) refuses any #include other than the
# freestanding six, core headers and xxhash.h (in one core file only); any
# #if/#ifdef/#elif naming an OS or ISA macro (a fixed list plus every macro
# whose predefined value differs between the triples); inline asm and ISA
# builtins.
#
# Every failure names the triple and the file; the exit status is non-zero if
# anything failed.

# The lists below (triples, headers, macros) are whitespace-separated words
# and are split on purpose.
# shellcheck disable=SC2086

set -u
export LC_ALL=C

CI_DIR=$(cd "$(dirname "$0")" && pwd)
CORE_DIR=$(cd "$CI_DIR/.." && pwd)/core
WORK=
XXHASH_H=${XXHASH_H:-/usr/include/xxhash.h}

# The matrix.  clang 14 knows no "illumos" OS: the *-unknown-illumos triples
# compile as bare ELF with the ISA's LP64 psABI, which is what the core
# needs.  x86_64-pc-solaris2.11 is clang's real Solaris/illumos target;
# aarch64- and riscv64-unknown-solaris2.11 make the clang 14 driver abort, so
# those ISAs are covered by the -illumos spelling only (see ci/README.md).
TRIPLES="
x86_64-unknown-freebsd14
aarch64-unknown-freebsd14
riscv64-unknown-freebsd14
x86_64-unknown-netbsd10
aarch64-unknown-netbsd10
riscv64-unknown-netbsd10
x86_64-unknown-linux-gnu
aarch64-unknown-linux-gnu
riscv64-unknown-linux-gnu
x86_64-unknown-illumos
aarch64-unknown-illumos
riscv64-unknown-illumos
x86_64-pc-solaris2.11
"

# The only headers core/ may include besides its own (ARCHITECTURE.md).
FREESTANDING_HEADERS="stdint.h stddef.h stdbool.h stdarg.h limits.h stdatomic.h"
# Clang headers the six include, and those xxhash.h pulls in C11 mode.
CLANG_HELPER_HEADERS="__stddef_max_align_t.h stdalign.h"
# Functions every kernel provides and compilers emit calls to.
MEM_FUNCTIONS="memcpy memmove memset memcmp"

# Macros that name an OS, an ISA or a kernel build, including OSes outside
# the matrix.  Macros whose value differs between the triples are added at
# run time.
OS_ISA_MACROS="
linux __linux __linux__ __gnu_linux__ __ANDROID__ __FreeBSD__ __FreeBSD_kernel__
__FreeBSD_version __NetBSD__ __NetBSD_Version__ __OpenBSD__ __DragonFly__ __APPLE__
__MACH__ sun __sun __sun__ __SVR4 __svr4__ __illumos__ illumos __solaris__ _WIN32
_WIN64 __CYGWIN__ __MINGW32__ __unix __unix__ unix __HAIKU__ __Fuchsia__ _KERNEL KERNEL
__KERNEL__ _STANDALONE __ELF__ __x86_64 __x86_64__ __amd64 __amd64__ _M_X64 _M_AMD64
__i386 __i386__ i386 _M_IX86 __aarch64__ __arm64__ __arm64 _M_ARM64 __arm__ __ARM_ARCH
__thumb__ __riscv __riscv_xlen __riscv_compressed __powerpc__ __powerpc64__ __ppc__
__ppc64__ __PPC64__ __sparc __sparc__ __sparcv9 __mips__ __mips __s390__ __s390x__
__loongarch__ __loongarch64 __ia64__ __alpha__ __m68k__ __hppa__ __SSE__ __SSE2__
__AVX__ __AVX2__ __ARM_NEON __ARM_NEON__
"

say() { printf '%s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*" >&2; }

usage() {
	sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

find_clang() {
	if [ -n "${CLANG:-}" ]; then
		return
	fi
	if command -v clang-14 >/dev/null 2>&1; then
		CLANG=clang-14
	elif command -v clang >/dev/null 2>&1; then
		CLANG=clang
	else
		fail "setup: no clang-14 or clang on PATH (install Debian's clang)"
		exit 1
	fi
}

# The per-ISA code-generation flags.  Kernels keep FP/SIMD state out of
# kernel code, so the core must not need it anywhere: x86_64 without
# MMX/SSE, aarch64 with general registers only, riscv64 without F/D.  These
# flags also make xxhash.h choose its scalar code.  aarch64 atomics are
# inline: no -moutline-atomics helper calls into libgcc, which no kernel
# links.  Kernel triples get the kernel code model; the Linux host is a
# shared library, hence -fPIC.
codegen_flags() {
	local triple=$1 isa=${1%%-*} flags
	case $isa in
	x86_64) flags="-mno-mmx -mno-sse -mno-sse2 -msoft-float" ;;
	aarch64) flags="-mgeneral-regs-only -mno-outline-atomics" ;;
	riscv64) flags="-march=rv64imac -mabi=lp64 -mcmodel=medany" ;;
	*)
		fail "$triple: no code-generation flags for ISA '$isa'"
		return 1
		;;
	esac
	case $triple in
	*-linux-gnu) flags="$flags -fPIC" ;;
	x86_64-*) flags="$flags -mcmodel=kernel -mno-red-zone" ;;
	esac
	printf '%s\n' "$flags"
}

# Build the include directory the compiler sees: clang's six freestanding
# headers (and their helpers) by symlink, nothing else of clang's.
make_include_dirs() {
	local resdir h
	resdir=$("$CLANG" -print-resource-dir)/include
	mkdir -p "$WORK/include" "$WORK/xxhash" || return 1
	for h in $FREESTANDING_HEADERS $CLANG_HELPER_HEADERS; do
		if [ ! -f "$resdir/$h" ]; then
			fail "setup: $CLANG has no $resdir/$h"
			return 1
		fi
		ln -sf "$resdir/$h" "$WORK/include/$h" || return 1
	done
	if [ -f "$XXHASH_H" ]; then
		ln -sf "$XXHASH_H" "$WORK/xxhash/xxhash.h" || return 1
	fi
}

core_sources() { find "$CORE_DIR" -type f -name '*.c' | sort; }
core_headers() { find "$CORE_DIR" -type f -name '*.h' | sort; }
# Core headers, those that no core file includes by name first.
headers_outermost_first() {
	local f base
	while IFS= read -r f; do
		base=$(basename "$f")
		if grep -rqE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]*/)?$base\"" \
			--include='*.h' "$CORE_DIR"; then
			printf '1 %s\n' "$f"
		else
			printf '0 %s\n' "$f"
		fi
	done < <(core_headers) | sort | cut -d' ' -f2-
}
core_files() { find "$CORE_DIR" -type f \( -name '*.c' -o -name '*.h' \) | sort; }
rel() { printf '%s\n' "${1#"$CORE_DIR"/}" | sed 's|^|core/|'; }

# Print every identifier in the C code of a file (comments and strings
# removed) as "<line>:<identifier>", for the asm/builtin check.
code_identifiers() {
	awk '
	BEGIN { incomment = 0 }
	{
		line = $0; out = ""; i = 1; n = length(line)
		while (i <= n) {
			c = substr(line, i, 1); d = substr(line, i, 2)
			if (incomment) {
				if (d == "*/") { incomment = 0; i += 2; out = out " " } else i++
				continue
			}
			if (d == "/*") { incomment = 1; i += 2; continue }
			if (d == "//") break
			if (c == "\"" || c == "\047") {
				q = c; i++
				while (i <= n) {
					c = substr(line, i, 1)
					if (c == "\\") { i += 2; continue }
					i++
					if (c == q) break
				}
				out = out " "
				continue
			}
			out = out c; i++
		}
		while (match(out, /[A-Za-z_][A-Za-z_0-9]*/)) {
			print NR ":" substr(out, RSTART, RLENGTH)
			out = substr(out, RSTART + RLENGTH)
		}
	}' "$1"
}

# Macros that some triple predefines differently from another: an #if on one
# of them is an OS or ISA conditional even if it is not on the fixed list.
target_dependent_macros() {
	local t flags
	mkdir -p "$WORK/macros" || return 1
	for t in $TRIPLES; do
		flags=$(codegen_flags "$t") || return 1
		if ! "$CLANG" --target="$t" -std=gnu11 -ffreestanding -nostdinc $flags \
			-dM -E -x c /dev/null >"$WORK/macros/$t" 2>"$WORK/macros/$t.err"; then
			fail "$t: $CLANG cannot preprocess for this triple:"
			sed 's/^/    /' "$WORK/macros/$t.err" >&2
			return 1
		fi
	done
	for t in $TRIPLES; do cat "$WORK/macros/$t"; done |
		sort | uniq -c | awk -v n="$(printf '%s\n' $TRIPLES | grep -c .)" \
		'$1 != n { print $3 }' | sed 's/(.*//' | sort -u
}

# The whole source check is one awk pass over every core file (forking per
# line is too slow on a loaded machine).  Input files, in order: the
# forbidden macro names, the list of core files, then the core files.  It
# prints one "source: file:line: why" per violation.
# shellcheck disable=SC2016 # awk code: its $ are awk's
SOURCE_CHECK_AWK='
function norm(path,    n, i, k, part, out, res) {
	n = split(path, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "" || part[i] == ".")
			continue
		if (part[i] == "..") {
			if (k > 0)
				k--
			continue
		}
		out[++k] = part[i]
	}
	res = ""
	for (i = 1; i <= k; i++)
		res = res "/" out[i]
	return res
}
function rel(f) { return "core/" substr(f, length(core) + 2) }
function bad(f, line, why) { printf "source: %s:%d: %s\n", rel(f), line, why; nbad++ }
# Sets keep (comments removed, string contents kept: for directives) and
# bare (string contents removed too: for identifiers of the code).
function strip(line,    i, n, c, d, q) {
	keep = ""; bare = ""; i = 1; n = length(line)
	while (i <= n) {
		c = substr(line, i, 1); d = substr(line, i, 2)
		if (incomment) {
			if (d == "*/") { incomment = 0; i += 2; keep = keep " "; bare = bare " " } else i++
			continue
		}
		if (d == "/*") { incomment = 1; i += 2; continue }
		if (d == "//") break
		if (c == "\"" || c == "\047") {
			q = c; keep = keep c; bare = bare " "; i++
			while (i <= n) {
				c = substr(line, i, 1); keep = keep c
				if (c == "\\") { keep = keep substr(line, i + 1, 1); i += 2; continue }
				i++
				if (c == q) break
			}
			continue
		}
		keep = keep c; bare = bare c; i++
	}
}
function directive(f, line, text,    t, name, inc, d, ids, rest) {
	t = text
	sub(/^[ \t]*#[ \t]*/, "", t)
	if (t ~ /^(include_next|import)([^A-Za-z0-9_]|$)/) {
		bad(f, line, "#" t " is not allowed in core/")
		return
	}
	if (t ~ /^include([^A-Za-z0-9_]|$)/) {
		inc = t
		sub(/^include[ \t]*/, "", inc)
		if (inc ~ /^<[^>]*>/) {
			name = substr(inc, 2, index(inc, ">") - 2)
			if (name == "xxhash.h") {
				hashers = hashers " " rel(f); nhash++
			} else if (!(name in allowed))
				bad(f, line, "includes <" name ">; core/ may include only " allowedshown ", core headers and <xxhash.h>")
		} else if (inc ~ /^"[^"]*"/) {
			name = substr(inc, 2)
			name = substr(name, 1, index(name, "\"") - 1)
			d = f; sub(/\/[^\/]*$/, "", d)
			if ((norm(d "/" name)) in exists)
				name = norm(d "/" name)
			else if ((norm(core "/" name)) in exists)
				name = norm(core "/" name)
			else {
				rest = norm(d "/" name)
				if (substr(rest, 1, length(core) + 1) != core "/")
					bad(f, line, "includes \"" name "\", which resolves outside core/ (" rest ")")
				else
					bad(f, line, "includes \"" name "\", which is not a file under core/")
				return
			}
		} else
			bad(f, line, "computed or malformed #include: " text)
		return
	}
	if (t ~ /^(if|ifdef|ifndef|elif|elifdef|elifndef)([^A-Za-z0-9_]|$)/) {
		rest = t
		sub(/^[a-z]+/, "", rest)
		while (match(rest, /[A-Za-z_][A-Za-z_0-9]*/)) {
			name = substr(rest, RSTART, RLENGTH)
			rest = substr(rest, RSTART + RLENGTH)
			if (name in forbidden && !((f, line, name) in seen)) {
				seen[f, line, name] = 1
				d = text; sub(/^[ \t]*/, "", d)
				bad(f, line, "conditional on OS/ISA macro " name ": \047" d "\047")
			}
			if (name == "__has_include" || name == "__has_include_next")
				bad(f, line, "__has_include in core/ (the set of core headers is fixed)")
		}
	}
}
BEGIN {
	n = split(allowedlist, a, " ")
	for (i = 1; i <= n; i++) {
		allowed[a[i]] = 1
		allowedshown = allowedshown (i > 1 ? " " : "") "<" a[i] ">"
	}
	isa_ids["asm"] = isa_ids["__asm"] = isa_ids["__asm__"] = 1
}
FNR == 1 { fileno++; incomment = 0; pending = ""; nfiles += (fileno > 2) }
fileno == 1 { forbidden[$1] = 1; next }
fileno == 2 { exists[norm($0)] = 1; next }
{
	strip($0)
	code = keep
	# Identifiers of the code itself: inline asm and ISA builtins.
	rest = bare
	while (match(rest, /[A-Za-z_][A-Za-z_0-9]*/)) {
		name = substr(rest, RSTART, RLENGTH)
		rest = substr(rest, RSTART + RLENGTH)
		if ((name in isa_ids) || name ~ /^__builtin_(ia32|arm|aarch64|riscv|ppc|s390|mips|cpu)_/)
			bad(FILENAME, FNR, "\047" name "\047 is ISA-specific; it belongs in isa/<isa>/ behind core/port.h")
	}
	if (pending != "") { text = pending " " code; start = pstart } else { text = code; start = FNR }
	if (text ~ /\\[ \t]*$/) {
		sub(/\\[ \t]*$/, "", text); pending = text; pstart = start; next
	}
	pending = ""
	if (text ~ /^[ \t]*#/)
		directive(FILENAME, start, text)
}
END {
	if (nhash > 1) {
		printf "source: <xxhash.h> is included by more than one core file:%s (keep it behind one core header)\n", hashers
		nbad++
	}
	printf "%d %d\n", nbad, nfiles > "/dev/stderr"
}'

source_check() {
	local forbidden="$WORK/forbidden-macros" out nbad nfiles files
	# The self-test's child runs reuse the parent's list: it costs a clang
	# run per triple.
	if [ -n "${CI_FORBIDDEN_MACROS:-}" ] && [ -s "$CI_FORBIDDEN_MACROS" ]; then
		cp "$CI_FORBIDDEN_MACROS" "$forbidden" || return 1
	else
		{
			printf '%s\n' $OS_ISA_MACROS
			target_dependent_macros || echo "__ci_setup_failed__"
		} | sort -u >"$forbidden"
		if grep -qx "__ci_setup_failed__" "$forbidden"; then
			return 1
		fi
	fi
	core_files >"$WORK/core-files"
	mapfile -t files <"$WORK/core-files"
	out=$(awk -v core="$CORE_DIR" -v allowedlist="$FREESTANDING_HEADERS" \
		"$SOURCE_CHECK_AWK" "$forbidden" "$WORK/core-files" \
		"${files[@]}" /dev/null 2>"$WORK/source-counts") || {
		fail "source: the checker itself failed"
		return 1
	}
	read -r nbad nfiles <"$WORK/source-counts"
	if [ -n "$out" ]; then
		printf '%s\n' "$out" | sed 's/^/FAIL /' >&2
	fi
	if [ "${nbad:-1}" -ne 0 ]; then
		fail "source: $nbad violation(s) in $CORE_DIR"
		return 1
	fi
	say "ok   source: $nfiles core files include only freestanding headers and have no OS/ISA conditional"
}

# The dtrace_port_* functions core/port.h declares: the only OS functions an
# object may call.
port_functions() {
	[ -f "$CORE_DIR/port.h" ] || return 0
	code_identifiers "$CORE_DIR/port.h" | sed 's/^[0-9]*://' |
		grep -E '^dtrace_port_[a-z0-9_]+$' | sort -u
}

check_triple() {
	local triple=$1 flags tdir f r obj nbad=0 nsrc=0 nhdr=0 cflags
	flags=$(codegen_flags "$triple") || return 1
	tdir="$WORK/$triple"
	rm -rf "$tdir"
	mkdir -p "$tdir/obj" || return 1
	# The core's own flags (core/CMakeLists.txt), made freestanding.
	cflags="--target=$triple -std=gnu11 -O2 -g0 -ffreestanding -fno-builtin -nostdinc
		-isystem $WORK/include -isystem $CI_DIR/freestanding-include -isystem $WORK/xxhash
		-I $CORE_DIR -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes
		-fno-strict-aliasing -fno-common $flags"

	: >"$tdir/reached"
	: >"$tdir/objects"
	while IFS= read -r f; do
		nsrc=$((nsrc + 1))
		r=$(rel "$f")
		obj="$tdir/obj/$nsrc.o"
		printf '%s\t%s\n' "$obj" "$r" >>"$tdir/objects"
			if ! "$CLANG" $cflags -MD -MF "$obj.d" -c "$f" -o "$obj" 2>"$obj.err"; then
			fail "$triple: $r does not compile freestanding:"
			sed 's/^/    /' "$obj.err" >&2
			nbad=$((nbad + 1))
			continue
		fi
		sed 's/[\\]$//' "$obj.d" | tr -s ' ' '\n' | grep '\.h$' | while IFS= read -r h; do
			realpath -q "$h"
		done >>"$tdir/reached"
	done < <(core_sources)

	# Headers no source reached are compiled on their own, outermost first
	# (those no other core header includes): a subsystem header written to be
	# included through dtrace_impl.h is then checked the way it is used.
	while IFS= read -r f; do
		if grep -qxF "$(realpath "$f")" "$tdir/reached"; then
			continue
		fi
		nhdr=$((nhdr + 1))
		r=$(rel "$f")
		# Included from a one-line file, as a .c would include it (a header's
		# static inline functions are not "unused" then).
		printf '#include "%s"\n' "$f" >"$tdir/header.c"
		# What it includes counts as reached even if it fails, so one broken
		# header is reported once, not again through each header it includes.
		if "$CLANG" $cflags -E -MD -MF "$tdir/header.d" "$tdir/header.c" \
			-o /dev/null 2>/dev/null; then
			sed 's/[\\]$//' "$tdir/header.d" | tr -s ' ' '\n' | grep '\.h$' |
				while IFS= read -r h; do
					realpath -q "$h"
				done >>"$tdir/reached"
		fi
		if ! "$CLANG" $cflags -fsyntax-only "$tdir/header.c" 2>"$tdir/header.err"; then
			fail "$triple: $r does not compile freestanding on its own (no core .c includes it yet):"
			sed 's/^/    /' "$tdir/header.err" >&2
			nbad=$((nbad + 1))
		fi
	done < <(headers_outermost_first)

	if [ "$nbad" -eq 0 ] && [ "$nsrc" -gt 0 ]; then
		local allowed undefined sym where
		allowed=$(
			{
				printf '%s\n' $MEM_FUNCTIONS
				port_functions
				"${NM:-nm}" -g --defined-only "$tdir"/obj/*.o | awk 'NF >= 3 { print $3 }'
			} | sort -u
		)
		undefined=$("${NM:-nm}" -u "$tdir"/obj/*.o | awk 'NF >= 2 { print $2 }' | sort -u)
		for sym in $(comm -23 <(printf '%s\n' $undefined) <(printf '%s\n' "$allowed")); do
			where=$(while IFS="$(printf '\t')" read -r obj r; do
				if "${NM:-nm}" -u "$obj" | awk '{ print $2 }' | grep -qxF "$sym"; then
					printf '%s ' "$r"
				fi
			done <"$tdir/objects" | sed 's/ $//')
			fail "$triple: $sym is called but is neither core, a core/port.h function nor memcpy/memmove/memset/memcmp (from object(s): $where)"
			nbad=$((nbad + 1))
		done
	fi

	if [ "$nbad" -ne 0 ]; then
		fail "$triple: $nbad failure(s)"
		return 1
	fi
	say "ok   $triple: $nsrc source(s) compiled, $nhdr header(s) checked alone, no foreign symbol"
}

# Each case builds a small core/ with one violation and expects the check to
# fail with the expected message; a clean tree must pass.
self_test() {
	local base nbad=0 out
	base="$WORK/selftest"
	rm -rf "$base"
	mkdir -p "$base" || return 1
	# Computed once here, reused by every case's source check.
	target_dependent_macros >"$WORK/selftest-tdm" || return 1
	printf '%s\n' $OS_ISA_MACROS | cat - "$WORK/selftest-tdm" | sort -u >"$WORK/selftest-forbidden"
	export CI_FORBIDDEN_MACROS="$WORK/selftest-forbidden"

	# $1 name, $2 expected grep pattern ("" = must pass), $3 mode
	# (source|triple), then file=content pairs.
	run_case() {
		local name=$1 expect=$2 mode=$3 dir rc
		shift 3
		dir="$base/$name/core"
		mkdir -p "$dir"
		while [ $# -gt 0 ]; do
			mkdir -p "$(dirname "$dir/${1%%=*}")"
			printf '%s\n' "${1#*=}" >"$dir/${1%%=*}"
			shift
		done
		if [ "$mode" = source ]; then
			out=$(CLANG="$CLANG" XXHASH_H="$XXHASH_H" "$0" --core "$dir" \
				--work "$base/$name/work" --source-check 2>&1)
		else
			out=$(CLANG="$CLANG" XXHASH_H="$XXHASH_H" "$0" --core "$dir" \
				--work "$base/$name/work" --triple "$mode" 2>&1)
		fi
		rc=$?
		if [ -z "$expect" ]; then
			if [ $rc -ne 0 ]; then
				fail "self-test $name: a clean tree was refused:"
				printf '%s\n' "$out" | sed 's/^/    /' >&2
				nbad=$((nbad + 1))
				return
			fi
		elif [ $rc -eq 0 ] || ! printf '%s\n' "$out" | grep -qE "$expect"; then
			fail "self-test $name: expected failure matching /$expect/, got rc=$rc:"
			printf '%s\n' "$out" | sed 's/^/    /' >&2
			nbad=$((nbad + 1))
			return
		fi
		say "ok   self-test $name"
	}

	local hdr='#ifndef A_H
#define A_H
#include <stdint.h>
uint32_t add(uint32_t a, uint32_t b);
#endif'
	local src='#include "a.h"
uint32_t add(uint32_t a, uint32_t b) { return a + b; }'

	run_case clean_source "" source "a.h=$hdr" "a.c=$src"
	run_case clean_triple "" aarch64-unknown-freebsd14 "a.h=$hdr" "a.c=$src"
	run_case headers_only "" riscv64-unknown-netbsd10 "a.h=$hdr"
	run_case header_inline_and_nested "" x86_64-unknown-linux-gnu \
		"top.h=#include <stdint.h>
typedef uint32_t id_t_;
static inline uint32_t twice(uint32_t x) { return 2 * x; }
#include \"sub/part.h\"" \
		"sub/part.h=id_t_ part_id;"
	run_case xxhash_inline_all "" aarch64-unknown-netbsd10 \
		"hash.h=#include <stdint.h>
#include <stddef.h>
#define XXH_INLINE_ALL
#include <xxhash.h>" \
		"hash.c=#include \"hash.h\"
uint64_t h(const void *p, size_t n);
uint64_t h(const void *p, size_t n) { return XXH64(p, n, 0) ^ XXH3_64bits(p, n); }"
	run_case libc_header 'a\.c:1: includes <string\.h>' source \
		"a.c=#include <string.h>"
	run_case os_header 'includes <sys/param\.h>' source \
		"a.h=#include <sys/param.h>"
	run_case os_ifdef 'conditional on OS/ISA macro __FreeBSD__' source \
		"a.c=#ifdef __FreeBSD__
int x;
#endif"
	run_case isa_if_continued 'a\.h:2: conditional on OS/ISA macro __aarch64__' source \
		"a.h=/* __x86_64__ in a comment is fine */
#if defined(__GNUC__) && \\
    defined(__aarch64__)
#endif"
	run_case target_dependent_macro 'conditional on OS/ISA macro __CHAR_UNSIGNED__' source \
		"a.h=#ifdef __CHAR_UNSIGNED__
#endif"
	run_case inline_asm "'__asm__' is ISA-specific" source \
		"a.c=void f(void); void f(void) { __asm__ volatile(\"\"); }"
	mkdir -p "$base/include_outside" && : >"$base/include_outside/outside.h"
	run_case include_outside 'resolves outside core/' source \
		"a.c=#include \"../outside.h\""
	run_case two_xxhash 'xxhash\.h> is included by more than one core file' source \
		"a.h=#include <xxhash.h>" "b.h=#include <xxhash.h>"
	run_case floating_point 'x86_64-unknown-netbsd10: core/a\.c does not compile' \
		x86_64-unknown-netbsd10 "a.c=double half(double d); double half(double d) { return d / 2; }"
	run_case soft_float '__[a-z]*df3 is called' aarch64-unknown-illumos \
		"a.c=double half(double d); double half(double d) { return d / 2; }"
	run_case libc_call 'strlen is called' riscv64-unknown-linux-gnu \
		"a.c=unsigned long strlen(const char *); unsigned long len(const char *s); unsigned long len(const char *s) { return strlen(s); }"
	run_case port_call_allowed "" x86_64-unknown-illumos \
		"port.h=unsigned dtrace_port_ncpus(void);" \
		"a.c=#include \"port.h\"
unsigned n(void); unsigned n(void) { return dtrace_port_ncpus(); }"
	run_case unknown_port_call 'dtrace_port_sleep is called' x86_64-unknown-illumos \
		"port.h=unsigned dtrace_port_ncpus(void);" \
		"a.c=void dtrace_port_sleep(void); void s(void); void s(void) { dtrace_port_sleep(); }"
	run_case warning_is_error 'a\.c does not compile' x86_64-pc-solaris2.11 \
		"a.c=int f(int x); int f(int x) { int unused; return x; }"
	run_case header_alone 'core/a\.h does not compile freestanding on its own' \
		aarch64-unknown-netbsd10 "a.h=size_t n;"

	if [ "$nbad" -ne 0 ]; then
		fail "self-test: $nbad case(s) wrong"
		return 1
	fi
	say "ok   self-test: every violation was caught and clean trees pass"
}

main() {
	local mode=all triples="" t rc=0
	while [ $# -gt 0 ]; do
		case $1 in
		--list) mode=list ;;
		--source-check) mode=source ;;
		--self-test) mode=selftest ;;
		--triple)
			[ $# -ge 2 ] || usage
			mode=triples
			triples="$triples $2"
			shift
			;;
		--core)
			[ $# -ge 2 ] || usage
			CORE_DIR=$(cd "$2" && pwd) || exit 2
			shift
			;;
		--work)
			[ $# -ge 2 ] || usage
			WORK=$2
			shift
			;;
		--xxhash)
			[ $# -ge 2 ] || usage
			XXHASH_H=$2
			shift
			;;
		-h | --help) usage ;;
		*) usage ;;
		esac
		shift
	done

	if [ "$mode" = list ]; then
		printf '%s\n' $TRIPLES
		return 0
	fi
	for t in $triples; do
		if ! printf '%s\n' $TRIPLES | grep -qxF "$t"; then
			fail "$t: not a triple of the matrix (see --list)"
			return 2
		fi
	done

	find_clang
	if [ -z "$WORK" ]; then
		WORK=$(mktemp -d "${TMPDIR:-/tmp}/freestanding-matrix.XXXXXX") || exit 1
		trap 'rm -rf "$WORK"' EXIT
	fi
	mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd) || exit 1
	make_include_dirs || return 1
	say "freestanding matrix: $($CLANG --version | head -n 1), core at $CORE_DIR"

	case $mode in
	source) source_check || rc=1 ;;
	selftest) self_test || rc=1 ;;
	triples)
		for t in $triples; do
			check_triple "$t" || rc=1
		done
		;;
	all)
		source_check || rc=1
		for t in $TRIPLES; do
			check_triple "$t" || rc=1
		done
		;;
	esac
	return $rc
}

main "$@"
