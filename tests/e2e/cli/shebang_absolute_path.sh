# A script whose #! line names the dtrace binary; arguments after the script
# name become $1, $2, ...
{
	echo "#!$1 -qs"
	cat shebang_absolute_path.d
} >"$E2E_TMP/script.d"
chmod +x "$E2E_TMP/script.d"
"$E2E_TMP/script.d" hello
echo "status $?"
