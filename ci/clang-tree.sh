#!/bin/sh
# ci/clang-tree.sh: build the whole tree (core, ports, libdtrace, the command,
# tests, benchmarks) with clang and -Wall -Wextra -Werror, as the default
# preset builds it with gcc, and fail on the first warning.
#
#   ci/clang-tree.sh SOURCE-DIR BUILD-DIR      (CLANG, CMAKE: the tools to use)
#
# Unoptimized and without debug information: clang's warnings come from its
# front end, so -O0 finds the ones -O2 would, in less time.  Run by CTest
# (label ci) as ci_whole_tree_builds_warning_free_with_clang.
set -eu
src=${1:?source directory}
dir=${2:?build directory}
cc=${CLANG:-clang}
cmake=${CMAKE:-cmake}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "FAIL: no clang ($cc); bootstrap.sh installs Debian's clang" >&2
	exit 1
fi
"$cmake" -S "$src" -B "$dir" -G Ninja -DCMAKE_C_COMPILER="$cc" \
	-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O0 >"$dir.configure.log" 2>&1 || {
	cat "$dir.configure.log" >&2
	exit 1
}
# Ninja prints the failing command and the compiler's message; keep only
# those (not the progress lines).
if ! "$cmake" --build "$dir" -j2 >"$dir.build.log" 2>&1; then
	grep -v '^\[[0-9]*/[0-9]*\] ' "$dir.build.log" >&2
	exit 1
fi
echo "clang build of the whole tree: no warnings"
