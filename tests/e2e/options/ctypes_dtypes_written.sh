# -x ctypes and dtypes: the files get CTF (its magic 0xdff2 first) as the
# compilation ends; what they hold is read back in tests/userland/compile_ctftypes.c.
"$1" -q -x ctypes="$E2E_TMP/c.ctf" -x dtypes="$E2E_TMP/d.ctf" -s ctypes_dtypes_written.d
echo "status $?"
od -An -tx1 -N2 "$E2E_TMP/c.ctf"
od -An -tx1 -N2 "$E2E_TMP/d.ctf"
