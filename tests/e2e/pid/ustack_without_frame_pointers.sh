# pidtarget_nofp is built without frame pointers, and so is Debian's libc:
# the stack comes from .eh_frame and reaches main and libc's start.  (A libc
# without its static symbols, as the cross libc of a qemu build, names that
# frame by address: ADDRESS in ustack_without_frame_pointers.out.<isa>.)
"$1" -qs ustack_without_frame_pointers.d -c "$DT_PID_TARGETS/pidtarget_nofp nest 100000000" |
	sed 's/+0x[0-9a-f]*$//; s/^ *//; s/`0x[0-9a-f]*$/`ADDRESS/' | grep -v '^$' | head -5
