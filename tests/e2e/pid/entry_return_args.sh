"$1" -qs entry_return_args.d -c "$DT_PID_TARGETS/pidtarget_fp calls 3"
