# dtrace -p injects the agent into a running program; when dtrace exits,
# tick()'s first byte is the compiler's again (not int3) and the program,
# which checks that tick() ran at every call, exits 0 on SIGTRAP... on
# SIGTERM.
T=$DT_PID_TARGETS
"$T/pidloop" "$E2E_TMP/info" &
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid addr <"$E2E_TMP/info"
orig=$(dd if=/proc/$pid/mem bs=1 skip=$((addr)) count=1 iflag=skip_bytes 2>/dev/null | od -An -tx1)
"$1" -qs grab_restores_text.d -p "$pid"
echo "dtrace status $?"
now=$(dd if=/proc/$pid/mem bs=1 skip=$((addr)) count=1 iflag=skip_bytes 2>/dev/null | od -An -tx1)
[ "$now" = "$orig" ] && [ "$now" != " cc" ] && echo "text restored" || echo "text is $now, was $orig"
kill -TERM "$pid"
wait "$pid"
echo "program status $?"
