# ucaller and ustack() name greet's caller at greet:entry and greet:return
# in pidtarget_fp (frame pointers; riscv64 gcc 12 gives it no .eh_frame
# for greet, so the walk cannot rely on call-frame information).
"$1" -qs caller_at_entry_and_return.d -c "$DT_PID_TARGETS/pidtarget_fp greet dtrace-user" |
	sed 's/+0x[0-9a-f]*//'
