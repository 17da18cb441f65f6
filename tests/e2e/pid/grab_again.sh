# A process traced by one dtrace -p after another: the second injection
# finds the agent a first consumer left behind and attaches it to its own
# memory; both see the calls, and the program never missed one.
T=$DT_PID_TARGETS
"$T/pidloop" "$E2E_TMP/info" &
for i in $(seq 100); do [ -s "$E2E_TMP/info" ] && break; sleep 0.05; done
read -r pid addr <"$E2E_TMP/info"
for run in 1 2 3; do
	"$1" -qs grab_again.d -p "$pid"
	echo "dtrace $run status $?"
done
kill -TERM "$pid"
wait "$pid"
echo "program status $?"
