#!/bin/sh
# ci/build-matrix.sh: configure, build and test the tree with several CMake
# presets, one after the other (default: gcc, then clang).  Optional: not a
# CTest test, since it builds the whole tree again per preset.
#
#   ci/build-matrix.sh                 presets "default" and "clang"
#   ci/build-matrix.sh clang asan      the named presets
#   JOBS=1 ci/build-matrix.sh          build parallelism (default 2)
#   NOTEST=1 ci/build-matrix.sh        configure and build only
#
# Each preset builds in its own directory (build/, build-clang/, ...) as
# CMakePresets.json says; the first failure stops the run.
set -eu
cd "$(dirname "$0")/.."

presets=${*:-default clang}
jobs=${JOBS:-2}

for p in $presets; do
	echo "== build-matrix: preset $p"
	cmake --preset "$p"
	cmake --build --preset "$p" -j "$jobs"
	if [ -z "${NOTEST:-}" ]; then
		# Test presets exist only for some configure presets; otherwise test
		# in the preset's binaryDir, read from CMakePresets.json.
		if ctest --list-presets 2>/dev/null | grep -q "\"$p\""; then
			ctest --preset "$p"
		else
			dir=$(awk -v p="$p" '
				/"configurePresets"/ { inconf = 1 }
				/"buildPresets"/ { inconf = 0 }
				inconf && /"name"/ { cur = $0; sub(/.*"name": *"/, "", cur); sub(/".*/, "", cur) }
				inconf && cur == p && /"binaryDir"/ {
					d = $0; sub(/.*"binaryDir": *"/, "", d); sub(/".*/, "", d)
					sub(/^\$\{sourceDir\}\//, "", d); print d; exit
				}' CMakePresets.json)
			ctest --test-dir "${dir:-build}" --output-on-failure -j "$jobs"
		fi
	fi
	echo "== build-matrix: preset $p passed"
done
