# A forked child's copy of a jumped function is mended (original bytes)
# and runs; vfork children call it on their parent's memory, through the
# jump, and fire nothing as their parent: 1000 calls are all that count.
. ./text_lib.sh
jump_tests_only
"$1" -qs jump_fork_vfork.d -c "$DT_PID_TARGETS/pidjump fork 1000" 2>"$E2E_TMP/err"
echo "status $?"
cat "$E2E_TMP/err"
