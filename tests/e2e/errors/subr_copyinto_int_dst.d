int n;

BEGIN
{
	n = 1;
	copyinto(0, 8, n);
}
