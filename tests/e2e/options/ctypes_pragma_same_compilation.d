/*
 * The pragmas open the type files while this compilation runs; DTrace
 * writes its type containers as the compilation ends, even one that
 * fails, as this one does (the clause below has a syntax error).
 */
#pragma D option ctypes=ctypes_pragma.c.ctf
#pragma D option dtypes=ctypes_pragma.d.ctf

struct point {
	int x;
	int y;
};

BEGIN
{
	trace(;
}
