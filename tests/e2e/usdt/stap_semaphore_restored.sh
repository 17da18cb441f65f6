# dtrace -p on running programs (an agent is injected once per process, so
# each step takes a fresh one): the probe is listed with module and
# function; enabling it raises the semaphore, and it goes back to 0 both
# when dtrace exits normally and when dtrace dies of SIGKILL (the agent
# takes the increment back by itself).  The programs exit 0 on SIGTERM.
P=$DT_USDT_TARGETS/usdtprog
start() {
	rm -f "$E2E_TMP/info"
	"$P" loop "$E2E_TMP/info" &
	for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
	read -r pid addr <"$E2E_TMP/info"
}
sem() {
	dd if=/proc/$pid/mem bs=2 skip=$((addr)) count=1 iflag=skip_bytes 2>/dev/null | od -An -tu2 |
		tr -d ' '
}
finish() {
	kill -TERM "$pid"
	wait "$pid"
	echo "program status $?"
}

start
"$1" -l -n 'usdtprog$target:::guarded' -p "$pid" | sed 's/usdtprog[0-9]*/usdtprogPID/; s/^ *[0-9]* //'
finish

start
echo "semaphore $(sem) before"
"$1" -q -n 'usdtprog$target:::guarded { @ = count(); } tick-300ms { exit(0); }' -p "$pid" \
	>/dev/null 2>&1
echo "semaphore $(sem) after dtrace exited"
finish

start
"$1" -qs stap_semaphore_restored.d -p "$pid" >/dev/null 2>&1 &
dt=$!
for i in $(seq 200); do [ "$(sem)" = 1 ] && break; sleep 0.05; done
echo "semaphore $(sem) while traced"
kill -KILL "$dt"
wait "$dt" 2>/dev/null
for i in $(seq 40); do [ "$(sem)" = 0 ] && break; sleep 0.05; done
echo "semaphore $(sem) after dtrace was killed"
finish
