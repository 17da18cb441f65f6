# dtrace -p on running programs that keep making calls: the filters the
# agent installs stay after dtrace has gone (exited, or killed with
# SIGKILL), and the agent goes on making the trapped calls untraced, so
# the programs run on correctly; each checks every call's result and
# exits 0 on SIGTERM if all were right.  While traced, the probes fired.
P=$DT_SYSCALL_TARGETS/syscallprog
start() {
	rm -f "$E2E_TMP/info"
	"$P" loop "$E2E_TMP/info" &
	for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
	read -r pid <"$E2E_TMP/info"
}
finish() {
	sleep 0.3 # calls made untraced, through the filters
	grep -q '^Seccomp_filters:[[:space:]]*[1-9]' /proc/$pid/status &&
		echo "filters still in place"
	kill -TERM "$pid"
	wait "$pid"
	echo "program status $?"
}

start
"$1" -q -n 'syscall::write:entry /pid == $target/ { @ = count(); }
    tick-300ms { exit(0); } END { printa("write fired: %@d\n", @); }' -p "$pid" |
	awk '$3 > 10 { print "write fired more than 10 times" }'
finish

start
"$1" -qs outlives_dtrace.d -p "$pid" >/dev/null 2>&1 &
dt=$!
sleep 0.5
kill -KILL "$dt"
wait "$dt" 2>/dev/null
echo "dtrace killed"
finish
