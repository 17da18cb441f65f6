# statusrate=3s: exit() at the first tick-1s is only seen at the next
# status read, 3 seconds after the first; the run takes well over 2.5s.
start=$(date +%s%N)
"$1" -s statusrate_paces_exit.d
echo "status $?"
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
if [ "$ms" -ge 2500 ]; then
	echo "ended after the status interval"
else
	echo "ended too early: $ms ms"
fi
