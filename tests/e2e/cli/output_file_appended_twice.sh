# -o appends: two runs leave two outputs in the file.
"$1" -q -o "$E2E_TMP/log" -s output_file_appended_twice.d
"$1" -q -o "$E2E_TMP/log" -s output_file_appended_twice.d
cat "$E2E_TMP/log"
