#pragma D option quiet
syscall::read:entry, syscall::read:return, 4
/pid != 0 && (arg0 > 1 || arg0 / 2 == 0) ^^ execname == "x"/
{
	x = (1, 2);
	y = x ? x > 1 ? 3 : 4 : 0 ? 5 : 6;
	z = (char)-1 + (unsigned char)300 + sizeof (int) * 2 + sizeof x + sizeof (char *);
	s = stringof(z);
	a = b = c = 1;
	a += 1; a -= 1; a *= 2; a /= 2; a %= 3; a &= 1; a |= 2; a ^= 3; a <<= 1; a >>= 1;
	@counts[execname, probefunc] = count();
	@dist = quantize(z);
	@[1] = lquantize(z, 0, 100, 10);
	if (a) if (b) trace(1); else trace(2);
	if (c) { trace(3); } else if (a) { trace(4); } else trace(5);
	printf("%d %s %d\n", y, s, -~!x);
	printa("%@d\n", @counts);
}
