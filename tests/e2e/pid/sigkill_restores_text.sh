# dtrace -p, then dtrace dies of SIGKILL: the agent notices by itself and
# puts tick()'s first byte back within a second; the program never missed
# a call and exits 0 on SIGTERM.
T=$DT_PID_TARGETS
"$T/pidloop" "$E2E_TMP/info" &
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid addr <"$E2E_TMP/info"
. ./text_lib.sh
orig=$(byte)
"$1" -qs sigkill_restores_text.d -p "$pid" >/dev/null 2>&1 &
dt=$!
for i in $(seq 200); do [ "$(byte)" = " cc" ] && break; sleep 0.05; done
[ "$(byte)" = " cc" ] && echo "breakpoint placed" || echo "breakpoint never placed"
kill -KILL "$dt"
wait "$dt" 2>/dev/null
# within one second of the consumer's death (two on a loaded machine)
for i in $(seq 40); do [ "$(byte)" = "$orig" ] && break; sleep 0.05; done
[ "$(byte)" = "$orig" ] && echo "text restored" || echo "text is $(byte), was $orig"
kill -TERM "$pid"
wait "$pid"
echo "program status $?"
