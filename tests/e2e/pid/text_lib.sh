# Sourced by the pid tests that look at a traced program's text (not a
# test itself: tests are the .d files).
#   jump_tests_only   exits 77 (skip) on an ISA without jump-patched probes
#   byte              the first byte at $addr in process $pid, as " xx"
jump_tests_only()
{
	case ${DT_E2E_ISA:-$(uname -m)} in
	x86_64) ;;
	*)
		echo "jump-patched probes are x86_64's only so far (isa/<isa>/jump.c)" >&2
		exit 77
		;;
	esac
}

byte()
{
	dd if=/proc/$pid/mem bs=1 skip=$((addr)) count=1 iflag=skip_bytes 2>/dev/null | od -An -tx1
}
