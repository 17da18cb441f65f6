# A program whose DOF is over 256 KB (60 clauses of four eight-argument
# printf()s, a DIFO for each argument, then large_program.d) is enabled:
# DTrace takes DOF up to its dtrace_dof_maxsize, 8 MB.
prog=$E2E_TMP/large_program.d
awk 'BEGIN {
	print "#pragma D option quiet";
	for (i = 0; i < 60; i++) {
		print "BEGIN\n{";
		for (j = 0; j < 4; j++)
			printf("\tx = %d; y = %d; printf(\"%%d %%d %%d %%d %%d %%d %%d %%d\\n\", x + y, x - y, x * y, x / y, x %% y, x << 1, x >> 1, x < y);\n", j + 8, j + 1);
		print "}";
	}
}' > "$prog"
cat large_program.d >> "$prog"
"$1" -s "$prog" > "$E2E_TMP/out"
status=$?
sort "$E2E_TMP/out" | uniq -c
exit $status
