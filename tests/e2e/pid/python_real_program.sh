# Debian's python3.11, a real program built without frame pointers: a pid
# probe on one of its functions fires, and profile stacks of its threads
# unwind (CFI) from the interpreter loop to main and libc's start.
PY=/usr/bin/python3.11
if [ ! -x "$PY" ]; then
	echo "Debian's python3.11 is not installed ($PY)" >&2
	exit 77
fi
cat >"$E2E_TMP/work.py" <<'PYEOF'
def f(n):
    return sum(i * i for i in range(n))
for _ in range(60):
    f(100000)
PYEOF
"$1" -qs python_real_program.d -c "$PY $E2E_TMP/work.py" >"$E2E_TMP/out" || exit 1
awk '$1 == "PyEval_EvalCode" && $2 > 0 { print "PyEval_EvalCode fired" }' "$E2E_TMP/out"
for fn in _PyEval_EvalFrameDefault Py_BytesMain __libc_start_call_main; do
	grep -q "\`$fn+" "$E2E_TMP/out" && echo "a stack reaches $fn" || echo "no stack reaches $fn"
done
