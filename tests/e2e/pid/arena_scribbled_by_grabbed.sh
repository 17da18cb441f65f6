# arena_scribbled_by_target for a process dtrace -p grabs: the program
# starts scribbling as soon as the injected agent has mapped the arena.
T=$DT_PID_TARGETS
"$T/pidhostile" scribble "$E2E_TMP/info" &
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid <"$E2E_TMP/info"
"$1" -s arena_scribbled_by_target.d -o "$E2E_TMP/dtrace.out" -p "$pid" 2>"$E2E_TMP/dtrace.err"
rc=$?
kill -TERM "$pid"
wait "$pid"
prc=$?
if [ "$rc" = 0 ] && grep -q "END fired" "$E2E_TMP/dtrace.out"; then
	echo "dtrace exited cleanly"
elif [ "$rc" = 1 ] && grep -q "^dtrace: processing aborted: " "$E2E_TMP/dtrace.err"; then
	echo "dtrace exited cleanly"
else
	echo "dtrace status $rc"
	cat "$E2E_TMP/dtrace.err"
fi
echo "program status $prc"
