# The same as arena_readonly_to_target for a process dtrace -p grabs: the
# injected agent's mapping of the read-only part cannot be written either.
T=$DT_PID_TARGETS
"$T/pidhostile" readonly "$E2E_TMP/info" >"$E2E_TMP/target.out" &
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid <"$E2E_TMP/info"
"$1" -qs arena_readonly_to_grabbed.d -o "$E2E_TMP/dtrace.out" -p "$pid"
echo "dtrace status $?"
kill -TERM "$pid"
wait "$pid"
cat "$E2E_TMP/target.out"
cat "$E2E_TMP/dtrace.out"
