# A thread that blocks every signal calls a probed function 100 times: the
# kernel would kill a thread meeting a breakpoint with SIGTRAP blocked, so
# the agent keeps SIGTRAP out of every mask.  Every call counted, exit 0.
"$1" -qs sigblock_thread_exact_count.d -c "$DT_PID_TARGETS/pidsignals blocked" 2>"$E2E_TMP/err"
echo "status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
