# `dtrace -n 'syscall:::entry /pid == $target/ { @[probefunc] = count(); }'
# -c 'ls -l /'` against `strace -f -k ls -l /` on the same command:
# strace's stacks tell the calls made from __libc_start_main on (main, the
# program's own constructors, exit) from the dynamic loader's and the
# libraries' constructors', which run before the agent traps anything.
# Over that part the names and counts must be the same; and every call
# the one-liner counted must be in it (nothing of the agent's counted).
if ! command -v strace >/dev/null; then
	echo "strace is not installed" >&2
	exit 77
fi
if ! strace -f -k -o "$E2E_TMP/raw" ls -l / >/dev/null 2>"$E2E_TMP/strace.err"; then
	echo "strace -k cannot run here: $(head -1 "$E2E_TMP/strace.err")" >&2
	exit 77
fi
awk '
	# (strace pads a pid of fewer than five digits: "3089  execve(")
	/^[0-9]+ +[a-z_0-9]+\(/ { flush(); split($2, a, "("); cur = a[1]; inmain = 0; next }
	/^ > / { if ($0 ~ /__libc_start_(call_)?main/) inmain = 1; next }
	# (strace prints the stack of exit_group after "+++ exited")
	function flush() { if (cur != "" && inmain) n[cur]++; cur = "" }
	END { flush(); for (s in n) print s, n[s] }
' "$E2E_TMP/raw" | sort >"$E2E_TMP/strace"
# (strace's own failure to unwind: its side would be empty)
if [ ! -s "$E2E_TMP/strace" ]; then
	echo "strace -k gave no stack reaching __libc_start_main this time" >&2
	exit 77
fi
"$1" -qs ls_matches_strace.d -o "$E2E_TMP/dt" -c 'ls -l /' >/dev/null || exit 1
awk '$1 == "main" { print $2, $3 }' "$E2E_TMP/dt" | sort >"$E2E_TMP/main"
awk '$1 == "all" { print $2, $3 }' "$E2E_TMP/dt" | sort >"$E2E_TMP/all"
if cmp -s "$E2E_TMP/strace" "$E2E_TMP/main"; then
	echo "strace and dtrace agree from __libc_start_main on"
else
	echo "strace and dtrace differ (strace, dtrace):"
	diff "$E2E_TMP/strace" "$E2E_TMP/main"
fi
if cmp -s "$E2E_TMP/main" "$E2E_TMP/all"; then
	echo "pid == \$target counted those calls and no others"
else
	echo "pid == \$target counted otherwise (window, all):"
	diff "$E2E_TMP/main" "$E2E_TMP/all"
fi
awk '{ n++; c += $2 } END { if (n > 10 && c > 100) print "more than 10 system calls, more than 100 calls" }' "$E2E_TMP/main"
