# dtrace -p, fifteen times, on a program that spends its time in malloc
# and free: the grab never makes the thread call dlopen() from inside the C
# library's allocator (its locks and per-thread cache would meet
# themselves), so every grab works and every program runs on to exit 0,
# its blocks intact.
T=$DT_PID_TARGETS
ok=0
for i in $(seq 15); do
	"$T/pidloop" "$E2E_TMP/info.$i" alloc &
	pid=$!
	# in its loop: the file is written just before it
	for w in $(seq 200); do [ -s "$E2E_TMP/info.$i" ] && break; sleep 0.01; done
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
echo "$ok of 15 grabs of a program busy in malloc worked"
