# dtrace -lv: the argument types of two probes, from their descriptors
# (-8@%rdi -4@%esi 1@%dl -1@%cl -2@%r8w and -8@ -4@ 2@ on the stack).
"$1" -lv -s stap_args_typed_by_size.d -c "$DT_USDT_TARGETS/usdtprog args" |
	sed -n 's/^ *[0-9]* *usdtprog[0-9]* *\(.*\)/\1/p; /Argument Types/,/^$/p'
