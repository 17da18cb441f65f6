# entered's second instruction is the target of a jump from enter_mid (as
# glibc's mempcpy enters memmove): no jump may replace entered's first
# bytes, so its probe stays a breakpoint, and both count every call -- also
# when that jmp itself carries a breakpoint (enter_mid:5) by the time the
# text is scanned.
. ./text_lib.sh
jump_tests_only
"$1" -qs jump_refused_where_entered.d -c "$DT_PID_TARGETS/pidjump entered 1000" 2>"$E2E_TMP/err"
echo "status $?"
cat "$E2E_TMP/err"
