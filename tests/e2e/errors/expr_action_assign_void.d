/* a new variable takes printf()'s void type, and void is assignable to nothing */
BEGIN
{
	x = printf("");
}
