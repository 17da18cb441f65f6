# Every function of libc at once, with and without jumps: the agent's own
# calls into libc (probe context reads the clock, the held program waits
# for GO) neither fire as the program's nor count as drops, and a
# breakpoint on __errno_location does not make the signal handlers trap
# inside themselves without end (they reach errno without calling it).
for jump in 1 0; do
	DTRACE_PID_JUMP=$jump "$1" -qs libc_every_function.d -c "$DT_PID_TARGETS/pidthreads 4 1000" \
		2>"$E2E_TMP/err"
	echo "jumps $jump: status $?"
	cat "$E2E_TMP/err"
done
