# dtrace -G refuses, in DTrace's words: a call to a probe the provider
# does not define, a call to a provider that is not defined, objects with
# no probe site, a file that is not an object; -G with -h.  Nothing is
# written when it refuses.
cd "$E2E_TMP" || exit 1
D=$(cd - >/dev/null && pwd)/dtrace_G_errors.d
printf 'extern void __dtrace_usdtg___nosuch(int);\nvoid f(int x) { __dtrace_usdtg___nosuch(x); }\n' >a.c
printf 'extern void __dtrace_other___start(int);\nvoid g(int x) { __dtrace_other___start(x); }\n' >b.c
printf 'int h(int x) { return x; }\n' >c.c
for f in a b c; do cc -O2 -c $f.c -o $f.o || exit 1; done
for o in a.o b.o c.o a.c; do
	"$1" -G -s "$D" -o out.o $o 2>&1 | sed "s|$D|dtrace_G_errors.d|"
	[ -e out.o ] && echo "out.o written" && rm -f out.o
done
"$1" -G -h -s "$D" 2>&1
echo "status $?"
