# DTRACE_PID_JUMP=0 turns jump-patched probes off: the same probe is a
# breakpoint and counts the same.
. ./text_lib.sh
jump_tests_only
DTRACE_PID_JUMP=0 "$1" -qs jump_off_is_breakpoint.d -c "$DT_PID_TARGETS/pidjump threads 2 5000" \
	2>"$E2E_TMP/err"
echo "status $?"
cat "$E2E_TMP/err"
