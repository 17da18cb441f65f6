# 16 threads, 20000 calls each: every call counted, no drop reported.
"$1" -qs threads_exact_count.d -c "$DT_PID_TARGETS/pidthreads 16 20000" 2>"$E2E_TMP/err"
echo "status $?"
cat "$E2E_TMP/err"
