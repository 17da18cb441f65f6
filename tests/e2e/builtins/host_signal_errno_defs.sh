# Every signal and errno number the host's C headers define (a number, or
# another such name) is a D constant of the same value, as DTrace's
# generated signal.d and errno.d make them; cpp lists the names.
defs=$(printf '#include <signal.h>\n#include <errno.h>\n' | cpp -dM 2>/dev/null) || {
	echo "cpp cannot read <signal.h> and <errno.h> on this host" >&2
	exit 77
}
printf '%s\n' "$defs" | awk '
	$1 == "#define" && $2 ~ /^(SIG|E)[A-Z0-9]+$/ && $2 != "SIGSTKSZ" && NF == 3 { v[$2] = $3 }
	END {
		print "BEGIN\n{\n\tnbad = 0;"
		for (n in v) {
			x = v[n]
			if (x !~ /^[0-9]+$/ && (x in v))
				x = v[x]
			if (x ~ /^[0-9]+$/)
				printf("\tnbad += %s != %s;\n", n, x)
		}
		print "}"
	}' >"$E2E_TMP/defs.d"
cat host_signal_errno_defs.d >>"$E2E_TMP/defs.d"
"$1" -s "$E2E_TMP/defs.d"
