# posix_spawn's child runs on the parent's memory (a vfork) until its
# exec, making calls the filters trap: they are made right, but they are
# the child's, so none fires as the parent's (no execve), while the
# parent's own calls (wait4) are counted.
"$1" -qs spawn_children_not_counted.d -o "$E2E_TMP/dt" -c "$DT_SYSCALL_TARGETS/syscallprog spawn" ||
	exit 1
grep -v '^$' "$E2E_TMP/dt"
