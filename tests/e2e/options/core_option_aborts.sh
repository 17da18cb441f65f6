# -x core: the process aborts as it exits, to leave a core of libdtrace
# (kept out of the source tree, and limited to nothing here).
d=$PWD
cd "$E2E_TMP" || exit 1
ulimit -c 0
"$1" -q -x core -s "$d/core_option_aborts.d" 2>"$E2E_TMP/err"
s=$?
# (the shell may add its own "Aborted" to that file)
grep "^libdtrace" "$E2E_TMP/err"
echo "status $s"
