# /usr/bin/python3.11 by its full name (PATH may find another python).
# Python 3.11 reaches its function-entry probe on the path it takes while
# a profile or trace function is set (as bpftrace's usdt: sees the same),
# so the script sets a profile function that does nothing.
PY=/usr/bin/python3.11
if [ ! -x "$PY" ]; then
	echo "Debian's python3.11 is not installed ($PY)" >&2
	exit 77
fi
cat >"$E2E_TMP/work.py" <<'PYEOF'
import sys

def square(n):
    return n * n

def key(n):
    return -n

def walk(n):
    return sum(square(i) for i in range(n))

sys.setprofile(lambda *a: None)
total = 0
for i in range(50):
    total += square(i)
order = sorted(range(30), key=key)
walk(7)
sys.setprofile(None)
PYEOF
"$1" -qs python_function_entry.d -c "$PY $E2E_TMP/work.py" | sort
