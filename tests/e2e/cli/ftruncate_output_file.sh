# ftruncate() empties the -o file; what follows stays.
"$1" -o "$E2E_TMP/file" -s ftruncate_output_file.d
echo "status $?"
cat "$E2E_TMP/file"
