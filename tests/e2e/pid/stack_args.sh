"$1" -qs stack_args.d -c "$DT_PID_TARGETS/pidtarget_fp eight"
