# posix_spawn's child runs on the parent's memory with every signal
# blocked and its handlers reset until it calls execve, whose entry is
# probed: each child steps the breakpoint and execs (status 0), and fires
# nothing as its parent.  Only the parent's 3 calls of work() count;
# execve, which only the children call, not at all.
"$1" -qs posix_spawn_child_untraced.d -c "$DT_PID_TARGETS/pidsignals spawn" 2>"$E2E_TMP/err"
echo "status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
