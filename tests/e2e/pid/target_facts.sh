# What the D variables and functions say at a pid probe: the target's
# strings, registers, names and caller.  $1 of the script: the uregs[] name
# of the first argument's register on the ISA under test (DT_E2E_ISA).
case ${DT_E2E_ISA:-x86_64} in
aarch64) reg=R_X0 ;;
riscv) reg=R_A0 ;;
*) reg=R_RDI ;;
esac
"$1" -qs target_facts.d -c "$DT_PID_TARGETS/pidtarget_fp greet dtrace-user" "$reg"
