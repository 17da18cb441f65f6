/* sym() gives a _symaddr, a typedef of void: no arithmetic on it */
BEGIN
{
	x = sym(arg0) + 1;
}
