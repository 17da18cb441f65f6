#pragma D option quiet

/*
 * %k with a width: right-justified, every frame is padded to the width;
 * left-justified, the width is the frames' indentation instead.  (The
 * filter marks lines exactly 40 wide and drops the frames' offsets.)
 */
BEGIN
{
	@[stack(2)] = count();
	printa("right:%40k|%@d\n", @);
	printa("left:%-12k|%@d\n", @);
	exit(0);
}
