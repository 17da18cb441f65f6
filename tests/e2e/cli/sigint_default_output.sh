# Without -q: the CPU ID FUNCTION:NAME lines, the newline SIGINT prints, the
# aggregation at the end.
# a background job of a shell without job control starts with SIGINT ignored:
env --default-signal=INT "$1" -s sigint_default_output.d >"$E2E_TMP/out" 2>"$E2E_TMP/err" &
pid=$!
i=0
until grep -q ready "$E2E_TMP/out" 2>/dev/null || [ $i -ge 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT $pid
wait $pid
echo "status $?"
sed 's/^ *[0-9][0-9]* \( *[0-9][0-9]*  *:\)/  C \1/' "$E2E_TMP/out"
cat "$E2E_TMP/err" >&2
