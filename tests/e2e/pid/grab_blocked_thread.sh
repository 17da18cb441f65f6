# dtrace -p on a program whose worker thread blocked every signal before
# any agent came: dtrace takes SIGSYS and SIGTRAP out of that thread's mask
# (ptrace) so that the agent can keep them out, and the thread meets the
# breakpoints without dying.  The program exits 0 on SIGTERM.
T=$DT_PID_TARGETS
"$T/pidsignals" grab "$E2E_TMP/info" &
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid <"$E2E_TMP/info"
"$1" -qs grab_blocked_thread.d -p "$pid" 2>"$E2E_TMP/err"
echo "dtrace status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
kill -TERM "$pid"
wait "$pid"
echo "program status $?"
