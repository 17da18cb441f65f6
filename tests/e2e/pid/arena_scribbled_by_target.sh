# A traced program (-c) writes random words all over the arena's writable
# part (buffer headers and records, aggregation indexes, dynamic-variable
# chains and free lists, counters, request words) while dtrace runs
# BEGIN, tick-N and END with aggregations, speculations and associative
# arrays in its own process: dtrace must not crash.  What it records and
# reports depends on what the program hit, so only the outcome is
# compared: dtrace exits by itself (not by a signal, within the time
# limit), either 0 after END or 1 after saying in DTrace's words that
# processing was aborted (a buffer header it will not believe).
T=$DT_PID_TARGETS
"$1" -s arena_scribbled_by_target.d -o "$E2E_TMP/dtrace.out" -c "$T/pidhostile scribble" \
	2>"$E2E_TMP/dtrace.err"
rc=$?
if [ "$rc" = 0 ] && grep -q "END fired" "$E2E_TMP/dtrace.out"; then
	echo "dtrace exited cleanly"
elif [ "$rc" = 1 ] && grep -q "^dtrace: processing aborted: " "$E2E_TMP/dtrace.err"; then
	echo "dtrace exited cleanly"
else
	echo "dtrace status $rc"
	cat "$E2E_TMP/dtrace.err"
fi
