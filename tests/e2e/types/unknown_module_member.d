/* A member the module's struct does not have is an error in DTrace's words. */
BEGIN
{
	trace(((struct ct_node *)0)->nosuch);
}
