# The program installs its own SIGTRAP handler after the agent's, calls a
# probed function 5 times and raises SIGTRAP twice: the breakpoints stay
# the agent's (5 counted), the raised signals reach the program's handler
# (called twice), and sigaction reads back the program's handler.
"$1" -qs own_sigtrap_handler.d -c "$DT_PID_TARGETS/pidsignals handler" 2>"$E2E_TMP/err"
echo "status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
