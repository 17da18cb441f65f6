# dtrace -p places a jump in a running program whose one thread waits in
# nanosleep between calls (so the agent finds nobody running among the
# replaced bytes) and puts the original bytes back when it exits (after
# 200 calls, with the count it saw); a second dtrace does it again and dies
# of SIGKILL: the agent mends the text by itself within a second.  The program never got a wrong answer from
# jumpable or regcheck, and exits 0 on SIGTERM.
. ./text_lib.sh
jump_tests_only
T=$DT_PID_TARGETS
"$T/pidjump" grab "$E2E_TMP/info" >"$E2E_TMP/prog" &
prog=$!
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid addr <"$E2E_TMP/info"
waitfor() {
	for i in $(seq 200); do [ "$(byte)" = " $1" ] && return 0; sleep 0.05; done
	return 1
}
echo "before: $(byte)"
"$1" -qs jump_grab_restores_text.d -p "$pid" >"$E2E_TMP/out1" 2>&1 &
dt=$!
waitfor e9 && echo "jump placed" || echo "jump never placed: $(byte)"
wait "$dt" # it exits after 200 calls
echo "dtrace status $?"
waitfor 55 && echo "text restored" || echo "text is $(byte)"
"$1" -qn 'pid$target:a.out:jumpable:entry { @ = count(); }' -p "$pid" >/dev/null 2>&1 &
dt=$!
waitfor e9 && echo "jump placed again" || echo "jump never placed again: $(byte)"
kill -KILL "$dt"
wait "$dt" 2>/dev/null
# within one second of the consumer's death (two on a loaded machine)
for i in $(seq 40); do [ "$(byte)" = " 55" ] && break; sleep 0.05; done
[ "$(byte)" = " 55" ] && echo "text restored by the agent" || echo "text is $(byte)"
kill -TERM "$pid"
wait "$prog"
echo "program status $?"
cat "$E2E_TMP/prog"
cat "$E2E_TMP/out1"
