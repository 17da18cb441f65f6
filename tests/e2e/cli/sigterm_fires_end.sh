# SIGTERM ends the run as SIGINT does.
# a background job of a shell without job control starts with SIGINT ignored:
env --default-signal=INT "$1" -s sigterm_fires_end.d >"$E2E_TMP/out" &
pid=$!
i=0
until grep -q ready "$E2E_TMP/out" 2>/dev/null || [ $i -ge 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
echo "status $?"
cat "$E2E_TMP/out"
