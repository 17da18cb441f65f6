# The program calls add() three times and then execs another program (a
# second copy of itself that spins): its probes go with the old image,
# and dtrace says so, then waits for the new image to exit.
T=$DT_PID_TARGETS
cp "$T/pidtarget_fp" "$E2E_TMP/other"
printf '#!/bin/sh\nexec %s spin 300\n' "$E2E_TMP/other" >"$E2E_TMP/next"
chmod +x "$E2E_TMP/next"
"$1" -s exec_drops_probes.d -c "$T/pidtarget_fp exec 3 $E2E_TMP/next" 2>&1 | sed 's/pid [0-9]*/pid N/'
