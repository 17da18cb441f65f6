# The child of a fork inherits the patched text: the agent mends it, so
# the child runs add() untraced and exits 0, and pidfork exits 0.
"$1" -s fork_child_survives.d -c "$DT_PID_TARGETS/pidfork" 2>&1 | sed 's/pid [0-9]*/pid N/'
