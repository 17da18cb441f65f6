# vfork children call work() twice and execve on the parent's memory: they
# step the breakpoints and exec (status 0) and fire nothing as their
# parent, whose 3 calls of work() are all that count.
"$1" -qs vfork_child_untraced.d -c "$DT_PID_TARGETS/pidsignals vfork" 2>"$E2E_TMP/err"
echo "status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
