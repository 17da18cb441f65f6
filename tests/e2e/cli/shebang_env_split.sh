# A script whose #! line runs dtrace through env -S, found in PATH.
PATH=$(dirname "$1"):$PATH
export PATH
cp shebang_env_split.d "$E2E_TMP/script.d"
chmod +x "$E2E_TMP/script.d"
"$E2E_TMP/script.d"
echo "status $?"
