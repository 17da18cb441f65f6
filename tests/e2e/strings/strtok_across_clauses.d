/*
 * strtok(NULL, ...) goes on where the last call stopped in an earlier
 * clause of the same firing (DTrace keeps the position for the whole
 * firing, like a clause-local), here walking a clause-local string.
 */
#pragma D option quiet

BEGIN
{
	this->s = "red,green,,blue";
	printf("%s\n", strtok(this->s, ","));
}

BEGIN
{
	printf("%s\n", strtok(NULL, ","));
}

BEGIN
{
	printf("%s\n", strtok(NULL, ","));
}

BEGIN
/strtok(NULL, ",") == NULL/
{
	printf("end\n");
	exit(0);
}
