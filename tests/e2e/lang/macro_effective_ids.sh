# $euid and $egid against the ids of the process running dtrace.
"$1" -Z -s macro_effective_ids.d "$(id -u)" "$(id -g)"
echo "status $?"
