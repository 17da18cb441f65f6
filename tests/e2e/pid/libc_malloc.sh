"$1" -qs libc_malloc.d -c "$DT_PID_TARGETS/pidtarget_fp malloc 7"
