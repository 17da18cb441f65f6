# glibc starts a new thread with every signal blocked and calls
# __ctype_init before it restores the creator's mask: a probe there fires
# once in each of the 8 threads, and none dies.  (The agent's own thread,
# started when the program is let go, calls it too but fires nothing.)
"$1" -qs thread_start_blocked_signals.d -c "$DT_PID_TARGETS/pidsignals threads" 2>"$E2E_TMP/err"
echo "status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
