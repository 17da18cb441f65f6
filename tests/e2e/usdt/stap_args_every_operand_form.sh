# The notes of usdtprog hold every operand form the ISA's compiler writes
# (checked with readelf, so a compiler that chose others would be noticed),
# and each probe's arguments come out with the values and signs the
# program passed.
P=$DT_USDT_TARGETS/usdtprog
case ${DT_E2E_ISA:-x86_64} in
x86_64) forms='@%r8w
@%dl
@%esi
@$-7
@-8(%rbp)
@g_long(%rip)
@8(%rdi,%rsi,8)' ;;
aarch64) forms='@x0
@[sp, 8]
@-7
@[x0]
@[x0, 8]' ;;
riscv) forms='-8@a0
1@a2
-2@a4
-4@-7
-8@-24(s0)
2@-30(s0)
-8@0(a5)
-8@8(a0)' ;;
*)
	echo "this test lists no operand forms for ${DT_E2E_ISA}" >&2
	exit 77 ;;
esac
notes=$(readelf -n "$P")
echo "$forms" | while IFS= read -r form; do
	echo "$notes" | grep -qF -- "$form" && echo "form $form" || echo "no operand $form"
done
"$1" -qs stap_args_every_operand_form.d -c "$P args"
