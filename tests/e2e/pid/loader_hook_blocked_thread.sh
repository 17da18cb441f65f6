# No pid probe at all, but the agent's hook at the dynamic linker's
# debugger breakpoint is a breakpoint too: a thread that blocks every
# signal and loads a library (glibc's NSS does so from any thread) meets
# it.  The guard goes in when the process arrives, so the thread loads and
# unloads the library twice and the program exits normally.
"$1" -qs loader_hook_blocked_thread.d -c "$DT_PID_TARGETS/pidsignals dlopen $DT_PID_TARGETS/libpiddl.so" 2>"$E2E_TMP/err"
echo "status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
