# dtrace -p on a program exec'd a moment before, fifteen times: the grab
# waits for the thread to be out of the dynamic linker (still relocating,
# its C library perhaps not there yet) before making it call dlopen, so
# every grab works and every program runs on to exit 0.
T=$DT_PID_TARGETS
ok=0
for i in $(seq 15); do
	"$T/pidloop" "$E2E_TMP/info.$i" &
	pid=$!
	# grab the program, not the shell's child before its exec
	while [ "$(readlink /proc/$pid/exe 2>/dev/null)" != "$T/pidloop" ] &&
		kill -0 "$pid" 2>/dev/null; do :; done
	out=$("$1" -qs grab_restores_text.d -p "$pid" 2>&1)
	rc=$?
	# (a consumer's randomly placed memory can collide with the program's
	# mappings, refused cleanly; the next dtrace picks another place)
	case $out in *"could not map the consumer's memory: File exists"*)
		out=$("$1" -qs grab_restores_text.d -p "$pid" 2>&1)
		rc=$? ;;
	esac
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	prc=$?
	if [ "$rc" -eq 0 ] && [ "$out" = "five calls seen" ] && [ "$prc" -eq 0 ]; then
		ok=$((ok + 1))
	else
		echo "run $i: dtrace status $rc ($out), program status $prc"
	fi
done
echo "$ok of 15 grabs right after the start worked"
