# The notes of usdtprog hold every operand form (checked with readelf, so a
# compiler that chose others would be noticed), and each probe's arguments
# come out with the values and signs the program passed.
P=$DT_USDT_TARGETS/usdtprog
notes=$(readelf -n "$P")
for form in '@%r8w' '@%dl' '@%esi' '@$-7' '@-8(%rbp)' '@g_long(%rip)' '@8(%rdi,%rsi,8)'; do
	echo "$notes" | grep -qF -- "$form" && echo "form $form" || echo "no operand $form"
done
"$1" -qs stap_args_every_operand_form.d -c "$P args"
