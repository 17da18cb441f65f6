# statusrate=2s: exit() at the first 10ms tick is only seen at the next
# status read, 2 seconds after the first; the run takes at least that long.
start=$(date +%s%N)
"$1" -s statusrate_paces_exit.d
echo "status $?"
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
if [ "$ms" -ge 1800 ]; then
	echo "ended after the status interval"
else
	echo "ended too early: $ms ms"
fi
