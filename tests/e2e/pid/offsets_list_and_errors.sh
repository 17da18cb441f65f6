# dtrace -l lists add's entry, return and an offset probe per instruction
# (objdump's boundaries); bad offsets and names are refused as DTrace does.
T=$DT_PID_TARGETS/pidtarget_fp
"$1" -l -s offsets_list_and_errors.d -c "$T calls 1" >"$E2E_TMP/list" || exit 1
awk 'NR > 1 { print $3, $4, $5 }' "$E2E_TMP/list" | sed 's/^pidtarget_fp /a.out /' |
	grep -v ' [0-9a-f]*$' | grep -v '^$' || true
awk 'NR > 1 && $5 ~ /^[0-9a-f]+$/ { print $5 }' "$E2E_TMP/list" | sort >"$E2E_TMP/offs"
objdump -d "$T" | awk '
	/<add>:$/ { on = 1; print $1; next }
	on && /^$/ { exit }
	on && /^ *[0-9a-f]+:\t/ { sub(":", "", $1); print $1 }' >"$E2E_TMP/addrs"
start=$(head -1 "$E2E_TMP/addrs")
# the function is the symbol's size: objdump also shows the padding after it
size=$(nm -S "$T" | awk '$4 == "add" { print $2; exit }')
tail -n +2 "$E2E_TMP/addrs" | while read -r a; do
	[ $((0x$a - 0x$start)) -lt $((0x$size)) ] && printf '%x\n' $((0x$a - 0x$start))
done | sort >"$E2E_TMP/want"
if [ -s "$E2E_TMP/want" ] && cmp -s "$E2E_TMP/want" "$E2E_TMP/offs"; then
	echo "offset probes are objdump's instructions"
else
	echo "offsets differ: objdump $(tr '\n' ' ' <"$E2E_TMP/want"), probes $(tr '\n' ' ' <"$E2E_TMP/offs")"
fi
for name in 1 400 xyz; do
	"$1" -n "pid\$target:a.out:add:$name {}" -c "$T calls 1" 2>&1
	echo "status $?"
done
"$1" -n 'pid$target:a.out:nosuch:entry {}' -c "$T calls 1" 2>&1
echo "status $?"
