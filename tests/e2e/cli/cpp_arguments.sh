# How cpp is run: the names DTrace defines for D come first (a -D, never
# -undef), then -D given to dtrace, before the D version.  A stand-in
# cpp records its arguments and hands them on to the real one.
command -v cpp >/dev/null || { echo "no cpp on this host" >&2; exit 77; }
cat > "$E2E_TMP/cpp" <<'CPP'
#!/bin/sh
for a in "$@"; do echo "$a"; done > "$(dirname "$0")/args"
exec cpp "$@"
CPP
chmod +x "$E2E_TMP/cpp"
"$1" -C -x cpppath="$E2E_TMP/cpp" -D FROM_DTRACE=1 -qs cpp_arguments.d
echo "status $?"
head -1 "$E2E_TMP/args"
grep -c -e '^-undef$' "$E2E_TMP/args"
grep -n -e '^-DFROM_DTRACE=1$' -e '^-D__SUNW_D_VERSION=' "$E2E_TMP/args" | sed 's/^[0-9]*://'
