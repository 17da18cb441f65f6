# What the program printed, then what dtrace saw of its calls.
"$1" -qs args_return_errno.d -o "$E2E_TMP/dt" -c "$DT_SYSCALL_TARGETS/syscallprog args" || exit 1
cat "$E2E_TMP/dt"
