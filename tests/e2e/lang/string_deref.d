/*
 * A string is an array of char, as DTrace types it: *s is its first char
 * and s[i] its i-th (here after a string's end, its terminating 0).
 */
#pragma D option quiet

BEGIN
{
	s = "xyz";
	self->t = strjoin("he", "llo");
	printf("%d %d %c %c %c %c\n", *"abc", "abc"[1], *s, s[2], self->t[4], *(s + 1));
	printf("%d %d %d\n", s[3], sizeof (*s), *probename == 'B');
	trace(*"A");
	printf("\n");
	exit(0);
}
