/* DTrace's C module (the C intrinsic types) exists but has no symbols. */
BEGIN
{
	trace(C`uint32_t);
}
