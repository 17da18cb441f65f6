#!/usr/bin/awk -f
# fold-stacks.awk: DTrace's printed stack aggregations (@[ustack()] =
# count(), or stack()) as "folded" lines, root first, one per stack:
#   frame;frame;...;leaf COUNT
# the input of flame-graph tools (flamegraph.pl, inferno-flamegraph,
# speedscope).  Offsets (+0x..) are dropped so samples of one function
# fold together.
NF == 0 {
	if (n > 0) {
		s = f[n]
		for (i = n - 1; i >= 1; i--)
			s = s ";" f[i]
		print s, c
	}
	n = 0
	next
}
/^ *[0-9]+$/ { c = $1; next }
{
	sub(/^ +/, "")
	sub(/\+0x[0-9a-f]+$/, "")
	f[++n] = $0
}
END {
	if (n > 0) {
		s = f[n]
		for (i = n - 1; i >= 1; i--)
			s = s ";" f[i]
		print s, c
	}
}
