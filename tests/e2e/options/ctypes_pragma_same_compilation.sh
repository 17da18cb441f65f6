# #pragma D option ctypes= / dtypes= take effect in the compilation that
# names them: the files hold CTF (magic 0xdff2) when it ends, failed or not.
cd "$E2E_TMP" || exit 1
cp "$OLDPWD/ctypes_pragma_same_compilation.d" .
"$1" -q -s ctypes_pragma_same_compilation.d 2>/dev/null
echo "status $?"
od -An -tx1 -N2 ctypes_pragma.c.ctf
od -An -tx1 -N2 ctypes_pragma.d.ctf
