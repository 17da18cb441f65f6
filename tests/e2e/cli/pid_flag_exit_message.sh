# -p PID: when the grabbed process exits, dtrace says so and ends.
sleep 0.5 &
victim=$!
"$1" -p $victim -s pid_flag_exit_message.d 2>"$E2E_TMP/err" |
	sed 's/^ *[0-9][0-9]* \( *[0-9][0-9]*  *:\)/  C \1/'
sed "s/pid $victim /pid N /" "$E2E_TMP/err" >&2
