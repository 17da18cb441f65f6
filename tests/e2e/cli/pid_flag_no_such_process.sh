# -p with a process that does not exist.
sh -c 'exit 0' &
gone=$!
wait $gone
"$1" -p $gone -s pid_flag_no_such_process.d 2>&1 | sed "s/$gone/N/g"
echo "status $?"
