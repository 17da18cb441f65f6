#pragma D option quiet

BEGIN
{
	setopt("nosuchoption");
	exit(0);
}
