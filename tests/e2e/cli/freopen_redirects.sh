# freopen() sends later output to a file, freopen("") restores the original.
"$1" -w -s freopen_redirects.d "$E2E_TMP/file"
echo "status $?"
echo "--- file:"
cat "$E2E_TMP/file"
