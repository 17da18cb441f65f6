# Firings an agent must refuse (a profile probe's signal arrives while the
# thread is in another probe's context) are counted and reported as drops
# in the process, on standard error as DTrace reports drops, even under -q.
"$1" -wqs refused_firings_reported.d -c "$DT_PID_TARGETS/pidtarget_fp calls 50" \
	2>"$E2E_TMP/err" >/dev/null
echo "dtrace status $?"
sed -n 's/^dtrace: [1-9][0-9]* drops* in pid [0-9][0-9]* (probe firings with no probe context free)$/refused firings reported as drops/p' \
	"$E2E_TMP/err" | sort -u
grep -v ' drops* in pid ' "$E2E_TMP/err" || :  # nothing else
