# A user may not trace another user's process: the kernel refuses ptrace,
# and dtrace says so in DTrace's words, exiting 1.  Needs root (to run
# dtrace as nobody against root's process).
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	echo "needs root and setpriv to run dtrace as another user" >&2
	exit 77
fi
"$DT_PID_TARGETS/pidloop" "$E2E_TMP/info" &
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid addr <"$E2E_TMP/info"
setpriv --reuid=65534 --regid=65534 --clear-groups "$1" -s grab_refused_without_permission.d -p "$pid" 2>&1 |
	sed "s/pid $pid/pid N/; s/ (.*)$//"
kill -TERM "$pid"
wait "$pid"
echo "program status $?"
