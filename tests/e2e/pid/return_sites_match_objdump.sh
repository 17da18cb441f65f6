# Every `ret` of twoexits (objdump's offsets) fires the one return probe,
# with the right value for each argument.
T=$DT_PID_TARGETS/pidtarget_fp
"$1" -qs return_sites_match_objdump.d -c "$T twoexits 4" >"$E2E_TMP/out" || exit 1
awk 'NF { print $1, $2 }' "$E2E_TMP/out"
objdump -d "$T" | awk '
	/<twoexits>:$/ { on = 1; print $1; next }
	on && /^$/ { exit }
	on && /\tret/ { sub(":", "", $1); print $1 }' >"$E2E_TMP/addrs"
start=$(head -1 "$E2E_TMP/addrs")
tail -n +2 "$E2E_TMP/addrs" | while read -r a; do
	printf '%x\n' $((0x$a - 0x$start))
done | sort -u >"$E2E_TMP/rets"
awk 'NF { print $3 }' "$E2E_TMP/out" | sort -u >"$E2E_TMP/seen"
if [ -s "$E2E_TMP/rets" ] && cmp -s "$E2E_TMP/rets" "$E2E_TMP/seen"; then
	echo "return offsets are the ret instructions"
else
	echo "return offsets differ: objdump $(tr '\n' ' ' <"$E2E_TMP/rets"), probes $(tr '\n' ' ' <"$E2E_TMP/seen")"
fi
