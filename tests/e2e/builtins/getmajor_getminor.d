#pragma D option quiet

/*
 * getmajor() and getminor() split a device number as the kernel encodes its
 * dev_t; on the Linux host that is the dev_t of stat(2), glibc's major() and
 * minor(): 0x801 is sda1 (8, 1), and the high bits carry more of each.
 */
BEGIN
{
	printf("%d %d\n", getmajor(0x801), getminor(0x801));
	printf("%d %d\n", getmajor(0x0000012300456789), getminor(0x0000012300456789));
	printf("%d %d\n", sizeof (getmajor(0)), sizeof (getminor(0)));
	exit(0);
}
