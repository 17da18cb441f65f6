/* an action is not refused as such by +: its void type is (D_OP_ACT is for , only) */
BEGIN
{
	x = printf("a") + 1;
}
