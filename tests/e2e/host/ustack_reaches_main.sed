/ustackdepth/b
/dtrace`main+0x[0-9a-f]*$/!d
s/+0x[0-9a-f]*$//
s/^ *//
