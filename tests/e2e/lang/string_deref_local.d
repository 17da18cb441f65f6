/*
 * A clause-local string that already has a type is indexed as any string
 * is (E1[E2] is *(E1 + E2)): only a this-> variable with no type yet would
 * become an associative array, which locals may not be.
 */
#pragma D option quiet

this string d;

BEGIN
{
	this->s = "hello";
	this->t = strjoin(this->s, "!");
	this->d = "xyz";
	printf("%c %c %c %d %c\n", this->s[0], this->s[4], this->t[5], this->s[5], this->d[2]);
	exit(0);
}
