# Jump-patched entry probes (jump/): 8 threads x 20000 calls of jumpable,
# plus the 1600 calls regcheck makes to see every register come back.
# The program sees a jump, not a breakpoint, at jumpable while it runs.
. ./text_lib.sh
jump_tests_only
"$1" -qs jump_threads_exact_count.d -c "$DT_PID_TARGETS/pidjump threads 8 20000" 2>"$E2E_TMP/err"
echo "status $?"
cat "$E2E_TMP/err"
