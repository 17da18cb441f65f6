# A traced program (-c) cannot write the part of the arena the consumer
# alone writes (ECBs, DIFOs, probes): a store faults, mprotect fails with
# EACCES, and the memfd refuses writes and writable mappings even opened
# again read-write.  dtrace's probe in it still fires and dtrace exits 0.
T=$DT_PID_TARGETS
"$1" -qs arena_readonly_to_target.d -o "$E2E_TMP/dtrace.out" -c "$T/pidhostile readonly" \
	>"$E2E_TMP/target.out"
echo "dtrace status $?"
cat "$E2E_TMP/target.out"
cat "$E2E_TMP/dtrace.out"
