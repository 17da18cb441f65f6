/*
 * A string stored in a variable keeps strsize bytes, the last one not
 * needing to be a NUL (DTrace's dtrace_vcopy copies up to the variable's
 * size): a global, a thread-local, a clause-local and an associative array
 * element given a 10-character value with strsize=8 all hold and print 8
 * characters, strlen() counts 8, and a comparison looks at 8 bytes only;
 * strchr() and strstr(), which point into the string, end where it does.
 */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	g = "abcdefghij";
	self->t = "12345678";
	this->c = "ABCDEFGHIJ";
	arr[1] = "zyxwvutsrq";
	printf("%s %d\n", g, strlen(g));
	printf("%s %d\n", self->t, strlen(self->t));
	printf("%s %d\n", this->c, strlen(this->c));
	printf("%s %d\n", arr[1], strlen(arr[1]));
	printf("%d %d\n", g == "abcdefgh", g == "abcdefgX");
	printf("%s %s %s\n", strchr(g, 'h'), strstr(g, "gh"), strrchr(self->t, '7'));
	exit(0);
}
