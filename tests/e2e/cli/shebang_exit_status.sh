# exit(n) in a #! script is the script's exit status.
PATH=$(dirname "$1"):$PATH
export PATH
cp shebang_exit_status.d "$E2E_TMP/script.d"
chmod +x "$E2E_TMP/script.d"
"$E2E_TMP/script.d"
echo "status $?"
