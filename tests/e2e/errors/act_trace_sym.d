/* sym() is an action: its address is recorded by sym() itself or as a key */
BEGIN
{
	trace(sym(arg0));
}
