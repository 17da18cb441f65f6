# dtrace -p places an entry probe while 4 threads call jumpable as fast as
# they can: one of them could be among the bytes a jump would replace, and
# the agent cannot ask a running thread where it is without a signal that
# may swallow a breakpoint's, so the probe stays a breakpoint (and fires).
# Three times over, exiting normally twice and dying of SIGKILL once; the
# threads never get a wrong answer from jumpable or regcheck, the text is
# mended, and the program exits 0 on SIGTERM.
. ./text_lib.sh
jump_tests_only
"$DT_PID_TARGETS/pidjump" spin 4 "$E2E_TMP/info" >"$E2E_TMP/prog" &
prog=$!
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid addr <"$E2E_TMP/info"
for round in 1 2; do
	"$1" -qs jump_while_threads_spin.d -p "$pid" >"$E2E_TMP/out" 2>&1
	echo "round $round: dtrace status $? $(cat "$E2E_TMP/out")"
done
"$1" -qn 'pid$target:a.out:jumpable:entry { @ = count(); }' -p "$pid" >/dev/null 2>&1 &
dt=$!
for i in $(seq 200); do [ "$(byte)" = " cc" ] && break; sleep 0.05; done
sleep 0.5 # (long enough for a jump to follow, were one placed)
echo "while threads run: $(byte)"
kill -KILL "$dt"
wait "$dt" 2>/dev/null
for i in $(seq 40); do [ "$(byte)" = " 55" ] && break; sleep 0.05; done
[ "$(byte)" = " 55" ] && echo "text restored by the agent" || echo "text is $(byte)"
kill -TERM "$pid"
wait "$prog"
echo "program status $?"
cat "$E2E_TMP/prog"
