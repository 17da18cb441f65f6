# dtrace -lv: the argument types of two probes, from their descriptors'
# sizes and signs (x86_64: -8@%rdi -4@%esi 1@%dl -1@%cl -2@%r8w, aarch64:
# -8@x0 -4@x1 1@x2 -1@x3 -2@x4, riscv64: -8@a0 -4@a1 1@a2 -1@a3 -2@a4; then
# -8@ -4@ 2@ on the stack).
"$1" -lv -s stap_args_typed_by_size.d -c "$DT_USDT_TARGETS/usdtprog args" |
	sed -n 's/^ *[0-9]* *usdtprog[0-9]* *\(.*\)/\1/p; /Argument Types/,/^$/p'
