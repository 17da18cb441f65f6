/* a probe id that names no probe is refused even with -Z */
123456789
{
	exit(0);
}
