# What the D variables and functions say at a pid probe: the target's
# strings, registers, names and caller.
"$1" -qs target_facts.d -c "$DT_PID_TARGETS/pidtarget_fp greet dtrace-user"
