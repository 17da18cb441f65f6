# dtrace runs as this shell's child: the shell's parent is its grandparent;
# a background sleep is its sibling.
sleep 30 &
sibling=$!
"$1" -s progenyof_ancestors.d "$PPID" "$sibling"
rc=$?
kill "$sibling"
exit $rc
