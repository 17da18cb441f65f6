# Without -q, the #! script reports what it matched under its own path.
PATH=$(dirname "$1"):$PATH
export PATH
cd "$E2E_TMP" || exit 1
cp "$OLDPWD/shebang_matched_message.d" ./x.d
chmod +x x.d
./x.d >out
echo "status $?"
