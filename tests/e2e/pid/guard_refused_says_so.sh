# With address-space randomization off the agent cannot keep SIGTRAP
# unblocked (its seccomp filters could trap an exec'd image's calls, see
# port/linux/README.md): dtrace says so, and places the probes all the
# same.  vfork children still fire nothing as their parent (that needs no
# filter).
if ! command -v setarch >/dev/null || ! setarch -R true 2>/dev/null; then
	echo "setarch -R cannot run here" >&2
	exit 77
fi
setarch -R "$1" -qs guard_refused_says_so.d -c "$DT_PID_TARGETS/pidsignals vfork" 2>"$E2E_TMP/err"
echo "status $?"
sed 's/pid [0-9]*/pid N/' "$E2E_TMP/err"
