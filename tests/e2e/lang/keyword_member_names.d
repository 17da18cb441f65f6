/*
 * After -> and . (and in offsetof) a member may be named by one of the D
 * keywords DTrace takes there (its dtrace_keyword_ident): probe, provider,
 * self, string, stringof, xlate, translator.  Here they name clause-local
 * and thread-local variables.
 */
#pragma D option quiet

BEGIN
{
	this->probe = 10;
	this->provider = 20;
	self->self = 30;
	self->string = 40;
	this->stringof = 50;
	self->xlate = 60;
	this->translator = 70;
	printf("%d %d %d %d %d %d %d\n", this->probe, this->provider, self->self,
	    self->string, this->stringof, self->xlate, this->translator);
	exit(0);
}
