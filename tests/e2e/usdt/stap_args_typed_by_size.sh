# dtrace -lv: the argument types of two probes, from their descriptors
# (-8@%rdi -4@%esi 1@%dl -1@%cl -2@%r8w and -8@ -4@ 2@ on the stack; on
# riscv64 -8@a0 -4@a1 1@a2 -1@a3 -2@a4 and -8@ -4@ 2@ at s0: the same sizes).
case ${DT_E2E_ISA:-x86_64} in
x86_64 | riscv) ;;
*)
	echo "its descriptors were checked on x86_64 and riscv64 only, not yet on ${DT_E2E_ISA}" >&2
	exit 77
	;;
esac
"$1" -lv -s stap_args_typed_by_size.d -c "$DT_USDT_TARGETS/usdtprog args" |
	sed -n 's/^ *[0-9]* *usdtprog[0-9]* *\(.*\)/\1/p; /Argument Types/,/^$/p'
