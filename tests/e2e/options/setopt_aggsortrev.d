#pragma D option quiet

BEGIN
{
	@a["a"] = count();
	@a["b"] = count();
	@a["b"] = count();
	setopt("aggsortrev");
	exit(0);
}
