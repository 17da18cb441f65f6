/* a stack is no void key, but it has no value outside an action */
BEGIN
{
	a[stack()] = 1;
}
