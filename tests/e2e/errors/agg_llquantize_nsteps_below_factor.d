/*
 * Fewer steps per magnitude than the factor (5 divides 10, but the kernel
 * needs at least one step per factor): DTrace's compiler refuses it, as the
 * kernel would refuse to enable it.
 */
BEGIN
{
	@l = llquantize(5, 10, 0, 6, 5);
}
