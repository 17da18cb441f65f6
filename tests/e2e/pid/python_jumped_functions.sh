# Debian's python3.11 with an entry probe on each of its PyObject_*
# functions (on x86_64 jump-patched where their first instructions allow
# it, 52 of 73 when this was written; the rest breakpoints): the
# interpreter computes the same answer as untraced, every probe fires, and
# nothing is dropped.
PY=/usr/bin/python3.11
if [ ! -x "$PY" ]; then
	echo "Debian's python3.11 is not installed ($PY)" >&2
	exit 77
fi
cat >"$E2E_TMP/work.py" <<'PYEOF'
class P:
    def __init__(self, v):
        self.v = v
    def __repr__(self):
        return "P(%d)" % self.v
d = {}
for i in range(20000):
    d[str(i)] = P(i * i)
print(sum(p.v for p in d.values()), repr(d["77"]), len(d))
PYEOF
"$PY" "$E2E_TMP/work.py"
"$1" -qs python_jumped_functions.d -c "$PY $E2E_TMP/work.py" 2>"$E2E_TMP/err"
echo "status $?"
cat "$E2E_TMP/err"
