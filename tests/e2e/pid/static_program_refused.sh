# A statically linked program has no dynamic linker to preload the agent:
# -c refuses it before it runs, saying why, and exits 1.
"$1" -s static_program_refused.d -c "$DT_PID_TARGETS/pidtarget_static calls 1" 2>&1 |
	sed "s|$DT_PID_TARGETS/||"
