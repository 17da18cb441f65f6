#!/bin/sh
# Cross-compile sites_sample.c for $1 (aarch64 | riscv) in four variants
# into a static executable and compare isa_func_sites (the host-built
# test $4) with that ISA's objdump on it.
# Exit 77 (CTest: skipped) with the reason when a tool is missing.
# Usage: run_sites_cross.sh ISA SOURCE_DIR WORK_DIR TEST_EXE
set -eu
isa=$1 src=$2 work=$3 test=$4
case $isa in
aarch64)
	triple=aarch64-linux-gnu
	# the fourth variant: return-address signing and BTI landing pads
	hard="-O2 -mbranch-protection=standard"
	;;
riscv)
	triple=riscv64-linux-gnu
	# the fourth variant: size-optimised, the most compressed instructions
	hard="-Os"
	;;
*) echo "unknown ISA $isa"; exit 2 ;;
esac
for tool in $triple-gcc $triple-objdump; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed (bootstrap.sh installs it)"
		exit 77
	fi
done
mkdir -p "$work"
exe=$work/sites_sample_$isa
objs=
for v in "O0:-O0" "O2:-O2" "O2fp:-O2 -fno-omit-frame-pointer" "O2hard:$hard"; do
	name=${v%%:*} flags=${v#*:}
	# shellcheck disable=SC2086
	$triple-gcc $flags -g -std=gnu11 -DSITES_SUFFIX=_$name -I"$src/tests/isa" \
		-c "$src/tests/isa/sites_sample.c" -o "$work/sites_${isa}_$name.o"
	objs="$objs $work/sites_${isa}_$name.o"
done
cat >"$work/sites_main_$isa.c" <<'C'
int sites_helper_a(int x) { return x * 7 + 1; }
int sites_helper_b(int x) { return x ^ 0x55; }
int main(void) { return 0; }
C
# shellcheck disable=SC2086
$triple-gcc -static -O2 "$work/sites_main_$isa.c" $objs -o "$exe"
exec "$test" "$triple-objdump" "$exe"
