# -p PID: the process is grabbed and is $target.
sleep 30 &
victim=$!
"$1" -p $victim -s pid_flag_target.d $victim
echo "status $?"
kill $victim
