# With every call of the program trapped, it behaves as untraced: signal
# masks (blocked, pending, set back; a handler whose mask is full making a
# call; a thread blocking every signal making calls), threads, a forked
# child, an exec'd child, and the process exec'ing another program.  The
# programs' outputs are the same traced and untraced; entry and return
# fire as often (the last exec's return never comes).
P=$DT_SYSCALL_TARGETS/syscallprog
for m in signals procs; do
	"$P" $m >"$E2E_TMP/plain.$m" 2>&1
	"$1" -qs program_semantics_kept.d -o "$E2E_TMP/dt.$m" -c "$P $m" >"$E2E_TMP/traced.$m" 2>&1
	cmp -s "$E2E_TMP/plain.$m" "$E2E_TMP/traced.$m" && echo "$m: same output traced" ||
		diff "$E2E_TMP/plain.$m" "$E2E_TMP/traced.$m"
	awk '{ n[$1] = $3 } END { if (n["entry"] > 20) print "entries fired"; d = n["entry"] - n["return"];
		print "entries less returns:", d }' "$E2E_TMP/dt.$m"
done
cat "$E2E_TMP/plain.signals" "$E2E_TMP/plain.procs"
