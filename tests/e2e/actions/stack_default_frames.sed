s/^ *[0-9][0-9]* \( *[0-9][0-9]*  *:\)/  C \1/
s/+0x[0-9a-f]*$//
s/`0x[0-9a-f]*$/`ADDRESS/
# libc named from libc6-dbg, or not: either is the frame under main
s/^\( *libc.so.6`\)__libc_start_call_main$/\1ADDRESS/
/^ *dtrace`go$/d
