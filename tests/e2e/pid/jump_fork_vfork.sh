# A forked child's copy of a jumped function is mended (original bytes)
# and runs; vfork children call it on their parent's memory, through the
# jump, and fire nothing as their parent: 1000 calls are all that count.
case ${DT_E2E_ISA:-$(uname -m)} in
x86_64) ;;
*) echo "jump-patched probes are x86_64's only so far (isa/<isa>/jump.c)" >&2; exit 77 ;;
esac
"$1" -qs jump_fork_vfork.d -c "$DT_PID_TARGETS/pidjump fork 1000" 2>"$E2E_TMP/err"
echo "status $?"
cat "$E2E_TMP/err"
