/*
 * setopt()'s option name and value may be any string expressions: the
 * consumer applies what the records hold when it reads them, and reports
 * a name or value it refuses as DTrace does.
 */
#pragma D option quiet

BEGIN
{
	name = strjoin("aggsort", "rev");
	@a["a"] = count();
	@a["b"] = count();
	@a["b"] = count();
	setopt(name);
	self->opt = "bufsize";
	setopt(self->opt, strjoin("bo", "gus"));
	setopt(probename, "1");
	printf("after setopt\n");
	exit(0);
}
